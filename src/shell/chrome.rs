//! Everything on a demo page besides the picture and its controls, for every
//! demo alike: the control bar, the status line, the narration, "why it
//! matters", what the model leaves out, sharing and the shortcuts list.

use crate::shell::page::{Act, Page};
use leptos::prelude::*;
use leptos::{ev, html};
use views::page::chrome::{play_label, speed_of, speed_value, tone_word, SHORTCUTS, SPEEDS};

fn button(page: Page, act: Act, testid: &'static str, label: &'static str, title: &'static str, keys: &'static str) -> impl IntoView {
    html::button()
        .attr("type", "button")
        .class("btn")
        .attr("data-testid", testid)
        .attr("title", title)
        .attr("aria-keyshortcuts", keys)
        .on(ev::click, move |_| page.act(act))
        .child(label)
}

/// Back, Step, Play, speed, Reset and the step count.
pub fn control_bar(page: Page) -> impl IntoView {
    let speeds: Vec<_> = SPEEDS
        .iter()
        .map(|(tenths, label)| html::option().attr("value", speed_value(*tenths)).child(*label))
        .collect();
    html::div()
        .class("control-bar")
        .attr("role", "group")
        .attr("aria-label", "Playback")
        .child((
            button(page, Act::Back, "back", "◀ Back", "Step back (←)", "ArrowLeft")
                .attr("disabled", move || !page.can_back.get()),
            html::button()
                .attr("type", "button")
                .class("btn primary")
                .attr("data-testid", "step")
                .attr("title", "Step (→)")
                .attr("aria-keyshortcuts", "ArrowRight")
                .on(ev::click, move |_| page.act(Act::Step))
                .child("Step ▶"),
            html::button()
                .attr("type", "button")
                .class("btn")
                .attr("data-testid", "play")
                .attr("title", "Play or pause (Space)")
                .attr("aria-keyshortcuts", "Space")
                .attr("aria-pressed", move || page.playing.get().to_string())
                .on(ev::click, move |_| page.act(Act::Play))
                .child(move || play_label(page.playing.get())),
            html::label().class("speed").child((
                html::span().child("Speed"),
                html::select()
                    .attr("data-testid", "speed")
                    .prop("value", move || speed_value(page.speed.get()))
                    .on(ev::change, move |e| {
                        if let Some(tenths) = speed_of(&event_target_value(&e)) {
                            page.set_speed(tenths);
                        }
                    })
                    .child(speeds),
            )),
            button(page, Act::Reset, "reset", "↺ Reset", "Reset (R)", "R"),
            html::span()
                .class("step-count")
                .attr("data-testid", "step-count")
                .child(move || format!("step {}", page.step_count.get())),
        ))
}

/// The demo's key figures.
pub fn status_line(page: Page) -> impl IntoView {
    let keys = Memo::new(move |_| page.status.with(|all| all.iter().map(|f| f.key).collect::<Vec<_>>()));
    html::dl()
        .class("status-line")
        .attr("data-testid", "status")
        .child(view! {
            <For each=move || keys.get() key=|key| *key children=move |key| {
                let part = move |f: fn(&demos::Figure) -> String| {
                    move || page.status.with(|all| all.iter().find(|x| x.key == key).map(f).unwrap_or_default())
                };
                html::div()
                    .class("figure")
                    .attr("data-testid", format!("fig-{key}"))
                    .child((
                        html::dt().child(part(|f| f.label.to_string())),
                        html::dd().child(part(|f| f.value.clone())),
                    ))
            } />
        })
}

/// The latest line, read out as it changes, and the earlier ones under it.
pub fn narration(page: Page) -> impl IntoView {
    let latest = Memo::new(move |_| page.narration.with(|lines| lines.last().cloned()));
    let history = move || {
        page.narration.with(|lines| {
            let n = lines.len();
            lines
                .iter()
                .rev()
                .skip(1)
                .enumerate()
                // Keyed from the oldest line, so a new step adds one node at the top.
                .map(|(i, line)| ((n - 2 - i, line.step, line.text.clone()), line.clone()))
                .collect::<Vec<_>>()
        })
    };
    html::section()
        .class("narration")
        .attr("aria-label", "Narration")
        .child((
            html::div()
                .attr("aria-live", "polite")
                .attr("aria-atomic", "true")
                .attr("data-testid", "narration-latest")
                .attr("data-tone", move || latest.with(|l| l.as_ref().map(|l| tone_word(l.tone).0)))
                .child(move || {
                    latest.get().map(|line| {
                        let (class, word) = tone_word(line.tone);
                        html::p().class(format!("latest tone-{class}")).child((
                            html::span().class("tone-word").child(word),
                            html::span().child(line.text),
                        ))
                    })
                }),
            html::details().class("history").child((
                html::summary().child("Earlier steps"),
                html::ol()
                    .attr("reversed", "")
                    .attr("data-testid", "narration-history")
                    .child(view! {
                        <For each=history key=|(key, _)| key.clone() children=|(_, line)| {
                            let (class, word) = tone_word(line.tone);
                            html::li().class(format!("tone-{class}")).child((
                                html::span().class("step-tag").child(line.step.to_string()),
                                html::span().class("tone-word").child(word),
                                html::span().child(line.text),
                            ))
                        } />
                    }),
            )),
        ))
}

/// "Why it matters", and what the model leaves out.
pub fn explain(page: Page) -> impl IntoView {
    html::div().class("explain").child((
        html::section()
            .class("why")
            .attr("data-testid", "why")
            .child((
                html::h2().child("Why it matters"),
                html::ul().child(move || {
                    page.why
                        .get()
                        .into_iter()
                        .map(|s| html::li().child(s))
                        .collect::<Vec<_>>()
                }),
            )),
        html::p()
            .class("leaves-out")
            .attr("data-testid", "leaves-out")
            .child(move || page.leaves_out.get()),
    ))
}

/// Copy link, what the copy said, and the link itself once asked for.
pub fn share(page: Page) -> impl IntoView {
    html::div().class("share").child((
        html::button()
            .attr("type", "button")
            .class("btn")
            .attr("data-testid", "copy-link")
            .on(ev::click, move |_| page.act(Act::Copy))
            .child("Copy link"),
        html::span()
            .class("share-message")
            .attr("role", "status")
            .attr("data-testid", "share-message")
            .child(move || page.share_message.get()),
        move || {
            page.share_shown.get().then(|| {
                html::label().class("share-url").child((
                    html::span().class("visually-hidden").child("Link to this state"),
                    html::input()
                        .attr("type", "text")
                        .attr("readonly", "")
                        .attr("data-testid", "share-url")
                        .prop("value", move || page.share_url()),
                ))
            })
        },
    ))
}

/// The keyboard shortcuts, while asked for.
pub fn shortcuts(page: Page) -> impl IntoView {
    move || {
        page.help.get().then(|| {
            let keys: Vec<_> = SHORTCUTS
                .iter()
                .map(|(key, what)| (html::dt().child(html::kbd().child(*key)), html::dd().child(*what)))
                .collect();
            html::div()
                .class("shortcuts")
                .attr("role", "dialog")
                .attr("aria-label", "Keyboard shortcuts")
                .attr("data-testid", "shortcuts")
                .child((
                    html::h2().child("Keyboard shortcuts"),
                    html::dl().child(keys),
                    html::button()
                        .attr("type", "button")
                        .class("btn")
                        .on(ev::click, move |_| page.act(Act::HelpClose))
                        .child("Close"),
                ))
        })
    }
}
