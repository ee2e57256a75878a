//! A demo page, for any demo. The demo's code arrives first (each demo is a
//! wasm module of its own): meanwhile the page says "Loading…", or what
//! failed with a Try again button. Then the running page: the picture (the
//! one `Scene` component), the controls (the one `Controls` component) and
//! the chrome around them, all reading the [`Page`]'s signals.

use crate::catalogue::{journey, on_the_journey, Demo, Opened};
use crate::controls::controls;
use crate::dom::{dynamic, h, El};
use crate::platform::mark;
use crate::scene::scene;
use crate::shell::back::Back;
use crate::shell::chrome::{
    control_bar, explain, failed_notice, fetching_notice, latest, narration, share, shortcuts,
    status_line,
};
use crate::shell::keyboard;
use crate::shell::page::Page;
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

/// What an address asks of a demo's page.
#[derive(Clone, Default)]
pub struct Asked {
    /// In a frame, only the demo (`?embed=1`).
    pub embed: bool,
    /// The share-link value (`?s=`), if any.
    pub link: Option<String>,
    /// The lesson stop to open (`?lesson=N`), as written.
    pub lesson: Option<String>,
    /// Class mode (`?class=1`): answers wait for Reveal.
    pub class: bool,
    /// Presenter mode (`?present=1`): sized for a lecture hall.
    pub present: bool,
    /// The demo it was opened from, to go back to (`from=`).
    pub back: Option<Back>,
    /// The figure a framed page shows first (`?figure=N`), as written.
    pub figure: Option<String>,
}

