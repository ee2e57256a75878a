//! Listening once per page: every control and clickable shape carries
//! `data-slot`, and these functions turn a browser event into what the
//! learner did, for the live demo. Nothing here knows any demo.

use crate::render::patch::slot_of;
use views::control::Input;
use views::Slot;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, Event, KeyboardEvent, MouseEvent};

/// What an event amounts to, with the id of the control it concerns.
pub enum Sent {
    /// Use the control (press, new value, submitted fields).
    Send(String, Slot, Input),
    /// Only check a form's fields as they are typed.
    Check(String, Slot, Input),
    /// A message about the control (a value the page could not read).
    Note(String, String),
}

fn testid(el: &Element) -> String {
    el.get_attribute("data-testid").unwrap_or_default()
}

fn is(el: &Element, tag: &str) -> bool {
    el.tag_name().eq_ignore_ascii_case(tag)
}

/// A DOM property of `el` (`value`, `checked`, …), read live.
pub fn property(el: &Element, name: &str) -> JsValue {
    js_sys::Reflect::get(el.as_ref(), &JsValue::from_str(name)).unwrap_or(JsValue::NULL)
}

fn target_element(e: &Event) -> Option<Element> {
    e.target()?.dyn_into::<Element>().ok()
}

/// Buttons and clickable shapes.
pub fn on_click(e: &MouseEvent) -> Option<Sent> {
    let (el, slot) = slot_of(e.target())?;
    let pressable = is(&el, "button") || el.get_attribute("role").as_deref() == Some("button");
    (pressable && !is(&el, "form")).then(|| Sent::Send(testid(&el), slot, Input::Press))
}

/// Enter or Space on a clickable shape (HTML buttons press themselves).
pub fn on_key(e: &KeyboardEvent) -> Option<Sent> {
    if !matches!(e.key().as_str(), "Enter" | " ") {
        return None;
    }
    let (el, slot) = slot_of(e.target())?;
    if el.get_attribute("role").as_deref() == Some("button") && !is(&el, "button") {
        e.prevent_default();
        return Some(Sent::Send(testid(&el), slot, Input::Press));
    }
    None
}

/// Switches, options, drop-downs and number controls apply on change; a
/// form's own fields wait for its submit.
pub fn on_change(e: &Event) -> Option<Sent> {
    let target = target_element(e)?;
    if target.has_attribute("data-field") {
        return None;
    }
    if is(&target, "select") && target.has_attribute("data-choice") {
        // Each option carries its own slot; the select's value is the option's name.
        let index = property(&target, "selectedIndex").as_f64().unwrap_or(-1.0);
        let option = target
            .query_selector_all("option")
            .ok()
            .and_then(|all| all.item(index as u32))
            .and_then(|node| node.dyn_into::<Element>().ok());
        let slot = option?.get_attribute("data-slot")?.parse().ok()?;
        return Some(Sent::Send(testid(&target), slot, Input::Press));
    }
    let (el, slot) = slot_of(Some(target.into()))?;
    if !is(&el, "input") {
        return None;
    }
    let id = testid(&el);
    match el.get_attribute("type").as_deref() {
        Some("checkbox" | "radio") => Some(Sent::Send(id, slot, Input::Press)),
        Some("range" | "number") => {
            let text = property(&el, "value").as_string().unwrap_or_default();
            Some(match text.trim().parse::<i64>() {
                Ok(n) => Sent::Send(id, slot, Input::Number(n)),
                Err(_) => Sent::Note(id, format!("“{text}” is not a whole number.")),
            })
        }
        _ => None,
    }
}

/// The values of a form's fields, in order.
fn fields(form: &Element) -> Vec<String> {
    let Ok(list) = form.query_selector_all("[data-field]") else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into::<Element>().ok())
        .map(|field| {
            if field.get_attribute("type").as_deref() == Some("checkbox") {
                property(&field, "checked")
                    .as_bool()
                    .unwrap_or(false)
                    .to_string()
            } else {
                property(&field, "value").as_string().unwrap_or_default()
            }
        })
        .collect()
}

fn form_id(form: &Element) -> String {
    testid(form).trim_end_matches("-form").to_string()
}

/// Typing in a form: say at once what is wrong, send nothing.
pub fn on_input(e: &Event) -> Option<Sent> {
    let target = target_element(e)?;
    if !target.has_attribute("data-field") {
        return None;
    }
    let (form, slot) = slot_of(Some(target.into()))?;
    Some(Sent::Check(
        form_id(&form),
        slot,
        Input::Fields(fields(&form)),
    ))
}

/// Submitting a form sends its fields.
pub fn on_submit(e: &Event) -> Option<Sent> {
    e.prevent_default();
    let form = target_element(e)?;
    let slot = form.get_attribute("data-slot")?.parse().ok()?;
    Some(Sent::Send(
        form_id(&form),
        slot,
        Input::Fields(fields(&form)),
    ))
}

/// Arrow keys, Home and End on a clickable shape move focus among the
/// clickable shapes of its picture (a roving tab index: the picture is one
/// Tab stop, `views::page::scene::figure`). True when the key was used;
/// the key is then not a page shortcut (→ is Step elsewhere).
pub fn rove(e: &KeyboardEvent) -> bool {
    let key = e.key();
    let step: isize = match key.as_str() {
        "ArrowRight" | "ArrowDown" => 1,
        "ArrowLeft" | "ArrowUp" => -1,
        "Home" => isize::MIN,
        "End" => isize::MAX,
        _ => return false,
    };
    if e.ctrl_key() || e.meta_key() || e.alt_key() {
        return false;
    }
    let Some(here) = target_element(e) else {
        return false;
    };
    if here.get_attribute("role").as_deref() != Some("button") || is(&here, "button") {
        return false;
    }
    let Some(picture) = here.closest("svg.scene").ok().flatten() else {
        return false;
    };
    let Ok(all) = picture.query_selector_all("[role=button][data-slot]") else {
        return false;
    };
    let shapes: Vec<Element> = (0..all.length())
        .filter_map(|i| all.item(i)?.dyn_into::<Element>().ok())
        .collect();
    let Some(at) = shapes.iter().position(|s| *s == here) else {
        return false;
    };
    let last = shapes.len() - 1;
    let to = match step {
        isize::MIN => 0,
        isize::MAX => last,
        1 => (at + 1).min(last),
        _ => at.saturating_sub(1),
    };
    e.prevent_default();
    if to != at {
        let _ = here.set_attribute("tabindex", "-1");
        let _ = shapes[to].set_attribute("tabindex", "0");
        focus(&shapes[to]);
    }
    true
}

/// Focuses `el`, HTML or SVG (both have `focus()`; web-sys binds it on each
/// kind separately).
pub fn focus(el: &Element) {
    if let Ok(f) = js_sys::Reflect::get(el.as_ref(), &JsValue::from_str("focus")) {
        if let Some(f) = f.dyn_ref::<js_sys::Function>() {
            let _ = f.call0(el.as_ref());
        }
    }
}
