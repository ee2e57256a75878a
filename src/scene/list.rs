//! A list: a heading and its items (or what "empty" means here), each item
//! keyed.

use super::at::{self, PartAt};
use crate::dom::{dynamic, h, keyed, text, words, El};
use leptos::prelude::*;
use views::{Item, Scene};

fn item_class(item: &Item) -> String {
    if item.mono {
        format!("{} mono", item.class).trim_start().to_string()
    } else {
        item.class.clone()
    }
}

pub fn list(scene: RwSignal<Scene>, at: PartAt, onward: super::Onward) -> El {
    let key = at.1.clone();
    let head = crate::dom::memo({
        let at = at.clone();
        move || {
            scene.with(|s| {
                at::list(s, &at).map(|l| {
                    let class = if l.chips {
                        format!("scene-list chips {}", l.class)
                    } else {
                        format!("scene-list {}", l.class)
                    };
                    (
                        l.heading.clone(),
                        class.trim_end().to_string(),
                        l.empty.clone(),
                    )
                })
            })
        }
    });
    let items = crate::dom::memo({
        let at = at.clone();
        move || {
            scene.with(|s| {
                at::list(s, &at)
                    .map(|l| l.items.clone())
                    .unwrap_or_default()
            })
        }
    });
    let each = crate::dom::memo(move || items.with(|all| at::keys(all, |i| &i.key)));
    let heading = move || head.with(|h| h.as_ref().map(|h| h.0.clone()));
    let item = move |index: usize, item_key: String| {
        let item = crate::dom::memo({
            let at = (index, item_key.clone());
            move || items.with(|all| at::by_key(all, &at, |i| &i.key).cloned())
        });
        h("li")
            .bind(
                "class",
                text(move || item.with(|i| i.as_ref().map(item_class))),
            )
            .testid(item_key)
            .view_child(dynamic(move || {
                item.with(|i| {
                    let Some(i) = i else {
                        return ().into_any();
                    };
                    let tag = i
                        .tag
                        .as_ref()
                        .map(|tag| h("span").class("tone-word").text(format!("{tag} ")));
                    let words = match &i.link {
                        // Read again as the page's state changes: the way
                        // back is to the state the learner leaves.
                        Some(to) => {
                            let to = to.clone();
                            h("a")
                                .bind("href", text(move || Some(onward.run(to.clone()))))
                                .text(i.text.clone())
                        }
                        None => h("span").text(i.text.clone()),
                    };
                    match tag {
                        Some(tag) => vec![tag.view(), words.view()].into_any(),
                        None if i.link.is_none() => i.text.clone().into_any(),
                        None => words.view().into_any(),
                    }
                })
            }))
    };
    h("section")
        .bind(
            "class",
            text(move || head.with(|h| h.as_ref().map(|h| h.1.clone()))),
        )
        .bind("aria-label", text(heading))
        .child(h("h2").words(words(move || heading().unwrap_or_default())))
        .child(
            h("ul")
                .testid(key)
                .view_child(dynamic(move || {
                    if !each.with(Vec::is_empty) {
                        return ().into_any();
                    }
                    h("li")
                        .class("muted")
                        .words(words(move || {
                            head.with(|h| h.as_ref().map(|h| h.2.clone()).unwrap_or_default())
                        }))
                        .view()
                }))
                .view_child(keyed(move || each.get(), item)),
        )
}
