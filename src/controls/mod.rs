//! The one `Controls` component: it draws any demo's list of controls
//! (buttons, switches, choices, numbers, forms, groups, notes) from the
//! controls signal. Each control is keyed by its kind and id and reads its
//! own memo, so a Step restyles the controls that changed and leaves the
//! rest, and a form keeps what the learner is typing.
//!
//! A value the model owns (a switch, a slider, a choice) follows the model:
//! after the learner changes it, the element is set back to what the model
//! holds, so a refused change does not stay on screen as if it were taken.

mod form;

use crate::dom::{dynamic, flag, h, keyed, text, words, El, Happens, Text};
use crate::shell::page::Page;
use leptos::prelude::*;
use views::control::{Button, Choice, Control, Emphasis, Input, Number, Toggle};
use wasm_bindgen::JsCast;

/// A control's row key: its kind, then its id (a group's label, a note's
/// place). A control keeps its elements while its key stays.
fn key(index: usize, c: &Control) -> String {
    match c {
        Control::Button(b) => format!("b{}", b.id),
        Control::Toggle(t) => format!("t{}", t.id),
        Control::Choice(ch) if ch.dropdown => format!("d{}", ch.id),
        Control::Choice(ch) => format!("r{}", ch.id),
        Control::Number(n) => format!("{}{}", if n.slider { 's' } else { 'n' }, n.id),
        Control::Form(f) => format!("f{}", f.id),
        Control::Group(g) => format!("{}{}", if g.danger { '!' } else { 'g' }, g.label),
        Control::Note(_) => format!("p{index}"),
    }
}

fn keys(controls: &[Control]) -> Vec<(usize, String)> {
    controls
        .iter()
        .enumerate()
        .map(|(i, c)| (i, key(i, c)))
        .collect()
}

/// Where a control is: the index and key at each level of groups.
type At = Vec<(usize, String)>;

fn locate<'a>(controls: &'a [Control], at: &At) -> Option<&'a Control> {
    let mut list = controls;
    let mut found = None;
    for (index, want) in at {
        let control = match list.get(*index) {
            Some(c) if key(*index, c) == *want => c,
            _ => {
                list.iter()
                    .enumerate()
                    .find(|(i, c)| key(*i, c) == *want)?
                    .1
            }
        };
        if let Control::Group(g) = control {
            list = &g.controls;
        }
        found = Some(control);
    }
    found
}

/// The top-level rows in the order the panel shows them: the "Break it"
/// zone last on every demo, wherever the demo lists it.
fn panel_order(controls: &[Control]) -> Vec<(usize, String)> {
    let (breaks, mut rest): (Vec<_>, Vec<_>) = keys(controls)
        .into_iter()
        .partition(|(i, _)| matches!(&controls[*i], Control::Group(g) if g.danger));
    rest.extend(breaks);
    rest
}

/// The controls panel of `page`.
pub fn controls(page: Page) -> AnyView {
    let top = crate::dom::memo(move || page.controls.with(|c| panel_order(c)));
    keyed(
        move || top.get(),
        move |index, key| control(page, vec![(index, key)]),
    )
}

/// One control's memo, of the kind `pick` takes out of it.
fn memo<T: Clone + PartialEq + Send + Sync + 'static>(
    page: Page,
    at: &At,
    pick: fn(&Control) -> Option<&T>,
) -> Memo<Option<T>> {
    let at = at.clone();
    crate::dom::memo(move || {
        page.controls
            .with(|c| locate(c, &at).and_then(pick).cloned())
    })
}

