//! The site chrome around every page: a skip link, the header and the
//! footer; an embedded demo gets a bare container instead.

use leptos::prelude::*;
use leptos::{html, svg};

/// The lab's mark, as `static/icon.svg` draws it: its tile, then three
/// bars, each at a height in its colour.
const TILE: &str = "#1d3557";
const BARS: [(&str, &str); 3] = [("20", "#8ecae6"), ("32", "#ffb703"), ("44", "#2a9d8f")];

/// `content` inside the site's header and footer. `base`: the site's base
/// path (see `platform::base_path`).
pub fn frame(base: &str, content: AnyView) -> impl IntoView {
    (
        html::a()
            .class("skip-link")
            .attr("href", "#main")
            .child("Skip to content"),
        html::header().class("site-header").child((
            html::a()
                .class("brand")
                .attr("href", format!("{base}/"))
                .child((logo(), html::span().child("Stack Lab"))),
            html::span()
                .class("tagline")
                .child("Demos you drive, from the NIC to the fabric"),
        )),
        html::main()
            .id("main")
            .attr("tabindex", "-1")
            .child(content),
        html::footer().class("site-footer").child((
            html::span().child(
                "Every figure on these pages is computed by a model running in your browser. Press ",
            ),
            html::kbd().child("?"),
            html::span().child(" on a demo for keyboard shortcuts."),
        )),
    )
}

/// The lab's mark, drawn in place: as an `<img>` it was a request, and its
/// loading, in the middle of the app's start-up work.
fn logo() -> impl IntoView {
    svg::svg()
        .attr("viewBox", "0 0 64 64")
        .attr("width", "28")
        .attr("height", "28")
        .attr("aria-hidden", "true")
        .attr("focusable", "false")
        .child((
            svg::rect()
                .attr("width", "64")
                .attr("height", "64")
                .attr("rx", "14")
                .attr("fill", TILE),
            svg::g()
                .attr("fill", "none")
                .attr("stroke-width", "6")
                .attr("stroke-linecap", "round")
                .child(
                    BARS.map(|(y, colour)| {
                        svg::path()
                            .attr("d", format!("M16 {y}h32"))
                            .attr("stroke", colour)
                    })
                    .to_vec(),
                ),
        ))
}

/// An embedded demo: no header, footer or skip link (the lecturer's page
/// has its own).
pub fn embed(content: AnyView) -> impl IntoView {
    html::div()
        .class("embed")
        .attr("data-testid", "embed")
        .child(content)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn markup(view: impl IntoView) -> String {
        Owner::new().with(|| view.into_view().to_html())
    }

    #[test]
    fn the_brand_links_home_under_the_base_path_and_content_is_the_main_landmark() {
        let page = markup(frame("/labs/stack", html::p().child("hello").into_any()));
        assert!(page.contains(r##"<a href="#main" class="skip-link">"##), "{page}");
        assert!(page.contains(r#"<a href="/labs/stack/" class="brand">"#), "{page}");
        assert!(page.contains(r#"<main id="main" tabindex="-1"><p>hello</p></main>"#));
    }

    #[test]
    fn the_header_draws_the_tab_icons_mark_in_place_and_fetches_nothing() {
        let page = markup(frame("", ().into_any()));
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
        let page = markup(embed(html::p().child("x").into_any()));
        assert!(!page.contains("<header") && !page.contains("<footer"));
        assert!(page.contains(r#"data-testid="embed""#));
    }
}
