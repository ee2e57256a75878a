//! The one table of access latencies the CPU demos read, in core cycles.
//!
//! Every figure is a load-to-use time (from the load's issue until its data
//! can be used), counted in cycles of one reference core: a Golden Cove core
//! of a Sapphire Rapids Xeon at an assumed 3.5 GHz, so 3.5 cycles are 1 ns.
//! Where a source gives nanoseconds, [`cycles_of_ns_tenths`] converts at that
//! clock. The sources, entry by entry:
//! - [`L1_HIT`], 5 cycles: Golden Cove's L1D load-to-use latency in the
//!   cache-parameter table of the Intel 64 and IA-32 Architectures
//!   Optimization Reference Manual.
//! - [`L2_HIT`], 16 cycles: about what Chips and Cheese measured for the L2 of
//!   a Xeon Platinum 8480 ("Sapphire Rapids: Golden Cove Hits Servers", 2023).
//! - [`L3_HIT`], 100 cycles: the same article measured the mesh-connected L3
//!   at roughly 30 ns; 100 cycles is 28.6 ns at the reference clock.
//! - [`PEER_MODIFIED`], 175 cycles: a line held Modified in another core's
//!   private cache, on the same socket. The cache-to-cache test of Intel's
//!   Memory Latency Checker v3.10 measured "Local Socket L2->L2 HITM" at
//!   49.9 ns on a 2 × Xeon Gold 6140 (Skylake-SP) node, and a clean line in a
//!   peer's L2 ("HIT") at 50.5 ns (hpcleuven/VscDocumentation,
//!   `source/leuven/old_hardware/genius/skylake_mlc.txt`, the run the NUMA
//!   demo also cites). 49.9 ns at the reference clock is 175 cycles: more
//!   than an L3 hit, less than DRAM.
//! - [`DRAM`], 350 cycles: 100 ns, a round figure for idle local-DRAM
//!   latency, not one measurement; the same MLC run measured 90.2 ns on that
//!   node, and the exact value depends on the part, the DIMMs and the clocks.
//!
//! The figures come from two generations of Xeon (the HITM and DRAM
//! measurements from Skylake-SP, the cache latencies from Sapphire Rapids),
//! so the table is of the right order for a current server core, not one
//! machine's datasheet.

/// Reference clock, in tenths of a cycle per nanosecond (35 = 3.5 GHz).
pub const CYCLES_PER_NS_TENTHS: u32 = 35;

/// `ns_tenths` tenths of a nanosecond as whole cycles of the reference core,
/// rounded to the nearest.
pub const fn cycles_of_ns_tenths(ns_tenths: u32) -> u32 {
    (ns_tenths * CYCLES_PER_NS_TENTHS + 50) / 100
}

/// An L1D hit.
pub const L1_HIT: u32 = 5;
/// An L2 hit, in all (the L1 lookup included).
pub const L2_HIT: u32 = 16;
/// An L3 hit, in all.
pub const L3_HIT: u32 = 100;
/// Intel MLC's local-socket L2→L2 HITM latency, in tenths of a nanosecond.
pub const PEER_MODIFIED_NS_TENTHS: u32 = 499;
/// A line another core holds Modified, moved to this core (a HITM).
pub const PEER_MODIFIED: u32 = cycles_of_ns_tenths(PEER_MODIFIED_NS_TENTHS);
/// A line from local DRAM, in all: 100 ns.
pub const DRAM: u32 = cycles_of_ns_tenths(1000);

// The order the hardware has: each level costs more than the one inside it,
// and a line from a peer's cache more than the shared L3 but less than DRAM
// (MLC). A table that broke it would not compile.
const _: () =
    assert!(L1_HIT < L2_HIT && L2_HIT < L3_HIT && L3_HIT < PEER_MODIFIED && PEER_MODIFIED < DRAM);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nanoseconds_convert_at_the_reference_clock() {
        // 49.9 ns × 3.5 cycles/ns = 174.65, rounded to 175.
        assert_eq!(PEER_MODIFIED, 175);
        assert_eq!(DRAM, 350);
    }
}
