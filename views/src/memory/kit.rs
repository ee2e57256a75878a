//! Shapes the lock-free demos share: a titled panel of text lines (a thread,
//! an agent, a CPU), and a small two-line chip (a step, a slot).

use crate::scene::{Shape, Size};

/// Height of one line in a panel.
pub const LINE: f32 = 26.0;

/// One line of a panel: its text, and whether it is a value (monospace).
pub type Line = (String, bool);

/// A text line of a panel.
pub fn text(s: impl Into<String>) -> Line {
    (s.into(), false)
}

/// A value line (registers, pointers, numbers).
pub fn mono(s: impl Into<String>) -> Line {
    (s.into(), true)
}

/// The height of a panel with `lines` lines under its title.
pub fn panel_height(lines: usize) -> f32 {
    44.0 + LINE * lines as f32
}

/// A box at (`x`, `y`), `w` wide, with a title, a word on its right (the
/// state, so colour is never the only cue), and lines under it.
pub fn panel(
    key: impl Into<String>,
    (x, y, w): (f32, f32, f32),
    title: &str,
    word: &str,
    lines: &[Line],
) -> Shape {
    let mut shapes = vec![
        Shape::rect("box", x, y, w, panel_height(lines.len())).class("panel"),
        Shape::text("title", x + 12.0, y + 28.0, title)
            .start()
            .size(Size::Title),
        Shape::text("word", x + w - 12.0, y + 28.0, word)
            .end()
            .class("tone"),
    ];
    for (i, (line, is_mono)) in lines.iter().enumerate() {
        let t = Shape::text(
            format!("l{i}"),
            x + 12.0,
            y + 54.0 + LINE * i as f32,
            line.clone(),
        )
        .start();
        shapes.push(if *is_mono { t.mono() } else { t });
    }
    Shape::group(key, shapes)
}

/// A rounded box with a small word on top and a value under it.
pub fn chip(key: impl Into<String>, (x, y, w): (f32, f32, f32), top: &str, value: &str) -> Shape {
    let cx = x + w / 2.0;
    Shape::group(
        key,
        vec![
            Shape::rect("box", x, y, w, 44.0).rounded(6.0),
            Shape::text("top", cx, y + 17.0, top).size(Size::Small),
            Shape::text("value", cx, y + 37.0, value).mono(),
        ],
    )
}
