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
use crate::bind::text;
use leptos::either::Either;
use leptos::prelude::*;
use leptos::svg;
use views::page::naming::accessible_name;
use views::page::svg::{anchor as anchor_word, arrowhead, arrowheads, draws, num, text_class, translate};
use views::{Kind, Scene, Shape};

/// What a shape's element is: changing it draws the shape anew.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Form {
    kind: u8,
    heads: usize,
    clickable: bool,
}

const RECT: u8 = 0;
const CIRCLE: u8 = 1;
const LINE: u8 = 2;
const PATH: u8 = 3;
const TEXT: u8 = 4;
const GROUP: u8 = 5;

fn form(s: &Shape) -> Form {
    let kind = match &s.kind {
        Kind::Rect { .. } => RECT,
        Kind::Circle { .. } => CIRCLE,
        Kind::Line { .. } => LINE,
        Kind::Path { .. } => PATH,
        Kind::Text { .. } => TEXT,
        Kind::Group { .. } => GROUP,
    };
    Form {
        kind,
        heads: arrowheads(s).len(),
        clickable: s.on_click.is_some(),
    }
}

/// The shapes among `shapes` that draw anything, with their index and key.
pub fn drawn(shapes: &[Shape]) -> Vec<(usize, (String, Form))> {
    shapes
        .iter()
        .enumerate()
        .filter(|(_, s)| draws(s))
        .map(|(i, s)| (i, (s.key.clone(), form(s))))
        .collect()
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

/// A geometry attribute of one kind of shape, read from its memo.
macro_rules! geo {
    ($head:ident, $kind:ident { $($field:ident),* } => $value:expr) => {
        text(move || {
            $head.with(|h| match h.as_ref().map(|h| &h.kind) {
                Some(Kind::$kind { $($field,)* .. }) => Some($value),
                _ => None,
            })
        })
    };
}

/// What every shape's element carries: classes, state word, test hook and,
/// when clickable, what makes it a button.
macro_rules! common {
    ($el:expr, $head:ident, $key:expr, $classes:expr, $name:expr, $slot:expr) => {
        $el.attr("class", text(move || $head.with(|h| h.as_ref().map($classes))))
            .attr("data-state", text(move || $head.with(|h| h.as_ref().and_then(|h| h.state.clone()))))
            .attr("data-testid", Some($key))
            .attr("data-slot", $slot)
            .attr("role", $name.map(|_| "button".to_string()))
            .attr("tabindex", $name.map(|_| "0".to_string()))
            .attr("aria-label", text(move || $name.and_then(|name: Memo<(Option<String>, Option<String>)>| name.get().0)))
    };
}

fn joined(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ => format!("{a} {b}"),
    }
}

