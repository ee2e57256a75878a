//! The few places the app touches the browser directly.

use wasm_bindgen::prelude::{Closure, JsValue};
use wasm_bindgen::JsCast;

fn document() -> Option<web_sys::Document> {
    web_sys::window()?.document()
}

/// The path the site is hosted under, without a trailing slash: `""` at a
/// domain's root, `"/labs/stack"` under a sub-path. Trunk writes it into
/// `<base href>` from `--public-url`.
pub fn base_path() -> String {
    let base = document()
        .and_then(|d| d.base_uri().ok().flatten())
        .unwrap_or_default();
    let after_scheme = base
        .split_once("://")
        .map_or(base.as_str(), |(_, rest)| rest);
    let path = after_scheme.find('/').map_or("", |i| &after_scheme[i..]);
    let path = path.split(['?', '#']).next().unwrap_or("");
    path.trim_end_matches('/').to_string()
}

/// Whether the site's pages are files: a copy hosted where only files are
/// served, such as a course's SCORM package (`make scorm`, built with
/// `--public-url ./`, so its `<base href>` is relative). Its addresses then
/// name the files (`nic/napi.html`, `index.html`), which a reload finds.
pub fn pages_are_files() -> bool {
    // Native tests render pages without a browser.
    if cfg!(not(target_arch = "wasm32")) {
        return false;
    }
    document()
        .and_then(|d| d.query_selector("base").ok().flatten())
        .and_then(|b| b.get_attribute("href"))
        .is_some_and(|href| href.starts_with('.'))
}

pub fn set_title(title: &str) {
    if let Some(d) = document() {
        d.set_title(title);
    }
}

/// `https://host/base/nic/napi`: the current page without query or fragment.
pub fn page_url() -> String {
    web_sys::window()
        .map(|w| {
            let l = w.location();
            format!(
                "{}{}",
                l.origin().unwrap_or_default(),
                l.pathname().unwrap_or_default()
            )
        })
        .unwrap_or_default()
}

/// Writes `text` to the clipboard, then tells `done` whether the browser
/// allowed it. (A promise callback rather than an async task: no executor
/// in the wasm for one button.)
pub fn copy_to_clipboard(text: &str, done: impl FnOnce(bool) + 'static) {
    let Some(window) = web_sys::window() else {
        return done(false);
    };
    let promise = window.navigator().clipboard().write_text(text);
    let done = std::rc::Rc::new(std::cell::RefCell::new(Some(done)));
    let ok = {
        let done = done.clone();
        Closure::once(move |_: JsValue| {
            if let Some(f) = done.borrow_mut().take() {
                f(true)
            }
        })
    };
    let failed = Closure::once(move |_: JsValue| {
        if let Some(f) = done.borrow_mut().take() {
            f(false)
        }
    });
    let _ = promise.then2(&ok, &failed);
    ok.forget();
    failed.forget();
}

/// Runs `f` once the browser is idle (or, where it has no
/// `requestIdleCallback`, after the current task).
pub fn when_idle(f: impl FnOnce() + 'static) {
    let callback = Closure::once_into_js(move |_: JsValue| f());
    let asked = web_sys::window().map(|w| w.request_idle_callback(callback.unchecked_ref()));
    if !matches!(asked, Some(Ok(_))) {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback(callback.unchecked_ref());
        }
    }
}

/// On a panic, show the static crash panel from `index.html` (it lives
/// outside the app, so it works even when the app's state is broken). Its
/// link, which reopens the page at its defaults, was set by
/// [`set_reset_link`] when the page was shown.
pub fn install_panic_panel() {
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&format!("Stack Lab crashed: {info}").into());
        let Some(doc) = document() else { return };
        if let Some(detail) = doc.get_element_by_id("crash-detail") {
            detail.set_text_content(Some(&info.to_string()));
        }
        if let Some(panel) = doc
            .get_element_by_id("crash")
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            panel.set_hidden(false);
        }
        if let Some(app) = doc
            .get_element_by_id("app-root")
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            app.set_hidden(true);
        }
    }));
}

