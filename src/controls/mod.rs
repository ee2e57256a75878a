//! The one `Controls` component: it draws any demo's list of controls
//! (buttons, switches, choices, numbers, forms, groups, notes) from the
//! controls signal. Each control is keyed by its id and reads its own memo,
//! so a Step restyles the controls that changed and leaves the rest, and a
//! form keeps what the learner is typing.
//!
//! A value the model owns (a switch, a slider, a choice) follows the model:
//! after the learner changes it, the element is set back to what the model
//! holds, so a refused change does not stay on screen as if it were taken.

mod form;

use crate::shell::page::Page;
use leptos::prelude::*;
use leptos::{ev, html};
use views::control::{Button, Choice, Control, Emphasis, Input, Number, Toggle};
use wasm_bindgen::JsCast;

/// What a control is and its id: a control keeps its elements while both stay.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    Button(String),
    Toggle(String),
    Radios(String),
    Dropdown(String),
    Number(String),
    Form(String),
    Group(String),
    Note(usize),
}

fn key(index: usize, c: &Control) -> Key {
    match c {
        Control::Button(b) => Key::Button(b.id.clone()),
        Control::Toggle(t) => Key::Toggle(t.id.clone()),
        Control::Choice(ch) if ch.dropdown => Key::Dropdown(ch.id.clone()),
        Control::Choice(ch) => Key::Radios(ch.id.clone()),
        Control::Number(n) => Key::Number(n.id.clone()),
        Control::Form(f) => Key::Form(f.id.clone()),
        Control::Group(g) => Key::Group(format!("{}{}", g.label, if g.danger { "!" } else { "" })),
        Control::Note(_) => Key::Note(index),
    }
}

fn keys(controls: &[Control]) -> Vec<(usize, Key)> {
    controls.iter().enumerate().map(|(i, c)| (i, key(i, c))).collect()
}

/// Where a control is: the index and key at each level of groups.
type At = Vec<(usize, Key)>;

fn locate<'a>(controls: &'a [Control], at: &At) -> Option<&'a Control> {
    let mut list = controls;
    let mut found = None;
    for (index, want) in at {
        let control = match list.get(*index) {
            Some(c) if key(*index, c) == *want => c,
            _ => list.iter().enumerate().find(|(i, c)| key(*i, c) == *want)?.1,
        };
        if let Control::Group(g) = control {
            list = &g.controls;
        }
        found = Some(control);
    }
    found
}

/// The controls panel of `page`.
pub fn controls(page: Page) -> impl IntoView {
    let top = Memo::new(move |_| page.controls.with(|c| keys(c)));
    view! {
        <For each=move || top.get() key=|k| k.1.clone() children=move |(index, key)| {
            control(page, vec![(index, key)])
        } />
    }
}

/// One control's memo, of the kind `pick` takes out of it.
fn memo<T: Clone + PartialEq + Send + Sync + 'static>(
    page: Page,
    at: &At,
    pick: fn(&Control) -> Option<&T>,
) -> Memo<Option<T>> {
    let at = at.clone();
    Memo::new(move |_| page.controls.with(|c| locate(c, &at).and_then(pick).cloned()))
}

/// What the page last said about control `id`.
fn message(page: Page, id: String) -> Memo<Option<String>> {
    Memo::new(move |_| page.messages.with(|all| all.iter().find(|(k, _)| *k == id).map(|(_, m)| m.clone())))
}

fn emphasis_class(e: Emphasis) -> &'static str {
    match e {
        Emphasis::Plain => "",
        Emphasis::Primary => "primary-outline",
        Emphasis::Danger => "danger",
    }
}

/// The element an event happened on.
fn target<T: JsCast>(e: &web_sys::Event) -> Option<T> {
    e.target()?.dyn_into::<T>().ok()
}

/// A refused control looks unavailable and carries the reason, but stays
/// enabled: pressing it narrates the refusal, which is how a learner finds
/// out why (a disabled control could say nothing).
fn why(id: String, refused: impl Fn() -> Option<String> + Copy + Send + Sync + 'static) -> impl IntoView {
    move || {
        refused().map(|reason| {
            html::span()
                .id(format!("why-{id}"))
                .class("visually-hidden")
                .child(reason)
        })
    }
}

fn control(page: Page, at: At) -> AnyView {
    let Some((_, key)) = at.last().cloned() else {
        return ().into_any();
    };
    match key {
        Key::Button(id) => button(page, &at, id).into_any(),
        Key::Toggle(id) => toggle(page, &at, id).into_any(),
        Key::Radios(id) => radios(page, &at, id).into_any(),
        Key::Dropdown(id) => dropdown(page, &at, id).into_any(),
        Key::Number(id) => number(page, &at, id).into_any(),
        Key::Form(id) => form::form(page, &at, id).into_any(),
        Key::Group(_) => group(page, at).into_any(),
        Key::Note(_) => {
            let text = memo(page, &at, |c| match c {
                Control::Note(t) => Some(t),
                _ => None,
            });
            html::p()
                .class("hint")
                .child(move || text.get().unwrap_or_default())
                .into_any()
        }
    }
}

