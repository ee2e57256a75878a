//! Widgets shared by every demo, so every demo looks and behaves alike.

pub mod choice;
pub mod control_bar;
pub mod narration;
pub mod slider;
pub mod status_line;
pub mod toggle;
pub mod why_panel;
