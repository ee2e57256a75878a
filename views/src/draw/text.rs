//! Text that must fit a width: words and captions broken into lines, and
//! the text shapes that draw the lines one under another. One home for the
//! rule, so every picture wraps the same way on a phone.

use crate::layout::SMALL_TEXT_DRAWN_UNITS;
use crate::scene::Shape;

/// A character of small text, at most, in ems: monospace is 0.6, and
/// proportional or bold text stays under it (7.6–7.9 units measured in
/// Chromium at 13).
const CHAR_EM: f32 = 0.6;

/// How wide `text` may be drawn as small text, in figure units: as large
/// as a screen may draw it ([`SMALL_TEXT_DRAWN_UNITS`]).
pub fn small_width(text: &str) -> f32 {
    len(text) as f32 * SMALL_TEXT_DRAWN_UNITS * CHAR_EM
}

/// Characters of small text that fit `width` figure units.
pub fn small_chars_in(width: f32) -> usize {
    (width / (SMALL_TEXT_DRAWN_UNITS * CHAR_EM)) as usize
}

/// A text shape at `x`, `width` wide: centred, unless that would cross `lo`
/// or `hi`, where it is anchored inside. Returns it with its extent. The one
/// rule for a label on an axis's end (a tick, a time).
pub fn inside(text: Shape, x: f32, width: f32, (lo, hi): (f32, f32)) -> (Shape, f32, f32) {
    let half = width / 2.0;
    if x + half > hi {
        (text.end(), x - width, x)
    } else if x - half < lo {
        (text.start(), x, x + width)
    } else {
        (text, x - half, x + half)
    }
}

fn len(s: &str) -> usize {
    s.chars().count()
}

/// `text` cut at spaces into lines of at most `max` characters (a word
/// longer than that gets a line of its own).
pub fn wrap_words(text: &str, max: usize) -> Vec<String> {
    pack(text.split(' '), " ", max)
}

/// `pieces` joined by `sep` into lines of at most `max` characters, greedily
/// (a piece longer than that gets a line of its own).
pub fn pack<'a>(pieces: impl IntoIterator<Item = &'a str>, sep: &str, max: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for piece in pieces {
        match lines.last_mut() {
            Some(line) if len(line) + len(sep) + len(piece) <= max => {
                line.push_str(sep);
                line.push_str(piece);
            }
            _ => lines.push(piece.to_string()),
        }
    }
    lines
}

/// A caption as lines of at most `max` characters, for a figure too narrow
/// for it on one line: broken between its ` · ` parts where it can, and
/// between words inside a part longer than a line.
pub fn wrap_caption(caption: &str, max: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for part in caption.split(" · ") {
        if !line.is_empty() {
            if len(&line) + 3 + len(part) <= max {
                line.push_str(" · ");
                line.push_str(part);
                continue;
            }
            lines.push(std::mem::take(&mut line));
        }
        for word in part.split(' ') {
            if !line.is_empty() && len(&line) + 1 + len(word) > max {
                lines.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// `pieces` as lines: each on its own line (a phone), or one line joined
/// by `sep`.
pub fn pieces_as_lines(each_on_its_own: bool, pieces: Vec<String>, sep: &str) -> Vec<String> {
    if each_on_its_own {
        pieces
    } else {
        vec![pieces.join(sep)]
    }
}

/// The key of line `i` (from 0) of a text broken into lines: the first
/// keeps `key`, so a text that wraps only on a phone keeps its wide key;
/// the others are `key-2`, `key-3`…
pub fn line_key(key: &str, i: usize) -> String {
    if i == 0 {
        key.to_string()
    } else {
        format!("{key}-{}", i + 1)
    }
}

/// Text shapes for `lines`, one under another `pitch` apart, keyed by
/// [`line_key`].
pub fn lines_of(key: &str, (x, y): (f32, f32), pitch: f32, lines: Vec<String>) -> Vec<Shape> {
    lines
        .into_iter()
        .enumerate()
        .map(|(i, line)| Shape::text(line_key(key, i), x, y + pitch * i as f32, line))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_that_would_cross_an_end_reads_inward() {
        use crate::scene::Anchor;
        let anchor = |x: f32| {
            let (shape, lo, hi) = inside(Shape::text("t", x, 0.0, "ab"), x, 20.0, (0.0, 100.0));
            let crate::scene::Kind::Text { anchor, .. } = shape.kind else {
                unreachable!("a text shape")
            };
            (anchor, lo, hi)
        };
        assert_eq!(anchor(50.0), (Anchor::Middle, 40.0, 60.0));
        assert_eq!(anchor(5.0), (Anchor::Start, 5.0, 25.0));
        assert_eq!(anchor(95.0), (Anchor::End, 75.0, 95.0));
        assert_eq!(small_chars_in(small_width("abcdefghij")), 10);
    }

    #[test]
    fn a_caption_breaks_between_its_parts_and_a_long_part_between_words() {
        assert_eq!(
            wrap_caption("L1: 4 sets × 2 ways · #1 = evicted next · showing 1", 24),
            ["L1: 4 sets × 2 ways", "#1 = evicted next", "showing 1"]
        );
        assert_eq!(wrap_caption("a · b · c", 24), ["a · b · c"]);
        assert_eq!(
            wrap_caption("one two three · four", 9),
            ["one two", "three", "four"]
        );
    }

    #[test]
    fn words_fill_a_line_and_a_long_word_keeps_its_own() {
        assert_eq!(wrap_words("a bb ccc dddd", 6), ["a bb", "ccc", "dddd"]);
        assert_eq!(wrap_words("abcdefgh ij", 4), ["abcdefgh", "ij"]);
    }

    #[test]
    fn lines_are_keyed_from_the_second_on() {
        let shapes = lines_of("note", (0.0, 10.0), 20.0, vec!["a".into(), "b".into()]);
        assert_eq!(shapes[0].key, "note");
        assert_eq!(shapes[1].key, "note-2");
    }
}
