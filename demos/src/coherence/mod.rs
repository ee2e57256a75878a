//! The one cache-coherence engine (MSI, MESI, MOESI on a snooping bus), shared
//! by the memory section's false-sharing demo and the CPU section's MESI demo.
//!
//! 2–4 cores, each with a private cache, and one or more lines. Every access
//! returns an [`Access`]: the states before and after, the bus request, who
//! supplied the data, which copies were invalidated, the cycles charged. The
//! system keeps running [`Counts`] and can check the single-writer /
//! multiple-reader and data-value invariants after every access.
//!
//! Sources: Culler & Singh, "Parallel Computer Architecture" §5.3; Sorin, Hill
//! & Wood, "A Primer on Memory Consistency and Cache Coherence" (2nd ed.)
//! ch. 2 (the invariants) and ch. 7 (snooping protocols). Rules are cited
//! beside the code that implements them.

mod bus;
mod cost;
mod invariants;
mod narrate;
mod protocol;
mod system;
#[cfg(test)]
mod tests;

pub use bus::{Access, BusOp, Counts, Op, Snoop, Supplier};
pub use cost::Costs;
pub use narrate::narrate;
pub use protocol::{Protocol, State};
pub use system::{Line, System, CORES, LINES, MAX_CORES, MAX_LINES, MIN_CORES};

/// Cores are named A, B, C, D in narration.
pub fn core_name(core: usize) -> char {
    char::from(b'A' + (core % 26) as u8)
}
