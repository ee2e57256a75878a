//! The page for an address that matches no demo.

use crate::dom::{h, El};

pub const TITLE: &str = "Not found · Stack Lab";

pub fn not_found(base: &str) -> El {
    h("section")
        .class("not-found")
        .testid("not-found")
        .child(h("h1").text("No such page"))
        .child(
            h("p")
                .child(h("span").text("This address matches no demo. "))
                .child(
                    h("a")
                        .set("href", crate::router::link(base, "/"))
                        .text("Back to the catalogue"),
                ),
        )
}
