//! The home page: the catalogue, section by section.

use crate::catalogue::{demos_in, SECTIONS};
use crate::platform::{base_path, set_title};
use crate::shell::frame::Frame;
use leptos::prelude::*;

#[component]
pub fn Home() -> impl IntoView {
    set_title("Stack Lab · demos you drive");
    let base = base_path();
    let sections = SECTIONS
        .iter()
        .map(|section| {
            let cards = demos_in(section.id)
                .map(|demo| {
                    let href = format!("{base}{}", demo.path());
                    view! {
                        <li class="card">
                            <a href=href data-testid=format!("card-{}", demo.slug)>
                                <h3>{demo.title}</h3>
                                <p>{demo.one_liner}</p>
                            </a>
                        </li>
                    }
                })
                .collect_view();
            let count = demos_in(section.id).count();
            view! {
                <section class="catalogue-section" data-testid=format!("section-{}", section.id)>
                    <h2>{section.title}</h2>
                    <p class="purpose">{section.purpose}</p>
                    {if count == 0 {
                        view! { <p class="muted">"No demos in this section yet."</p> }.into_any()
                    } else {
                        view! { <ul class="cards">{cards}</ul> }.into_any()
                    }}
                </section>
            }
        })
        .collect_view();
    view! {
        <Frame>
            <section class="hero">
                <h1>"Drive the machine. Break it. See why."</h1>
                <p>
                    "Each demo is a small, exact model of real hardware or a real protocol. "
                    "Step it, rewind it, flip the switch that breaks it — and read what happened."
                </p>
            </section>
            {sections}
        </Frame>
    }
}
