//! The one `Scene` component: it draws any demo's picture (figures as SVG,
//! tables and lists as HTML, and the picture as text) from the scene signal.
//! Every part, shape, row and item is keyed by its stable key, and each
//! reads its own memo of the scene: a Step that changes three shapes of a
//! thousand sets the attributes of those three, on the nodes already on the
//! page, so the CSS transitions show what moved.

mod at;
mod figure;
mod list;
mod shape;
mod table;

use leptos::html;
use leptos::prelude::*;
use views::page::naming::describe;
use views::{Part, Scene, Slot};

/// What a click on the picture sends: the id of what was clicked (for the
/// page's messages) and its slot.
pub type Click = Callback<(String, Slot)>;

/// Which kind of part, and its key: a part keeps its nodes while both stay.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum PartKey {
    Figure(String),
    Table(String),
    List(String),
}

fn part_key(part: &Part) -> PartKey {
    match part {
        Part::Figure(f) => PartKey::Figure(f.key.clone()),
        Part::Table(t) => PartKey::Table(t.key.clone()),
        Part::List(l) => PartKey::List(l.key.clone()),
    }
}

/// The picture of `scene`, and the picture as text.
pub fn scene(scene: RwSignal<Scene>, click: Click) -> impl IntoView {
    let parts = Memo::new(move |_| {
        scene.with(|s| s.parts.iter().map(part_key).enumerate().collect::<Vec<_>>())
    });
    let text = Memo::new(move |_| scene.with(describe));
    (
        view! {
            <For each=move || parts.get() key=|(_, key)| key.clone() children=move |(index, key)| {
                match key {
                    PartKey::Figure(key) => figure::figure(scene, (index, key), click).into_any(),
                    PartKey::Table(key) => table::table(scene, (index, key), click).into_any(),
                    PartKey::List(key) => list::list(scene, (index, key)).into_any(),
                }
            } />
        },
        html::details()
            .class("as-text")
            .attr("data-testid", "as-text")
            .child((
                html::summary().child("The picture as text"),
                move || {
                    text.get()
                        .into_iter()
                        .map(|line| html::p().child(line))
                        .collect::<Vec<_>>()
                },
            )),
    )
}