fn group(page: Page, at: At) -> impl IntoView {
    let head = {
        let at = at.clone();
        Memo::new(move |_| {
            page.controls.with(|c| match locate(c, &at) {
                Some(Control::Group(g)) => Some((g.label.clone(), g.danger, keys(&g.controls))),
                _ => None,
            })
        })
    };
    let label = move || head.with(|h| h.as_ref().map(|h| h.0.clone()).unwrap_or_default());
    let danger = head.with_untracked(|h| h.as_ref().is_some_and(|h| h.1));
    html::div()
        .class(if danger { "button-group danger-zone" } else { "button-group" })
        .attr("role", "group")
        .attr("aria-label", label)
        .child((
            html::span().class("group-label").child(label),
            view! {
                <For each=move || head.with(|h| h.as_ref().map(|h| h.2.clone()).unwrap_or_default())
                    key=|k| k.1.clone()
                    children=move |(index, key)| {
                        let mut inner = at.clone();
                        inner.push((index, key));
                        control(page, inner)
                    } />
            },
        ))
}

fn button(page: Page, at: &At, id: String) -> impl IntoView {
    let b = memo(page, at, |c| match c {
        Control::Button(b) => Some(b),
        _ => None,
    });
    let get = move |f: fn(&Button) -> Option<String>| move || b.with(|b| b.as_ref().and_then(f));
    let refused = get(|b| b.refused.clone());
    let sent = id.clone();
    html::span().class("btn-wrap").child((
        html::button()
            .attr("type", "button")
            .attr("class", move || {
                b.with(|b| {
                    let b = b.as_ref()?;
                    let mut class = format!("btn {}", emphasis_class(b.emphasis)).trim_end().to_string();
                    if b.refused.is_some() {
                        class.push_str(" refused");
                    }
                    Some(class)
                })
            })
            .attr("data-testid", id.clone())
            .attr("aria-describedby", {
                let id = id.clone();
                move || refused().map(|_| format!("why-{id}"))
            })
            .attr("title", refused)
            .on(ev::click, move |_| {
                if let Some(slot) = b.with_untracked(|b| b.as_ref().map(|b| b.send)) {
                    page.send(&sent, slot, Input::Press);
                }
            })
            .child(get(|b| Some(b.label.clone()))),
        why(id, refused),
    ))
}

fn toggle(page: Page, at: &At, id: String) -> impl IntoView {
    let t = memo(page, at, |c| match c {
        Control::Toggle(t) => Some(t),
        _ => None,
    });
    let get = move |f: fn(&Toggle) -> Option<String>| move || t.with(|t| t.as_ref().and_then(f));
    let on = move || t.with(|t| t.as_ref().is_some_and(|t| t.on));
    let refused = get(|t| t.refused.clone());
    let sent = id.clone();
    html::label()
        .attr("class", move || t.with(|t| t.as_ref().map(|t| format!("toggle {}", emphasis_class(t.emphasis)).trim_end().to_string())))
        .child((
            html::input()
                .attr("type", "checkbox")
                .attr("role", "switch")
                .attr("data-testid", id.clone())
                .attr("class", move || refused().map(|_| "refused"))
                .attr("aria-describedby", {
                    let id = id.clone();
                    move || refused().map(|_| format!("why-{id}"))
                })
                .attr("title", refused)
                .prop("checked", on)
                .on(ev::change, move |e| {
                    if let Some(slot) = t.with_untracked(|t| t.as_ref().map(|t| t.send)) {
                        page.send(&sent, slot, Input::Press);
                    }
                    if let Some(input) = target::<web_sys::HtmlInputElement>(&e) {
                        input.set_checked(t.with_untracked(|t| t.as_ref().is_some_and(|t| t.on)));
                    }
                }),
            html::span().class("toggle-label").child(get(|t| Some(t.label.clone()))),
            html::span()
                .class("toggle-state")
                .child(move || if on() { "on" } else { "off" }),
            why(id, refused),
        ))
}

/// Sets every radio of the group the event came from to what the model
/// selected (`value`): the browser already moved the dot to the one clicked.
fn settle_radios(e: &web_sys::Event, value: Option<String>) {
    let Some(group) = target::<web_sys::Element>(e).and_then(|el| el.closest("fieldset").ok().flatten()) else {
        return;
    };
    let Ok(inputs) = group.query_selector_all("input[type=radio]") else {
        return;
    };
    for i in 0..inputs.length() {
        if let Some(input) = inputs.item(i).and_then(|n| n.dyn_into::<web_sys::HtmlInputElement>().ok()) {
            input.set_checked(Some(input.value()) == value);
        }
    }
}

fn selected_value(c: &Choice) -> Option<String> {
    c.options.get(c.selected).map(|o| o.value.clone())
}

