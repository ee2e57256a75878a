//! The two answers the learner looks for: the smallest ring that drops
//! nothing in this run's stall, and the largest whose footprint still fits
//! the DDIO ways; and whether any ring is both.

use super::ddio::{footprint, written_per_frame};
use super::ring::{at_least, holds, rounded_down};
use super::run::{peak_unbounded, Params};
use super::wire::frame_ps;

/// The smallest ring that drops nothing, or why there is none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Smallest {
    Ring(u32),
    /// The core takes at least as long per frame as its queue's frames are
    /// apart: its backlog never drains, so every ring fills in the end.
    CoreTooSlow,
    /// The ring would have to hold this many frames, more than the driver's
    /// largest ring does.
    BeyondDriver {
        frames: u64,
    },
}

/// The largest ring whose footprint fits the DDIO ways, or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Largest {
    Ring(u32),
    /// Even the smallest ring, times the queues, overflows the DDIO ways.
    NoneFits,
}

/// Picoseconds between this queue's frames.
pub fn queue_gap_ps(p: &Params) -> u64 {
    p.queues.saturating_mul(frame_ps(p.payload, p.rate_gbps))
}

/// Whether the core reads frames more slowly than they come.
pub fn core_too_slow(p: &Params) -> bool {
    p.core_ns.saturating_mul(1_000) >= queue_gap_ps(p)
}

/// The smallest ring with no drops in the run: one that holds the most an
/// endless ring would ever hold, plus the entry the driver keeps empty.
/// (Until then a ring of any size fills exactly as an endless one does, so
/// a ring one multiple smaller drops at that moment.)
pub fn smallest(p: &Params) -> Smallest {
    if core_too_slow(p) {
        return Smallest::CoreTooSlow;
    }
    let frames = peak_unbounded(p);
    match at_least(frames + 1) {
        Some(n) => Smallest::Ring(n),
        None => Smallest::BeyondDriver { frames },
    }
}

/// The largest ring whose footprint, over all queues, fits the DDIO ways.
pub fn largest(queues: u32, payload: u32, ddio_bytes: u64) -> Largest {
    let per_entry = u64::from(queues).saturating_mul(written_per_frame(payload));
    match rounded_down(ddio_bytes / per_entry.max(1)) {
        Some(n) if footprint(queues, n, payload) <= ddio_bytes => Largest::Ring(n),
        _ => Largest::NoneFits,
    }
}

/// Both ends, when a ring can drop nothing and stay in the DDIO ways.
pub fn both(smallest: Smallest, largest: Largest) -> Option<(u32, u32)> {
    match (smallest, largest) {
        (Smallest::Ring(lo), Largest::Ring(hi)) if lo <= hi => Some((lo, hi)),
        _ => None,
    }
}

/// How long a stall a ring of `entries` absorbs, ps: the frames it holds,
/// each one of this queue's gaps.
pub fn absorbs_ps(p: &Params, entries: u32) -> u64 {
    holds(entries).saturating_mul(queue_gap_ps(p))
}
