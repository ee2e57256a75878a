//! Demo keyboard shortcuts: Space play/pause, → step, ← back, R reset, ? help.
//! Keys typed into a form control, or with a modifier, are left alone; Space
//! on a focused button presses that button, as it should.

use wasm_bindgen::JsCast;

/// The page action a key stands for, if any (`help_open`: the list is shown).
fn action(key: &str, pressable: bool, help_open: bool) -> Option<&'static str> {
    Some(match key {
        " " if !pressable => "play",
        "ArrowRight" => "step",
        "ArrowLeft" => "back",
        "r" | "R" => "reset",
        "?" => "help",
        "Escape" if help_open => "help-close",
        _ => return None,
    })
}

/// The page action a key press stands for, if any (`help_open`: the list
/// is shown).
pub fn shortcut(e: &web_sys::KeyboardEvent, help_open: bool) -> Option<&'static str> {
    if e.ctrl_key() || e.meta_key() || e.alt_key() || e.default_prevented() {
        return None;
    }
    let tag = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok())
        .map(|el| (el.tag_name(), el.is_content_editable()));
    let (tag, editable) = tag.unwrap_or_default();
    if editable || matches!(tag.as_str(), "INPUT" | "TEXTAREA" | "SELECT") {
        return None;
    }
    let pressable = matches!(tag.as_str(), "BUTTON" | "A" | "SUMMARY");
    action(&e.key(), pressable, help_open)
}
