//! The two starting points — a small drawable hierarchy and a current x86
//! server core — and the bounds every setting must stay within.

use crate::cpu::cachesim::{check_levels, LevelSpec, Policy};
use serde::{Deserialize, Serialize};

/// Levels named L1, L2, L3 in this order; DRAM is behind the last one.
pub const NAMES: [&str; 3] = ["L1", "L2", "L3"];
pub const MAX_SETS: u64 = 1 << 16;
pub const MAX_WAYS: usize = 32;
pub const MIN_LINE: u64 = 8;
pub const MAX_LINE: u64 = 512;
pub const MAX_LATENCY: u32 = 10_000;
pub const MIN_ADDRESS_BITS: u32 = 8;
pub const MAX_ADDRESS_BITS: u32 = 48;

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

// Load-to-use latencies, in core cycles; each level's figure is what its
// lookup adds to the one before, so the sums are the measured totals:
// - L1D 48 KiB, 12-way, 64-byte lines, 5 cycles: Intel 64 and IA-32
//   Architectures Optimization Reference Manual, Golden Cove cache parameters.
// - L2 2 MiB, 16-way on the server part (1.25 MiB 10-way on the client
//   part): same manual; about 16 cycles as measured on a Xeon Platinum 8480
//   by Chips and Cheese, "Sapphire Rapids: Golden Cove Hits Servers" (2023).
// - L3: 1.875 MiB per core (105 MB for 56 cores on the Xeon Platinum 8480+),
//   modelled as one 15-way slice of 2,048 sets; its mesh latency is roughly
//   30 ns (Chips and Cheese, ibid.), about 100 cycles at 3.5 GHz.
// - DRAM: 350 cycles in all, i.e. 100 ns at an assumed 3.5 GHz core clock
//   (3.5 cycles per ns, the clock the L3 figure above assumes too). 100 ns
//   is this model's round figure, not a measurement: the idle load-to-use
//   latency to local DRAM that Intel's Memory Latency Checker (`mlc
//   --idle_latency`) reports on current Xeon servers is on the order of
//   100 ns, and the exact value depends on the part, the DIMMs and the
//   clocks.
// The default geometry is the small preset (4, 8 and 16 sets) so that every
// set and way fits in the picture; the latencies are the server core's.
// `Preset::SapphireRapids` has the real sizes.
const L1_CYCLES: u32 = 5;
const L2_CYCLES: u32 = 16 - L1_CYCLES;
const L3_CYCLES: u32 = 100 - 16;
const DRAM_CYCLES: u32 = 350 - 100;

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
                    level(2, 2048, 15, L3_CYCLES),
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
        if self.dram_latency > MAX_LATENCY {
            return Err(format!("DRAM latency is at most {MAX_LATENCY} cycles"));
        }
        if !(MIN_ADDRESS_BITS..=MAX_ADDRESS_BITS).contains(&self.address_bits) {
            return Err(format!(
                "addresses are {MIN_ADDRESS_BITS} to {MAX_ADDRESS_BITS} bits wide"
            ));
        }
        Ok(())
    }
}

/// The model's own limits on a level, tighter than the simulator's.
pub fn check_bounds(l: &LevelSpec) -> Result<(), String> {
    if !(1..=MAX_SETS).contains(&l.sets) || !l.sets.is_power_of_two() {
        return Err(format!(
            "{} has {} sets; use a power of two from 1 to {MAX_SETS}.",
            l.name, l.sets
        ));
    }
    if !(1..=MAX_WAYS).contains(&l.ways) {
        return Err(format!(
            "{} has {} ways; use 1 to {MAX_WAYS}.",
            l.name, l.ways
        ));
    }
    if !(MIN_LINE..=MAX_LINE).contains(&l.line) || !l.line.is_power_of_two() {
        return Err(format!(
            "{} has {}-byte lines; use a power of two from {MIN_LINE} to {MAX_LINE}.",
            l.name, l.line
        ));
    }
    if l.latency > MAX_LATENCY {
        return Err(format!(
            "{} takes {} cycles; at most {MAX_LATENCY}.",
            l.name, l.latency
        ));
    }
    l.check()
}
