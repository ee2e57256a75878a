//! A demo page, for any demo. The demo's code arrives first (each demo is a
//! wasm module of its own): meanwhile the page says "Loading…", or what
//! failed with a Try again button. Then the running page: the picture (the
//! one `Scene` component), the controls (the one `Controls` component) and
//! the chrome around them, all reading the [`Page`]'s signals.

use crate::catalogue::{Demo, Opened};
use crate::controls::controls;
use crate::platform::mark;
use crate::scene::scene;
use crate::shell::chrome::{control_bar, explain, narration, share, shortcuts, status_line};
use crate::shell::keyboard;
use crate::shell::page::{Act, Page};
use leptos::prelude::*;
use leptos::{ev, html};
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
pub fn demo_page(demo: &'static Demo, embed: bool, link: Option<String>) -> impl IntoView {
    let arrival = RwSignal::new(Arrival::Fetching);
    let opened: StoredValue<Option<Opened>, LocalStorage> = StoredValue::new_local(None);
    fetch(demo, link.clone(), arrival, opened);
    html::div().class("demo-root").child(move || match arrival.get() {
        Arrival::Fetching => ().into_any(),
        Arrival::Slow => html::p()
            .class("demo-fetching")
            .attr("role", "status")
            .attr("data-testid", "demo-fetching")
            .child(fetching(demo.title))
            .into_any(),
        Arrival::Failed => {
            let link = link.clone();
            html::div()
                .class("notice demo-failed")
                .attr("role", "alert")
                .attr("data-testid", "demo-failed")
                .child((
                    html::p().child(failed(demo.title)),
                    html::button()
                        .attr("type", "button")
                        .class("btn primary")
                        .on(ev::click, move |_| {
                            arrival.set(Arrival::Slow);
                            fetch(demo, link.clone(), arrival, opened);
                        })
                        .child("Try again"),
                ))
                .into_any()
        }
        Arrival::Running => match opened.try_update_value(Option::take).flatten() {
            Some((live, notice)) => running(demo, embed, Page::new(demo.slug, live), notice).into_any(),
            None => ().into_any(),
        },
    })
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
fn running(demo: &'static Demo, embed: bool, page: Page, notice: Option<String>) -> impl IntoView {
    mark("stack-lab:demo-frame");
    let keys = window_event_listener(ev::keydown, move |e| {
        if let Some(act) = keyboard::shortcut(&e, page.help.get_untracked()) {
            e.prevent_default();
            page.act(act);
        }
    });
    on_cleanup(move || keys.remove());
    Effect::new(move |_| mark("stack-lab:demo-drawn"));
    let head = html::header().class("demo-head").child((
        html::h1().child(demo.title),
        html::p().class("one-liner").child(demo.one_liner),
        embed.then(|| {
            html::a()
                .class("open-in-lab")
                .attr("href", move || page.share_url())
                .attr("target", "_blank")
                .attr("rel", "noopener")
                .attr("data-testid", "open-in-lab")
                .child("Open in Stack Lab ↗")
        }),
    ));
    let notice = notice.map(|text| {
        html::p()
            .class("notice")
            .attr("role", "status")
            .attr("data-testid", "link-notice")
            .child(text)
    });
    let send = move |id: String, slot, input: Input| page.send(&id, slot, input);
    let side = html::div().class("side").child((
        control_bar(page),
        html::div()
            .class("controls")
            .attr("role", "region")
            .attr("aria-label", "Demo controls")
            .child(controls(page)),
        html::button()
            .attr("type", "button")
            .class("btn download")
            .attr("data-testid", "download-figure")
            .on(ev::click, move |_| page.act(Act::Download))
            .child("Download figure (SVG)"),
    ));
    html::article()
        .class("demo")
        .attr("data-testid", "demo")
        .attr("data-demo", demo.slug)
        .child((
            head,
            notice,
            html::div().class("demo-body").child((
                html::div()
                    .class("visual")
                    .attr("data-testid", "visual")
                    .child(scene(page.scene, Callback::new(move |(id, slot)| send(id, slot, Input::Press)))),
                side,
            )),
            status_line(page),
            narration(page),
            explain(page),
            (!embed).then(|| share(page)),
            shortcuts(page),
        ))
}
