//! A figure: the SVG drawing, keyed shapes inside, and its legend. Clicks
//! and Enter/Space on a clickable shape are heard once, on the drawing.

use super::at::{self, PartAt, ShapeAt};
use super::shape::{drawn, shape};
use super::Click;
use leptos::prelude::*;
use leptos::{ev, html, svg};
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

pub fn figure(scene: RwSignal<Scene>, at: PartAt, click: Click) -> impl IntoView {
    let key = at.1.clone();
    let head = Memo::new({
        let at = at.clone();
        move |_| {
            scene.with(|s| {
                at::figure(s, &at).map(|f| {
                    let interactive = f.walk().iter().any(|s| s.on_click.is_some());
                    (f.width, f.height, f.label.clone(), f.class.clone(), interactive)
                })
            })
        }
    });
    let legend = Memo::new({
        let at = at.clone();
        move |_| scene.with(|s| at::figure(s, &at).map(|f| f.legend.clone()).unwrap_or_default())
    });
    let shapes = Memo::new({
        let at = at.clone();
        move |_| scene.with(|s| at::figure(s, &at).map(|f| drawn(&f.shapes)).unwrap_or_default())
    });
    let root = ShapeAt {
        figure: at,
        path: Vec::new(),
    };
    let drawing = svg::svg()
        .attr("class", "scene")
        .attr("viewBox", move || head.with(|h| h.as_ref().map(|(w, h, ..)| format!("0 0 {} {}", num(*w), num(*h)))))
        .attr("role", move || head.with(|h| if h.as_ref().is_some_and(|h| h.4) { "group" } else { "img" }))
        .attr("aria-label", move || head.with(|h| h.as_ref().map(|h| h.2.clone())))
        .attr("data-testid", key)
        .on(ev::click, move |e| {
            if let Some(sent) = clicked(&e) {
                click.run(sent);
            }
        })
        .on(ev::keydown, move |e| {
            if matches!(e.key().as_str(), "Enter" | " ") {
                if let Some(sent) = clicked(&e) {
                    e.prevent_default();
                    click.run(sent);
                }
            }
        })
        .child(view! {
            <For each=move || shapes.get() key=|(_, key)| key.clone() children=move |(index, key)| {
                shape(scene, root.child(index, key.0.clone()), key.1, false)
            } />
        });
    html::figure()
        .attr("class", move || head.with(|h| format!("scene-figure {}", h.as_ref().map_or("", |h| h.3.as_str())).trim_end().to_string()))
        .child((
            drawing,
            move || {
                legend.with(|keys| {
                    (!keys.is_empty()).then(|| {
                        html::figcaption().class("legend").child(
                            keys.iter()
                                .map(|(class, meaning)| html::span().attr("class", format!("key {class}")).child(meaning.clone()))
                                .collect::<Vec<_>>(),
                        )
                    })
                })
            },
        ))
}
