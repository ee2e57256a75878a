//! A form: fields the learner fills in, checked as they type, sent when
//! submitted. The fields carry only their starting text: what the learner
//! types stays until they submit, whatever the model does meanwhile.

use super::{memo, message, target, At};
use crate::shell::page::Page;
use leptos::prelude::*;
use leptos::{ev, html};
use views::control::{Control, Field, FieldKind, Form, Input};
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

fn field(f: &Field, form: &str, invalid: Memo<bool>) -> impl IntoView {
    let described = match &f.help {
        Some(_) => format!("{}-help {form}-msg", f.id),
        None => format!("{form}-msg"),
    };
    let invalid = move || invalid.get().to_string();
    let input = match f.kind {
        FieldKind::Code => html::textarea()
            .attr("rows", "7")
            .attr("spellcheck", "false")
            .class("mono")
            .attr("name", f.id.clone())
            .attr("data-testid", f.id.clone())
            .attr("data-field", "")
            .attr("aria-invalid", invalid)
            .attr("aria-describedby", described)
            .child(f.initial.clone())
            .into_any(),
        kind => {
            let (kind_attr, range) = match kind {
                FieldKind::Check => ("checkbox", None),
                FieldKind::Number { min, max } => ("number", Some((min.to_string(), max.to_string()))),
                _ => ("text", None),
            };
            let text = kind == FieldKind::Text;
            html::input()
                .attr("type", kind_attr)
                .attr("class", text.then_some("mono"))
                .attr("autocomplete", text.then_some("off"))
                .attr("spellcheck", text.then_some("false"))
                .attr("min", range.as_ref().map(|r| r.0.clone()))
                .attr("max", range.map(|r| r.1))
                .attr("value", (kind != FieldKind::Check).then(|| f.initial.clone()))
                .attr("checked", kind == FieldKind::Check && f.initial == "true")
                .attr("name", f.id.clone())
                .attr("data-testid", f.id.clone())
                .attr("data-field", "")
                .attr("aria-invalid", invalid)
                .attr("aria-describedby", described)
                .into_any()
        }
    };
    let class = match f.kind {
        FieldKind::Check => "field check",
        FieldKind::Code => "field code",
        _ => "field",
    };
    html::label().class(class).child((
        html::span().class("field-label").child(f.label.clone()),
        input,
        f.help.clone().map(|help| {
            html::span()
                .class("field-help")
                .id(format!("{}-help", f.id))
                .attr("data-testid", format!("{}-help", f.id))
                .child(help)
        }),
    ))
}

pub fn form(page: Page, at: &At, id: String) -> impl IntoView {
    let f = memo(page, at, |c| match c {
        Control::Form(f) => Some(f),
        _ => None,
    });
    let said = message(page, id.clone());
    let invalid = Memo::new(move |_| said.with(Option::is_some));
    // A code editor's errors quote the line they name: monospace, lines kept.
    let msg_class = move || {
        f.with(|f| {
            let code = f.as_ref().is_some_and(|f| f.fields.iter().any(|x| x.kind == FieldKind::Code));
            if code { "field-msg code-msg" } else { "field-msg" }
        })
    };
    let slot = move || f.with_untracked(|f| f.as_ref().map(|f| f.send));
    let fields = {
        let id = id.clone();
        move || f.with(|f| f.as_ref().map(|f: &Form| f.fields.iter().map(|x| field(x, &id, invalid)).collect::<Vec<_>>()))
    };
    let (typed, submitted) = (id.clone(), id.clone());
    html::form()
        .class("form")
        .attr("data-testid", format!("{id}-form"))
        .attr("novalidate", "")
        .on(ev::input, move |e| {
            let Some(el) = target::<web_sys::Element>(&e) else { return };
            if !el.has_attribute("data-field") {
                return;
            }
            let (Some(form), Some(slot)) = (el.closest("form").ok().flatten(), slot()) else {
                return;
            };
            page.check(&typed, slot, Input::Fields(values(&form)));
        })
        .on(ev::submit, move |e| {
            e.prevent_default();
            if let (Some(form), Some(slot)) = (target::<web_sys::Element>(&e), slot()) {
                page.send(&submitted, slot, Input::Fields(values(&form)));
            }
        })
        .child(html::fieldset().child((
            html::legend().child(move || f.with(|f| f.as_ref().map(|f| f.legend.clone()))),
            fields,
            html::button()
                .attr("type", "submit")
                .class("btn")
                .attr("data-testid", id.clone())
                .child(move || f.with(|f| f.as_ref().map(|f| f.submit.clone()))),
            html::p()
                .attr("class", msg_class)
                .attr("role", "status")
                .id(format!("{id}-msg"))
                .attr("data-testid", format!("{id}-msg"))
                .child(move || said.get().unwrap_or_default()),
        )))
}