/// Points the crash panel's "Reset this demo" at `href`: the shown page's
/// address built from its parsed route, never from the raw path (which
/// could start with `//`, a link to another host).
pub fn set_reset_link(href: &str) {
    if let Some(link) = document().and_then(|d| d.get_element_by_id("crash-reset")) {
        let _ = link.set_attribute("href", href);
    }
}

/// Offers `text` as a file download (an SVG figure), without a server.
pub fn download(name: &str, text: &str) {
    let Some(doc) = document() else { return };
    let parts = js_sys::Array::of1(&text.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("image/svg+xml");
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Some(link) = doc
        .create_element("a")
        .ok()
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = link.set_attribute("href", &url);
        let _ = link.set_attribute("download", name);
        link.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// `performance.mark` (User Timing), without web-sys's `Performance`.
    /// Caught: a browser that throws here must not stop the page (an
    /// exception through the wasm would leave its state borrowed).
    #[wasm_bindgen(catch, js_namespace = performance, js_name = mark)]
    fn performance_mark(name: &str) -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue>;
}

/// Marks a stage of a page's start-up on the browser's performance
/// timeline (`stack-lab:…`), where `make bench` reads how long the app's
/// own work took, apart from the network and the browser. Start-up only:
/// one call each, none per step.
pub fn mark(stage: &str) {
    let _ = performance_mark(stage);
}

/// Adds or removes class `name` on the document's root element.
pub fn set_root_class(name: &str, on: bool) {
    if let Some(root) = document().and_then(|d| d.document_element()) {
        let _ = root.class_list().toggle_with_force(name, on);
    }
}

/// The page that frames this one (a slide deck, an LMS), if there is one.
pub fn parent_window() -> Option<web_sys::Window> {
    let window = web_sys::window()?;
    let parent = window.parent().ok()??;
    (!js_sys::Object::is(&parent, &window)).then_some(parent)
}

/// Focuses `el`, HTML or SVG (both have `focus()`; web-sys binds it on each
/// kind separately). A framed page that does not have focus leaves it where
/// it is: focus pulled into the frame would take the keys from the page
/// around it (a deck that just opened a lesson stop in the demo).
pub fn focus(el: &web_sys::Element) {
    use wasm_bindgen::JsCast;
    let outside = document().is_some_and(|d| !d.has_focus().unwrap_or(true));
    if outside && parent_window().is_some() {
        return;
    }
    if let Ok(f) = js_sys::Reflect::get(el.as_ref(), &wasm_bindgen::JsValue::from_str("focus")) {
        if let Some(f) = f.dyn_ref::<js_sys::Function>() {
            let _ = f.call0(el.as_ref());
        }
    }
}

/// The window's width in CSS pixels (an embed's is its frame's).
pub fn window_width() -> Option<f64> {
    web_sys::window()?.inner_width().ok()?.as_f64()
}

fn local_storage() -> Option<web_sys::Storage> {
    // Native tests render pages without a browser.
    if cfg!(not(target_arch = "wasm32")) {
        return None;
    }
    web_sys::window()?.local_storage().ok()?
}

/// A value kept for this tab (`sessionStorage`), if the page can read it.
pub fn tab_stored(key: &str) -> Option<String> {
    if cfg!(not(target_arch = "wasm32")) {
        return None;
    }
    web_sys::window()?
        .session_storage()
        .ok()??
        .get_item(key)
        .ok()?
}

/// Keeps `value` for as long as this tab lives.
pub fn tab_store(key: &str, value: &str) {
    if cfg!(not(target_arch = "wasm32")) {
        return;
    }
    if let Some(s) = web_sys::window().and_then(|w| w.session_storage().ok().flatten()) {
        let _ = s.set_item(key, value);
    }
}

/// A value the page kept in this browser (`localStorage`), if it can read it.
pub fn stored(key: &str) -> Option<String> {
    local_storage()?.get_item(key).ok()?
}

/// Keeps `value` in this browser, or forgets `key` (`None`); nothing is
/// sent anywhere. A browser that refuses storage keeps nothing.
pub fn store(key: &str, value: Option<&str>) {
    if let Some(s) = local_storage() {
        let _ = match value {
            Some(v) => s.set_item(key, v),
            None => s.remove_item(key),
        };
    }
}
