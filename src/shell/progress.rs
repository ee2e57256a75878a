//! Where a learner's progress through a demo's lesson is kept: a short text
//! in this browser's storage (`views::page::lesson::Progress`), read by the
//! home page's cards, the demo's lesson panel and a course activity.

use views::page::lesson::{progress_key, Progress};

/// The record kept for `slug`'s lesson, if there is one that reads.
pub fn kept(slug: &str) -> Option<Progress> {
    crate::platform::stored(&progress_key(slug)).and_then(|t| Progress::decode(&t))
}

/// Keeps `progress` as `slug`'s record, or (`None`) forgets it.
pub fn keep(slug: &str, progress: Option<&Progress>) {
    crate::platform::store(
        &progress_key(slug),
        progress.map(Progress::encode).as_deref(),
    );
}
