//! A small router: the path below the site's base and the query, links
//! that navigate without reloading, and the back button. Two kinds of route only,
//! `/` and `/:section/:demo`, so a general-purpose router would only add
//! weight (measured: leptos_router and the async machinery it brings were a
//! large share of the wasm).

use crate::platform::{base_path, pages_are_files};
use wasm_bindgen::prelude::{Closure, JsValue};
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

/// The one spelling of a path: a single slash before each segment, none at
/// the end (`//nic//napi/` → `/nic/napi`, `` → `/`). Repeated slashes are
/// not kept because a path that starts with two of them is, as a link, a
/// protocol-relative URL naming another host.
///
/// A page's file name is the same page: `/index.html` is the catalogue and
/// `/nic/napi.html` the NAPI demo (a static host serves each demo's own
/// document under that name, and people type it).
pub fn canonical(path: &str) -> String {
    let mut segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    if let Some(last) = segments.pop() {
        match last.strip_suffix(".html") {
            Some("index") => {}
            Some(name) if !name.is_empty() => segments.push(name),
            _ => segments.push(last),
        }
    }
    if segments.is_empty() {
        "/".into()
    } else {
        format!("/{}", segments.join("/"))
    }
}

/// A page's path as its address shows it: the [`canonical`] path, or, where
/// the pages are files (`platform::pages_are_files`), the file's name.
pub fn address(path: &str, files: bool) -> String {
    match (files, path) {
        (false, _) => path.to_string(),
        (true, "/") => "/index.html".into(),
        (true, _) => format!("{path}.html"),
    }
}

/// A link to the page at `path` under the site's base path `base`.
pub fn link(base: &str, path: &str) -> String {
    format!("{base}{}", address(path, pages_are_files()))
}

/// The browser's current location, its path in [`canonical`] form (the
/// address bar is corrected to [`address`]'s spelling of it, without a new
/// history entry).
pub fn current() -> Location {
    let Some(loc) = web_sys::window().map(|w| w.location()) else {
        return Location {
            path: "/".into(),
            query: Vec::new(),
        };
    };
    let base = base_path();
    let full = loc.pathname().unwrap_or_default();
    let raw = full.strip_prefix(&base).unwrap_or(&full);
    let path = canonical(raw);
    let shown = address(&path, pages_are_files());
    let search = loc.search().unwrap_or_default();
    if shown != raw && !(raw.is_empty() && shown == "/") {
        // `//nic/napi` or `/nic/napi/`: show the one address of that page, so
        // nothing later (a link, the crash panel, a copied address) starts
        // from a path that a browser would read as another host.
        let hash = loc.hash().unwrap_or_default();
        if let Ok(history) = web_sys::window().map_or(Err(JsValue::NULL), |w| w.history()) {
            let _ = history.replace_state_with_url(
                &JsValue::NULL,
                "",
                Some(&format!("{base}{shown}{search}{hash}")),
            );
        }
    }
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

/// Routing: calls `go` with the new location after a link click inside the
/// site (which it turns into a history entry instead of a page load) and
/// after the browser's back and forward buttons. Lives as long as the page.
pub fn listen(go: impl Fn(Location) + 'static) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let go = std::rc::Rc::new(go);
    let on_pop = {
        let go = go.clone();
        Closure::<dyn FnMut(web_sys::Event)>::new(move |_| go(current()))
    };
    let on_click = Closure::<dyn FnMut(web_sys::MouseEvent)>::new(move |e: web_sys::MouseEvent| {
        if let Some(target) = in_page_target(&e) {
            // `#main` under `<base href="/">` would be `/#main`, another
            // page: the skip link instead moves focus, and nothing else.
            e.prevent_default();
            if let Some(el) = target.dyn_ref::<web_sys::HtmlElement>() {
                let _ = el.focus();
            }
            return;
        }
        if let Some(href) = inside_link(&e) {
            e.prevent_default();
            if let Some(window) = web_sys::window() {
                if let Ok(history) = window.history() {
                    let _ = history.push_state_with_url(&JsValue::NULL, "", Some(&href));
                }
                window.scroll_to_with_x_and_y(0.0, 0.0);
            }
            go(current());
        }
    });
    let _ = window.add_event_listener_with_callback("popstate", on_pop.as_ref().unchecked_ref());
    let _ = window.add_event_listener_with_callback("click", on_click.as_ref().unchecked_ref());
    // The page's lifetime: the listeners are never removed.
    on_pop.forget();
    on_click.forget();
}

/// The element a link to a place on this page (`href="#id"`) names.
fn in_page_target(e: &web_sys::MouseEvent) -> Option<web_sys::Element> {
    let anchor = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|el| el.closest("a[href^='#']").ok().flatten())?;
    let id = anchor.get_attribute("href")?;
    let id = id.strip_prefix('#').filter(|id| !id.is_empty())?;
    anchor.owner_document()?.get_element_by_id(id)
}

/// The address of the link a plain left click went to, when that link is a
/// page of this site that the app shows itself.
fn inside_link(e: &web_sys::MouseEvent) -> Option<String> {
    if e.default_prevented()
        || e.button() != 0
        || e.ctrl_key()
        || e.meta_key()
        || e.shift_key()
        || e.alt_key()
    {
        return None;
    }
    let anchor = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|el| el.closest("a[href]").ok().flatten())?;
    if anchor.has_attribute("target")
        || anchor.has_attribute("download")
        || anchor.get_attribute("rel").as_deref() == Some("external")
    {
        return None;
    }
    let window = web_sys::window()?;
    // An HTML link's `href` is the resolved address; an SVG link's is an
    // object (SVGAnimatedString): its attribute is resolved here instead.
    let href = js_sys::Reflect::get(anchor.as_ref(), &"href".into())
        .ok()
        .and_then(|v| v.as_string())
        .or_else(|| {
            let raw = anchor.get_attribute("href")?;
            let base = anchor.base_uri().ok().flatten()?;
            web_sys::Url::new_with_base(&raw, &base)
                .ok()
                .map(|url| url.href())
        })?;
    let origin = window.location().origin().ok()?;
    let base = base_path();
    let rest = href.strip_prefix(&origin)?;
    (rest.starts_with(&format!("{base}/")) || rest == base).then_some(href)
}

#[cfg(test)]
mod tests {
    use super::{address, canonical};

    #[test]
    fn a_path_has_one_spelling_and_never_starts_with_two_slashes() {
        for (raw, want) in [
            ("", "/"),
            ("/", "/"),
            ("//", "/"),
            ("/nic/napi", "/nic/napi"),
            ("//nic/napi", "/nic/napi"),
            ("///nic//napi/", "/nic/napi"),
            ("/nic/napi/", "/nic/napi"),
            ("/index.html", "/"),
            ("/nic/napi.html", "/nic/napi"),
            ("//nic/napi.html/", "/nic/napi"),
            ("/nic/index.html", "/nic"),
            ("/.html", "/.html"),
        ] {
            assert_eq!(canonical(raw), want, "{raw:?}");
            assert!(!canonical(raw).starts_with("//"));
        }
    }

    #[test]
    fn where_pages_are_files_an_address_names_the_file() {
        for (path, files, want) in [
            ("/", false, "/"),
            ("/nic/napi", false, "/nic/napi"),
            ("/", true, "/index.html"),
            ("/nic/napi", true, "/nic/napi.html"),
            ("/nope/x/y", true, "/nope/x/y.html"),
        ] {
            assert_eq!(address(path, files), want);
            // And the file's name reads back as the same page.
            assert_eq!(canonical(&address(path, files)), path);
        }
    }
}
