//! The app: one container, `#app-root`, showing what the address names (the
//! catalogue, a demo, or "no such page"), shown anew when the learner follows
//! a link inside the site or goes back. The location is a signal; the small
//! router in `router.rs` sets it (leptos_router measured too heavy: see
//! ARCHITECTURE.md).

use crate::catalogue::{find, section, Demo};
use crate::dom::{dynamic, h, El};
use crate::platform::{base_path, mark, set_reset_link, set_title};
use crate::router::{self, Location};
use crate::shell::back::Back;
use crate::shell::demo_page::{demo_page, Asked};
use crate::shell::frame::{embed, frame};
use crate::shell::home::{self, home};
use crate::shell::not_found::{self, not_found};
use leptos::prelude::*;

/// What an address names.
pub enum Route {
    Home,
    Demo {
        demo: &'static Demo,
        /// Test hook: `?debug=panic` crashes the page once it is shown. Only
        /// a build made for the browser tests has it (feature `test-hooks`,
        /// `make build-subpath`); the public site ignores the parameter.
        panic: bool,
        /// What the address asks of the page.
        asked: Asked,
    },
    NotFound,
}

impl Route {
    pub fn of(here: &Location) -> Route {
        match here.segments().as_slice() {
            [] => Route::Home,
            [section_id, slug] => Route::of_demo(find(section_id, slug), here),
            // A tour: a page of no section (`/journey`).
            [slug] => Route::of_demo(find("", slug), here),
            _ => Route::NotFound,
        }
    }

    fn of_demo(demo: Option<&'static Demo>, here: &Location) -> Route {
        match demo {
            Some(demo) => Route::Demo {
                demo,
                panic: cfg!(feature = "test-hooks") && here.param("debug") == Some("panic"),
                asked: Asked {
                    embed: here.param("embed") == Some("1"),
                    link: here.param("s").map(str::to_string),
                    lesson: here.param("lesson").map(str::to_string),
                    class: here.param("class") == Some("1"),
                    present: here.param("present") == Some("1"),
                    back: Back::of(here),
                    figure: here.param("figure").map(str::to_string),
                },
            },
            None => Route::NotFound,
        }
    }

    /// The page's own address below `base`, from the parsed route: the
    /// defaults of a demo (no link, no embed), else the catalogue.
    pub fn href(&self, base: &str) -> String {
        match self {
            Route::Demo { demo, .. } => router::link(base, &demo.path()),
            Route::Home | Route::NotFound => router::link(base, "/"),
        }
    }

    /// The page's title.
    pub fn title(&self) -> String {
        match self {
            Route::Home => home::TITLE.into(),
            Route::NotFound => not_found::TITLE.into(),
            Route::Demo { demo, .. } => match section(demo.section) {
                Some(s) => format!("{} · {} · Stack Lab", demo.title, s.title),
                None => format!("{} · Stack Lab", demo.title),
            },
        }
    }
}

/// The page a route names, under the site's base path `base`.
fn page(route: Route, base: &str) -> Vec<El> {
    match route {
        Route::Home => frame(base, home(base)),
        Route::NotFound => frame(base, not_found(base)),
        Route::Demo { demo, panic, asked } => {
            if panic {
                // After this task, as a bug in a running demo would.
                leptos::task::spawn_local(async {
                    panic!("deliberate panic requested with ?debug=panic")
                });
            }
            let embedded = asked.embed;
            let content = demo_page(demo, asked);
            if embedded {
                embed(content)
            } else {
                frame(base, content)
            }
        }
    }
}

/// The whole app: the page the address names, then whatever the learner
/// navigates to.
#[component]
pub fn App() -> impl IntoView {
    mark("stack-lab:app-start");
    let here = RwSignal::new(router::current());
    router::listen(move |location| here.set(location));
    crate::shell::lms::start(&here.get_untracked(), move || here.set(router::current()));
    let base = base_path();
    h("div")
        .set("id", "app-root")
        .view_child(dynamic(move || {
            let route = Route::of(&here.get());
            set_title(&route.title());
            set_reset_link(&route.href(&base));
            page(route, &base)
                .into_iter()
                .map(El::view)
                .collect::<Vec<_>>()
                .into_any()
        }))
        .view()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(path: &str, query: &[(&str, &str)]) -> Location {
        Location {
            path: path.into(),
            query: query
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    #[test]
    fn addresses_name_the_catalogue_a_demo_or_nothing() {
        assert!(matches!(Route::of(&at("/", &[])), Route::Home));
        assert!(matches!(
            Route::of(&at("/nic/napi", &[("s", "abc")])),
            Route::Demo { demo, asked: Asked { link: Some(l), embed: false, .. }, .. }
                if demo.slug == "napi" && l == "abc"
        ));
        for path in [
            "/nic",
            "/nic/no-such-demo",
            "/nic/napi/extra",
            "/memory/napi",
        ] {
            assert!(
                matches!(Route::of(&at(path, &[])), Route::NotFound),
                "{path}"
            );
        }
    }

    #[test]
    fn a_page_links_to_itself_from_its_route_never_from_the_raw_path() {
        for path in ["//nic/napi", "/nic//napi/", "/nic/napi"] {
            let here = at(&crate::router::canonical(path), &[("debug", "panic")]);
            assert_eq!(Route::of(&here).href(""), "/nic/napi", "{path}");
            assert_eq!(Route::of(&here).href("/labs/stack"), "/labs/stack/nic/napi");
        }
        assert_eq!(Route::of(&at("/", &[])).href(""), "/");
        assert_eq!(Route::of(&at("/nope", &[])).href("/b"), "/b/");
    }

    #[test]
    fn a_demo_is_titled_with_its_section() {
        let title = Route::of(&at("/cpu/tlb", &[("embed", "1")])).title();
        assert!(
            title.starts_with("TLB") && title.ends_with("· Stack Lab"),
            "{title}"
        );
        assert_eq!(Route::of(&at("/x", &[])).title(), not_found::TITLE);
    }
}
