//! The few places the app touches the browser directly.

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

/// Writes `text` to the clipboard; `Err` when the browser refuses.
pub async fn copy_to_clipboard(text: &str) -> Result<(), ()> {
    let clipboard = web_sys::window().ok_or(())?.navigator().clipboard();
    wasm_bindgen_futures::JsFuture::from(clipboard.write_text(text))
        .await
        .map(|_| ())
        .map_err(|_| ())
}

/// On a panic, show the static crash panel from `index.html` (it lives
/// outside the app, so it works even when the app's state is broken) with a
/// link that reopens the demo at its defaults.
pub fn install_panic_panel() {
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&format!("Stack Lab crashed: {info}").into());
        let Some(doc) = document() else { return };
        if let Some(detail) = doc.get_element_by_id("crash-detail") {
            detail.set_text_content(Some(&info.to_string()));
        }
        if let Some(link) = doc.get_element_by_id("crash-reset") {
            let path = web_sys::window()
                .and_then(|w| w.location().pathname().ok())
                .unwrap_or_else(|| "/".into());
            let _ = link.set_attribute("href", &path);
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
