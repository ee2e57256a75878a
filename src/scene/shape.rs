//! One shape of a figure, any kind, drawn once and then kept up to date:
//! its geometry, classes and words are attributes and text read from its own
//! memo of the scene, so a step that changes the shape sets those on the
//! element already on the page (a move animates) and a step that leaves it
//! alone costs one comparison. A group draws its children the same way.
//!
//! What cannot change in place is the key: a shape's kind, its number of
//! arrowheads and whether it is clickable (which decides how its words are
//! written, see `views::page::naming::on_page`). A change of those draws the
//! shape anew.

use super::at::{self, ShapeAt};
use crate::dom::{keyed, s, text, words, El, Text};
use leptos::prelude::*;
use views::page::naming::accessible_name;
use views::page::svg::{anchor, arrowhead, arrowheads, draws, num, text_class, translate};
use views::{Kind, Scene, Shape};

/// What a shape's element is, as the last part of its row key: a change
/// draws the shape anew.
fn form(s: &Shape) -> String {
    let kind = match &s.kind {
        Kind::Rect { .. } => 'r',
        Kind::Circle { .. } => 'c',
        Kind::Line { .. } => 'l',
        Kind::Path { .. } => 'p',
        Kind::Text { .. } => 't',
        Kind::Group { .. } => 'g',
    };
    // Whether it has hover text: a clickable shape's when its label says
    // more than its words, any other's when it is labelled.
    let titled = match s.on_click {
        Some(_) => accessible_name(s).1.is_some(),
        None => s.label.is_some(),
    };
    let click = if s.on_click.is_some() { "b" } else { "" };
    let title = if titled { "t" } else { "" };
    format!("{kind}{}{click}{title}", arrowheads(s).len())
}

/// The row keys of the shapes among `shapes` that draw anything, with their
/// index: the shape's key, a separator no key holds, its form.
pub fn drawn(shapes: &[Shape]) -> Vec<(usize, String)> {
    let mut seen: Vec<&str> = Vec::new();
    shapes
        .iter()
        .enumerate()
        .filter(|(_, s)| draws(s))
        .map(|(i, s)| {
            // A key shared with earlier siblings gets which one it is (see
            // `at::AGAIN`): a keyed list needs unique keys.
            let before = seen.iter().filter(|k| **k == s.key).count();
            seen.push(&s.key);
            let key = match before {
                0 => s.key.clone(),
                n => format!("{}{}{n}", s.key, at::AGAIN),
            };
            (i, format!("{key}\u{1f}{}", form(s)))
        })
        .collect()
}

/// A row key's shape key and form.
fn split(row: &str) -> (String, String) {
    let (key, form) = row.rsplit_once('\u{1f}').unwrap_or((row, ""));
    (key.to_string(), form.to_string())
}

/// The shape without its children: what its own element shows.
fn alone(s: &Shape) -> Shape {
    match &s.kind {
        Kind::Group { x, y, .. } => Shape {
            key: s.key.clone(),
            kind: Kind::Group {
                x: *x,
                y: *y,
                children: Vec::new(),
            },
            class: s.class.clone(),
            state: s.state.clone(),
            label: s.label.clone(),
            focus: s.focus.clone(),
            on_click: s.on_click,
        },
        _ => s.clone(),
    }
}

fn joined(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ => format!("{a} {b}"),
    }
}

/// The SVG attributes of a shape's geometry, by kind.
fn geometry(kind: &Kind) -> Vec<(&'static str, String)> {
    match kind {
        Kind::Rect { x, y, w, h, r } => vec![
            ("x", num(*x)),
            ("y", num(*y)),
            ("width", num(w.max(0.0))),
            ("height", num(h.max(0.0))),
            ("rx", num(*r)),
        ],
        Kind::Circle { x, y, r } => vec![("cx", num(*x)), ("cy", num(*y)), ("r", num(*r))],
        Kind::Line { x1, y1, x2, y2, .. } => vec![
            ("x1", num(*x1)),
            ("y1", num(*y1)),
            ("x2", num(*x2)),
            ("y2", num(*y2)),
        ],
        Kind::Path { d, .. } => vec![("d", d.clone())],
        Kind::Text {
            x, y, anchor: a, ..
        } => vec![
            ("x", num(*x)),
            ("y", num(*y)),
            ("text-anchor", anchor(*a).to_string()),
        ],
        Kind::Group { .. } => Vec::new(),
    }
}

/// The element a kind is drawn as.
fn tag(kind: char) -> &'static str {
    match kind {
        'r' => "rect",
        'c' => "circle",
        'l' => "line",
        'p' => "path",
        't' => "text",
        _ => "g",
    }
}

