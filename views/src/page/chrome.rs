//! A whole demo page as elements: heading, the picture, the control bar and
//! controls, status line, narration, "why it matters", what the model leaves
//! out, sharing and the shortcuts list. The same for every demo; the app
//! patches it in and routes clicks on `data-act` (page actions) and
//! `data-slot` (the demo's own controls).

use crate::element::El;
use crate::layout::Layout;
use crate::live::Frame;
use crate::page::{controls, scene};
use crate::scene::Scene;
use demos::{Figure, NarrationLine, Tone};

/// Autoplay speeds, in steps per second, as tenths.
pub const SPEEDS: &[(u32, &str)] = &[(5, "0.5×"), (10, "1×"), (20, "2×"), (40, "4×")];

/// Keyboard shortcuts, as the help lists them.
pub const SHORTCUTS: &[(&str, &str)] = &[
    ("Space", "play / pause"),
    ("→", "step"),
    ("←", "step back"),
    ("R", "reset"),
    ("?", "show or hide this list"),
    ("Esc", "close this list"),
];

/// Everything on a demo page besides the picture and controls.
pub struct Chrome<'a> {
    pub slug: &'a str,
    pub title: &'a str,
    pub one_liner: &'a str,
    /// Embedded in a lecturer's page: no share panel, an "Open in Stack Lab" link.
    pub embed: bool,
    /// Why the link could not be restored, if it could not.
    pub notice: Option<&'a str>,
    pub playing: bool,
    /// Steps per second, in tenths (one of [`SPEEDS`]).
    pub speed: u32,
    pub can_back: bool,
    pub step_count: usize,
    pub status: &'a [Figure],
    pub narration: &'a [NarrationLine],
    pub why: &'a [String],
    pub leaves_out: &'a str,
    /// The link to this state.
    pub share_url: &'a str,
    /// The link box, once "Copy link" was pressed, and what the copy said.
    pub share_shown: bool,
    pub share_message: &'a str,
    pub help_open: bool,
    pub messages: &'a [(String, String)],
    /// The scene on the page now, when this render is patched over it.
    pub before: Option<&'a Scene>,
    /// The screen the figures are arranged for.
    pub layout: Layout,
}

/// The page: one `<article>` holding everything.
pub fn page(c: &Chrome, frame: &Frame) -> El {
    let mut head = El::html("header", "head")
        .attr("class", "demo-head")
        .child(El::html("h1", "h1").text(c.title))
        .child(
            El::html("p", "one")
                .attr("class", "one-liner")
                .text(c.one_liner),
        );
    if c.embed {
        head = head.child(
            El::html("a", "open")
                .attr("class", "open-in-lab")
                .attr("href", c.share_url)
                .attr("target", "_blank")
                .attr("rel", "noopener")
                .attr("data-testid", "open-in-lab")
                .text("Open in Stack Lab ↗"),
        );
    }
    let mut article = El::html("article", "demo")
        .attr(
            "class",
            if c.layout.is_narrow() {
                "demo narrow"
            } else {
                "demo"
            },
        )
        .attr("data-testid", "demo")
        .attr("data-demo", c.slug)
        .child(head);
    if let Some(notice) = c.notice {
        article = article.child(
            El::html("p", "notice")
                .attr("class", "notice")
                .attr("role", "status")
                .attr("data-testid", "link-notice")
                .text(notice),
        );
    }
    // The control bar and the latest narration line, together: what Step
    // did, or why it was refused, is read where Step is pressed. The page's
    // CSS keeps this dock in sight (held at the top of the column beside the
    // picture on wide screens, on the bottom edge on narrow ones). The
    // column comes before the picture in the document, so Step is a few
    // Tab presses from the top whatever the picture holds.
    let dock = El::html("div", "dock")
        .attr("class", "dock")
        .attr("data-testid", "dock")
        .child(control_bar(c))
        .child(latest(c.narration));
    let side = El::html("div", "side")
        .attr("class", "side")
        .child(dock)
        .child(
            El::html("div", "controls")
                .attr("class", "controls")
                .attr("role", "region")
                .attr("aria-label", "Demo controls")
                .children(controls::controls(&frame.controls, c.messages)),
        )
        .child(
            El::html("button", "download")
                .attr("type", "button")
                .attr("class", "btn download")
                .attr("data-act", "download")
                .attr("data-testid", "download-figure")
                .text("Download figure (SVG)"),
        );
    // Everything else stands in one column beside the controls, so the
    // controls' column is as tall as the page and its dock stays in sight
    // down to the share link.
    let mut column = El::html("div", "column")
        .attr("class", "column")
        .child(
            El::html("div", "visual")
                .attr("class", "visual")
                .attr("data-testid", "visual")
                .children(scene::scene(&frame.scene, c.before)),
        )
        .child(status_line(c.status))
        .child(narration(c.narration))
        .child(
            El::html("div", "explain")
                .attr("class", "explain")
                .child(why(c.why))
                .child(
                    El::html("p", "leaves")
                        .attr("class", "leaves-out")
                        .attr("data-testid", "leaves-out")
                        .text(c.leaves_out),
                ),
        );
    if !c.embed {
        column = column.child(share(c));
    }
    article = article.child(
        El::html("div", "body")
            .attr("class", "demo-body")
            .child(side)
            .child(column),
    );
    if c.help_open {
        article = article.child(shortcuts());
    }
    article
}

