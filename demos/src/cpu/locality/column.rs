//! What the column walk of the 2-D array does to its lines, computed on the
//! simulator: the note beside the "walk it column by column" button.
//!
//! Walking down a column steps one whole row each time. Whether that costs a
//! miss per access depends on the cache, not on the step alone: if the cache
//! still holds every line the first column touched when the walk turns to
//! the next column, that column's elements (the neighbours in those lines)
//! hit. So the note is computed from a cold run of the first column.

use super::{LocalityConfig, ELEMENT_BYTES};

/// The lines the first column of the 2-D array touches, and how many of them
/// a cold cache still holds once the walk has reached the column's end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColumnLines {
    pub touched: usize,
    pub kept: usize,
}

impl LocalityConfig {
    /// Bytes from one element to the one below it: one row.
    pub fn row_bytes(&self) -> u64 {
        self.cols as u64 * ELEMENT_BYTES
    }

    /// Walks the first column from cold and counts its lines still cached.
    pub fn column_lines(&self) -> ColumnLines {
        let mut sim = self.cold_cache();
        let addrs: Vec<u64> = (0..self.rows())
            .map(|r| (r * self.cols) as u64 * ELEMENT_BYTES)
            .collect();
        for &a in &addrs {
            sim.load(a);
        }
        let mut lines: Vec<u64> = addrs.iter().map(|a| a / self.line).collect();
        lines.dedup();
        let kept = lines
            .iter()
            .filter(|&&l| sim.levels[0].probe(l * self.line).is_some())
            .count();
        ColumnLines {
            touched: lines.len(),
            kept,
        }
    }

    /// The note on the column walk, true for this cache.
    pub fn column_note(&self) -> String {
        let row = self.row_bytes();
        if self.line <= ELEMENT_BYTES {
            return format!(
                "Each step jumps a whole row ({row} bytes), and a {}-byte line holds one element: no order reuses a line, so every access misses.",
                self.line
            );
        }
        let ColumnLines { touched, kept } = self.column_lines();
        if kept == touched {
            format!(
                "Each step jumps a whole row ({row} bytes), but the cache still holds all {touched} lines the first column touched, so the next column finds its elements there and hits."
            )
        } else {
            format!(
                "Each step jumps a whole row ({row} bytes): the first column touches {touched} lines and the cache keeps only {kept} of them, so most lines are evicted before the next column uses their other elements."
            )
        }
    }
}
