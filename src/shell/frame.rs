//! The site chrome around every page: a skip link, the header and the
//! footer; an embedded demo gets a bare container instead.

use crate::dom::{h, s, El};

/// The lab's mark, as `static/icon.svg` draws it: its tile, then three
/// bars, each at a height in its colour.
const TILE: &str = "#1d3557";
const BARS: [(&str, &str); 3] = [("20", "#8ecae6"), ("32", "#ffb703"), ("44", "#2a9d8f")];

/// `content` inside the site's header and footer. `base`: the site's base
/// path (see `platform::base_path`).
pub fn frame(base: &str, content: El) -> Vec<El> {
    vec![
        h("a").class("skip-link").set("href", "#main").text("Skip to content"),
        h("header")
            .class("site-header")
            .child(
                h("a")
                    .class("brand")
                    .set("href", crate::router::link(base, "/"))
                    .child(logo())
                    .child(h("span").text("Stack Lab")),
            )
            .child(
                h("span")
                    .class("tagline")
                    .text("Demos you drive, from the NIC to the fabric"),
            ),
        h("main").set("id", "main").set("tabindex", "-1").child(content),
        h("footer")
            .class("site-footer")
            .child(h("span").text(
                "Every figure on these pages is computed by a model running in your browser. Press ",
            ))
            .child(h("kbd").text("?"))
            .child(h("span").text(" on a demo for keyboard shortcuts.")),
    ]
}

/// The lab's mark, drawn in place: as an `<img>` it was a request, and its
/// loading, in the middle of the app's start-up work.
fn logo() -> El {
    s("svg")
        .set("viewBox", "0 0 64 64")
        .set("width", "28")
        .set("height", "28")
        .set("aria-hidden", "true")
        .set("focusable", "false")
        .child(
            s("rect")
                .set("width", "64")
                .set("height", "64")
                .set("rx", "14")
                .set("fill", TILE),
        )
        .child(
            s("g")
                .set("fill", "none")
                .set("stroke-width", "6")
                .set("stroke-linecap", "round")
                .children(BARS.map(|(y, colour)| {
                    s("path")
                        .set("d", format!("M16 {y}h32"))
                        .set("stroke", colour)
                })),
        )
}

/// An embedded demo: no header, footer or skip link (the lecturer's page
/// has its own).
pub fn embed(content: El) -> Vec<El> {
    vec![h("div").class("embed").testid("embed").child(content)]
}

#[cfg(test)]
mod tests {
    use super::*;

    use leptos::prelude::*;

    fn markup(els: Vec<El>) -> String {
        Owner::new().with(|| {
            els.into_iter()
                .map(|e| e.view().to_html())
                .collect::<String>()
                .replace("<!>", "")
        })
    }

    #[test]
    fn the_brand_links_home_under_the_base_path_and_content_is_the_main_landmark() {
        let page = markup(frame("/labs/stack", h("p").text("hello")));
        assert!(
            page.contains(r##"<a class="skip-link" href="#main">"##),
            "{page}"
        );
        assert!(
            page.contains(r#"<a class="brand" href="/labs/stack/">"#),
            "{page}"
        );
        assert!(page.contains(r#"<main id="main" tabindex="-1"><p>hello</p></main>"#));
    }

    #[test]
    fn the_header_draws_the_tab_icons_mark_in_place_and_fetches_nothing() {
        let page = markup(frame("", h("p")));
        assert!(!page.contains("<img") && !page.contains("src="));
        // The same mark as the tab's icon: every shape as static/icon.svg
        // writes it.
        let icon = include_str!("../../static/icon.svg");
        assert!(icon.contains(&format!(r#"fill="{TILE}""#)));
        for (y, colour) in BARS {
            assert!(icon.contains(&format!(r#"d="M16 {y}h32""#)), "{y}");
            assert!(icon.contains(&format!(r#"stroke="{colour}""#)), "{colour}");
        }
        assert!(page.contains(r#"aria-hidden="true""#));
    }

    #[test]
    fn an_embedded_page_has_no_site_chrome() {
        let page = markup(embed(h("p").text("x")));
        assert!(!page.contains("<header") && !page.contains("<footer"));
        assert!(page.contains(r#"data-testid="embed""#));
    }
}
