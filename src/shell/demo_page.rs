//! A demo page, for any demo. The demo's code arrives first (each demo is a
//! wasm module of its own): meanwhile the page says "Loading…", or what
//! failed with a Try again button. Then the running page: the picture (the
//! one `Scene` component), the controls (the one `Controls` component) and
//! the chrome around them, all reading the [`Page`]'s signals.

use crate::catalogue::{Demo, Opened};
use crate::controls::controls;
use crate::dom::{dynamic, h, El};
use crate::platform::mark;
use crate::scene::scene;
use crate::shell::chrome::{control_bar, explain, narration, share, shortcuts, status_line};
use crate::shell::keyboard;
use crate::shell::page::{Act, Page};
use leptos::ev;
use leptos::prelude::*;
use std::time::Duration;
use views::control::Input;
use views::page::chrome::{failed, fetching};

/// Where the demo's code is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Arrival {
    /// Being fetched (for less than a task so far: nothing is shown).
    Fetching,
    /// Still being fetched: "Loading…".
    Slow,
    Failed,
    Running,
}

/// The page of `demo`, opened from the share-link value `link`.
pub fn demo_page(demo: &'static Demo, embed: bool, link: Option<String>) -> El {
    let arrival = RwSignal::new(Arrival::Fetching);
    let opened: StoredValue<Option<Opened>, LocalStorage> = StoredValue::new_local(None);
    let link = StoredValue::new(link);
    fetch(demo, link.get_value(), arrival, opened);
    h("div")
        .class("demo-root")
        .view_child(dynamic(move || match arrival.get() {
            Arrival::Fetching => ().into_any(),
            Arrival::Slow => h("p")
                .class("demo-fetching")
                .set("role", "status")
                .testid("demo-fetching")
                .text(fetching(demo.title))
                .view(),
            Arrival::Failed => h("div")
                .class("notice demo-failed")
                .set("role", "alert")
                .testid("demo-failed")
                .child(h("p").text(failed(demo.title)))
                .child(
                    h("button")
                        .set("type", "button")
                        .class("btn primary")
                        .on_click(move |_| {
                            arrival.set(Arrival::Slow);
                            fetch(demo, link.get_value(), arrival, opened);
                        })
                        .text("Try again"),
                )
                .view(),
            Arrival::Running => match opened.try_update_value(Option::take).flatten() {
                Some((live, notice)) => {
                    running(demo, embed, Page::new(demo.slug, live), notice).view()
                }
                None => ().into_any(),
            },
        }))
}
/// Fetches the demo's module (again, after a failure: a failure is never
/// cached), then opens the demo.
///
/// "Loading…" waits one task: on a first visit the module is compiled before
/// the main one starts (scripts/split-head.js), so it opens in this task,
/// with no notice drawn and removed on the way.
fn fetch(
    demo: &'static Demo,
    link: Option<String>,
    arrival: RwSignal<Arrival>,
    opened: StoredValue<Option<Opened>, LocalStorage>,
) {
    let loading = (demo.open.load)(link);
    set_timeout(
        move || {
            if arrival.try_get_untracked() == Some(Arrival::Fetching) {
                arrival.set(Arrival::Slow);
            }
        },
        Duration::ZERO,
    );
    leptos::task::spawn_local(async move {
        let arrived = loading.await;
        // The learner may have left the page meanwhile.
        match arrived {
            Ok(demo) => {
                mark("stack-lab:demo-open");
                if opened.try_update_value(|o| *o = Some(demo)).is_some() {
                    arrival.try_set(Arrival::Running);
                }
            }
            Err(_) => {
                arrival.try_set(Arrival::Failed);
            }
        }
    });
}

/// The running demo's page: one `<article>` holding everything.
fn running(demo: &'static Demo, embed: bool, page: Page, notice: Option<String>) -> El {
    mark("stack-lab:demo-frame");
    let keys = window_event_listener(ev::keydown, move |e| {
        if let Some(act) = keyboard::shortcut(&e, page.help.get_untracked()) {
            e.prevent_default();
            page.act(act);
        }
    });
    on_cleanup(move || keys.remove());
    Effect::new(move |_| mark("stack-lab:demo-drawn"));
    let head = h("header")
        .class("demo-head")
        .child(h("h1").text(demo.title))
        .child(h("p").class("one-liner").text(demo.one_liner))
        .maybe_child(embed.then(|| {
            h("a")
                .class("open-in-lab")
                .bind("href", crate::dom::text(move || Some(page.share_url())))
                .set("target", "_blank")
                .set("rel", "noopener")
                .testid("open-in-lab")
                .text("Open in Stack Lab ↗")
        }));
    let notice = notice.map(|text| {
        h("p")
            .class("notice")
            .set("role", "status")
            .testid("link-notice")
            .text(text)
    });
    let click =
        Callback::new(move |(id, slot): (String, views::Slot)| page.send(&id, slot, Input::Press));
    let mut visual = h("div").class("visual").testid("visual");
    for part in scene(page.scene, click) {
        visual = visual.view_child(part);
    }
    let side = h("div")
        .class("side")
        .child(control_bar(page))
        .child(
            h("div")
                .class("controls")
                .set("role", "region")
                .set("aria-label", "Demo controls")
                .view_child(controls(page)),
        )
        .child(
            h("button")
                .set("type", "button")
                .class("btn download")
                .testid("download-figure")
                .on_click(move |_| page.act(Act::Download))
                .text("Download figure (SVG)"),
        );
    h("article")
        .class("demo")
        .testid("demo")
        .set("data-demo", demo.slug)
        .child(head)
        .maybe_child(notice)
        .child(h("div").class("demo-body").child(visual).child(side))
        .child(status_line(page))
        .child(narration(page))
        .child(explain(page))
        .maybe_child((!embed).then(|| share(page)))
        .view_child(shortcuts(page))
}
