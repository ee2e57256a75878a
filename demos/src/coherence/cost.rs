//! What each kind of access costs the core that makes it, in core cycles.
//!
//! Stated, not measured, and of the order of a current x86 core at about 3 GHz:
//! - an L1 hit: 4 cycles, the fastest L1D load-to-use latency Intel gives
//!   for its cores from Nehalem to Skylake (Intel 64 and IA-32 Architectures
//!   Optimization Reference Manual, cache-parameter tables);
//! - a BusUpgr: no data moves, but the request must reach every other cache and
//!   be acknowledged: we charge a round trip to the shared last-level cache,
//!   40 cycles (Nehalem's L3 load-to-use latency is 30–40 cycles by Intel's
//!   architects, as reported in D. Kanter, "Inside Nehalem", RealWorldTech 2008);
//! - a cache-to-cache transfer: that round trip plus snooping the owner's
//!   private cache and moving the line, 60 cycles (Molka et al., PACT 2009,
//!   measured a line held Modified by another core on the same die costing more
//!   than an L3 hit);
//! - a line from DRAM: 200 cycles, about 65 ns at 3 GHz.
//!
//! An eviction charges nothing: the write-back leaves through a write-back
//! buffer, off the core's critical path.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Costs {
    pub hit: u32,
    pub upgrade: u32,
    pub cache_to_cache: u32,
    pub memory: u32,
}

impl Default for Costs {
    fn default() -> Self {
        Costs {
            hit: 4,
            upgrade: 40,
            cache_to_cache: 60,
            memory: 200,
        }
    }
}