/// What the page last said about control `id`.
fn message(page: Page, id: String) -> Memo<Option<String>> {
    crate::dom::memo(move || {
        page.messages
            .with(|all| all.iter().find(|(k, _)| *k == id).map(|(_, m)| m.clone()))
    })
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
/// out why (a disabled control could say nothing). The reason's element,
/// while there is one.
fn why(id: String, refused: Text) -> AnyView {
    dynamic(move || match refused.get() {
        Some(reason) => h("span")
            .set("id", format!("why-{id}"))
            .class("visually-hidden")
            .text(reason)
            .view(),
        None => ().into_any(),
    })
}

/// What a refused control points its description at.
fn described(id: &str, refused: Text) -> Text {
    let target = format!("why-{id}");
    text(move || refused.with(|r| r.as_ref().map(|_| target.clone())))
}

fn control(page: Page, at: At) -> El {
    let Some((_, key)) = at.last().cloned() else {
        return h("span");
    };
    let id = key[1..].to_string();
    match &key[..1] {
        "b" => button(page, &at, id),
        "t" => toggle(page, &at, id),
        "r" => radios(page, &at, id),
        "d" => dropdown(page, &at, id),
        "s" | "n" => number(page, &at, id, key.starts_with('s')),
        "f" => form::form(page, &at, id),
        "g" | "!" => group(page, at, key.starts_with('!')),
        _ => {
            let note = memo(page, &at, |c| match c {
                Control::Note(t) => Some(t),
                _ => None,
            });
            h("p")
                .class("hint")
                .words(words(move || note.get().unwrap_or_default()))
        }
    }
}

fn group(page: Page, at: At, danger: bool) -> El {
    let head = {
        let at = at.clone();
        crate::dom::memo(move || {
            page.controls.with(|c| match locate(c, &at) {
                Some(Control::Group(g)) => Some((g.label.clone(), keys(&g.controls))),
                _ => None,
            })
        })
    };
    let label = move || head.with(|h| h.as_ref().map(|h| h.0.clone()));
    // The danger zone is in the same place, with the same look and the same
    // test id, on every demo.
    let zone = if danger {
        h("div")
            .class("button-group danger-zone")
            .testid("break-it")
    } else {
        h("div").class("button-group")
    };
    zone.set("role", "group")
        .bind("aria-label", text(label))
        .child(
            h("span")
                .class("group-label")
                .words(words(move || label().unwrap_or_default())),
        )
        .view_child(keyed(
            move || head.with(|h| h.as_ref().map(|h| h.1.clone()).unwrap_or_default()),
            move |index, key| {
                let mut inner = at.clone();
                inner.push((index, key));
                control(page, inner)
            },
        ))
}

fn button(page: Page, at: &At, id: String) -> El {
    let b = memo(page, at, |c| match c {
        Control::Button(b) => Some(b),
        _ => None,
    });
    let get =
        move |f: fn(&Button) -> Option<String>| text(move || b.with(|b| b.as_ref().and_then(f)));
    let refused = get(|b| b.refused.clone());
    let sent = id.clone();
    h("span")
        .class("btn-wrap")
        .child(
            h("button")
                .set("type", "button")
                .bind(
                    "class",
                    get(|b| {
                        let mut class = format!("btn {}", emphasis_class(b.emphasis))
                            .trim_end()
                            .to_string();
                        if b.refused.is_some() {
                            class.push_str(" refused");
                        }
                        Some(class)
                    }),
                )
                .testid(id.clone())
                .bind("aria-describedby", described(&id, refused))
                .bind("title", refused)
                .on_click(move |_| {
                    if let Some(slot) = b.with_untracked(|b| b.as_ref().map(|b| b.send)) {
                        page.send(&sent, slot, Input::Press);
                    }
                })
                .words(words(move || {
                    b.with(|b| b.as_ref().map(|b| b.label.clone()).unwrap_or_default())
                })),
        )
        .view_child(why(id, refused))
}

fn toggle(page: Page, at: &At, id: String) -> El {
    let t = memo(page, at, |c| match c {
        Control::Toggle(t) => Some(t),
        _ => None,
    });
    let get =
        move |f: fn(&Toggle) -> Option<String>| text(move || t.with(|t| t.as_ref().and_then(f)));
    let on = flag(move || t.with(|t| t.as_ref().is_some_and(|t| t.on)));
    let refused = get(|t| t.refused.clone());
    let sent = id.clone();
    h("label")
        .bind(
            "class",
            get(|t| {
                Some(
                    format!("toggle {}", emphasis_class(t.emphasis))
                        .trim_end()
                        .to_string(),
                )
            }),
        )
        .child(
            h("input")
                .set("type", "checkbox")
                .set("role", "switch")
                .testid(id.clone())
                .bind(
                    "class",
                    text(move || refused.with(|r| r.as_ref().map(|_| "refused".to_string()))),
                )
                .bind("aria-describedby", described(&id, refused))
                .bind("title", refused)
                .prop_flag("checked", on)
                .on_event(Happens::Change, move |e| {
                    if let Some(slot) = t.with_untracked(|t| t.as_ref().map(|t| t.send)) {
                        page.send(&sent, slot, Input::Press);
                    }
                    if let Some(input) = target::<web_sys::HtmlInputElement>(&e) {
                        input.set_checked(on.get_untracked());
                    }
                }),
        )
        .child(h("span").class("toggle-label").words(words(move || {
            t.with(|t| t.as_ref().map(|t| t.label.clone()).unwrap_or_default())
        })))
        .child(h("span").class("toggle-state").words(words(move || {
            if on.get() { "on" } else { "off" }.to_string()
        })))
        .view_child(why(id, refused))
}

fn selected_value(c: &Choice) -> Option<String> {
    c.options.get(c.selected).map(|o| o.value.clone())
}

/// Sets every radio of the group the event came from to what the model
/// selected (`value`): the browser already moved the dot to the one clicked.
fn settle_radios(e: &web_sys::Event, value: Option<String>) {
    let Some(group) =
        target::<web_sys::Element>(e).and_then(|el| el.closest("fieldset").ok().flatten())
    else {
        return;
    };
    let Ok(inputs) = group.query_selector_all("input[type=radio]") else {
        return;
    };
    for i in 0..inputs.length() {
        if let Some(input) = inputs
            .item(i)
            .and_then(|n| n.dyn_into::<web_sys::HtmlInputElement>().ok())
        {
            input.set_checked(Some(input.value()) == value);
        }
    }
}

fn radios(page: Page, at: &At, id: String) -> El {
    let ch = memo(page, at, |c| match c {
        Control::Choice(ch) => Some(ch),
        _ => None,
    });
    let values = crate::dom::memo(move || {
        ch.with(|c| {
            c.as_ref()
                .map(|c| {
                    c.options
                        .iter()
                        .map(|o| o.value.clone())
                        .enumerate()
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    });
    let legend =
        words(move || ch.with(|c| c.as_ref().map(|c| c.legend.clone()).unwrap_or_default()));
    let option = move |_, value: String| {
        let id = id.clone();
        let label = {
            let value = value.clone();
            words(move || {
                ch.with(|c| {
                    c.as_ref()
                        .and_then(|c| c.options.iter().find(|o| o.value == value))
                        .map(|o| o.label.clone())
                        .unwrap_or_default()
                })
            })
        };
        let selected = {
            let value = value.clone();
            flag(move || {
                ch.with(|c| c.as_ref().and_then(selected_value)).as_deref() == Some(value.as_str())
            })
        };
        let sent = value.clone();
        h("label")
            .child(
                h("input")
                    .set("type", "radio")
                    .set("name", id.clone())
                    .set("value", value.clone())
                    .testid(format!("{id}-{value}"))
                    .prop_flag("checked", selected)
                    .on_event(Happens::Change, move |e| {
                        let slot = ch.with_untracked(|c| {
                            c.as_ref()?
                                .options
                                .iter()
                                .find(|o| o.value == sent)
                                .map(|o| o.send)
                        });
                        if let Some(slot) = slot {
                            page.send(&id, slot, Input::Press);
                        }
                        settle_radios(
                            &e,
                            ch.with_untracked(|c| c.as_ref().and_then(selected_value)),
                        );
                    }),
            )
            .child(h("span").words(label))
    };
    h("fieldset")
        .class("choice")
        .child(h("legend").words(legend))
        .view_child(keyed(move || values.get(), option))
}

fn dropdown(page: Page, at: &At, id: String) -> El {
    let ch = memo(page, at, |c| match c {
        Control::Choice(ch) => Some(ch),
        _ => None,
    });
    let legend =
        words(move || ch.with(|c| c.as_ref().map(|c| c.legend.clone()).unwrap_or_default()));
    let options = dynamic(move || {
        ch.with(|c| {
            c.as_ref()
                .map_or(&[][..], |c| &c.options[..])
                .iter()
                .map(|o| {
                    h("option")
                        .set("value", o.value.clone())
                        .text(o.label.clone())
                        .view()
                })
                .collect::<Vec<_>>()
                .into_any()
        })
    });
    let chosen =
        words(move || ch.with(|c| c.as_ref().and_then(selected_value).unwrap_or_default()));
    let sent = id.clone();
    h("label")
        .class("select")
        .child(h("span").class("select-label").words(legend))
        .child(
            h("select")
                .testid(id)
                .view_child(options)
                .prop("value", chosen)
                .on_event(Happens::Change, move |e| {
                    let Some(select) = target::<web_sys::HtmlSelectElement>(&e) else {
                        return;
                    };
                    let value = select.value();
                    let slot = ch.with_untracked(|c| {
                        c.as_ref()?
                            .options
                            .iter()
                            .find(|o| o.value == value)
                            .map(|o| o.send)
                    });
                    if let Some(slot) = slot {
                        page.send(&sent, slot, Input::Press);
                    }
                    select.set_value(&chosen.get_untracked());
                }),
        )
}

fn number(page: Page, at: &At, id: String, slider: bool) -> El {
    let n = memo(page, at, |c| match c {
        Control::Number(n) => Some(n),
        _ => None,
    });
    let said = message(page, id.clone());
    let get = move |f: fn(&Number) -> String| text(move || n.with(|n| n.as_ref().map(f)));
    let value =
        words(move || n.with(|n| n.as_ref().map(|n| n.value.to_string()).unwrap_or_default()));
    let shown = words(move || {
        n.with(|n| {
            n.as_ref()
                .map(|n| {
                    n.shown
                        .clone()
                        .unwrap_or_else(|| format!("{} {}", n.value, n.unit).trim_end().to_string())
                })
                .unwrap_or_default()
        })
    });
    let sent = id.clone();
    let msg_id = format!("{id}-msg");
    h("label")
        .class(if slider { "slider" } else { "number" })
        .child(h("span").class("slider-label").words(words(move || {
            n.with(|n| n.as_ref().map(|n| n.label.clone()).unwrap_or_default())
        })))
        .child(
            h("input")
                .set("type", if slider { "range" } else { "number" })
                .bind("min", get(|n| n.min.to_string()))
                .bind("max", get(|n| n.max.to_string()))
                .bind("step", get(|n| n.step.to_string()))
                .testid(id.clone())
                .bind(
                    "aria-valuetext",
                    text(move || n.with(|n| n.as_ref().and_then(|n| n.shown.clone()))),
                )
                .prop("value", value)
                .on_event(Happens::Change, move |e| {
                    let Some(input) = target::<web_sys::HtmlInputElement>(&e) else {
                        return;
                    };
                    let Some(slot) = n.with_untracked(|n| n.as_ref().map(|n| n.send)) else {
                        return;
                    };
                    let typed = input.value();
                    match typed.trim().parse::<i64>() {
                        Ok(number) => {
                            page.send(&sent, slot, Input::Number(number));
                            input.set_value(&value.get_untracked());
                        }
                        Err(_) => page.note(&sent, format!("“{typed}” is not a whole number.")),
                    }
                }),
        )
        .child(
            h("output")
                .class("slider-value")
                .testid(format!("{id}-value"))
                .words(shown),
        )
        .view_child(dynamic(move || match said.get() {
            Some(m) => h("span")
                .class("field-msg")
                .set("role", "status")
                .testid(msg_id.clone())
                .text(m)
                .view(),
            None => ().into_any(),
        }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use views::control::{Control, Group};

    fn group(label: &str, danger: bool) -> Control {
        Control::Group(Group {
            label: label.into(),
            danger,
            controls: vec![Control::Note(format!("{label} note"))],
        })
    }

    #[test]
    fn the_break_it_zone_comes_last_wherever_the_demo_lists_it() {
        let controls = vec![
            group("Break it", true),
            Control::Note("a note".into()),
            group("Load", false),
        ];
        let order: Vec<usize> = panel_order(&controls).into_iter().map(|(i, _)| i).collect();
        assert_eq!(order, [1, 2, 0]);
        // Each row keeps its own index: it is found again where it is.
        for (i, key) in panel_order(&controls) {
            assert!(locate(&controls, &vec![(i, key)]).is_some());
        }
    }
}
