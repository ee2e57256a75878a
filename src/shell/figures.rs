//! A framed demo shows one figure at a time, whole, and a row of numbered
//! buttons picks another (the rules, and why: `views::page::figures`). A
//! page that is not framed shows every figure, and has no such row.

use crate::dom::{h, text, El};
use crate::shell::page::Page;
use leptos::prelude::*;
use views::page::figures::{asked_figure, figure_button_name, figure_notice, figures};

/// Shows the figure the link asks for (`figure=N`), or the first, when the
/// picture has several; a figure it does not have is said in the notice.
pub fn first(page: Page, asked: Option<&str>, notice: Option<String>) -> Option<String> {
    let all = page.scene.with_untracked(figures);
    if all.len() < 2 && asked.is_none() {
        return notice;
    }
    let (n, said) = match asked_figure(asked, all.len()) {
        Ok(n) => (n, None),
        Err(error) => (0, Some(figure_notice(&error))),
    };
    if all.len() > 1 {
        page.alone.set(all[n].0.clone());
    }
    match said {
        Some(said) => Some(crate::shell::demo_page::then(notice, said)),
        None => notice,
    }
}

/// The row of the picture's figures, numbered, the one shown pressed; none
/// when every figure is shown.
pub fn picker(page: Page) -> Option<El> {
    if page.alone.with_untracked(String::is_empty) {
        return None;
    }
    let all = page.scene.with_untracked(figures);
    let buttons = all.into_iter().enumerate().map(move |(i, (key, _))| {
        let pressed = key.clone();
        let named = key.clone();
        h("button")
            .set("type", "button")
            .class("btn figure-button")
            .testid(format!("figure-{}", i + 1))
            .bind(
                "aria-pressed",
                text(move || Some(page.alone.with(|k| *k == pressed).to_string())),
            )
            // The figure's name follows its state ("0 of 16 pages placed").
            .bind(
                "aria-label",
                text(move || {
                    page.scene.with(|s| {
                        figures(s)
                            .into_iter()
                            .find(|(k, _)| *k == named)
                            .map(|(_, label)| figure_button_name(i + 1, &label))
                    })
                }),
            )
            .on_click(move |_| page.alone.set(key.clone()))
            .text((i + 1).to_string())
    });
    Some(
        h("div")
            .class("figure-pick")
            .set("role", "group")
            .set("aria-label", "Figures")
            .testid("figure-pick")
            .child(h("span").class("figure-pick-name").text("Figure"))
            .children(buttons),
    )
}
