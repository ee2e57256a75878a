//! How a scene's shapes are written as SVG, for the page and the downloaded
//! figure alike: numbers, text anchors and size roles, arrowheads, and which
//! shapes draw anything at all.

use crate::scene::{Anchor, Kind, Shape, Size};

/// A coordinate as SVG wants it, to one decimal, without Rust's float
/// formatter (which would add ~20 KiB to the wasm for nothing).
pub fn num(v: f32) -> String {
    if !v.is_finite() {
        return "0".into();
    }
    // Written digit by digit: a big picture writes thousands of these per
    // step, and `format!` costs several times as much.
    let tenths = (v * 10.0).round() as i64;
    let t = tenths.unsigned_abs();
    let mut out = String::with_capacity(8);
    if tenths < 0 {
        out.push('-');
    }
    let mut digits = [0_u8; 20];
    let mut at = digits.len();
    let mut whole = t / 10;
    loop {
        at -= 1;
        digits[at] = b'0' + (whole % 10) as u8;
        whole /= 10;
        if whole == 0 {
            break;
        }
    }
    digits[at..].iter().for_each(|&d| out.push(char::from(d)));
    if !t.is_multiple_of(10) {
        out.push('.');
        out.push(char::from(b'0' + (t % 10) as u8));
    }
    out
}

/// The `text-anchor` of an anchor.
pub fn anchor(anchor: Anchor) -> &'static str {
    match anchor {
        Anchor::Start => "start",
        Anchor::Middle => "middle",
        Anchor::End => "end",
    }
}

/// The class of a text size role (`static/scene.css`).
pub fn size_class(size: Size) -> &'static str {
    match size {
        Size::Small => "t-small",
        Size::Normal => "",
        Size::Large => "t-large",
        Size::Title => "t-title",
    }
}

/// A text's classes: its size role, and `mono` for registers and addresses.
pub fn text_class(size: Size, mono: bool) -> String {
    let size = size_class(size);
    match (size.is_empty(), mono) {
        (_, false) => size.to_string(),
        (true, true) => "mono".into(),
        (false, true) => format!("{size} mono"),
    }
}

/// Whether a shape puts anything on the page. A text with no words, no label
/// and no click draws nothing, so it gets no element: pictures keep a slot
/// for a word that comes and goes (a cache way's place in the eviction
/// order, a descriptor's note), and on a first render those empty slots were
/// up to 300 elements. When the word comes, its element is inserted where a
/// fresh render puts it.
pub fn draws(s: &Shape) -> bool {
    !matches!(&s.kind, Kind::Text { text, .. } if text.is_empty())
        || s.label.is_some()
        || s.on_click.is_some()
}

/// The heads a line or path carries at its end and, for a two-way arrow,
/// its start: each as (the point it comes from, its tip).
pub fn arrowheads(s: &Shape) -> Vec<((f32, f32), (f32, f32))> {
    use crate::scene::Arrow;
    let (arrow, end, start) = match &s.kind {
        Kind::Line {
            x1,
            y1,
            x2,
            y2,
            arrow,
        } => (*arrow, [(*x1, *y1), (*x2, *y2)], [(*x2, *y2), (*x1, *y1)]),
        Kind::Path {
            arrow, start, end, ..
        } => (*arrow, *end, [start[1], start[0]]),
        _ => return Vec::new(),
    };
    match arrow {
        Arrow::None => Vec::new(),
        Arrow::End => vec![(end[0], end[1])],
        Arrow::Both => vec![(end[0], end[1]), (start[0], start[1])],
    }
}

/// A filled arrowhead's path data, its tip at `tip`, pointing away from
/// `from` (drawn as a path, so it takes the stroke's colour in any viewer).
pub fn arrowhead(from: (f32, f32), tip: (f32, f32)) -> String {
    let (dx, dy) = (tip.0 - from.0, tip.1 - from.1);
    let len = (dx * dx + dy * dy).sqrt().max(0.001);
    let (ux, uy) = (dx / len, dy / len);
    let (bx, by) = (tip.0 - 10.0 * ux, tip.1 - 10.0 * uy);
    let (nx, ny) = (-uy * 5.0, ux * 5.0);
    format!(
        "M{} {}L{} {}L{} {}Z",
        num(tip.0),
        num(tip.1),
        num(bx + nx),
        num(by + ny),
        num(bx - nx),
        num(by - ny)
    )
}

/// A group's move, as a CSS transform: set as a style property (never a
/// `style` attribute, which the page's Content Security Policy refuses), so
/// that moving the group animates.
pub fn translate(x: f32, y: f32) -> Option<String> {
    (x != 0.0 || y != 0.0).then(|| format!("translate({}px,{}px)", num(x), num(y)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Arrow;

    #[test]
    fn numbers_are_written_to_one_decimal() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(-3.25), "-3.3");
        assert_eq!(num(0.04), "0");
        assert_eq!(num(-0.04), "0");
        assert_eq!(num(171.55), "171.6");
        assert_eq!(num(f32::NAN), "0");
        assert_eq!(num(-12.0), "-12");
        assert_eq!(num(1_234_567.0), "1234567");
        assert_eq!(num(0.96), "1");
    }

    #[test]
    fn an_arrowhead_points_along_its_segment() {
        assert_eq!(arrowhead((0.0, 0.0), (20.0, 0.0)), "M20 0L10 5L10 -5Z");
        let line = Shape::line("l", (0.0, 0.0), (20.0, 0.0));
        assert!(arrowheads(&line).is_empty());
        let both = line.arrowhead(Arrow::Both);
        assert_eq!(
            arrowheads(&both),
            vec![((0.0, 0.0), (20.0, 0.0)), ((20.0, 0.0), (0.0, 0.0))]
        );
    }

    #[test]
    fn a_text_without_words_draws_nothing_unless_it_is_labelled_or_clickable() {
        assert!(!draws(&Shape::text("t", 0.0, 0.0, "")));
        assert!(draws(&Shape::text("t", 0.0, 0.0, "").label("nothing yet")));
        assert!(draws(&Shape::text("t", 0.0, 0.0, "").on_click(1)));
        assert!(draws(&Shape::rect("r", 0.0, 0.0, 1.0, 1.0)));
    }

    #[test]
    fn text_classes_join_size_and_monospace() {
        assert_eq!(text_class(Size::Normal, false), "");
        assert_eq!(text_class(Size::Normal, true), "mono");
        assert_eq!(text_class(Size::Small, true), "t-small mono");
        assert_eq!(translate(0.0, 0.0), None);
        assert_eq!(
            translate(1.5, -2.0).as_deref(),
            Some("translate(1.5px,-2px)")
        );
    }
}
