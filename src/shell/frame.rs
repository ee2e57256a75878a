//! The site chrome: header and footer around every page (hidden when embedded).

use crate::platform::base_path;
use leptos::prelude::*;

#[component]
pub fn Frame(children: Children) -> impl IntoView {
    let home = format!("{}/", base_path());
    view! {
        <a class="skip-link" href="#main">"Skip to content"</a>
        <header class="site-header">
            <a class="brand" href=home>
                <img src="static/icon.svg" alt="" width="28" height="28" />
                <span>"Stack Lab"</span>
            </a>
            <span class="tagline">"Demos you drive, from the NIC to the fabric"</span>
        </header>
        <main id="main" tabindex="-1">{children()}</main>
        <footer class="site-footer">
            "Every figure on these pages is computed by a model running in your browser. "
            "Press "<kbd>"?"</kbd>" on a demo for keyboard shortcuts."
        </footer>
    }
}
