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

use crate::dom::{dynamic, h, keyed};
pub use figure::rove;
use leptos::prelude::*;
use views::page::naming::describe;
use views::{Part, Scene, Slot};

/// What a click on the picture sends: the id of what was clicked (for the
/// page's messages) and its slot.
pub type Click = Callback<(String, Slot)>;

/// A part's row key: its kind and its key.
fn part_key(part: &Part) -> String {
    match part {
        Part::Figure(f) => format!("f{}", f.key),
        Part::Table(t) => format!("t{}", t.key),
        Part::List(l) => format!("l{}", l.key),
    }
}

/// The picture of `scene`, and the picture as text.
/// `note` is said first in the picture as text (the open lesson stop's
/// question).
pub fn scene(scene: RwSignal<Scene>, click: Click, note: Signal<Option<String>>) -> Vec<AnyView> {
    let parts = crate::dom::memo(move || {
        scene.with(|s| s.parts.iter().map(part_key).enumerate().collect::<Vec<_>>())
    });
    let text = crate::dom::memo(move || scene.with(describe));
    let part = move |index: usize, row: String| {
        let key = row[1..].to_string();
        match &row[..1] {
            "f" => figure::figure(scene, (index, key), click),
            "t" => table::table(scene, (index, key), click),
            _ => list::list(scene, (index, key)),
        }
    };
    vec![
        keyed(move || parts.get(), part),
        h("details")
            .class("as-text")
            .testid("as-text")
            .child(h("summary").text("The picture as text"))
            .view_child(dynamic(move || {
                note.get()
                    .into_iter()
                    .chain(text.get())
                    .map(|line| h("p").text(line).view())
                    .collect::<Vec<_>>()
                    .into_any()
            }))
            .view(),
    ]
}