/// The page of `demo`, as the address asks.
pub fn demo_page(demo: &'static Demo, asked: Asked) -> El {
    let Asked {
        embed,
        link,
        lesson,
        class,
        present,
        back,
        figure,
    } = asked;
    let arrival = RwSignal::new(Arrival::Fetching);
    let opened: StoredValue<Option<Opened>, LocalStorage> = StoredValue::new_local(None);
    let link = StoredValue::new(link);
    fetch(demo, link.get_value(), arrival, opened);
    h("div")
        .class("demo-root")
        .view_child(dynamic(move || match arrival.get() {
            Arrival::Fetching => ().into_any(),
            Arrival::Slow => fetching_notice("demo-fetching", fetching(demo.title)).view(),
            Arrival::Failed => failed_notice("demo-failed", failed(demo.title), move || {
                arrival.set(Arrival::Slow);
                fetch(demo, link.get_value(), arrival, opened);
            })
            .view(),
            Arrival::Running => match opened.try_update_value(Option::take).flatten() {
                Some((mut live, notice)) => {
                    let room = crate::shell::room::first(embed, present, lesson.is_some());
                    live.set_layout(room.layout());
                    let page = Page::new(demo.slug, live, class, room);
                    let notice = open_lesson(
                        page,
                        lesson.clone(),
                        link.with_value(Option::is_some),
                        notice,
                    );
                    let notice = if embed {
                        crate::shell::figures::first(page, figure.as_deref(), notice)
                    } else {
                        notice
                    };
                    running(demo, embed, page, notice, back.clone()).view()
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

/// Opens the link's lesson stop (`lesson=N`): at the stop's state, or at
/// the link's own state when it has one (`s=`, the learner's state at the
/// stop). A bad stop number opens no lesson, and the notice says so.
fn open_lesson(
    page: Page,
    lesson: Option<String>,
    has_state: bool,
    notice: Option<String>,
) -> Option<String> {
    // No lesson asked for: the link's own notice, if any, stands.
    let Some(text) = lesson else {
        return notice;
    };
    let said = match views::lesson::read_stop(&text, page.stops()) {
        Ok(n) => {
            page.open_stop(n, !has_state);
            return notice;
        }
        Err(error) => views::lesson::stop_notice(&error),
    };
    Some(then(notice, said))
}

/// One notice after another: a link may say more than one thing went
/// wrong (its state, its lesson stop, its figure).
pub fn then(notice: Option<String>, said: String) -> String {
    match notice {
        Some(first) => format!("{first} {said}"),
        None => said,
    }
}

/// The link back to the demo this one was opened from; else, on the demo
/// of a stage of the journey, the link to the journey.
fn way_back(demo: &'static Demo, back: Option<Back>) -> Option<El> {
    let base = crate::platform::base_path();
    let (href, text) = match back {
        Some(back) => (back.href(&base), format!("← Back to {}", back.demo.title)),
        None if on_the_journey(demo) => (
            crate::router::link(&base, &journey().path()),
            format!("This demo is a stage of {} →", journey().title),
        ),
        None => return None,
    };
    Some(
        h("a")
            .class("way-back")
            .set("href", href)
            .testid("way-back")
            .text(text),
    )
}

/// The running demo's page: one `<article>` holding everything.
fn running(
    demo: &'static Demo,
    embed: bool,
    page: Page,
    notice: Option<String>,
    back: Option<Back>,
) -> El {
    mark("stack-lab:demo-frame");
    let keys = window_event_listener(ev::keydown, move |e| {
        // Arrow keys on a picture's clickable shape move among its shapes.
        if crate::scene::rove(&e) {
            return;
        }
        if let Some(act) = keyboard::shortcut(&e, page.help.get_untracked()) {
            e.prevent_default();
            page.act(act);
        }
    });
    // A phone turned sideways, a window narrowed, a lesson opened: the
    // page rearranges itself, at the same step.
    let room = crate::shell::room::Watch::new(page);
    // Presenter mode restyles the whole document (static/app.css,
    // `html.present`), site header and footer included.
    Effect::new(move |_| crate::platform::set_root_class("present", page.present.get()));
    on_cleanup(move || {
        keys.remove();
        crate::platform::set_root_class("present", false);
    });
    // In a frame (a slide deck, an LMS), the page that frames the demo may
    // drive it (src/shell/slide.rs).
    if let Some(parent) = crate::platform::parent_window() {
        crate::shell::slide::connect(page, parent);
    }
    Effect::new(move |_| mark("stack-lab:demo-drawn"));
    // Once drawn and idle, rehearse a Step out of sight, so that its code is
    // compiled before the learner's first click.
    crate::platform::when_idle(move || page.rehearse());
    let head = h("header")
        .class("demo-head")
        .child(h("h1").text(demo.title))
        .child(h("p").class("one-liner").text(demo.one_liner))
        .maybe_child((!embed).then(|| way_back(demo, back)).flatten())
        .maybe_child(crate::shell::lesson::lesson_button(page))
        .child(crate::shell::chrome::present_toggle(page))
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
    // A link in the picture to another demo carries the way back here.
    let base = crate::platform::base_path();
    let onward = Callback::new(move |to: String| {
        crate::shell::back::onward(&base, &to, &demo.path(), &page.link.get())
    });
    // The figures' shapes move between layouts: the picture is drawn anew
    // in the other one, not moved shape by shape.
    let visual = h("div")
        .class("visual")
        .testid("visual")
        .live(move |column, _: Option<()>| room.observe(column))
        .maybe_child(crate::shell::figures::picker(page))
        .view_child(dynamic(move || {
            page.layout.track();
            // Only the layout redraws it all: a step sets what changed.
            let note = crate::dom::text(move || {
                let n = page.at_stop()?;
                page.lesson
                    .with_value(|l| views::page::lesson::as_text(l.outline.as_ref()?, n))
            });
            untrack(|| scene(page.scene, click, note, onward, page.alone)).into_any()
        }));
    // The control bar and the latest narration line, together: what Step
    // did, or why it was refused, is read where Step is pressed. The page's
    // CSS keeps this dock in sight (at the top of the column beside the
    // picture on wide screens, on the bottom edge on narrow ones). The
    // column comes before the picture in the document, so Step is a few Tab
    // presses from the top whatever the picture holds.
    let dock = h("div")
        .class("dock")
        .testid("dock")
        .child(control_bar(page))
        .child(latest(page));
    let side = h("div")
        .class("side")
        .child(dock)
        // A lesson's stop sits beside the picture it is about, next to
        // Step; on a narrow screen, above the picture (static/app.css).
        .child(crate::shell::lesson::lesson_panel(page))
        .child(
            h("div")
                .class("controls")
                .set("role", "region")
                .set("aria-label", "Demo controls")
                .view_child(controls(page)),
        )
        .child(crate::shell::export::download_button(page))
        .view_child(crate::shell::export::failed(page));
    // Everything else stands in one column beside the controls, so the
    // controls' column is as tall as the page and its dock stays in sight
    // down to the share link.
    let column = h("div")
        .class("column")
        .child(visual)
        .child(status_line(page))
        .child(narration(page))
        .child(explain(page))
        .maybe_child((!embed).then(|| share(page)));
    h("article")
        .bind(
            "class",
            crate::dom::text(move || {
                let narrow = if page.layout.get().is_narrow() {
                    " narrow"
                } else {
                    ""
                };
                let columns = if page.one_column.get() {
                    " one-column"
                } else {
                    ""
                };
                Some(format!("demo{narrow}{columns}"))
            }),
        )
        .testid("demo")
        .set("data-demo", demo.slug)
        .child(head)
        .maybe_child(notice)
        .child(h("div").class("demo-body").child(side).child(column))
        .view_child(shortcuts(page))
}
