//! What a demo page shows before its model runs: its code being fetched, or
//! the fetch having failed, with a way to try again (`data-act="retry"`).

use crate::element::El;

/// The demo's code is on its way.
pub fn fetching(title: &str) -> El {
    El::html("p", "fetching")
        .attr("class", "demo-fetching")
        .attr("role", "status")
        .attr("data-testid", "demo-fetching")
        .text(format!("Loading the {title} model…"))
}

/// The demo's code could not be fetched.
pub fn failed(title: &str) -> El {
    El::html("div", "failed")
        .attr("class", "notice demo-failed")
        .attr("role", "alert")
        .attr("data-testid", "demo-failed")
        .child(El::html("p", "why").text(format!(
            "The code of {title} could not be fetched: the network or the server failed."
        )))
        .child(
            El::html("button", "retry")
                .attr("type", "button")
                .attr("class", "btn primary")
                .attr("data-act", "retry")
                .text("Try again"),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_fetch_names_the_demo_and_offers_to_try_again() {
        let el = failed("NAPI");
        assert!(el
            .all_text()
            .contains("The code of NAPI could not be fetched"));
        let retry = el.by_testid("demo-failed").and_then(|e| e.children.last());
        assert_eq!(retry.and_then(|b| b.get("data-act")), Some("retry"));
    }
}