/// The shape at `at`, drawn as `form`; `inside` when a shape around it is
/// clickable.
pub fn shape(scene: RwSignal<Scene>, at: ShapeAt, form: Form, inside: bool) -> AnyView {
    let key = at.key().to_string();
    let head = Memo::new({
        let at = at.clone();
        move |_| scene.with(|s| at::shape(s, &at).map(alone))
    });
    // A clickable shape is named with the words it shows, its children's
    // too; its label, when it says more, is its hover text, drawn last.
    let name = form.clickable.then(|| {
        let at = at.clone();
        Memo::new(move |_| {
            scene.with(|s| {
                at::shape(s, &at).map_or((None, None), |shape| {
                    let (name, hover) = accessible_name(shape);
                    (name, hover.map(str::to_string))
                })
            })
        })
    });
    let slot = text(move || head.with(|h| h.as_ref().and_then(|h| h.on_click).map(|s| s.to_string())));
    // Parts of a button have no hover text of their own.
    let titled = !inside && !form.clickable;
    let first_title = move || {
        titled
            .then(|| head.with(|h| h.as_ref().and_then(|h| h.label.clone())))
            .flatten()
            .map(|t| svg::title().child(t))
    };
    let last_title = move || {
        name.and_then(|n| n.get().1).map(|t| svg::title().child(t))
    };
    let plain = |h: &Shape| h.class.clone();
    match form.kind {
        RECT => common!(
            svg::rect()
                .attr("x", geo!(head, Rect { x } => num(*x)))
                .attr("y", geo!(head, Rect { y } => num(*y)))
                .attr("width", geo!(head, Rect { w } => num(w.max(0.0))))
                .attr("height", geo!(head, Rect { h } => num(h.max(0.0))))
                .attr("rx", geo!(head, Rect { r } => num(*r))),
            head, key, plain, name, slot
        )
        .child((first_title, last_title))
        .into_any(),
        CIRCLE => common!(
            svg::circle()
                .attr("cx", geo!(head, Circle { x } => num(*x)))
                .attr("cy", geo!(head, Circle { y } => num(*y)))
                .attr("r", geo!(head, Circle { r } => num(*r))),
            head, key, plain, name, slot
        )
        .child((first_title, last_title))
        .into_any(),
        LINE | PATH => {
            let stroke = if form.kind == LINE {
                Either::Left(
                    svg::line()
                        .attr("x1", geo!(head, Line { x1 } => num(*x1)))
                        .attr("y1", geo!(head, Line { y1 } => num(*y1)))
                        .attr("x2", geo!(head, Line { x2 } => num(*x2)))
                        .attr("y2", geo!(head, Line { y2 } => num(*y2))),
                )
            } else {
                Either::Right(svg::path().attr("d", geo!(head, Path { d } => d.clone())))
            };
            if form.heads == 0 {
                // A bare stroke carries everything itself.
                let stroke = match stroke {
                    Either::Left(line) => common!(line, head, key, plain, name, slot)
                        .child((first_title, last_title))
                        .into_any(),
                    Either::Right(path) => common!(path, head, key, plain, name, slot)
                        .child((first_title, last_title))
                        .into_any(),
                };
                return stroke;
            }
            // With arrowheads: a group of the stroke and its heads.
            let heads: Vec<_> = (0..form.heads)
                .map(|i| {
                    svg::path().attr("class", Some("head".to_string())).attr(
                        "d",
                        text(move || {
                            head.with(|h| {
                                let h = h.as_ref()?;
                                arrowheads(h).get(i).map(|(from, tip)| arrowhead(*from, *tip))
                            })
                        }),
                    )
                })
                .collect();
            common!(
                svg::g(),
                head,
                key,
                |h: &Shape| joined("arrow", &h.class),
                name,
                slot
            )
            .child((first_title, stroke, heads, last_title))
            .into_any()
        }
        TEXT => {
            let spaced = inside || form.clickable;
            let body = move || {
                let words = head.with(|h| match h.as_ref().map(|h| &h.kind) {
                    Some(Kind::Text { text, .. }) if spaced => format!("{text} "),
                    Some(Kind::Text { text, .. }) => text.clone(),
                    _ => String::new(),
                });
                let first = titled
                    .then(|| head.with(|h| h.as_ref().and_then(|h| h.label.clone())))
                    .flatten();
                let last = name.and_then(|n| n.get().1);
                // A titled text keeps its words in a span beside the title.
                if first.is_none() && last.is_none() {
                    Either::Left(words)
                } else {
                    Either::Right((
                        first.map(|t| svg::title().child(t)),
                        svg::tspan().child(words),
                        last.map(|t| svg::title().child(t)),
                    ))
                }
            };
            common!(
                svg::text()
                    .attr("x", geo!(head, Text { x } => num(*x)))
                    .attr("y", geo!(head, Text { y } => num(*y)))
                    .attr("text-anchor", geo!(head, Text { anchor } => anchor_word(*anchor).to_string())),
                head,
                key,
                |h: &Shape| match &h.kind {
                    Kind::Text { size, mono, .. } => joined(&text_class(*size, *mono), &h.class),
                    _ => h.class.clone(),
                },
                name,
                slot
            )
            .child(body)
            .into_any()
        }
        _ => {
            let children = Memo::new({
                let at = at.clone();
                move |_| scene.with(|s| at::shape(s, &at).map(|g| drawn(g.children())).unwrap_or_default())
            });
            let within = inside || form.clickable;
            common!(
                svg::g().style((
                    "transform",
                    text(move || head.with(|h| match h.as_ref().map(|h| &h.kind) {
                        Some(Kind::Group { x, y, .. }) => translate(*x, *y),
                        _ => None,
                    }))
                )),
                head,
                key,
                plain,
                name,
                slot
            )
            .child((
                first_title,
                view! {
                    <For each=move || children.get() key=|(_, key)| key.clone() children=move |(index, key)| {
                        shape(scene, at.child(index, key.0.clone()), key.1, within)
                    } />
                },
                last_title,
            ))
            .into_any()
        }
    }
}
