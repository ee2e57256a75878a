//! The lesson panel, one for every demo: the goal, the open stop (its text,
//! its task and whether the learner has done it, its question), the
//! verdict, the way between stops and, at the end, where to go next. What
//! is right and what is done are the demo's own answers, through
//! `LiveDemo` (the page holds no rules); the panel draws them.

use crate::dom::{dynamic, flag, h, text, words, El, Happens};
use crate::shell::chrome::{failed_notice, fetching_notice};
use crate::shell::page::Page;
use leptos::prelude::*;
use views::lesson::{AskKind, Outline, Reply, StopOutline};
use views::page::chrome::{LESSON_FAILED, LESSON_FETCHING};
use views::page::lesson::{read_number, right_answers, stop_of, task_word, verdict_word};
use wasm_bindgen::JsCast;

/// What the panel's buttons do.
#[derive(Clone, Copy)]
enum Press {
    Open(usize),
    Check,
    Forget,
    Close,
}

/// A button of the panel: one handler for all of them.
fn button(page: Page, press: Press, testid: &'static str, label: &'static str) -> El {
    h("button")
        .set("type", "button")
        .class("btn")
        .testid(testid)
        .on_click(move |_| match press {
            Press::Open(n) => page.open_stop(n, true),
            Press::Check => page.check_reply(),
            Press::Forget => page.forget_progress(),
            Press::Close => page.close_lesson(),
        })
        .text(label)
}

fn value_of(e: &web_sys::Event) -> String {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        .map(|i| i.value())
        .unwrap_or_default()
}

/// The "Lesson" button: opens the lesson where the learner left it, or
/// closes it. Nothing for a demo without a lesson.
pub fn lesson_button(page: Page) -> Option<El> {
    page.lesson.with_value(|l| l.outline.is_some()).then(|| {
        h("button")
            .set("type", "button")
            .class("btn lesson-open")
            .testid("lesson-open")
            .bind(
                "aria-expanded",
                text(move || Some(page.at_stop().is_some().to_string())),
            )
            .on_click(move |_| match page.lesson_at.get_untracked() {
                0 => page.open_stop(page.lesson.with_value(|l| l.progress.resume()), true),
                _ => page.close_lesson(),
            })
            .words(words(move || {
                if page.at_stop().is_some() {
                    "Close lesson".into()
                } else {
                    "Lesson".into()
                }
            }))
    })
}

/// Draws stop `n` of a lesson: the panel's code, which is a wasm module of
/// its own.
type Draw = fn(Page, &Outline, usize) -> El;

/// Where the panel's module stands on this page.
#[derive(Clone, Copy)]
enum Module {
    Absent,
    Fetching,
    Failed,
    Here(Draw),
}

thread_local! {
    /// The panel's code once fetched: for the rest of the visit, every
    /// demo page draws its lesson at once.
    static FETCHED: std::cell::Cell<Option<Draw>> = const { std::cell::Cell::new(None) };
}

/// The panel's code is cut into the wasm module `ui_lesson`
/// (`scripts/split-wasm.sh`), which a page fetches when a lesson first
/// opens: a page whose learner never opens the lesson does not pay for its
/// panel. (In the main module it added 10.3 KiB gzip, over the 8 a lesson
/// may add there.)
#[wasm_split_helpers::wasm_split(ui_lesson, wasm_split_path = wasm_split_helpers, fallible)]
fn panel_code() -> Result<Draw, wasm_split_helpers::SplitLoaderError> {
    Ok(panel)
}

/// Fetches the panel's module; once here, the title of the open stop takes
/// focus, as it does when a stop opens with the module already here.
fn fetch(module: RwSignal<Module>) {
    module.set(Module::Fetching);
    leptos::task::spawn_local(async move {
        let arrived = panel_code().await;
        if let Ok(draw) = arrived {
            FETCHED.set(Some(draw));
        }
        // The learner may have left the page meanwhile.
        if module
            .try_set(arrived.map_or(Module::Failed, Module::Here))
            .is_none()
        {
            crate::shell::focus::after_redraw(|| {
                crate::shell::focus::to_testid("lesson-title");
            });
        }
    });
}

/// The panel, while a stop is open.
pub fn lesson_panel(page: Page) -> El {
    let module = RwSignal::new(FETCHED.get().map_or(Module::Absent, Module::Here));
    h("div").class("lesson-slot").view_child(dynamic(move || {
        let Some(n) = page.at_stop() else {
            return ().into_any();
        };
        let draw = match module.get() {
            Module::Here(draw) => draw,
            Module::Absent => {
                fetch(module);
                return ().into_any();
            }
            Module::Fetching => return fetching_notice("lesson-fetching", LESSON_FETCHING).view(),
            Module::Failed => {
                return failed_notice("lesson-failed", LESSON_FAILED, move || fetch(module)).view()
            }
        };
        page.lesson
            .with_value(|l| l.outline.as_ref().map(|o| draw(page, o, n).view()))
            .unwrap_or_else(|| ().into_any())
    }))
}

