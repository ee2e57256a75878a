//! "Download figure": the picture as a standalone SVG file
//! (`views::export`). The export's code, and the copy of the scene styles
//! the file carries, are cut into the wasm module `ui_export`
//! (`scripts/split-wasm.sh`), which a page fetches on its first download.
//! The page itself has the scene styles from its document (index.html
//! inlines `static/scene.css`), so a page that never downloads a figure no
//! longer carries them a second time in its main module.

use crate::dom::{dynamic, h, El};
use crate::platform::download;
use crate::shell::chrome::failed_notice;
use crate::shell::page::Page;
use leptos::prelude::*;
use views::export::file_name;
use views::page::chrome::FIGURE_FAILED;
use views::Scene;

#[wasm_split_helpers::wasm_split(ui_export, wasm_split_path = wasm_split_helpers, fallible)]
fn export_code() -> Result<fn(&Scene) -> String, wasm_split_helpers::SplitLoaderError> {
    Ok(views::export::export)
}

/// Saves the picture as it is now, once the export's code is here; if it
/// cannot be fetched, the page says so beside the button.
pub fn download_figure(page: Page) {
    let scene = page.scene.get_untracked();
    leptos::task::spawn_local(async move {
        let made = export_code().await;
        // The learner may have left the page meanwhile.
        if page.figure_failed.try_set(made.is_err()).is_some() {
            return;
        }
        if let Ok(export) = made {
            download(&file_name(page.slug), &export(&scene));
        }
    });
}

/// The button.
pub fn download_button(page: Page) -> El {
    h("button")
        .set("type", "button")
        .class("btn download")
        .testid("download-figure")
        .on_click(move |_| download_figure(page))
        .text("Download figure (SVG)")
}

/// What the page says when the export's code could not be fetched, with a
/// button that tries again.
pub fn failed(page: Page) -> AnyView {
    dynamic(move || {
        if page.figure_failed.get() {
            failed_notice("figure-failed", FIGURE_FAILED, move || {
                download_figure(page)
            })
            .view()
        } else {
            ().into_any()
        }
    })
}
