//! The page for an address that matches no demo.

use leptos::html;
use leptos::prelude::*;

pub const TITLE: &str = "Not found · Stack Lab";

pub fn not_found(base: &str) -> impl IntoView {
    html::section()
        .class("not-found")
        .attr("data-testid", "not-found")
        .child((
            html::h1().child("No such page"),
            html::p().child((
                html::span().child("This address matches no demo. "),
                html::a()
                    .attr("href", format!("{base}/"))
                    .child("Back to the catalogue"),
            )),
        ))
}
