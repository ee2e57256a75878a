//! Everything on a demo page besides the picture and its controls, for every
//! demo alike: the control bar, the status line, the narration, "why it
//! matters", what the model leaves out, sharing and the shortcuts list.

use crate::dom::{dynamic, flag, h, keyed, text, words, El};
use crate::shell::page::{Act, Page};
use leptos::prelude::*;
use views::page::chrome::{play_label, speed_of, speed_value, tone_word, SHORTCUTS, SPEEDS};

/// A button of the page (not of the demo): what it does, its test hook.
fn button(page: Page, act: Act, testid: &'static str, class: &'static str) -> El {
    h("button")
        .set("type", "button")
        .class(class)
        .testid(testid)
        .on_click(move |_| page.act(act))
}

/// Back, Step, Play, speed, Reset and the step count.
pub fn control_bar(page: Page) -> El {
    let with_key = |el: El, title: &'static str, keys: &'static str| {
        el.set("title", title).set("aria-keyshortcuts", keys)
    };
    let speeds = SPEEDS
        .iter()
        .map(|(tenths, label)| h("option").set("value", speed_value(*tenths)).text(*label));
    h("div")
        .class("control-bar")
        .set("role", "group")
        .set("aria-label", "Playback")
        .child(
            with_key(
                button(page, Act::Back, "back", "btn"),
                "Step back (←)",
                "ArrowLeft",
            )
            .toggle("disabled", flag(move || !page.can_back.get()))
            .text("◀ Back"),
        )
        .child(
            with_key(
                button(page, Act::Step, "step", "btn primary"),
                "Step (→)",
                "ArrowRight",
            )
            .text("Step ▶"),
        )
        .child(
            with_key(
                button(page, Act::Play, "play", "btn"),
                "Play or pause (Space)",
                "Space",
            )
            .bind(
                "aria-pressed",
                text(move || Some(page.playing.get().to_string())),
            )
            .words(words(move || play_label(page.playing.get()).to_string())),
        )
        .child(
            h("label")
                .class("speed")
                .child(h("span").text("Speed"))
                .child(
                    h("select")
                        .testid("speed")
                        .children(speeds)
                        .prop("value", words(move || speed_value(page.speed.get())))
                        .on_event(crate::dom::Happens::Change, move |e| {
                            let value = e
                                .target()
                                .and_then(|t| {
                                    wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlSelectElement>(t)
                                        .ok()
                                })
                                .map(|s| s.value())
                                .unwrap_or_default();
                            if let Some(tenths) = speed_of(&value) {
                                page.set_speed(tenths);
                            }
                        }),
                ),
        )
        .child(with_key(button(page, Act::Reset, "reset", "btn"), "Reset (R)", "R").text("↺ Reset"))
        .child(
            h("span")
                .class("step-count")
                .testid("step-count")
                .words(words(move || format!("step {}", page.step_count.get()))),
        )
}

/// The demo's key figures.
pub fn status_line(page: Page) -> El {
    let each = crate::dom::memo(move || {
        page.status.with(|all| {
            all.iter()
                .map(|f| f.key.to_string())
                .enumerate()
                .collect::<Vec<_>>()
        })
    });
    let figure = move |_, key: String| {
        let part = |f: fn(&demos::Figure) -> String| {
            let key = key.clone();
            words(move || {
                page.status
                    .with(|all| all.iter().find(|x| x.key == key).map(f).unwrap_or_default())
            })
        };
        h("div")
            .class("figure")
            .testid(format!("fig-{key}"))
            .child(h("dt").words(part(|f| f.label.to_string())))
            .child(h("dd").words(part(|f| f.value.clone())))
    };
    h("dl")
        .class("status-line")
        .testid("status")
        .view_child(keyed(move || each.get(), figure))
}

/// The newest narration line, read out as it changes: in the dock, beside
/// Step, so what Step did (or why it was refused) is read where it was
/// pressed.
pub fn latest(page: Page) -> El {
    let latest = crate::dom::memo(move || page.narration.with(|lines| lines.last().cloned()));
    h("div")
        .class("live")
        .set("aria-live", "polite")
        .set("aria-atomic", "true")
        .testid("narration-latest")
        .bind(
            "data-tone",
            text(move || latest.with(|l| l.as_ref().map(|l| tone_word(l.tone).0.to_string()))),
        )
        .view_child(dynamic(move || match (page.announce.get(), latest.get()) {
            // A lesson stop opened, a verdict: said here, where the
            // narration is read, until the narration moves on.
            (said, _) if !said.is_empty() => h("p")
                .class("latest lesson-said")
                .testid("lesson-said")
                .text(said)
                .view(),
            (_, Some(line)) => {
                let (class, word) = tone_word(line.tone);
                h("p")
                    .class(format!("latest tone-{class}"))
                    .child(h("span").class("tone-word").text(word))
                    .child(h("span").text(line.text))
                    .view()
            }
            (_, None) => ().into_any(),
        }))
}