/// Stop `n` of `outline`.
fn panel(page: Page, outline: &Outline, n: usize) -> El {
    let stops = outline.stops.len();
    let stop = &outline.stops[n];
    let last = n + 1 == stops;
    let mut nav = h("nav")
        .class("lesson-nav")
        .set("aria-label", "Lesson stops");
    if n > 0 {
        nav = nav.child(button(
            page,
            Press::Open(n - 1),
            "lesson-prev",
            "◀ Previous stop",
        ));
    }
    if !last {
        nav = nav.child(button(
            page,
            Press::Open(n + 1),
            "lesson-next",
            "Next stop ▶",
        ));
    }
    let next = last.then(|| {
        let base = crate::platform::base_path();
        h("div")
            .class("lesson-next-links")
            .testid("lesson-next-links")
            .child(h("p").text("Where the idea continues:"))
            .child(h("ul").children(outline.next.iter().map(|route| {
                let label = crate::catalogue::all()
                    .find(|d| d.path() == *route)
                    .map_or(*route, |d| d.title);
                h("li").child(
                    h("a")
                        .set("href", crate::router::link(&base, route))
                        .text(label),
                )
            })))
    });
    let mut goal = h("details").class("lesson-goal");
    if n == 0 {
        goal = goal.set("open", "");
    }
    let goal = goal
        .child(h("summary").text("Goal"))
        .child(h("p").text(outline.goal));
    h("section")
        .class(if page.class_mode {
            "lesson class-mode"
        } else {
            "lesson"
        })
        .testid("lesson")
        .set("aria-label", "Lesson")
        .set("data-stops", stops.to_string())
        .set("data-predictions", outline.predictions().to_string())
        .set("data-stop", (n + 1).to_string())
        // The goal is read at the first stop; later it is one click away,
        // so that the stop, its question and the picture share the screen.
        .child(goal)
        .child(
            h("h2")
                .testid("lesson-title")
                .set("tabindex", "-1")
                .child(h("span").class("lesson-count").text(stop_of(n, stops)))
                .text(format!(" {}", stop.title)),
        )
        .child(h("p").class("lesson-text").text(stop.text))
        .maybe_child(stop.task.map(|ask| task(page, ask)))
        .maybe_child(question(page, stop))
        .child(nav.child(button(page, Press::Close, "lesson-close", "Close lesson")))
        .maybe_child(next)
        .child(
            h("p")
                .class("lesson-progress")
                .child(h("span").testid("lesson-progress").words(words(move || {
                    page.read_lesson(|l| {
                        l.outline
                            .as_ref()
                            .map(|_| l.progress.summary())
                            .unwrap_or_default()
                    })
                })))
                .child(
                    button(page, Press::Forget, "lesson-forget", "Forget my progress")
                        .class("btn quiet"),
                ),
        )
}

/// The stop's task, and whether the model shows it done.
fn task(page: Page, ask: &'static str) -> El {
    h("p")
        .class("lesson-task")
        .testid("lesson-task")
        .bind(
            "data-done",
            text(move || page.read_lesson(|l| l.task_done.map(|d| d.to_string()))),
        )
        .child(h("strong").text("Try: "))
        .text(ask)
        .child(h("span").class("lesson-task-state").words(words(move || {
            task_word(page.read_lesson(|l| l.task_done == Some(true))).to_string()
        })))
}

/// The stop's question, its answer field, Check (Reveal in class mode) and
/// the verdict.
fn question(page: Page, stop: &StopOutline) -> Option<El> {
    let q = stop.question?;
    let answered = flag(move || page.read_lesson(|l| l.verdict.is_some()));
    let field = match q.kind {
        AskKind::Choice { options } => {
            h("div")
                .class("lesson-choices")
                .children(options.iter().enumerate().map(|(i, option)| {
                    h("label")
                        .child(
                            h("input")
                                .set("type", "radio")
                                .set("name", "lesson-answer")
                                .set("value", i.to_string())
                                .testid(format!("lesson-option-{i}"))
                                .toggle("disabled", answered)
                                .on_event(Happens::Change, move |_| {
                                    page.change_lesson(|l| l.reply = Some(Reply::Choice(i)))
                                }),
                        )
                        .child(h("span").text(*option))
                }))
        }
        AskKind::Number { unit, .. } => h("label")
            .class("lesson-number")
            .child(h("span").class("visually-hidden").text("Your answer"))
            .child(
                h("input")
                    .set("type", "text")
                    .set("inputmode", "decimal")
                    .set("autocomplete", "off")
                    .testid("lesson-number")
                    .toggle("disabled", answered)
                    .on_event(Happens::Input, move |e| {
                        let reply = read_number(&value_of(&e)).map(Reply::Number);
                        page.change_lesson(|l| l.reply = reply)
                    }),
            )
            .maybe_child((!unit.is_empty()).then(|| h("span").class("unit").text(unit))),
    };
    let commit = if page.class_mode {
        button(page, Press::Check, "lesson-reveal", "Reveal")
    } else {
        button(page, Press::Check, "lesson-check", "Check my answer").toggle(
            "disabled",
            flag(move || page.read_lesson(|l| l.reply.is_none() || l.verdict.is_some())),
        )
    }
    .class("btn primary");
    let verdict = dynamic(move || {
        let Some((v, replied)) =
            page.read_lesson(|l| Some((l.verdict.clone()?, l.reply.is_some())))
        else {
            return ().into_any();
        };
        h("div")
            .class("lesson-verdict")
            .testid("lesson-verdict")
            .set("tabindex", "-1")
            .set(
                "data-right",
                if replied {
                    v.right.to_string()
                } else {
                    "none".into()
                },
            )
            .child(
                h("p")
                    .child(h("strong").text(verdict_word(&v, replied)))
                    .text(format!(" {}", right_answers(&v))),
            )
            .child(h("p").class("lesson-explain").text(v.explain))
            .view()
    });
    Some(
        h("fieldset")
            .class("lesson-question")
            .testid("lesson-question")
            .child(h("legend").text(q.ask))
            .child(field)
            .child(commit)
            .view_child(verdict),
    )
}
