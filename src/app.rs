//! The root component: routes and the page frame.

use crate::catalogue::{find, section};
use crate::platform::{install_scene_styles, set_title};
use crate::router;
use crate::shell::{demo_page::DemoPage, frame::Frame, home::Home, not_found::NotFound};
use leptos::prelude::*;

#[component]
pub fn App() -> impl IntoView {
    install_scene_styles();
    let location = router::install();
    let page = move || {
        let here = location.get();
        match here.segments().as_slice() {
            [] => view! { <Home /> }.into_any(),
            [section_id, slug] => match find(section_id, slug) {
                Some(demo) => {
                    let section_title = section(demo.section).map_or("", |s| s.title);
                    set_title(&format!("{} · {section_title} · Stack Lab", demo.title));
                    let embed = here.param("embed") == Some("1");
                    let link = here.param("s").map(str::to_string);
                    let panic = here.param("debug") == Some("panic");
                    let page = view! { <DemoPage demo embed link panic /> };
                    if embed {
                        view! { <div class="embed" data-testid="embed">{page}</div> }.into_any()
                    } else {
                        view! { <Frame>{page}</Frame> }.into_any()
                    }
                }
                None => view! { <NotFound /> }.into_any(),
            },
            _ => view! { <NotFound /> }.into_any(),
        }
    };
    view! { <div id="app-root">{page}</div> }
}
