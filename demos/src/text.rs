//! Small helpers for writing narration.

/// The plural suffix for `n` things.
pub fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
