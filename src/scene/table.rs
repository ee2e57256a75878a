//! A table: caption, column headings, and rows whose first cell is their
//! name (a button, when the row is clickable). Rows are keyed; a row's cells
//! are redrawn in place when the row changes.

use super::at::{self, PartAt};
use super::Click;
use leptos::either::Either;
use leptos::prelude::*;
use leptos::{ev, html};
use views::{Cell, Scene};

fn cell_class(cell: &Cell) -> String {
    if cell.mono {
        format!("{} mono", cell.class).trim_start().to_string()
    } else {
        cell.class.clone()
    }
}

pub fn table(scene: RwSignal<Scene>, at: PartAt, click: Click) -> impl IntoView {
    let key = at.1.clone();
    let head = Memo::new({
        let at = at.clone();
        move |_| scene.with(|s| at::table(s, &at).map(|t| (t.caption.clone(), t.columns.clone())))
    });
    let rows = Memo::new({
        let at = at.clone();
        move |_| {
            scene.with(|s| {
                at::table(s, &at)
                    .map(|t| t.rows.iter().map(|r| r.key.clone()).enumerate().collect::<Vec<_>>())
                    .unwrap_or_default()
            })
        }
    });
    let caption = move || head.with(|h| h.as_ref().map(|h| h.0.clone()).unwrap_or_default());
    let columns = move || {
        head.with(|h| {
            h.as_ref()
                .map(|h| h.1.clone())
                .unwrap_or_default()
                .into_iter()
                .map(|c| html::th().attr("scope", "col").child(c))
                .collect::<Vec<_>>()
        })
    };
    let row = move |(index, row_key): (usize, String)| {
        let row = Memo::new({
            let at = at.clone();
            let row_key = row_key.clone();
            move |_| {
                scene.with(|s| {
                    let rows = &at::table(s, &at)?.rows;
                    match rows.get(index) {
                        Some(r) if r.key == row_key => Some(r.clone()),
                        _ => rows.iter().find(|r| r.key == row_key).cloned(),
                    }
                })
            }
        });
        let id = row_key.clone();
        let cells = move || {
            row.with(|r| {
                let Some(r) = r else { return Vec::new() };
                r.cells
                    .iter()
                    .enumerate()
                    .map(|(i, cell)| {
                        let class = cell_class(cell);
                        if i == 0 {
                            let name = match r.on_click {
                                Some(slot) => {
                                    let id = id.clone();
                                    Either::Right(
                                        html::button()
                                            .attr("type", "button")
                                            .class("row-btn")
                                            .on(ev::click, move |_| click.run((id.clone(), slot)))
                                            .child(cell.text.clone()),
                                    )
                                }
                                None => Either::Left(cell.text.clone()),
                            };
                            Either::Left(
                                html::th()
                                    .attr("scope", "row")
                                    .attr("class", class)
                                    .attr("data-testid", cell.key.clone())
                                    .child(name),
                            )
                        } else {
                            Either::Right(
                                html::td()
                                    .attr("class", class)
                                    .attr("data-testid", cell.key.clone())
                                    .child(cell.text.clone()),
                            )
                        }
                    })
                    .collect::<Vec<_>>()
            })
        };
        html::tr()
            .attr("class", move || row.with(|r| r.as_ref().map(|r| r.class.clone())))
            .attr("data-state", move || row.with(|r| r.as_ref().and_then(|r| r.state.clone())))
            .attr("data-testid", row_key)
            .child(cells)
    };
    html::div()
        .class("table-scroll")
        .attr("tabindex", "0")
        .attr("role", "region")
        .attr("aria-label", caption)
        .child(
            html::table().attr("data-testid", key).child((
                html::caption().child(caption),
                html::thead().child(html::tr().child(columns)),
                html::tbody().child(view! {
                    <For each=move || rows.get() key=|(_, key)| key.clone() children=row />
                }),
            )),
        )
}
