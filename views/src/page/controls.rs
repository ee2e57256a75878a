//! Controls → elements. Every control that sends carries `data-slot`; the
//! page listens once, on the panel, and sends the slot with the input.
//! Test hooks: a control's id; a choice option `{id}-{value}`; a form's
//! submit button its id, its message `{id}-msg`.
//!
//! Values the model owns (a switch, a slider) are live properties (`.checked`,
//! `.value`) kept in step with the model; a form's fields carry only their
//! starting text, so what the learner types stays until they submit.

use crate::control::{Button, Choice, Control, Emphasis, Field, FieldKind, Form, Number, Toggle};
use crate::element::El;

/// The controls panel. `messages` holds what the page last had to say about
/// a control (a value it could not use, a refusal), by control id.
///
/// The "Break it" zone comes last on every demo, wherever the demo lists it.
pub fn controls(controls: &[Control], messages: &[(String, String)]) -> Vec<El> {
    let danger = |c: &Control| matches!(c, Control::Group(g) if g.danger);
    let (breaks, rest): (Vec<_>, Vec<_>) =
        controls.iter().enumerate().partition(|(_, c)| danger(c));
    rest.into_iter()
        .chain(breaks)
        .map(|(i, c)| control(c, i, messages))
        .collect()
}

fn message_for<'a>(messages: &'a [(String, String)], id: &str) -> Option<&'a str> {
    messages
        .iter()
        .find(|(k, _)| k == id)
        .map(|(_, m)| m.as_str())
}

fn control(c: &Control, index: usize, messages: &[(String, String)]) -> El {
    match c {
        Control::Button(b) => button(b),
        Control::Toggle(t) => toggle(t),
        Control::Choice(ch) if ch.dropdown => dropdown(ch),
        Control::Choice(ch) => radios(ch),
        Control::Number(n) => number(n, message_for(messages, &n.id)),
        Control::Form(f) => form(f, message_for(messages, &f.id)),
        Control::Group(g) => {
            let group = El::html("div", format!("group-{}", g.label));
            // The danger zone is in the same place, with the same look and
            // the same test id, on every demo.
            let group = if g.danger {
                group
                    .class("button-group danger-zone")
                    .attr("data-testid", "break-it")
            } else {
                group.class("button-group")
            };
            group
                .attr("role", "group")
                .attr("aria-label", g.label.clone())
                .child(
                    El::html("span", "label")
                        .attr("class", "group-label")
                        .text(g.label.clone()),
                )
                .children(
                    g.controls
                        .iter()
                        .enumerate()
                        .map(|(i, c)| control(c, i, messages)),
                )
        }
        Control::Note(text) => El::html("p", format!("note-{index}"))
            .attr("class", "hint")
            .text(text.clone()),
    }
}

fn emphasis_class(e: Emphasis) -> &'static str {
    match e {
        Emphasis::Plain => "",
        Emphasis::Primary => "primary-outline",
        Emphasis::Danger => "danger",
    }
}

/// A control the model would refuse looks unavailable and carries the
/// reason, but stays enabled: pressing it narrates the refusal, which is how
/// a learner finds out why (a disabled button could say nothing).
fn refusal(el: El, id: &str, refused: &Option<String>) -> (El, Option<El>) {
    match refused {
        None => (el, None),
        Some(reason) => (
            el.class("refused")
                .attr("aria-describedby", format!("why-{id}"))
                .attr("title", reason.clone()),
            Some(
                El::html("span", format!("why-{id}"))
                    .attr("id", format!("why-{id}"))
                    .attr("class", "visually-hidden")
                    .text(reason.clone()),
            ),
        ),
    }
}

fn button(b: &Button) -> El {
    let el = El::html("button", "b")
        .attr("type", "button")
        .class(&format!("btn {}", emphasis_class(b.emphasis)))
        .attr("data-testid", b.id.clone())
        .attr("data-slot", b.send.to_string())
        .text(b.label.clone());
    let (el, why) = refusal(el, &b.id, &b.refused);
    El::html("span", format!("btn-{}", b.id))
        .attr("class", "btn-wrap")
        .child(el)
        .children(why)
}

fn toggle(t: &Toggle) -> El {
    let input = El::html("input", "i")
        .attr("type", "checkbox")
        .attr("role", "switch")
        .attr("data-testid", t.id.clone())
        .attr("data-slot", t.send.to_string())
        .attr(".checked", t.on.to_string());
    let (input, why) = refusal(input, &t.id, &t.refused);
    El::html("label", format!("toggle-{}", t.id))
        .class(&format!("toggle {}", emphasis_class(t.emphasis)))
        .child(input)
        .child(
            El::html("span", "l")
                .attr("class", "toggle-label")
                .text(t.label.clone()),
        )
        .child(
            El::html("span", "s")
                .attr("class", "toggle-state")
                .text(if t.on { "on" } else { "off" }),
        )
        .children(why)
}

fn radios(c: &Choice) -> El {
    El::html("fieldset", format!("choice-{}", c.id))
        .attr("class", "choice")
        .child(El::html("legend", "l").text(c.legend.clone()))
        .children(c.options.iter().enumerate().map(|(i, o)| {
            El::html("label", o.value.clone())
                .child(
                    El::html("input", "i")
                        .attr("type", "radio")
                        .attr("name", c.id.clone())
                        .attr("value", o.value.clone())
                        .attr("data-testid", format!("{}-{}", c.id, o.value))
                        .attr("data-slot", o.send.to_string())
                        .attr(".checked", (i == c.selected).to_string()),
                )
                .child(El::html("span", "t").text(o.label.clone()))
        }))
}

