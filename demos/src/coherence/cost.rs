//! What each kind of access costs the core that makes it, in core cycles,
//! read from the CPU demos' one latency table ([`crate::cpu::latency`], where
//! each figure's source is given):
//! - a hit: an L1 hit;
//! - a BusUpgr: no data moves, but the request must reach the shared
//!   last-level cache, where the snoop filter finds the other copies, and be
//!   acknowledged: we charge an L3 hit, the round trip to that home;
//! - a cache-to-cache transfer: in this engine only a dirty copy (M, or O in
//!   MOESI) supplies a line, so it is a HITM, which Intel's Memory Latency
//!   Checker measures at 49.9 ns on a Skylake-SP socket: more than an L3 hit;
//! - a line from memory: a DRAM access. The engine has no shared L3 between
//!   the private caches and memory, so every clean miss pays DRAM (a real
//!   part would often find a clean line in its L3, at an L3 hit's cost).
//!
//! An eviction charges nothing: the write-back leaves through a write-back
//! buffer, off the core's critical path.

use crate::cpu::latency;
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
            hit: latency::L1_HIT,
            upgrade: latency::L3_HIT,
            cache_to_cache: latency::PEER_MODIFIED,
            memory: latency::DRAM,
        }
    }
}