/// The narration before the newest line (that one is in the dock).
pub fn narration(page: Page) -> El {
    // Keyed from the oldest line, so a new step adds one row at the top.
    let each = move || {
        page.narration.with(|lines| {
            let n = lines.len();
            (0..n.saturating_sub(1))
                .rev()
                .map(|i| {
                    (
                        i,
                        format!("{i}\u{1f}{}\u{1f}{}", lines[i].step, lines[i].text),
                    )
                })
                .collect::<Vec<_>>()
        })
    };
    let row = move |i: usize, _| {
        let line = page.narration.with_untracked(|lines| lines.get(i).cloned());
        let Some(line) = line else { return h("li") };
        let (class, word) = tone_word(line.tone);
        h("li")
            .class(format!("tone-{class}"))
            .child(h("span").class("step-tag").text(line.step.to_string()))
            .child(h("span").class("tone-word").text(word))
            .child(h("span").text(line.text))
    };
    h("section")
        .class("narration")
        .set("aria-label", "Narration")
        .child(
            h("details")
                .class("history")
                .child(h("summary").text("Earlier steps"))
                .child(
                    h("ol")
                        .set("reversed", "")
                        .testid("narration-history")
                        .view_child(keyed(each, row)),
                ),
        )
}

/// "Why it matters", and what the model leaves out.
pub fn explain(page: Page) -> El {
    h("div")
        .class("explain")
        .child(
            h("section")
                .class("why")
                .testid("why")
                .child(h("h2").text("Why it matters"))
                .child(h("ul").view_child(dynamic(move || {
                    page.why
                        .get()
                        .into_iter()
                        .map(|s| h("li").text(s).view())
                        .collect::<Vec<_>>()
                        .into_any()
                }))),
        )
        .child(
            h("p")
                .class("leaves-out")
                .testid("leaves-out")
                .words(words(move || page.leaves_out.get().to_string())),
        )
}

/// Copy link, what the copy said, and the link itself once asked for.
/// Presenter mode on or off (`?present=1` opens a page in it).
pub fn present_toggle(page: Page) -> El {
    h("button")
        .set("type", "button")
        .class("btn present-toggle")
        .testid("present")
        .bind(
            "aria-pressed",
            text(move || Some(page.present.get().to_string())),
        )
        .on_click(move |_| page.set_present(!page.present.get_untracked()))
        .text("Presenter mode")
}

pub fn share(page: Page) -> El {
    h("div")
        .class("share")
        .child(button(page, Act::Copy, "copy-link", "btn").text("Copy link"))
        .child(
            h("span")
                .class("share-message")
                .set("role", "status")
                .testid("share-message")
                .words(words(move || page.share_message.get())),
        )
        .view_child(dynamic(move || {
            if !page.share_shown.get() {
                return ().into_any();
            }
            h("label")
                .class("share-url")
                .child(
                    h("span")
                        .class("visually-hidden")
                        .text("Link to this state"),
                )
                .child(
                    h("input")
                        .set("type", "text")
                        .set("readonly", "")
                        .testid("share-url")
                        .prop("value", words(move || page.share_url())),
                )
                .view()
        }))
}

/// The keyboard shortcuts, while asked for.
pub fn shortcuts(page: Page) -> AnyView {
    dynamic(move || {
        if !page.help.get() {
            return ().into_any();
        }
        let keys = SHORTCUTS
            .iter()
            .flat_map(|(key, what)| [h("dt").child(h("kbd").text(*key)), h("dd").text(*what)]);
        h("div")
            .class("shortcuts")
            .set("role", "dialog")
            .set("aria-label", "Keyboard shortcuts")
            .testid("shortcuts")
            // Focus moves here when the list opens (`Page::act`).
            .set("tabindex", "-1")
            .child(h("h2").text("Keyboard shortcuts"))
            .child(h("dl").children(keys))
            .child(button(page, Act::HelpClose, "help-close", "btn").text("Close"))
            .view()
    })
}

/// Code still on its way (a demo's, the lesson panel's): said only if that
/// takes a moment (`.fetching` appears after 0.4 s), so a fast load does not
/// flash.
pub fn fetching_notice(testid: &'static str, text: impl Into<String>) -> El {
    h("p")
        .class("fetching")
        .set("role", "status")
        .testid(testid)
        .text(text)
}

/// Code that could not be fetched: said, with a Try again that fetches anew
/// (a failed fetch is never cached).
pub fn failed_notice(
    testid: &'static str,
    text: impl Into<String>,
    mut retry: impl FnMut() + 'static,
) -> El {
    h("div")
        .class("notice fetch-failed")
        .set("role", "alert")
        .testid(testid)
        .child(h("p").text(text))
        .child(
            h("button")
                .set("type", "button")
                .class("btn primary")
                .on_click(move |_| retry())
                .text("Try again"),
        )
}
