//! A form: fields the learner fills in, checked as they type, sent when
//! submitted. The fields carry only their starting text: what the learner
//! types stays until they submit, whatever the model does meanwhile.

use super::{memo, message, target, At};
use crate::dom::{dynamic, h, text, words, El, Happens};
use crate::shell::page::Page;
use leptos::prelude::*;
use views::control::{Control, Field, FieldKind, Input};
use wasm_bindgen::JsCast;

/// The values of a form's fields, in order.
fn values(form: &web_sys::Element) -> Vec<String> {
    let Ok(list) = form.query_selector_all("[data-field]") else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i))
        .map(|field| {
            if let Some(input) = field.dyn_ref::<web_sys::HtmlInputElement>() {
                if input.type_() == "checkbox" {
                    input.checked().to_string()
                } else {
                    input.value()
                }
            } else if let Some(area) = field.dyn_ref::<web_sys::HtmlTextAreaElement>() {
                area.value()
            } else {
                String::new()
            }
        })
        .collect()
}

fn field(f: &Field, form: &str, invalid: Memo<bool>) -> El {
    let described = match &f.help {
        Some(_) => format!("{}-help {form}-msg", f.id),
        None => format!("{form}-msg"),
    };
    let input = match f.kind {
        FieldKind::Code => h("textarea")
            .set("rows", "7")
            .set("spellcheck", "false")
            .class("mono")
            .text(f.initial.clone()),
        FieldKind::Check => {
            let input = h("input").set("type", "checkbox");
            if f.initial == "true" {
                input.set("checked", "")
            } else {
                input
            }
        }
        FieldKind::Number { min, max } => h("input")
            .set("type", "number")
            .set("min", min.to_string())
            .set("max", max.to_string())
            .set("value", f.initial.clone()),
        FieldKind::Text => h("input")
            .set("type", "text")
            .class("mono")
            .set("autocomplete", "off")
            .set("spellcheck", "false")
            .set("value", f.initial.clone()),
    };
    let input = input
        .set("name", f.id.clone())
        .testid(f.id.clone())
        .set("data-field", "")
        .bind(
            "aria-invalid",
            text(move || Some(invalid.get().to_string())),
        )
        .set("aria-describedby", described);
    let class = match f.kind {
        FieldKind::Check => "field check",
        FieldKind::Code => "field code",
        _ => "field",
    };
    h("label")
        .class(class)
        .child(h("span").class("field-label").text(f.label.clone()))
        .child(input)
        .maybe_child(f.help.clone().map(|help| {
            h("span")
                .class("field-help")
                .set("id", format!("{}-help", f.id))
                .testid(format!("{}-help", f.id))
                .text(help)
        }))
}

pub fn form(page: Page, at: &At, id: String) -> El {
    let f = memo(page, at, |c| match c {
        Control::Form(f) => Some(f),
        _ => None,
    });
    let said = message(page, id.clone());
    let invalid = crate::dom::memo(move || said.with(Option::is_some));
    // A code editor's errors quote the line they name: monospace, lines kept.
    let msg_class = text(move || {
        f.with(|f| {
            let code = f
                .as_ref()
                .is_some_and(|f| f.fields.iter().any(|x| x.kind == FieldKind::Code));
            Some(
                if code {
                    "field-msg code-msg"
                } else {
                    "field-msg"
                }
                .to_string(),
            )
        })
    });
    let slot = move || f.with_untracked(|f| f.as_ref().map(|f| f.send));
    // The fields, drawn again only when the form asks for other fields.
    let shape = crate::dom::memo(move || {
        f.with(|f| f.as_ref().map(|f| f.fields.clone()).unwrap_or_default())
    });
    let fields = {
        let id = id.clone();
        dynamic(move || {
            shape
                .get()
                .iter()
                .map(|x| field(x, &id, invalid).view())
                .collect::<Vec<_>>()
                .into_any()
        })
    };
    let (typed, submitted) = (id.clone(), id.clone());
    h("form")
        .class("form")
        .testid(format!("{id}-form"))
        .set("novalidate", "")
        .on_event(Happens::Input, move |e| {
            let Some(el) = target::<web_sys::Element>(&e) else {
                return;
            };
            if !el.has_attribute("data-field") {
                return;
            }
            let (Some(form), Some(slot)) = (el.closest("form").ok().flatten(), slot()) else {
                return;
            };
            page.check(&typed, slot, Input::Fields(values(&form)));
        })
        .on_event(Happens::Submit, move |e| {
            e.prevent_default();
            if let (Some(form), Some(slot)) = (target::<web_sys::Element>(&e), slot()) {
                page.send(&submitted, slot, Input::Fields(values(&form)));
            }
        })
        .child(
            h("fieldset")
                .child(h("legend").words(words(move || {
                    f.with(|f| f.as_ref().map(|f| f.legend.clone()).unwrap_or_default())
                })))
                .view_child(fields)
                .child(
                    h("button")
                        .set("type", "submit")
                        .class("btn")
                        .testid(id.clone())
                        .words(words(move || {
                            f.with(|f| f.as_ref().map(|f| f.submit.clone()).unwrap_or_default())
                        })),
                )
                .child(
                    h("p")
                        .bind("class", msg_class)
                        .set("role", "status")
                        .set("id", format!("{id}-msg"))
                        .testid(format!("{id}-msg"))
                        .words(words(move || said.get().unwrap_or_default())),
                ),
        )
}
