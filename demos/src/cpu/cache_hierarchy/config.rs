//! The two starting points — a small drawable hierarchy and a current x86
//! server core — and the bounds every setting must stay within.

use crate::bound::Bound;
use crate::cpu::cachesim::{check_levels, Allocation, LevelSpec, Policy};
use crate::cpu::latency;
use serde::{Deserialize, Serialize};

/// Levels named L1, L2, L3 in this order; DRAM is behind the last one.
pub const NAMES: [&str; 3] = ["L1", "L2", "L3"];
/// A level's sets (a power of two, checked apart).
pub const SETS: Bound<u64> = Bound::new("number of sets", "", 1, 1 << 16);
pub const WAYS: Bound<usize> = Bound::new("number of ways", "", 1, 32);
/// A level's line size (a power of two, checked apart).
pub const LINE: Bound<u64> = Bound::new("line size", " bytes", 8, 512);
/// What a level's lookup, or DRAM, adds to an access.
pub const LATENCY: Bound<u32> = Bound::new("latency", " cycles", 0, 10_000);
pub const ADDRESS_BITS: Bound<u32> = Bound::new("address width", " bits", 8, 48);
pub const MAX_LATENCY: u32 = LATENCY.max;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Preset {
    /// Few sets and ways, 64-byte lines, a 16 KiB address space: every set
    /// and way fits on screen.
    Small,
    /// One Golden Cove core of a Sapphire Rapids Xeon with its share of L3.
    Server,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheHierarchyConfig {
    /// L1 first; one to three levels.
    pub levels: Vec<LevelSpec>,
    /// Cycles DRAM adds once every level has missed.
    pub dram_latency: u32,
    /// Addresses are below 2^address_bits.
    pub address_bits: u32,
    /// Seeds the random replacement policy (level i uses seed + i).
    pub seed: u64,
}

impl Default for CacheHierarchyConfig {
    fn default() -> Self {
        Self::preset(Preset::Small)
    }
}

// Latencies from the CPU demos' one table (`cpu::latency`, with its
// sources), in core cycles. The table gives each level's load-to-use total;
// here each level's figure is what its lookup adds to the one before, so the
// sums along the way out are the table's totals.
// Geometry of the server preset:
// - L1D 48 KiB, 12-way, 64-byte lines: Intel 64 and IA-32 Architectures
//   Optimization Reference Manual, Golden Cove cache parameters.
// - L2 2 MiB, 16-way on the server part (1.25 MiB 10-way on the client
//   part): same manual.
// - L3: 1.875 MiB per core (105 MB for 56 cores on the Xeon Platinum 8480+),
//   modelled as one 15-way slice of 2,048 sets. It is non-inclusive, filled
//   by the L2's victims rather than on every miss (Intel's manual, Skylake
//   Server microarchitecture, which Sapphire Rapids keeps): the server preset
//   models that with `Allocation::Victims`. The small preset keeps the
//   textbook rule, every level filled on a miss, so that one access shows a
//   line arriving in all three.
// The default geometry is the small preset (4, 8 and 16 sets) so that every
// set and way fits in the picture; the latencies are the server core's.
const L1_CYCLES: u32 = latency::L1_HIT;
const L2_CYCLES: u32 = latency::L2_HIT - latency::L1_HIT;
const L3_CYCLES: u32 = latency::L3_HIT - latency::L2_HIT;
const DRAM_CYCLES: u32 = latency::DRAM - latency::L3_HIT;

impl CacheHierarchyConfig {
    pub fn preset(preset: Preset) -> Self {
        let level = |i: usize, sets, ways, latency| {
            LevelSpec::new(NAMES[i], sets, ways, 64, Policy::Lru).with_latency(latency)
        };
        match preset {
            Preset::Small => CacheHierarchyConfig {
                levels: vec![
                    level(0, 4, 2, L1_CYCLES),
                    level(1, 8, 4, L2_CYCLES),
                    level(2, 16, 4, L3_CYCLES),
                ],
                dram_latency: DRAM_CYCLES,
                address_bits: 14,
                seed: 1,
            },
            Preset::Server => CacheHierarchyConfig {
                levels: vec![
                    level(0, 64, 12, L1_CYCLES),
                    level(1, 2048, 16, L2_CYCLES),
                    level(2, 2048, 15, L3_CYCLES).with_allocation(Allocation::Victims),
                ],
                dram_latency: DRAM_CYCLES,
                address_bits: 48,
                seed: 1,
            },
        }
    }

    /// The levels as the simulator builds them, with their seeds.
    pub fn specs(&self) -> Vec<LevelSpec> {
        self.levels
            .iter()
            .enumerate()
            .map(|(i, l)| l.clone().with_seed(self.seed.wrapping_add(i as u64)))
            .collect()
    }

    pub fn validate(&self) -> Result<(), String> {
        if self.levels.is_empty() || self.levels.len() > NAMES.len() {
            return Err("the hierarchy has one to three cache levels".into());
        }
        for (i, l) in self.levels.iter().enumerate() {
            check_bounds(l)?;
            if l.name != NAMES[i] {
                return Err(format!("level {} must be named {}", i + 1, NAMES[i]));
            }
        }
        check_levels(&self.levels)?;
        LATENCY
            .check(self.dram_latency)
            .map_err(|e| format!("DRAM: {e}"))?;
        ADDRESS_BITS.check(self.address_bits)?;
        Ok(())
    }
}

/// The model's own limits on a level, tighter than the simulator's.
pub fn check_bounds(l: &LevelSpec) -> Result<(), String> {
    let at = |e: String| format!("{}: {e}", l.name);
    SETS.check(l.sets).map_err(at)?;
    if !l.sets.is_power_of_two() {
        return Err(format!(
            "{}: the number of sets is a power of two; {} is not.",
            l.name, l.sets
        ));
    }
    WAYS.check(l.ways).map_err(at)?;
    LINE.check(l.line).map_err(at)?;
    if !l.line.is_power_of_two() {
        return Err(format!(
            "{}: the line size is a power of two; {} bytes is not.",
            l.name, l.line
        ));
    }
    LATENCY.check(l.latency).map_err(at)?;
    l.check()
}