fn button(key: &str, act: &str, label: &str, title: &str, keys: &str) -> El {
    El::html("button", key)
        .attr("type", "button")
        .attr("class", "btn")
        .attr("data-act", act)
        .attr("data-testid", act)
        .attr("title", title)
        .attr("aria-keyshortcuts", keys)
        .text(label)
}

fn control_bar(c: &Chrome) -> El {
    let mut back = button("back", "back", "◀ Back", "Step back (←)", "ArrowLeft");
    if !c.can_back {
        back = back.attr("disabled", "");
    }
    let step = button("step", "step", "Step ▶", "Step (→)", "ArrowRight").class("primary");
    let play = button(
        "play",
        "play",
        if c.playing {
            "❚❚ Pause"
        } else {
            "▶▶ Play"
        },
        "Play or pause (Space)",
        "Space",
    )
    .attr("aria-pressed", c.playing.to_string());
    let speed = El::html("label", "speed")
        .attr("class", "speed")
        .child(El::html("span", "l").text("Speed"))
        .child(
            El::html("select", "s")
                .attr("data-act", "speed")
                .attr("data-testid", "speed")
                .attr(".value", speed_value(c.speed))
                .children(SPEEDS.iter().map(|(tenths, label)| {
                    El::html("option", speed_value(*tenths))
                        .attr("value", speed_value(*tenths))
                        .text(*label)
                })),
        );
    El::html("div", "bar")
        .attr("class", "control-bar")
        .attr("role", "group")
        .attr("aria-label", "Playback")
        .child(back)
        .child(step)
        .child(play)
        .child(speed)
        .child(button("reset", "reset", "↺ Reset", "Reset (R)", "R"))
        .child(
            El::html("span", "count")
                .attr("class", "step-count")
                .attr("data-testid", "step-count")
                .text(format!("step {}", c.step_count)),
        )
}

/// `5` → `"0.5"`, `20` → `"2"`: the option values the tests and links use.
pub fn speed_value(tenths: u32) -> String {
    if tenths.is_multiple_of(10) {
        (tenths / 10).to_string()
    } else {
        format!("{}.{}", tenths / 10, tenths % 10)
    }
}

fn status_line(figures: &[Figure]) -> El {
    El::html("dl", "status")
        .attr("class", "status-line")
        .attr("data-testid", "status")
        .children(figures.iter().map(|f| {
            El::html("div", f.key)
                .attr("class", "figure")
                .attr("data-testid", format!("fig-{}", f.key))
                .child(El::html("dt", "t").text(f.label))
                .child(El::html("dd", "d").text(f.value.clone()))
        }))
}

/// Tones are told apart by a word as well as a colour.
fn tone_word(tone: Tone) -> (&'static str, &'static str) {
    match tone {
        Tone::Info => ("info", ""),
        Tone::Done => ("done", "Done: "),
        Tone::Warn => ("warn", "Careful: "),
        Tone::Fault => ("fault", "Fault: "),
        Tone::Refused => ("refused", "Refused: "),
    }
}

