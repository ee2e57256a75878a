//! Embed mode (`?embed=1`): only the demo, for an iframe in a lecturer's slides.
//! It never takes focus on load, and offers a way out to the full lab.

use leptos::prelude::*;
use leptos_router::params::ParamsMap;

pub fn is_embed(query: &ParamsMap) -> bool {
    query.get("embed").as_deref() == Some("1")
}

/// "Open in Stack Lab": the same demo in the same state, in a new tab.
#[component]
pub fn OpenInLab(#[prop(into)] href: Signal<String>) -> impl IntoView {
    view! {
        <a class="open-in-lab" href=move || href.get() target="_blank" rel="noopener" data-testid="open-in-lab">
            "Open in Stack Lab ↗"
        </a>
    }
}
