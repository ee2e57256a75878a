//! The one `Scene` component: it draws any demo's picture (figures as SVG,
//! tables and lists as HTML, and the picture as text) from the scene signal.
//! Every part, shape, row and item is keyed by its stable key, and each
//! reads its own memo of the scene: a Step that changes three shapes of a
//! thousand sets the attributes of those three, on the nodes already on the
//! page, so the CSS transitions show what moved.

mod at;
mod figure;
mod list;
mod scale;
mod shape;
mod table;

use crate::dom::{h, keyed};
pub use figure::rove;
use leptos::prelude::*;
use views::page::naming::describe;
use views::{Part, Scene, Slot};

/// What a click on the picture sends: the id of what was clicked (for the
/// page's messages) and its slot.
pub type Click = Callback<(String, Slot)>;

/// The address a link in the picture to another page of the lab goes to,
/// from the path and query the scene gives (`views::Item::link`): the page
/// adds the site's base and the way back to itself.
pub type Onward = Callback<String, String>;

/// A part's row key: its kind and its key.
fn part_key(part: &Part) -> String {
    match part {
        Part::Figure(f) => format!("f{}", f.key),
        Part::Table(t) => format!("t{}", t.key),
        Part::List(l) => format!("l{}", l.key),
    }
}

/// The picture as text's lines as row keys: a line is its own key, so a
/// step redraws only the lines it changed (a paragraph each), and a line
/// said again gets which time it is (`at::numbered`).
fn said_once(lines: &[String]) -> Vec<(usize, String)> {
    at::numbered(lines.iter().map(String::as_str))
        .into_iter()
        .enumerate()
        .collect()
}

/// A line's words, from its row key.
fn said(key: &str) -> String {
    key.split(at::AGAIN).next().unwrap_or_default().to_string()
}

/// The picture of `scene`, and the picture as text.
/// `note` is said first in the picture as text (the open lesson stop's
/// question). `alone` is the key of the one figure shown, or empty for every
/// figure (a framed demo shows one at a time: `shell::figures`).
pub fn scene(
    scene: RwSignal<Scene>,
    click: Click,
    note: Signal<Option<String>>,
    onward: Onward,
    alone: RwSignal<String>,
) -> Vec<AnyView> {
    // A text of a figure that links to another page reads it (`shape::link`).
    provide_context(onward);
    let parts = crate::dom::memo(move || {
        scene.with(|s| s.parts.iter().map(part_key).enumerate().collect::<Vec<_>>())
    });
    let text = crate::dom::memo(move || scene.with(describe));
    let part = move |index: usize, row: String| {
        let key = row[1..].to_string();
        match &row[..1] {
            "f" => figure::figure(scene, (index, key), click, alone),
            "t" => table::table(scene, (index, key), click),
            _ => list::list(scene, (index, key), onward),
        }
    };
    vec![
        keyed(move || parts.get(), part),
        h("details")
            .class("as-text")
            .testid("as-text")
            .child(h("summary").text("The picture as text"))
            .view_child(keyed(
                move || {
                    let lines: Vec<String> = note.get().into_iter().chain(text.get()).collect();
                    said_once(&lines)
                },
                |_, line| h("p").text(said(&line)),
            ))
            .view(),
    ]
}

/// Draws `now` out of sight, changes it to `next`, and takes it down at the
/// next idle moment: a Step of the picture rehearsed, so that the code that
/// draws new shapes and patches old ones is compiled before the learner's
/// first Step (see `LiveDemo::rehearse`). Nothing of it reaches the page:
/// its elements are never put in the document, and a click there (there
/// can be none) would do nothing.
pub fn rehearse(now: Scene, next: Scene) {
    use leptos::tachys::view::Render;
    let owner = Owner::new();
    let (picture, drawn) = owner.with(|| {
        let picture = RwSignal::new(now);
        let drawn = scene(
            picture,
            Callback::new(|_| {}),
            Signal::stored(None),
            Callback::new(|to| to),
            RwSignal::new(String::new()),
        )
        .build();
        (picture, drawn)
    });
    // The patch runs in the effects' microtasks, before the next idle
    // moment takes the picture down.
    picture.set(next);
    crate::platform::when_idle(move || {
        drop(drawn);
        drop(owner);
    });
}

#[cfg(test)]
mod tests {
    use super::{said, said_once};

    #[test]
    fn a_line_said_twice_has_two_keys_and_the_same_words() {
        let lines = ["a".to_string(), "b".to_string(), "a".to_string()];
        let keys = said_once(&lines);
        assert_eq!(keys.len(), 3);
        assert_ne!(keys[0].1, keys[2].1);
        assert_eq!(said(&keys[2].1), "a");
        assert_eq!(said(&keys[1].1), "b");
    }
}
