//! What a picture says in words: the accessible name of a clickable shape,
//! and the picture as text.

use crate::scene::{Kind, Scene, Shape};
use crate::slot::Slot;

/// The picture in words, from the scene itself: its summary, then what each
/// labelled shape says.
pub fn describe(scene: &Scene) -> Vec<String> {
    let mut lines = vec![scene.summary.clone()];
    for figure in scene.figures() {
        let labels: Vec<&str> = figure
            .walk()
            .into_iter()
            .filter_map(|s| s.label.as_deref())
            .collect();
        if !labels.is_empty() {
            lines.push(format!("{}: {}.", figure.label, labels.join("; ")));
        }
    }
    lines
}

/// The words a shape shows, in the order they are drawn: its own text and
/// its children's.
pub fn visible_words(s: &Shape) -> Vec<&str> {
    match &s.kind {
        Kind::Text { text, .. } => text.split_whitespace().collect(),
        Kind::Group { children, .. } => children.iter().flat_map(visible_words).collect(),
        _ => Vec::new(),
    }
}

/// What a clickable shape is called (its `aria-label`), and the hover text
/// it keeps (its `<title>`, drawn after its texts). WCAG 2.5.3 "Label in
/// Name": a voice-control user says what they see ("click T1"), which only
/// works when the name holds the visible text; axe-core checks it as
/// `label-content-name-mismatch`, and counts a `<title>` as visible text. So
/// the name is the shown words, then the label; a label that only repeats
/// the shown words is the name alone, with no hover text.
pub fn accessible_name(s: &Shape) -> (Option<String>, Option<&str>) {
    let shown = visible_words(s).join(" ");
    match s.label.as_deref() {
        None if shown.is_empty() => (None, None),
        None => (Some(shown), None),
        Some(label) if shown.is_empty() => (Some(label.to_string()), Some(label)),
        Some(label) if same_words(label, &shown) => (Some(label.to_string()), None),
        Some(label) => (Some(format!("{shown}: {label}")), Some(label)),
    }
}

/// Whether two texts say the same words, ignoring case and punctuation (as
/// axe-core compares them). Case is ignored for ASCII letters only: Unicode
/// lowercasing brings its tables into the main module (3.2 KB of code and
/// more of data), and a word that differs only in the case of another
/// letter counts as different, which gives a longer name, never a wrong one.
fn same_words(a: &str, b: &str) -> bool {
    let words = |t: &str| -> Vec<String> {
        t.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_ascii_lowercase)
            .collect()
    };
    words(a) == words(b)
}

/// Where a shape's hover text goes, and how its words are written, on the
/// page. A clickable shape's hover text comes after its texts, so that the
/// text of the button reads as its name does; inside a clickable shape,
/// parts have no hover text of their own (the button's name speaks for
/// them, and a title of theirs would be read as part of its visible text),
/// and each text ends with a space: the text of a button is its texts run
/// together, and without it "T1" and "ready" read as one word "T1ready"
/// (SVG layout drops a trailing space, so nothing moves).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OnPage {
    /// The `<title>` drawn before the shape's own text or children.
    pub title_first: Option<String>,
    /// The `<title>` drawn after them (a clickable shape's hover text).
    pub title_last: Option<String>,
    /// A clickable shape's name and the slot it sends.
    pub button: Option<(Option<String>, Slot)>,
    /// The words of a text shape, as the page writes them.
    pub text: Option<String>,
}

/// How `s` is written on the page, `inside_button` when a shape around it
/// is clickable.
pub fn on_page(s: &Shape, inside_button: bool) -> OnPage {
    let text = match &s.kind {
        Kind::Text { text, .. } if inside_button || s.on_click.is_some() => {
            Some(format!("{text} "))
        }
        Kind::Text { text, .. } => Some(text.clone()),
        _ => None,
    };
    if let Some(slot) = s.on_click {
        let (name, hover) = accessible_name(s);
        return OnPage {
            title_first: None,
            title_last: hover.map(str::to_string),
            button: Some((name, slot)),
            text,
        };
    }
    OnPage {
        title_first: if inside_button { None } else { s.label.clone() },
        title_last: None,
        button: None,
        text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn thread_box(label: &str) -> Shape {
        Shape::group(
            "thread-1",
            vec![
                Shape::rect("box", 0.0, 0.0, 40.0, 20.0).label("a part's own label"),
                Shape::text("name", 2.0, 10.0, "T1"),
                Shape::text("word", 20.0, 10.0, "ready"),
            ],
        )
        .label(label)
        .on_click(3)
    }

    /// The page's text of a shape, in drawing order: as the browser reads a
    /// button's visible text.
    fn page_text(s: &Shape, inside: bool) -> String {
        let on = on_page(s, inside);
        let inside = inside || on.button.is_some();
        let mut out = on.title_first.clone().unwrap_or_default();
        out += on.text.as_deref().unwrap_or("");
        for child in s.children() {
            out += &page_text(child, inside);
        }
        out += on.title_last.as_deref().unwrap_or("");
        out
    }

    #[test]
    fn a_clickable_shape_is_named_with_the_words_it_shows() {
        // The label alone hid "T1 ready" from a voice-control user.
        let shape = thread_box("next: load · 0/3");
        let on = on_page(&shape, false);
        assert_eq!(
            on.button,
            Some((Some("T1 ready: next: load · 0/3".into()), 3))
        );
        // The page's text of the button, in order, is what its name says:
        // the texts end with a space (no "T1ready"), the hover text is last,
        // and the parts' own labels are not drawn.
        assert_eq!(page_text(&shape, false), "T1 ready next: load · 0/3");
        // A label that only repeats the shown words is the name, no title.
        let on = on_page(&thread_box("t1 READY"), false);
        assert_eq!(on.button, Some((Some("t1 READY".into()), 3)));
        assert_eq!(on.title_last, None);
        // Outside a button, a text is as written and a label is its title.
        let plain = on_page(&Shape::text("t", 0.0, 0.0, "T1").label("l"), false);
        assert_eq!(plain.text.as_deref(), Some("T1"));
        assert_eq!(plain.title_first.as_deref(), Some("l"));
    }

    #[test]
    fn the_picture_as_text_lists_each_figures_labels() {
        let mut figure = crate::scene::Figure::new("fig", "A picture", 100.0, 50.0);
        figure.push(Shape::rect("a", 0.0, 0.0, 10.0, 10.0).label("box a"));
        figure.push(Shape::rect("b", 0.0, 0.0, 10.0, 10.0));
        let scene = Scene::new("t", "Summary.").figure(figure);
        assert_eq!(describe(&scene), vec!["Summary.", "A picture: box a."]);
    }
}
