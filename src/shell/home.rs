//! The home page: the catalogue, section by section.

use crate::catalogue::{demos_in, journey, SECTIONS};
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
        ))
        .child(
            h("a")
                .class("journey-link")
                .set("href", crate::router::link(base, &journey().path()))
                .testid("journey-link")
                .child(h("strong").text(journey().title))
                .child(h("span").text(journey().one_liner)),
        );
    let sections = SECTIONS.iter().map(|section| {
        let cards: Vec<El> = demos_in(section.id)
            .enumerate()
            .map(|(i, demo)| {
                // What the learner has done of its lesson, kept in this
                // browser; and where a newcomer to the section starts.
                let progress = crate::shell::progress::kept(demo.slug);
                let marks = (i == 0 || progress.is_some()).then(|| {
                    h("p")
                        .class("lesson-mark")
                        .maybe_child((i == 0).then(|| {
                            h("span")
                                .class("start-here")
                                .testid(format!("start-here-{}", demo.slug))
                                .text("★ Start here")
                        }))
                        .maybe_child(progress.map(|p| {
                            h("span")
                                .testid(format!("progress-{}", demo.slug))
                                .text(p.card())
                        }))
                });
                h("li").class("card").child(
                    h("a")
                        .set("href", crate::router::link(base, &demo.path()))
                        .testid(format!("card-{}", demo.slug))
                        .child(h("h3").text(demo.title))
                        .child(h("p").text(demo.one_liner))
                        .maybe_child(marks),
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
    h("div")
        .class("home")
        .child(hero)
        .maybe_child(crate::shell::lms::note())
        .children(sections)
        .child(crate::shell::offline::offline_panel())
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
    fn the_first_demo_of_each_section_is_where_to_start() {
        let page = markup("");
        for section in SECTIONS {
            let mut demos = demos_in(section.id);
            if let Some(first) = demos.next() {
                assert!(page.contains(&format!("start-here-{}", first.slug)));
            }
            for other in demos {
                assert!(!page.contains(&format!("start-here-{}", other.slug)));
            }
        }
    }

    #[test]
    fn the_journey_is_linked_at_the_top() {
        let page = markup("/labs/stack");
        let link = page
            .find(r#"href="/labs/stack/journey" data-testid="journey-link""#)
            .expect("the journey's link");
        assert!(link < page.find("section-nic").unwrap());
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
