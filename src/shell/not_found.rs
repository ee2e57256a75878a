//! The page for an address that matches no demo, as elements.

use views::element::El;

pub const TITLE: &str = "Not found · Stack Lab";

pub fn not_found(base: &str) -> El {
    El::html("section", "not-found")
        .attr("class", "not-found")
        .attr("data-testid", "not-found")
        .child(El::html("h1", "h1").text("No such page"))
        .child(
            El::html("p", "p")
                .child(El::html("span", "why").text("This address matches no demo. "))
                .child(
                    El::html("a", "home")
                        .attr("href", format!("{base}/"))
                        .text("Back to the catalogue"),
                ),
        )
}
