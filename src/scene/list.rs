//! A list: a heading and its items (or what "empty" means here), each item
//! keyed.

use super::at::{self, PartAt};
use leptos::either::Either;
use leptos::html;
use leptos::prelude::*;
use views::{Item, Scene};

fn item_class(item: &Item) -> String {
    if item.mono {
        format!("{} mono", item.class).trim_start().to_string()
    } else {
        item.class.clone()
    }
}

pub fn list(scene: RwSignal<Scene>, at: PartAt) -> impl IntoView {
    let key = at.1.clone();
    let head = Memo::new({
        let at = at.clone();
        move |_| {
            scene.with(|s| {
                at::list(s, &at).map(|l| {
                    let class = if l.chips {
                        format!("scene-list chips {}", l.class)
                    } else {
                        format!("scene-list {}", l.class)
                    };
                    (l.heading.clone(), class.trim_end().to_string(), l.empty.clone())
                })
            })
        }
    });
    let items = Memo::new({
        let at = at.clone();
        move |_| scene.with(|s| at::list(s, &at).map(|l| l.items.clone()).unwrap_or_default())
    });
    let keys = Memo::new(move |_| items.with(|all| all.iter().map(|i| i.key.clone()).collect::<Vec<_>>()));
    let heading = move || head.with(|h| h.as_ref().map(|h| h.0.clone()).unwrap_or_default());
    let item = move |item_key: String| {
        let item = Memo::new({
            let item_key = item_key.clone();
            move |_| items.with(|all| all.iter().find(|i| i.key == item_key).cloned())
        });
        html::li()
            .attr("class", move || item.with(|i| i.as_ref().map(item_class)))
            .attr("data-testid", item_key)
            .child(move || {
                item.with(|i| {
                    let i = i.as_ref()?;
                    Some(match &i.tag {
                        Some(tag) => Either::Right((
                            html::span().class("tone-word").child(format!("{tag} ")),
                            html::span().child(i.text.clone()),
                        )),
                        None => Either::Left(i.text.clone()),
                    })
                })
            })
    };
    html::section()
        .attr("class", move || head.with(|h| h.as_ref().map(|h| h.1.clone())))
        .attr("aria-label", heading)
        .child((
            html::h3().child(heading),
            html::ul().attr("data-testid", key).child((
                move || {
                    keys.with(Vec::is_empty).then(|| {
                        html::li()
                            .class("muted")
                            .child(move || head.with(|h| h.as_ref().map(|h| h.2.clone()).unwrap_or_default()))
                    })
                },
                view! { <For each=move || keys.get() key=|key| key.clone() children=item /> },
            )),
        ))
}