/// The shape at `at`, drawn as `form`; `inside` when a shape around it is
/// clickable.
fn shape(scene: RwSignal<Scene>, at: ShapeAt, form: &str, inside: bool) -> El {
    let mut chars = form.chars();
    let kind = chars.next().unwrap_or('g');
    let heads = chars.next().and_then(|c| c.to_digit(10)).unwrap_or(0) as usize;
    let clickable = form.contains('b');
    // Parts of a button have no hover text of their own.
    let titled = form.contains('t') && (clickable || !inside);
    let key = at.key().to_string();
    let head = crate::dom::memo({
        let at = at.clone();
        move || scene.with(|s| at::shape(s, &at).map(alone))
    });
    let read = move |f: fn(&Shape) -> Option<String>| -> Text {
        text(move || head.with(|h| h.as_ref().and_then(f)))
    };
    // A clickable shape is named with the words it shows, its children's
    // too; its label, when it says more, is its hover text, drawn last.
    let name = clickable.then(|| {
        let at = at.clone();
        crate::dom::memo(move || {
            scene.with(|s| {
                at::shape(s, &at).map_or((None, None), |shape| {
                    let (name, hover) = accessible_name(shape);
                    (name, hover.map(str::to_string))
                })
            })
        })
    });
    // The hover text: a clickable shape's comes after its words (the name
    // reads as its text does), any other's first.
    let hover = move || match name {
        Some(name) => name.get().1.unwrap_or_default(),
        None => head.with(|h| h.as_ref().and_then(|h| h.label.clone()).unwrap_or_default()),
    };
    let title = move || titled.then(|| s("title").words(words(hover)));
    let (first_title, last_title) = if clickable {
        (None, title())
    } else {
        (title(), None)
    };
    let classes = move || {
        head.with(|h| {
            h.as_ref().map(|h| match &h.kind {
                Kind::Text { size, mono, .. } => joined(&text_class(*size, *mono), &h.class),
                _ if heads > 0 => joined("arrow", &h.class),
                _ => h.class.clone(),
            })
        })
    };
    let mut el = s(if heads > 0 { "g" } else { tag(kind) })
        .bind("class", text(classes))
        .bind("data-state", read(|h| h.state.clone()))
        .testid(key);
    if let Some(name) = name {
        el = el
            .bind("data-slot", read(|h| h.on_click.map(|s| s.to_string())))
            .set("role", "button")
            .set("tabindex", "0")
            .bind("aria-label", text(move || name.get().0));
    }
    // The geometry's attribute names come with the kind, which the key
    // fixes; their values follow the shape.
    let geo = crate::dom::memo(move || {
        head.with(|h| h.as_ref().map(|h| geometry(&h.kind)).unwrap_or_default())
    });
    let geometry_of = move || {
        geo.with_untracked(|all| all.iter().map(|(name, _)| *name).collect::<Vec<_>>())
            .into_iter()
            .enumerate()
            .map(move |(i, name)| {
                (
                    name,
                    text(move || geo.with(|all| all.get(i).map(|g| g.1.clone()))),
                )
            })
    };
    if heads > 0 {
        // With arrowheads: a group of the stroke and its heads.
        let mut stroke = s(tag(kind));
        for (name, value) in geometry_of() {
            stroke = stroke.bind(name, value);
        }
        let heads = (0..heads).map(|i| {
            s("path").class("head").bind(
                "d",
                text(move || {
                    head.with(|h| {
                        let h = h.as_ref()?;
                        arrowheads(h)
                            .get(i)
                            .map(|(from, tip)| arrowhead(*from, *tip))
                    })
                }),
            )
        });
        return el
            .maybe_child(first_title)
            .child(stroke)
            .children(heads)
            .maybe_child(last_title);
    }
    for (name, value) in geometry_of() {
        el = el.bind(name, value);
    }
    match kind {
        't' => {
            let spaced = inside || clickable;
            let said = words(move || {
                head.with(|h| match h.as_ref().map(|h| &h.kind) {
                    Some(Kind::Text { text, .. }) if spaced => format!("{text} "),
                    Some(Kind::Text { text, .. }) => text.clone(),
                    _ => String::new(),
                })
            });
            if titled {
                // A titled text keeps its words in a span beside its title.
                el.maybe_child(first_title)
                    .child(s("tspan").words(said))
                    .maybe_child(last_title)
            } else {
                el.words(said)
            }
        }
        'g' => {
            let within = inside || clickable;
            let children = crate::dom::memo({
                let at = at.clone();
                move || {
                    scene.with(|s| {
                        at::shape(s, &at)
                            .map(|g| drawn(g.children()))
                            .unwrap_or_default()
                    })
                }
            });
            el.style(
                "transform",
                text(move || {
                    head.with(|h| match h.as_ref().map(|h| &h.kind) {
                        Some(Kind::Group { x, y, .. }) => translate(*x, *y),
                        _ => None,
                    })
                }),
            )
            .maybe_child(first_title)
            .view_child(shapes(scene, at, move || children.get(), within))
            .maybe_child(last_title)
        }
        _ => el.maybe_child(first_title).maybe_child(last_title),
    }
}
/// The shapes below `at` that `each` lists, keyed.
pub fn shapes(
    scene: RwSignal<Scene>,
    at: ShapeAt,
    each: impl Fn() -> Vec<(usize, String)> + Send + Sync + 'static,
    inside: bool,
) -> AnyView {
    keyed(each, move |index, row| {
        let (key, form) = split(&row);
        shape(scene, at.child(index, key), &form, inside)
    })
}