fn radios(page: Page, at: &At, id: String) -> impl IntoView {
    let ch = memo(page, at, |c| match c {
        Control::Choice(ch) => Some(ch),
        _ => None,
    });
    let values = Memo::new(move |_| {
        ch.with(|c| c.as_ref().map(|c| c.options.iter().map(|o| o.value.clone()).collect::<Vec<_>>()).unwrap_or_default())
    });
    let legend = move || ch.with(|c| c.as_ref().map(|c| c.legend.clone()).unwrap_or_default());
    let option = move |value: String| {
        let id = id.clone();
        let label = {
            let value = value.clone();
            move || ch.with(|c| c.as_ref().and_then(|c| c.options.iter().find(|o| o.value == value)).map(|o| o.label.clone()).unwrap_or_default())
        };
        let selected = {
            let value = value.clone();
            move || ch.with(|c| c.as_ref().and_then(selected_value)) == Some(value.clone())
        };
        let sent = value.clone();
        html::label().child((
            html::input()
                .attr("type", "radio")
                .attr("name", id.clone())
                .attr("value", value.clone())
                .attr("data-testid", format!("{id}-{value}"))
                .prop("checked", selected)
                .on(ev::change, move |e| {
                    let slot = ch.with_untracked(|c| c.as_ref()?.options.iter().find(|o| o.value == sent).map(|o| o.send));
                    if let Some(slot) = slot {
                        page.send(&id, slot, Input::Press);
                    }
                    settle_radios(&e, ch.with_untracked(|c| c.as_ref().and_then(selected_value)));
                }),
            html::span().child(label),
        ))
    };
    html::fieldset().class("choice").child((
        html::legend().child(legend),
        view! { <For each=move || values.get() key=|v| v.clone() children=option /> },
    ))
}

fn dropdown(page: Page, at: &At, id: String) -> impl IntoView {
    let ch = memo(page, at, |c| match c {
        Control::Choice(ch) => Some(ch),
        _ => None,
    });
    let legend = move || ch.with(|c| c.as_ref().map(|c| c.legend.clone()).unwrap_or_default());
    let options = move || {
        ch.with(|c| {
            c.as_ref()
                .map(|c| {
                    c.options
                        .iter()
                        .map(|o| html::option().attr("value", o.value.clone()).child(o.label.clone()))
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    };
    let chosen = move || ch.with(|c| c.as_ref().and_then(selected_value).unwrap_or_default());
    let sent = id.clone();
    html::label().class("select").child((
        html::span().class("select-label").child(legend),
        html::select()
            .attr("data-testid", id)
            .child(options)
            .prop("value", chosen)
            .on(ev::change, move |e| {
                let value = event_target_value(&e);
                let slot = ch.with_untracked(|c| c.as_ref()?.options.iter().find(|o| o.value == value).map(|o| o.send));
                if let Some(slot) = slot {
                    page.send(&sent, slot, Input::Press);
                }
                if let Some(select) = target::<web_sys::HtmlSelectElement>(&e) {
                    select.set_value(&ch.with_untracked(|c| c.as_ref().and_then(selected_value).unwrap_or_default()));
                }
            }),
    ))
}

fn number(page: Page, at: &At, id: String) -> impl IntoView {
    let n = memo(page, at, |c| match c {
        Control::Number(n) => Some(n),
        _ => None,
    });
    let said = message(page, id.clone());
    let get = move |f: fn(&Number) -> String| move || n.with(|n| n.as_ref().map(f).unwrap_or_default());
    let slider = n.with_untracked(|n| n.as_ref().is_some_and(|n| n.slider));
    let shown = get(|n| {
        n.shown
            .clone()
            .unwrap_or_else(|| format!("{} {}", n.value, n.unit).trim_end().to_string())
    });
    let sent = id.clone();
    html::label()
        .class(if slider { "slider" } else { "number" })
        .child((
            html::span().class("slider-label").child(get(|n| n.label.clone())),
            html::input()
                .attr("type", if slider { "range" } else { "number" })
                .attr("min", get(|n| n.min.to_string()))
                .attr("max", get(|n| n.max.to_string()))
                .attr("step", get(|n| n.step.to_string()))
                .attr("data-testid", id.clone())
                .attr("aria-valuetext", move || n.with(|n| n.as_ref().and_then(|n| n.shown.clone())))
                .prop("value", get(|n| n.value.to_string()))
                .on(ev::change, move |e| {
                    let Some(input) = target::<web_sys::HtmlInputElement>(&e) else {
                        return;
                    };
                    let Some(slot) = n.with_untracked(|n| n.as_ref().map(|n| n.send)) else {
                        return;
                    };
                    let text = input.value();
                    match text.trim().parse::<i64>() {
                        Ok(value) => {
                            page.send(&sent, slot, Input::Number(value));
                            if let Some(now) = n.with_untracked(|n| n.as_ref().map(|n| n.value)) {
                                input.set_value(&now.to_string());
                            }
                        }
                        Err(_) => page.note(&sent, format!("“{text}” is not a whole number.")),
                    }
                }),
            html::output()
                .class("slider-value")
                .attr("data-testid", format!("{id}-value"))
                .child(shown),
            move || {
                said.get().map(|m| {
                    html::span()
                        .class("field-msg")
                        .attr("role", "status")
                        .attr("data-testid", format!("{id}-msg"))
                        .child(m)
                })
            },
        ))
}
