//! A set-associative cache simulator: any number of levels, each with its own
//! sets, ways, line size, replacement policy and latency. The cache demos
//! (hierarchy, locality, TLB) and the `cachesim` example all run on it.
//!
//! # Semantics, exactly
//!
//! **Geometry.** A level has `sets` (a power of two), `ways` (≥ 1) and a
//! `line` size in bytes (a power of two). A byte address is cut into offset
//! (low `log2 line` bits), set index (next `log2 sets` bits) and tag (the
//! rest). Line sizes may grow going outward but never shrink, so a fill is
//! always one whole line of the level below.
//!
//! **Replacement.** A new line goes to the lowest-numbered empty way of its
//! set. Only in a full set does the policy pick the victim:
//! - `lru`: the way whose last demand access (or fill) is oldest;
//! - `fifo`: the way filled longest ago; hits do not reorder;
//! - `plru`: binary-tree pseudo-LRU (see `plru.rs`), power-of-two ways only;
//! - `random`: `Rng::range(0, ways - 1)` from the level's own SplitMix64
//!   generator seeded with its `seed`, drawn once per eviction from a full set.
//!
//! **A demand access** (a load or store from the CPU, address A):
//! 1. *Lookup.* L1, L2, … are looked up in turn until one holds A's line.
//!    Each level consulted counts one hit or one miss; a hit updates its
//!    replacement state (LRU, PLRU). The level that hits serves the access;
//!    if none does, memory serves it. A store that hits in L1 sets the line's
//!    dirty bit there; beyond L1 a store is just a read of the line.
//! 2. *Cycles.* The access is charged the sum of the `latency` of every level
//!    it looked up, plus the memory latency if memory served it (the usual
//!    teaching model: each lookup adds its time on the way out). Write-backs
//!    cost the access nothing: they leave through a buffer, off the critical
//!    path.
//! 3. *Fill (write-allocate, non-inclusive).* A's line is allocated in every
//!    level that missed, outermost first (the order the data travels in).
//!    The line is clean everywhere, except in L1 for a store, where it is
//!    dirty (write-back: memory is not updated). Nothing is filled into a
//!    level that hit, and no level ever invalidates a line because another
//!    level evicted it (no inclusion, no back-invalidation). The one
//!    exception is opt-in: a level whose `allocation` is `Victims`
//!    (`fill=victim` in the `cachesim` configuration; never the first level)
//!    is skipped by this fill, and instead takes every line the level just
//!    inside it evicts, clean or dirty (step 4), as Intel's non-inclusive L3
//!    does.
//! 4. *Write-back.* A fill that evicts a valid line counts one eviction; if
//!    the victim is dirty it counts one write-back (`wb`) at that level and
//!    the line is written to the next level out, at once, before the next
//!    fill. A write-back is **not** a demand access: the receiving level
//!    counts neither a hit nor a miss, and its 3C classifier does not see it.
//!    If the line is present there, it becomes dirty and its place in the
//!    replacement order is unchanged. If absent, it is allocated there dirty
//!    (as a fill: it may evict, and a dirty victim is written back further
//!    out, and so on). From the last level a write-back goes to memory. A
//!    *clean* victim is dropped, unless the next level out is a `Victims`
//!    level: it then moves there the same way (counted as `victims_in`, not
//!    as a write-back), and what it displaces moves on by the same rules.
//!
//! **Counters per level.** `hits + misses` = demand accesses received (from
//! the CPU for L1; misses of the level above otherwise). Misses are split
//! into compulsory, capacity and conflict (`classify.rs`). `evictions` counts
//! valid lines displaced; `writebacks` the dirty ones among them, sent on.

mod classify;
pub mod cli;
mod hierarchy;
mod invariants;
mod level;
pub mod parse;
mod plru;
mod set;
mod spec;

#[cfg(test)]
mod tests;

pub use classify::MissKind;
pub use hierarchy::{
    AccessKind, AccessReport, Fill, Hierarchy, Lookup, MemoryStats, Place, WriteBack,
};
pub use level::{Evicted, Level, LevelStats, Placed};
pub use set::{Block, CacheSet};
pub use spec::{
    check_levels, Allocation, LevelSpec, Policy, Split, MAX_LEVELS, MAX_LINE, MAX_NAME, MAX_SETS,
    MAX_WAYS,
};
