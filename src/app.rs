//! The app: one container, `#app-root`, showing what the address names (the
//! catalogue, a demo, or "no such page") as elements drawn in one go, and
//! shown anew when the learner follows a link inside the site or goes back.

use crate::catalogue::{find, section, Demo};
use crate::platform::{base_path, install_scene_styles, mark, set_reset_link, set_title};
use crate::render::patch::Patcher;
use crate::router::{self, Location};
use crate::shell::demo_page::DemoPage;
use crate::shell::frame::{embed, frame};
use crate::shell::home::{self, home};
use crate::shell::not_found::{self, not_found};
use std::cell::RefCell;
use views::element::El;
use web_sys::Element;

/// What an address names.
pub enum Route {
    Home,
    Demo {
        demo: &'static Demo,
        embed: bool,
        /// The share-link value (`?s=`), if any.
        link: Option<String>,
        /// Test hook: `?debug=panic` crashes the page once it is shown. Only
        /// a build made for the browser tests has it (feature `test-hooks`,
        /// `make build-subpath`); the public site ignores the parameter.
        panic: bool,
    },
    NotFound,
}

impl Route {
    pub fn of(here: &Location) -> Route {
        match here.segments().as_slice() {
            [] => Route::Home,
            [section_id, slug] => match find(section_id, slug) {
                Some(demo) => Route::Demo {
                    demo,
                    embed: here.param("embed") == Some("1"),
                    link: here.param("s").map(str::to_string),
                    panic: cfg!(feature = "test-hooks") && here.param("debug") == Some("panic"),
                },
                None => Route::NotFound,
            },
            _ => Route::NotFound,
        }
    }
}

impl Route {
    /// The page's own address below `base`, from the parsed route: the
    /// defaults of a demo (no link, no embed), else the catalogue.
    pub fn href(&self, base: &str) -> String {
        match self {
            Route::Demo { demo, .. } => format!("{base}/{}/{}", demo.section, demo.slug),
            Route::Home | Route::NotFound => format!("{base}/"),
        }
    }
}

/// The container every demo page runs in.
fn demo_root() -> El {
    El::html("div", "demo-root").attr("class", "demo-root")
}

/// The page for `route`: its title and its elements.
pub fn page(route: &Route, base: &str) -> (String, Vec<El>) {
    match route {
        Route::Home => (home::TITLE.into(), frame(base, home(base))),
        Route::NotFound => (not_found::TITLE.into(), frame(base, not_found(base))),
        Route::Demo {
            demo, embed: true, ..
        } => (demo_title(demo), embed(demo_root())),
        Route::Demo { demo, .. } => (demo_title(demo), frame(base, demo_root())),
    }
}

fn demo_title(demo: &Demo) -> String {
    let section_title = section(demo.section).map_or("", |s| s.title);
    format!("{} · {section_title} · Stack Lab", demo.title)
}

struct App {
    root: Element,
    /// The demo on the page, if one is: dropping it stops it.
    demo: Option<DemoPage>,
}

impl App {
    fn show(&mut self, here: &Location) {
        self.demo = None;
        let route = Route::of(here);
        let base = base_path();
        let (title, elements) = page(&route, &base);
        set_title(&title);
        set_reset_link(&route.href(&base));
        // The one renderer, fresh for each page: its first render is one parse.
        Patcher::new(self.root.clone()).patch(elements);
        if let Route::Demo {
            demo,
            embed,
            link,
            panic,
        } = route
        {
            if let Ok(Some(container)) = self.root.query_selector(".demo-root") {
                self.demo = Some(DemoPage::start(container, demo, embed, link));
            }
            if panic {
                // After this task, as a bug in a running demo would.
                wasm_bindgen_futures::spawn_local(async {
                    panic!("deliberate panic requested with ?debug=panic")
                });
            }
        }
    }
}

thread_local! {
    static APP: RefCell<Option<App>> = const { RefCell::new(None) };
}

/// Shows the page the address names, then follows the learner's navigation.
pub fn start() {
    mark("stack-lab:app-start");
    install_scene_styles();
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let (Ok(root), Some(body)) = (doc.create_element("div"), doc.body()) else {
        return;
    };
    root.set_id("app-root");
    let _ = body.append_child(&root);
    let show = |here: Location| {
        APP.with(|app| {
            if let Some(app) = app.borrow_mut().as_mut() {
                app.show(&here);
            }
        })
    };
    APP.with(|app| *app.borrow_mut() = Some(App { root, demo: None }));
    show(router::current());
    router::listen(show);
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
            Route::Demo { demo, link: Some(l), embed: false, .. } if demo.slug == "napi" && l == "abc"
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
    fn an_embedded_demo_has_no_site_chrome_and_a_framed_one_does() {
        let embedded = Route::of(&at("/cpu/tlb", &[("embed", "1")]));
        let (title, els) = page(&embedded, "");
        assert!(title.starts_with("TLB"), "{title}");
        assert_eq!(els.len(), 1);
        assert_eq!(els[0].get("data-testid"), Some("embed"));
        let (_, framed) = page(&Route::of(&at("/cpu/tlb", &[])), "");
        assert!(framed.iter().any(|e| e.tag == "header"));
        assert!(framed
            .iter()
            .any(|e| e.walk().iter().any(|d| d.get("class") == Some("demo-root"))));
    }
}
