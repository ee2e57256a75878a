//! Demo keyboard shortcuts: Space play/pause, → step, ← back, R reset, ? help.
//! Keys typed into a form control, or with a modifier, are left alone; Space
//! on a focused button presses that button, as it should.

use crate::shell::page::Act;
use wasm_bindgen::JsCast;

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
    let target = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
    let tag = target
        .as_ref()
        .and_then(|el| el.dyn_ref::<web_sys::HtmlElement>())
        .map(|el| (el.tag_name(), el.is_content_editable()));
    let (tag, editable) = tag.unwrap_or_default();
    if editable || matches!(tag.as_str(), "INPUT" | "TEXTAREA" | "SELECT") {
        return None;
    }
    // A picture's clickable shape (an SVG element with role=button) is
    // pressed with Space as a button is.
    let shape = target.is_some_and(|el| el.get_attribute("role").as_deref() == Some("button"));
    let pressable = shape || matches!(tag.as_str(), "BUTTON" | "A" | "SUMMARY");
    action(&e.key(), pressable, help_open)
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
