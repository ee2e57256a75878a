//! The home page: the catalogue, section by section.

use crate::catalogue::{demos_in, SECTIONS};
use leptos::html;
use leptos::prelude::*;

pub const TITLE: &str = "Stack Lab · demos you drive";

/// The catalogue, with links under the site's base path `base`.
pub fn home(base: &str) -> impl IntoView {
    let hero = html::section().class("hero").child((
        html::h1().child("Drive the machine. Break it. See why."),
        html::p().child(
            "Each demo is a small, exact model of real hardware or a real protocol. \
             Step it, rewind it, flip the switch that breaks it — and read what happened.",
        ),
    ));
    let sections = SECTIONS
        .iter()
        .map(|section| {
            let cards: Vec<_> = demos_in(section.id)
                .map(|demo| {
                    html::li().class("card").child(
                        html::a()
                            .attr("href", format!("{base}{}", demo.path()))
                            .attr("data-testid", format!("card-{}", demo.slug))
                            .child((html::h3().child(demo.title), html::p().child(demo.one_liner))),
                    )
                })
                .collect();
            let list = if cards.is_empty() {
                html::p()
                    .class("muted")
                    .child("No demos in this section yet.")
                    .into_any()
            } else {
                html::ul().class("cards").child(cards).into_any()
            };
            html::section()
                .class("catalogue-section")
                .attr("data-testid", format!("section-{}", section.id))
                .child((
                    html::h2().child(section.title),
                    html::p().class("purpose").child(section.purpose),
                    list,
                ))
        })
        .collect::<Vec<_>>();
    html::div().class("home").child((hero, sections))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::all;

    fn markup(base: &str) -> String {
        Owner::new().with(|| home(base).into_view().to_html())
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
