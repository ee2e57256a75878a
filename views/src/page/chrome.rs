//! The words and choices of every demo page around its picture: autoplay
//! speeds, keyboard shortcuts, and how a narration line's tone is said.

use demos::Tone;

/// Autoplay speeds, in steps per second, as tenths.
pub const SPEEDS: &[(u32, &str)] = &[(5, "0.5×"), (10, "1×"), (20, "2×"), (40, "4×")];

/// The speed a page starts at, in tenths: one step a second.
pub const START_SPEED: u32 = 10;

/// Keyboard shortcuts, as the help lists them.
pub const SHORTCUTS: &[(&str, &str)] = &[
    ("Space", "play / pause"),
    ("→", "step"),
    ("←", "step back"),
    ("R", "reset"),
    ("?", "show or hide this list"),
    ("Esc", "close this list"),
];

/// `5` → `"0.5"`, `20` → `"2"`: the option values the tests and links use.
pub fn speed_value(tenths: u32) -> String {
    if tenths.is_multiple_of(10) {
        (tenths / 10).to_string()
    } else {
        format!("{}.{}", tenths / 10, tenths % 10)
    }
}

/// The speed an option value stands for, if it is one of [`SPEEDS`].
pub fn speed_of(value: &str) -> Option<u32> {
    SPEEDS
        .iter()
        .map(|(tenths, _)| *tenths)
        .find(|tenths| speed_value(*tenths) == value)
}

/// A tone's class, and the word before its line: tones are told apart by a
/// word as well as a colour.
pub fn tone_word(tone: Tone) -> (&'static str, &'static str) {
    match tone {
        Tone::Info => ("info", ""),
        Tone::Done => ("done", "Done: "),
        Tone::Warn => ("warn", "Careful: "),
        Tone::Fault => ("fault", "Fault: "),
        Tone::Refused => ("refused", "Refused: "),
    }
}

/// The play button's words.
pub fn play_label(playing: bool) -> &'static str {
    if playing {
        "❚❚ Pause"
    } else {
        "▶▶ Play"
    }
}

/// What the page says while a demo's code is on its way.
pub fn fetching(title: &str) -> String {
    format!("Loading the {title} model…")
}

/// What the page says when a demo's code could not be fetched.
pub fn failed(title: &str) -> String {
    format!("The code of {title} could not be fetched: the network or the server failed.")
}

/// What the lesson panel says while its code is on its way.
pub const LESSON_FETCHING: &str = "Opening the lesson…";

/// What the lesson panel says when its code could not be fetched.
pub const LESSON_FAILED: &str =
    "The lesson could not be fetched: the network or the server failed. The demo works without it.";

/// What the page says when the code that makes a figure's file could not
/// be fetched.
pub const FIGURE_FAILED: &str =
    "The figure could not be saved: its code could not be fetched (the network or the server failed).";

/// What the copy button reports.
pub fn copied(ok: bool) -> &'static str {
    if ok {
        "Link copied. It reopens this demo exactly as it is now."
    } else {
        "The browser blocked the clipboard: copy the link from the box."
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_speed_is_found_again_from_its_option_value() {
        for (tenths, _) in SPEEDS {
            assert_eq!(speed_of(&speed_value(*tenths)), Some(*tenths));
        }
        assert_eq!(speed_value(5), "0.5");
        assert_eq!(speed_of("3"), None);
        assert!(SPEEDS.iter().any(|(t, _)| *t == START_SPEED));
    }

    #[test]
    fn a_failed_fetch_names_the_demo() {
        assert!(failed("NAPI").contains("The code of NAPI could not be fetched"));
    }
}
