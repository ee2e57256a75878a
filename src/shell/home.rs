//! The home page: the catalogue, section by section.

use crate::catalogue::{demos_in, SECTIONS};
use crate::dom::{h, El};

pub const TITLE: &str = "Stack Lab · demos you drive";

/// The catalogue, with links under the site's base path `base`.
pub fn home(base: &str) -> El {
    let hero = h("section")
        .class("hero")
        .child(h("h1").text("Drive the machine. Break it. See why."))
        .child(h("p").text(
            "Each demo is a small, exact model of real hardware or a real protocol. \
             Step it, rewind it, flip the switch that breaks it — and read what happened.",
        ));
    let sections = SECTIONS.iter().map(|section| {
        let cards: Vec<El> = demos_in(section.id)
            .map(|demo| {
                h("li").class("card").child(
                    h("a")
                        .set("href", format!("{base}{}", demo.path()))
                        .testid(format!("card-{}", demo.slug))
                        .child(h("h3").text(demo.title))
                        .child(h("p").text(demo.one_liner)),
                )
            })
            .collect();
        let list = if cards.is_empty() {
            h("p").class("muted").text("No demos in this section yet.")
        } else {
            h("ul").class("cards").children(cards)
        };
        h("section")
            .class("catalogue-section")
            .testid(format!("section-{}", section.id))
            .child(h("h2").text(section.title))
            .child(h("p").class("purpose").text(section.purpose))
            .child(list)
    });
    h("div").class("home").child(hero).children(sections)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::all;
    use leptos::prelude::*;

    fn markup(base: &str) -> String {
        Owner::new().with(|| home(base).view().to_html().replace("<!>", ""))
    }

    #[test]
    fn every_demo_has_a_card_linking_to_its_page_under_the_base_path() {
        let page = markup("/labs/stack");
        for demo in all() {
            let card = format!(
                r#"href="/labs/stack{}" data-testid="card-{}"><h3>{}</h3>"#,
                demo.path(),
                demo.slug,
                demo.title.replace('&', "&amp;")
            );
            assert!(page.contains(&card), "{card}");
        }
    }

    #[test]
    fn every_section_is_listed_in_order() {
        let page = markup("");
        let at: Vec<usize> = SECTIONS
            .iter()
            .map(|s| page.find(&format!("section-{}", s.id)).expect(s.id))
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{at:?}");
    }
}
