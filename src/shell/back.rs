//! Links from one demo to another that keep the way back. The journey opens
//! a stage's demo with `from=/journey&from_s=<the journey's state>` added,
//! and that demo offers "Back to the journey" at that state; a stage's demo
//! opened any other way links to the journey's start.

use crate::app::Route;
use crate::catalogue::Demo;
use crate::router::{self, Location};
use demos::scenario::{MAX_ENCODED_LEN, MAX_LOOK_LEN};

/// The query names of the page a demo was opened from, and of its state.
const FROM: &str = "from";
const FROM_STATE: &str = "from_s";

/// The address, below the site's base `base`, of an in-lab link `to` (a
/// path from the site's root and its query, `/nic/napi?s=v1.…`) followed
/// from the page at `here` whose share-link value is `state`.
pub fn onward(base: &str, to: &str, here: &str, state: &str) -> String {
    let (path, query) = to.split_once('?').unwrap_or((to, ""));
    let mut href = router::link(base, &router::canonical(path));
    href.push('?');
    if !query.is_empty() {
        href.push_str(query);
        href.push('&');
    }
    href.push_str(FROM);
    href.push('=');
    href.push_str(here);
    if is_state(state) && !state.is_empty() {
        href.push('&');
        href.push_str(FROM_STATE);
        href.push('=');
        href.push_str(state);
    }
    href
}

/// The page a demo was opened from: a demo of the lab, and its state if
/// the link carried one that can be a share-link value.
#[derive(Clone)]
pub struct Back {
    pub demo: &'static Demo,
    pub state: Option<String>,
}

impl Back {
    /// Where the learner came from, if the address says so and names a demo
    /// of the lab; anything else in `from` or `from_s` is ignored, so a
    /// link cannot lead off the site or carry more than a state.
    pub fn of(here: &Location) -> Option<Back> {
        let from = Location {
            path: router::canonical(here.param(FROM)?),
            query: Vec::new(),
        };
        let Route::Demo { demo, .. } = Route::of(&from) else {
            return None;
        };
        let state = here
            .param(FROM_STATE)
            .filter(|s| !s.is_empty() && is_state(s))
            .map(str::to_string);
        Some(Back { demo, state })
    }

    /// The way back, below `base`.
    pub fn href(&self, base: &str) -> String {
        let page = router::link(base, &self.demo.path());
        match &self.state {
            Some(state) => format!("{page}?s={state}"),
            None => page,
        }
    }
}

/// Whether `text` can be a share-link value: `v1.`, URL-safe base64 and an
/// optional look, no longer than the decoder reads. Nothing else is put in
/// a link.
fn is_state(text: &str) -> bool {
    text.len() <= MAX_ENCODED_LEN + 1 + MAX_LOOK_LEN
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(query: &[(&str, &str)]) -> Location {
        Location {
            path: "/nic/napi".into(),
            query: query
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    #[test]
    fn a_link_onward_carries_the_way_back() {
        assert_eq!(
            onward("", "/nic/napi?s=v1.AA", "/journey", "v1.BB.CC"),
            "/nic/napi?s=v1.AA&from=/journey&from_s=v1.BB.CC"
        );
        assert_eq!(
            onward("/lab", "/nic/napi", "/journey", ""),
            "/lab/nic/napi?from=/journey"
        );
        // A state that cannot be one is left out.
        assert_eq!(
            onward("", "/nic/napi", "/journey", "v1.<b>"),
            "/nic/napi?from=/journey"
        );
    }

    #[test]
    fn the_way_back_names_a_demo_of_the_lab_or_nothing() {
        let back = Back::of(&at(&[("from", "/journey"), ("from_s", "v1.AbC-_9.x")])).unwrap();
        assert_eq!(back.demo.slug, "journey");
        assert_eq!(back.href("/lab"), "/lab/journey?s=v1.AbC-_9.x");
        let plain = Back::of(&at(&[("from", "/cpu/tlb")])).unwrap();
        assert_eq!(plain.href(""), "/cpu/tlb");
        for from in [
            "https://evil.example/",
            "//evil.example/x",
            "/nope",
            "/",
            "javascript:alert(1)",
        ] {
            assert!(Back::of(&at(&[("from", from)])).is_none(), "{from}");
        }
        for state in ["v1.a b", "v1.\"x", "v1.&s=1", "v1./x"] {
            let back = Back::of(&at(&[("from", "/journey"), ("from_s", state)])).unwrap();
            assert!(back.state.is_none(), "{state}");
        }
        let long = "a".repeat(MAX_ENCODED_LEN + MAX_LOOK_LEN + 2);
        let back = Back::of(&at(&[("from", "/journey"), ("from_s", &long)])).unwrap();
        assert!(back.state.is_none());
        assert!(Back::of(&at(&[])).is_none());
    }
}
