//! One core's budget: the cycles it has for each packet at the port's line
//! rate, and what the demo assumes a jump in memory costs it.
//!
//! The clock is the CPU demos' reference core, a Sapphire Rapids core at an
//! assumed 3.5 GHz (`cpu::latency`). A jump's cost is a setting: by default
//! one L3 hit from the same table (100 cycles), since with Intel's Data
//! Direct I/O the NIC's writes land in the last-level cache rather than in
//! DRAM ("Intel DDIO makes the processor cache the primary destination and
//! source of I/O data rather than main memory", Intel, "Intel Data Direct
//! I/O Technology"). That a jump costs a whole L3 hit, and a line the
//! prefetcher saw coming costs nothing, is the demo's assumption, not a
//! measurement: the setting lets the learner try others.

use crate::bound::Bound;
use crate::cpu::latency::{CYCLES_PER_NS_TENTHS, DRAM, L3_HIT};

/// Cycles a jump costs the core: from none (a perfect prefetcher) to a
/// trip to DRAM.
pub const STALL: Bound<u32> = Bound::new("cost of a jump", " cycles", 0, DRAM);
/// The default cost of a jump: an L3 hit.
pub const DEFAULT_STALL: u32 = L3_HIT;

/// The reference core's clock, in cycles a second.
pub fn clock_hz() -> f64 {
    f64::from(CYCLES_PER_NS_TENTHS) * 1e8
}

/// Cycles one core has for each packet when packets come at `pps`.
pub fn budget(pps: f64) -> f64 {
    if pps > 0.0 {
        clock_hz() / pps
    } else {
        f64::INFINITY
    }
}