fn dropdown(c: &Choice) -> El {
    El::html("label", format!("choice-{}", c.id))
        .attr("class", "select")
        .child(
            El::html("span", "l")
                .attr("class", "select-label")
                .text(c.legend.clone()),
        )
        .child(
            El::html("select", "s")
                .attr("data-testid", c.id.clone())
                .attr("data-choice", "")
                .attr(
                    ".value",
                    c.options
                        .get(c.selected)
                        .map_or(String::new(), |o| o.value.clone()),
                )
                .children(c.options.iter().map(|o| {
                    El::html("option", o.value.clone())
                        .attr("value", o.value.clone())
                        .attr("data-slot", o.send.to_string())
                        .text(o.label.clone())
                })),
        )
}

fn number(n: &Number, message: Option<&str>) -> El {
    let shown = n
        .shown
        .clone()
        .unwrap_or_else(|| format!("{} {}", n.value, n.unit).trim_end().to_string());
    let input = El::html("input", "i")
        .attr("type", if n.slider { "range" } else { "number" })
        .attr("min", n.min.to_string())
        .attr("max", n.max.to_string())
        .attr("step", n.step.to_string())
        .attr(".value", n.value.to_string())
        .attr("data-testid", n.id.clone())
        .attr("data-slot", n.send.to_string())
        .attr_opt("aria-valuetext", n.shown.clone());
    El::html("label", format!("number-{}", n.id))
        .attr("class", if n.slider { "slider" } else { "number" })
        .child(
            El::html("span", "l")
                .attr("class", "slider-label")
                .text(n.label.clone()),
        )
        .child(input)
        .child(
            El::html("output", "o")
                .attr("class", "slider-value")
                .attr("data-testid", format!("{}-value", n.id))
                .text(shown),
        )
        .children(message.map(|m| {
            El::html("span", "m")
                .attr("class", "field-msg")
                .attr("role", "status")
                .attr("data-testid", format!("{}-msg", n.id))
                .text(m.to_string())
        }))
}

fn field(f: &Field, form: &str, invalid: bool) -> El {
    let input = match f.kind {
        FieldKind::Code => El::html("textarea", "i")
            .attr("rows", "7")
            .attr("spellcheck", "false")
            .attr("class", "mono")
            .text(f.initial.clone()),
        FieldKind::Check => El::html("input", "i")
            .attr("type", "checkbox")
            .flag("checked", f.initial == "true"),
        FieldKind::Number { min, max } => El::html("input", "i")
            .attr("type", "number")
            .attr("min", min.to_string())
            .attr("max", max.to_string())
            .attr("value", f.initial.clone()),
        FieldKind::Text => El::html("input", "i")
            .attr("type", "text")
            .attr("class", "mono")
            .attr("autocomplete", "off")
            .attr("spellcheck", "false")
            .attr("value", f.initial.clone()),
    };
    let described = match &f.help {
        Some(_) => format!("{}-help {form}-msg", f.id),
        None => format!("{form}-msg"),
    };
    let input = input
        .attr("name", f.id.clone())
        .attr("data-testid", f.id.clone())
        .attr("data-field", "")
        .attr("aria-invalid", invalid.to_string())
        .attr("aria-describedby", described);
    let class = match f.kind {
        FieldKind::Check => "field check",
        FieldKind::Code => "field code",
        _ => "field",
    };
    El::html("label", f.id.clone())
        .attr("class", class)
        .child(
            El::html("span", "l")
                .attr("class", "field-label")
                .text(f.label.clone()),
        )
        .child(input)
        .children(f.help.as_ref().map(|h| {
            El::html("span", "h")
                .attr("class", "field-help")
                .attr("id", format!("{}-help", f.id))
                .attr("data-testid", format!("{}-help", f.id))
                .text(h.clone())
        }))
}

fn form(f: &Form, message: Option<&str>) -> El {
    // A code editor's errors quote the line they name: monospace, lines kept.
    let msg_class = if f.fields.iter().any(|x| x.kind == FieldKind::Code) {
        "field-msg code-msg"
    } else {
        "field-msg"
    };
    El::html("form", format!("form-{}", f.id))
        .attr("class", "form")
        .attr("data-testid", format!("{}-form", f.id))
        .attr("data-slot", f.send.to_string())
        .attr("novalidate", "")
        .child(
            El::html("fieldset", "f")
                .child(El::html("legend", "l").text(f.legend.clone()))
                .children(f.fields.iter().map(|x| field(x, &f.id, message.is_some())))
                .child(
                    El::html("button", "go")
                        .attr("type", "submit")
                        .attr("class", "btn")
                        .attr("data-testid", f.id.clone())
                        .text(f.submit.clone()),
                )
                .child(
                    El::html("p", "m")
                        .attr("class", msg_class)
                        .attr("role", "status")
                        .attr("id", format!("{}-msg", f.id))
                        .attr("data-testid", format!("{}-msg", f.id))
                        .text(message.unwrap_or("").to_string()),
                ),
        )
}