fn line_body(el: El, line: &NarrationLine) -> El {
    let (_, word) = tone_word(line.tone);
    el.child(El::html("span", "w").attr("class", "tone-word").text(word))
        .child(El::html("span", "t").text(line.text.clone()))
}

/// The newest narration line, announced as it changes.
fn latest(lines: &[NarrationLine]) -> El {
    let mut live = El::html("div", "live")
        .attr("aria-live", "polite")
        .attr("aria-atomic", "true")
        .attr("data-testid", "narration-latest");
    if let Some(last) = lines.last() {
        let (class, _) = tone_word(last.tone);
        live = live.attr("data-tone", class).child(line_body(
            El::html("p", "latest").class(&format!("latest tone-{class}")),
            last,
        ));
    }
    live
}

/// The narration before the newest line (that one is in the dock).
fn narration(lines: &[NarrationLine]) -> El {
    let history = lines
        .iter()
        .rev()
        .skip(1)
        .take(demos::timeline::NARRATION_KEPT)
        .enumerate()
        .map(|(i, line)| {
            let (class, _) = tone_word(line.tone);
            // Keyed from the oldest line, so a new step adds one node at the top.
            let key = (lines.len() - 2 - i).to_string();
            line_body(
                El::html("li", key).class(&format!("tone-{class}")).child(
                    El::html("span", "n")
                        .attr("class", "step-tag")
                        .text(line.step.to_string()),
                ),
                line,
            )
        });
    El::html("section", "narration")
        .attr("class", "narration")
        .attr("aria-label", "Narration")
        .child(
            El::html("details", "history")
                .attr("class", "history")
                .child(El::html("summary", "s").text("Earlier steps"))
                .child(
                    El::html("ol", "o")
                        .attr("reversed", "")
                        .attr("data-testid", "narration-history")
                        .children(history),
                ),
        )
}

fn why(sentences: &[String]) -> El {
    El::html("section", "why")
        .attr("class", "why")
        .attr("data-testid", "why")
        .child(El::html("h2", "h").text("Why it matters"))
        .child(
            El::html("ul", "u").children(
                sentences
                    .iter()
                    .enumerate()
                    .map(|(i, s)| El::html("li", i.to_string()).text(s.clone())),
            ),
        )
}

fn share(c: &Chrome) -> El {
    let mut panel = El::html("div", "share")
        .attr("class", "share")
        .child(
            El::html("button", "copy")
                .attr("type", "button")
                .attr("class", "btn")
                .attr("data-act", "copy")
                .attr("data-testid", "copy-link")
                .text("Copy link"),
        )
        .child(
            El::html("span", "msg")
                .attr("class", "share-message")
                .attr("role", "status")
                .attr("data-testid", "share-message")
                .text(c.share_message),
        );
    if c.share_shown {
        panel = panel.child(
            El::html("label", "url")
                .attr("class", "share-url")
                .child(
                    El::html("span", "l")
                        .attr("class", "visually-hidden")
                        .text("Link to this state"),
                )
                .child(
                    El::html("input", "i")
                        .attr("type", "text")
                        .attr("readonly", "")
                        .attr(".value", c.share_url)
                        .attr("data-testid", "share-url"),
                ),
        );
    }
    panel
}

fn shortcuts() -> El {
    El::html("div", "shortcuts")
        .attr("class", "shortcuts")
        .attr("role", "dialog")
        .attr("aria-label", "Keyboard shortcuts")
        .attr("data-testid", "shortcuts")
        // Focus moves here when the list opens (the page does it).
        .attr("tabindex", "-1")
        .child(El::html("h2", "h").text("Keyboard shortcuts"))
        .child(
            El::html("dl", "d").children(SHORTCUTS.iter().flat_map(|(key, what)| {
                [
                    El::html("dt", format!("k{key}")).child(El::html("kbd", "k").text(*key)),
                    El::html("dd", format!("w{key}")).text(*what),
                ]
            })),
        )
        .child(
            El::html("button", "close")
                .attr("type", "button")
                .attr("class", "btn")
                .attr("data-act", "help-close")
                .text("Close"),
        )
}
