//! The site chrome around every page, as elements: a skip link, the header
//! and the footer; an embedded demo gets a bare container instead.

use views::element::El;

/// `content` inside the site's header and footer. `base`: the site's base
/// path (see `platform::base_path`).
pub fn frame(base: &str, content: El) -> Vec<El> {
    vec![
        El::html("a", "skip")
            .attr("class", "skip-link")
            .attr("href", "#main")
            .text("Skip to content"),
        El::html("header", "header")
            .attr("class", "site-header")
            .child(
                El::html("a", "brand")
                    .attr("class", "brand")
                    .attr("href", format!("{base}/"))
                    .child(logo())
                    .child(El::html("span", "name").text("Stack Lab")),
            )
            .child(
                El::html("span", "tagline")
                    .attr("class", "tagline")
                    .text("Demos you drive, from the NIC to the fabric"),
            ),
        El::html("main", "main")
            .attr("id", "main")
            .attr("tabindex", "-1")
            .child(content),
        El::html("footer", "footer")
            .attr("class", "site-footer")
            .child(El::html("span", "computed").text(
                "Every figure on these pages is computed by a model running in your browser. Press ",
            ))
            .child(El::html("kbd", "key").text("?"))
            .child(El::html("span", "shortcuts").text(" on a demo for keyboard shortcuts.")),
    ]
}

/// The lab's mark (static/icon.svg's shapes), drawn in place: as an
/// `<img>` it was a request, and its loading, in the middle of the app's
/// start-up work.
fn logo() -> El {
    let bar = |key: &'static str, y: &str, colour: &str| {
        El::svg("path", key)
            .attr("d", format!("M16 {y}h32"))
            .attr("stroke", colour)
    };
    El::svg("svg", "icon")
        .attr("viewBox", "0 0 64 64")
        .attr("width", "28")
        .attr("height", "28")
        .attr("aria-hidden", "true")
        .attr("focusable", "false")
        .child(
            El::svg("rect", "tile")
                .attr("width", "64")
                .attr("height", "64")
                .attr("rx", "14")
                .attr("fill", "#1d3557"),
        )
        .child(
            El::svg("g", "bars")
                .attr("fill", "none")
                .attr("stroke-width", "6")
                .attr("stroke-linecap", "round")
                .child(bar("top", "20", "#8ecae6"))
                .child(bar("middle", "32", "#ffb703"))
                .child(bar("bottom", "44", "#2a9d8f")),
        )
}

/// An embedded demo: no header, footer or skip link (the lecturer's page
/// has its own).
pub fn embed(content: El) -> Vec<El> {
    vec![El::html("div", "embed")
        .attr("class", "embed")
        .attr("data-testid", "embed")
        .child(content)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_brand_links_home_under_the_base_path_and_content_is_the_main_landmark() {
        let page = frame("/labs/stack", El::html("p", "x").text("hello"));
        let header = &page[1];
        assert_eq!(header.children[0].get("href"), Some("/labs/stack/"));
        let main = &page[2];
        assert_eq!(main.get("id"), Some("main"));
        assert_eq!(main.all_text(), "hello");
        assert_eq!(page[0].get("href"), Some("#main"));
    }

    #[test]
    fn the_header_draws_the_tab_icons_mark_in_place_and_fetches_nothing() {
        let page = frame("", El::html("p", "x"));
        assert!(page
            .iter()
            .flat_map(|e| e.walk())
            .all(|e| e.get("src").is_none() && e.tag != "img"));
        // The same mark as the tab's icon: every shape's attributes as they
        // are written in static/icon.svg.
        let icon = include_str!("../../static/icon.svg");
        let mark = logo();
        let shapes: Vec<_> = mark.walk().into_iter().filter(|e| e.tag != "svg").collect();
        assert_eq!(shapes.len(), 5);
        for shape in shapes {
            for (name, value) in &shape.attrs {
                let written = format!("{name}=\"{value}\"");
                assert!(icon.contains(&written), "{written} is not in icon.svg");
            }
        }
        assert_eq!(mark.get("aria-hidden"), Some("true"));
    }

    #[test]
    fn an_embedded_page_has_no_site_chrome() {
        let page = embed(El::html("p", "x"));
        assert_eq!(page.len(), 1);
        assert!(page[0]
            .walk()
            .iter()
            .all(|e| e.tag != "header" && e.tag != "footer"));
    }
}
