//! The home page, as elements: the catalogue, section by section.

use crate::catalogue::{demos_in, SECTIONS};
use views::element::El;

pub const TITLE: &str = "Stack Lab · demos you drive";

/// The catalogue, with links under the site's base path `base`.
pub fn home(base: &str) -> El {
    let hero = El::html("section", "hero")
        .attr("class", "hero")
        .child(El::html("h1", "h1").text("Drive the machine. Break it. See why."))
        .child(El::html("p", "p").text(
            "Each demo is a small, exact model of real hardware or a real protocol. \
             Step it, rewind it, flip the switch that breaks it — and read what happened.",
        ));
    let sections = SECTIONS.iter().map(|section| {
        let cards: Vec<El> = demos_in(section.id)
            .map(|demo| {
                El::html("li", demo.slug).attr("class", "card").child(
                    El::html("a", "a")
                        .attr("href", format!("{base}{}", demo.path()))
                        .attr("data-testid", format!("card-{}", demo.slug))
                        .child(El::html("h3", "h3").text(demo.title))
                        .child(El::html("p", "p").text(demo.one_liner)),
                )
            })
            .collect();
        let list = if cards.is_empty() {
            El::html("p", "empty")
                .attr("class", "muted")
                .text("No demos in this section yet.")
        } else {
            El::html("ul", "cards")
                .attr("class", "cards")
                .children(cards)
        };
        El::html("section", section.id)
            .attr("class", "catalogue-section")
            .attr("data-testid", format!("section-{}", section.id))
            .child(El::html("h2", "h2").text(section.title))
            .child(
                El::html("p", "purpose")
                    .attr("class", "purpose")
                    .text(section.purpose),
            )
            .child(list)
    });
    El::html("div", "home")
        .attr("class", "home")
        .child(hero)
        .children(sections)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::all;

    #[test]
    fn every_demo_has_a_card_linking_to_its_page_under_the_base_path() {
        let page = home("/labs/stack");
        for demo in all() {
            let card = page
                .by_testid(&format!("card-{}", demo.slug))
                .expect(demo.slug);
            assert_eq!(
                card.get("href"),
                Some(format!("/labs/stack{}", demo.path()).as_str())
            );
            assert!(card.all_text().contains(demo.title));
        }
    }

    #[test]
    fn every_section_is_listed_in_order() {
        let page = home("");
        let ids: Vec<&str> = page
            .walk()
            .into_iter()
            .filter_map(|e| e.get("data-testid")?.strip_prefix("section-"))
            .collect();
        let expected: Vec<&str> = SECTIONS.iter().map(|s| s.id).collect();
        assert_eq!(ids, expected);
    }
}
