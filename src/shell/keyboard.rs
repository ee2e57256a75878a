//! Demo keyboard shortcuts: Space play/pause, → step, ← back, R reset, ? help.
//! Keys typed into a form control, or with a modifier, are left alone; Space
//! on a focused button presses that button, as it should.

use crate::shell::page::Act;
use wasm_bindgen::JsCast;
use web_sys::Element;

/// The page action a key stands for, if any (`help_open`: the list is shown).
fn action(key: &str, pressable: bool, help_open: bool) -> Option<Act> {
    Some(match key {
        " " if !pressable => Act::Play,
        "ArrowRight" => Act::Step,
        "ArrowLeft" => Act::Back,
        "r" | "R" => Act::Reset,
        "?" => Act::Help,
        "Escape" if help_open => Act::HelpClose,
        _ => return None,
    })
}

/// The page action a key press stands for, if any (`help_open`: the list
/// is shown).
pub fn shortcut(e: &web_sys::KeyboardEvent, help_open: bool) -> Option<Act> {
    if e.ctrl_key() || e.meta_key() || e.alt_key() || e.default_prevented() {
        return None;
    }
    if typed_into_field(e) {
        return None;
    }
    let target = target(e);
    let tag = target.as_ref().map(Element::tag_name).unwrap_or_default();
    // A picture's clickable shape (an SVG element with role=button) is
    // pressed with Space as a button is.
    let shape = target.is_some_and(|el| el.get_attribute("role").as_deref() == Some("button"));
    let pressable = shape || matches!(tag.as_str(), "BUTTON" | "A" | "SUMMARY");
    action(&e.key(), pressable, help_open)
}

fn target(e: &web_sys::KeyboardEvent) -> Option<Element> {
    e.target().and_then(|t| t.dyn_into::<Element>().ok())
}

/// Whether the key goes into a form field (a text box, a list, an editable
/// region), which handles it itself.
pub fn typed_into_field(e: &web_sys::KeyboardEvent) -> bool {
    target(e)
        .as_ref()
        .and_then(|el| el.dyn_ref::<web_sys::HtmlElement>())
        .is_some_and(|el| {
            el.is_content_editable()
                || matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn space_plays_unless_a_button_has_focus_and_escape_only_closes_the_list() {
        assert_eq!(action(" ", false, false), Some(Act::Play));
        assert_eq!(action(" ", true, false), None);
        assert_eq!(action("R", false, false), Some(Act::Reset));
        assert_eq!(action("Escape", false, false), None);
        assert_eq!(action("Escape", false, true), Some(Act::HelpClose));
    }
}
