//! A table: caption, column headings, and rows whose first cell is their
//! name (a button, when the row is clickable). Rows are keyed; a row's cells
//! are redrawn in place when the row changes.

use super::at::{self, PartAt};
use super::Click;
use crate::dom::{dynamic, h, keyed, text, words, El};
use leptos::prelude::*;
use views::{Cell, Scene};

fn cell_class(cell: &Cell) -> String {
    if cell.mono {
        format!("{} mono", cell.class).trim_start().to_string()
    } else {
        cell.class.clone()
    }
}

pub fn table(scene: RwSignal<Scene>, at: PartAt, click: Click) -> El {
    let key = at.1.clone();
    let head = crate::dom::memo({
        let at = at.clone();
        move || scene.with(|s| at::table(s, &at).map(|t| (t.caption.clone(), t.columns.clone())))
    });
    // The rows, a memo the rows read rather than the scene (see
    // `shape::Level`): an unchanged table wakes none of them.
    let rows = crate::dom::memo({
        let at = at.clone();
        move || {
            scene.with(|s| {
                at::table(s, &at)
                    .map(|t| t.rows.clone())
                    .unwrap_or_default()
            })
        }
    });
    let each = crate::dom::memo(move || rows.with(|rows| at::keys(rows, |r| &r.key)));
    let caption = move || head.with(|h| h.as_ref().map(|h| h.0.clone()));
    let columns = dynamic(move || {
        head.with(|head| {
            head.as_ref()
                .map_or(&[][..], |head| &head.1[..])
                .iter()
                .map(|c| h("th").set("scope", "col").text(c.clone()).view())
                .collect::<Vec<_>>()
                .into_any()
        })
    });
    let row = move |index: usize, row_key: String| {
        let row = crate::dom::memo({
            let at = (index, row_key.clone());
            move || rows.with(|rows| at::by_key(rows, &at, |r| &r.key).cloned())
        });
        let id = row_key.clone();
        let cells = dynamic(move || {
            row.with(|r| {
                let Some(r) = r else { return ().into_any() };
                r.cells
                    .iter()
                    .enumerate()
                    .map(|(i, cell)| {
                        let el = h(if i == 0 { "th" } else { "td" })
                            .class(cell_class(cell))
                            .maybe("data-testid", cell.key.clone());
                        match (i, r.on_click) {
                            (0, Some(slot)) => {
                                let id = id.clone();
                                el.set("scope", "row").child(
                                    h("button")
                                        .set("type", "button")
                                        .class("row-btn")
                                        .on_click(move |_| click.run((id.clone(), slot)))
                                        .text(cell.text.clone()),
                                )
                            }
                            (0, None) => el.set("scope", "row").text(cell.text.clone()),
                            _ => el.text(cell.text.clone()),
                        }
                        .view()
                    })
                    .collect::<Vec<_>>()
                    .into_any()
            })
        });
        h("tr")
            .bind(
                "class",
                text(move || row.with(|r| r.as_ref().map(|r| r.class.clone()))),
            )
            .bind(
                "data-state",
                text(move || row.with(|r| r.as_ref().and_then(|r| r.state.clone()))),
            )
            .testid(row_key)
            .view_child(cells)
    };
    h("div")
        .class("table-scroll")
        .set("tabindex", "0")
        .set("role", "region")
        .bind("aria-label", text(caption))
        .child(
            h("table")
                .testid(key)
                .child(h("caption").words(words(move || caption().unwrap_or_default())))
                .child(h("thead").child(h("tr").view_child(columns)))
                .child(h("tbody").view_child(keyed(move || each.get(), row))),
        )
}
