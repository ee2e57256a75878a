//! A figure: the SVG drawing, keyed shapes inside, and its legend. Clicks
//! and Enter/Space on a clickable shape are heard once, on the drawing.

use super::at::{self, PartAt};
use super::shape::{shapes, tab_stop, Level};
use super::Click;
use crate::dom::{dynamic, h, s, text, El};
use leptos::prelude::*;
use views::page::svg::num;
use views::{Scene, NARROW_WIDTH};
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

/// Where an arrow key, Home or End moves focus from the clickable shape
/// `at` of `count`: the next or previous one, stopping at the ends, the
/// first or the last. `None` for any other key.
fn roved(key: &str, at: usize, count: usize) -> Option<usize> {
    let last = count.checked_sub(1)?;
    Some(match key {
        "ArrowRight" | "ArrowDown" => (at + 1).min(last),
        "ArrowLeft" | "ArrowUp" => at.saturating_sub(1),
        "Home" => 0,
        "End" => last,
        _ => return None,
    })
}

/// Arrow keys, Home and End on a clickable shape move focus among the
/// clickable shapes of its picture, which is one Tab stop (`shape::tab_stop`),
/// and the Tab stop with it. True when the key was used: it is then not a
/// page shortcut (→ is Step elsewhere), the default being prevented.
///
/// The page's keyboard listener asks this first (`demo_page`), so the key
/// reaches the shortcuts only when the picture did not use it, whichever of
/// the window's listeners the browser calls first.
pub fn rove(e: &web_sys::KeyboardEvent) -> bool {
    if e.ctrl_key() || e.meta_key() || e.alt_key() {
        return false;
    }
    let Some(here) = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return false;
    };
    if here.get_attribute("role").as_deref() != Some("button") || !here.has_attribute("data-slot") {
        return false;
    }
    let Some(picture) = here.closest("svg.scene").ok().flatten() else {
        return false;
    };
    let Ok(all) = picture.query_selector_all("[role=button][data-slot]") else {
        return false;
    };
    let shapes: Vec<web_sys::Element> = (0..all.length())
        .filter_map(|i| all.item(i)?.dyn_into::<web_sys::Element>().ok())
        .collect();
    let Some(at) = shapes.iter().position(|s| *s == here) else {
        return false;
    };
    let Some(to) = roved(&e.key(), at, shapes.len()) else {
        return false;
    };
    e.prevent_default();
    if to != at {
        let _ = here.set_attribute("tabindex", "-1");
        let _ = shapes[to].set_attribute("tabindex", "0");
        crate::platform::focus(&shapes[to]);
    }
    true
}

pub fn figure(scene: RwSignal<Scene>, at: PartAt, click: Click, alone: RwSignal<String>) -> El {
    let key = at.1.clone();
    let own = key.clone();
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
    let top = Level::new(crate::dom::memo({
        let at = at.clone();
        move || {
            scene.with(|s| {
                at::figure(s, &at)
                    .map(|f| f.shapes.clone())
                    .unwrap_or_default()
            })
        }
    }));
    let first = crate::dom::memo({
        let at = at.clone();
        move || scene.with(|s| at::figure(s, &at).and_then(tab_stop))
    });
    let drawing = s("svg")
        .class("scene")
        .on_load(super::scale::watch)
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
        .view_child(shapes(top, false, first));
    h("figure")
        .bind(
            "class",
            text(move || {
                head.with(|h| {
                    let extra = h.as_ref().map_or("", |h| h.3.as_str());
                    // A figure no wider than a narrow layout's may fill a
                    // phone's width instead of keeping the minimum that keeps
                    // wide figures legible.
                    let fits = match h {
                        Some(h) if h.0 <= NARROW_WIDTH => " fits-narrow",
                        _ => "",
                    };
                    // Another figure shown alone sets this one aside.
                    let aside = alone.with(|k| {
                        if k.is_empty() || *k == own {
                            ""
                        } else {
                            " set-aside"
                        }
                    });
                    Some(
                        format!("scene-figure{fits}{aside} {extra}")
                            .trim_end()
                            .to_string(),
                    )
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

#[cfg(test)]
mod tests {
    use super::roved;

    #[test]
    fn the_arrow_keys_move_among_a_pictures_shapes_and_stop_at_its_ends() {
        assert_eq!(roved("ArrowRight", 0, 3), Some(1));
        assert_eq!(roved("ArrowDown", 2, 3), Some(2));
        assert_eq!(roved("ArrowLeft", 0, 3), Some(0));
        assert_eq!(roved("ArrowUp", 2, 3), Some(1));
        assert_eq!(roved("Home", 2, 3), Some(0));
        assert_eq!(roved("End", 0, 3), Some(2));
        assert_eq!(roved("Enter", 0, 3), None);
        assert_eq!(roved("ArrowRight", 0, 0), None);
    }
}
