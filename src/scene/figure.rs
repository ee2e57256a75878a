//! A figure: the SVG drawing, keyed shapes inside, and its legend. Clicks
//! and Enter/Space on a clickable shape are heard once, on the drawing.

use super::at::{self, PartAt, ShapeAt};
use super::shape::{drawn, shapes};
use super::Click;
use crate::dom::{dynamic, h, s, text, El};
use leptos::prelude::*;
use views::page::svg::num;
use views::Scene;
use wasm_bindgen::JsCast;

/// The clickable shape an event happened on: its test id and slot.
fn clicked(e: &web_sys::Event) -> Option<(String, u32)> {
    let el = e
        .target()?
        .dyn_into::<web_sys::Element>()
        .ok()?
        .closest("[data-slot]")
        .ok()??;
    let slot = el.get_attribute("data-slot")?.parse().ok()?;
    Some((el.get_attribute("data-testid").unwrap_or_default(), slot))
}

pub fn figure(scene: RwSignal<Scene>, at: PartAt, click: Click) -> El {
    let key = at.1.clone();
    let head = crate::dom::memo({
        let at = at.clone();
        move || {
            scene.with(|s| {
                at::figure(s, &at).map(|f| {
                    let interactive = f.walk().iter().any(|s| s.on_click.is_some());
                    (
                        f.width,
                        f.height,
                        f.label.clone(),
                        f.class.clone(),
                        interactive,
                    )
                })
            })
        }
    });
    let legend = crate::dom::memo({
        let at = at.clone();
        move || {
            scene.with(|s| {
                at::figure(s, &at)
                    .map(|f| f.legend.clone())
                    .unwrap_or_default()
            })
        }
    });
    let each = crate::dom::memo({
        let at = at.clone();
        move || {
            scene.with(|s| {
                at::figure(s, &at)
                    .map(|f| drawn(&f.shapes))
                    .unwrap_or_default()
            })
        }
    });
    let root = ShapeAt {
        figure: at,
        path: Vec::new(),
    };
    let drawing = s("svg")
        .class("scene")
        .bind(
            "viewBox",
            text(move || {
                head.with(|h| {
                    h.as_ref()
                        .map(|(w, h, ..)| format!("0 0 {} {}", num(*w), num(*h)))
                })
            }),
        )
        .bind(
            "role",
            text(move || {
                head.with(|h| {
                    Some(
                        if h.as_ref().is_some_and(|h| h.4) {
                            "group"
                        } else {
                            "img"
                        }
                        .into(),
                    )
                })
            }),
        )
        .bind(
            "aria-label",
            text(move || head.with(|h| h.as_ref().map(|h| h.2.clone()))),
        )
        .testid(key)
        .on_click(move |e| {
            if let Some(sent) = clicked(&e) {
                click.run(sent);
            }
        })
        .on_keydown(move |e| {
            if matches!(e.key().as_str(), "Enter" | " ") {
                if let Some(sent) = clicked(&e) {
                    e.prevent_default();
                    click.run(sent);
                }
            }
        })
        .view_child(shapes(scene, root, move || each.get(), false));
    h("figure")
        .bind(
            "class",
            text(move || {
                head.with(|h| {
                    let extra = h.as_ref().map_or("", |h| h.3.as_str());
                    Some(format!("scene-figure {extra}").trim_end().to_string())
                })
            }),
        )
        .child(drawing)
        .view_child(dynamic(move || {
            legend.with(|keys| {
                if keys.is_empty() {
                    return ().into_any();
                }
                h("figcaption")
                    .class("legend")
                    .children(keys.iter().map(|(class, meaning)| {
                        h("span")
                            .class(format!("key {class}"))
                            .text(meaning.clone())
                    }))
                    .view()
            })
        }))
}
