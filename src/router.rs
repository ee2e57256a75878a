//! A small router: the path (below the site's base) as a signal, links that
//! navigate without reloading, and the back button. Two kinds of route only,
//! `/` and `/:section/:demo`, so a general-purpose router would only add
//! weight (measured: leptos_router and the async machinery it brings were a
//! large share of the wasm).

use crate::platform::base_path;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Where the learner is: the path below the base, and the query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub path: String,
    pub query: Vec<(String, String)>,
}

impl Location {
    /// The first value of a query parameter.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// `/nic/napi` → `["nic", "napi"]`.
    pub fn segments(&self) -> Vec<&str> {
        self.path.split('/').filter(|s| !s.is_empty()).collect()
    }
}

fn decode(text: &str) -> String {
    let spaced = text.replace('+', " ");
    js_sys::decode_uri_component(&spaced)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or(spaced)
}

/// The browser's current location.
pub fn current() -> Location {
    let Some(loc) = web_sys::window().map(|w| w.location()) else {
        return Location {
            path: "/".into(),
            query: Vec::new(),
        };
    };
    let base = base_path();
    let full = loc.pathname().unwrap_or_default();
    let path = full.strip_prefix(&base).unwrap_or(&full);
    let path = if path.is_empty() { "/" } else { path }.to_string();
    let search = loc.search().unwrap_or_default();
    let query = search
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(k), decode(v))
        })
        .collect();
    Location { path, query }
}

/// Starts routing: the current location as a signal that follows link clicks
/// inside the site and the browser's back and forward buttons.
pub fn install() -> RwSignal<Location> {
    let location = RwSignal::new(current());
    let pop = window_event_listener(leptos::ev::popstate, move |_| location.set(current()));
    let click = window_event_listener(leptos::ev::click, move |e: web_sys::MouseEvent| {
        if e.default_prevented()
            || e.button() != 0
            || e.ctrl_key()
            || e.meta_key()
            || e.shift_key()
            || e.alt_key()
        {
            return;
        }
        let Some(anchor) = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest("a[href]").ok().flatten())
        else {
            return;
        };
        if anchor.has_attribute("target")
            || anchor.has_attribute("download")
            || anchor.get_attribute("rel").as_deref() == Some("external")
        {
            return;
        }
        let Some(window) = web_sys::window() else {
            return;
        };
        let href = js_sys::Reflect::get(anchor.as_ref(), &"href".into())
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default();
        let origin = window.location().origin().unwrap_or_default();
        let base = base_path();
        let inside = href
            .strip_prefix(&origin)
            .is_some_and(|rest| rest.starts_with(&format!("{base}/")) || rest == base);
        if !inside {
            return;
        }
        e.prevent_default();
        if let Ok(history) = window.history() {
            let _ = history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&href));
        }
        window.scroll_to_with_x_and_y(0.0, 0.0);
        location.set(current());
    });
    on_cleanup(move || {
        pop.remove();
        click.remove();
    });
    location
}
