//! `/:section/:demo`: finds the demo in the catalogue and renders it, framed
//! by the site chrome or, with `?embed=1`, alone.

use crate::catalogue::{find, section};
use crate::platform::set_title;
use crate::shell::{embed::is_embed, frame::Frame, not_found::NotFound};
use crate::views;
use leptos::prelude::*;
use leptos_router::hooks::{use_params_map, use_query_map};

#[component]
pub fn DemoRoute() -> impl IntoView {
    let params = use_params_map();
    let query = use_query_map();
    move || {
        let (section_id, slug) = params.with(|p| {
            (
                p.get("section").unwrap_or_default(),
                p.get("demo").unwrap_or_default(),
            )
        });
        let Some(demo) = find(&section_id, &slug) else {
            return view! { <NotFound /> }.into_any();
        };
        let section_title = section(demo.section).map_or("", |s| s.title);
        set_title(&format!("{} · {section_title} · Stack Lab", demo.title));
        if is_embed(&query.get_untracked()) {
            view! { <div class="embed" data-testid="embed">{views::render(demo)}</div> }.into_any()
        } else {
            view! { <Frame>{views::render(demo)}</Frame> }.into_any()
        }
    }
}
