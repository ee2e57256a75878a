//! Cache hierarchy: loads and stores walk L1 → L2 → L3 → DRAM on the shared
//! simulator (`cpu::cachesim`, whose module doc states the exact rules:
//! write-back, write-allocate, non-inclusive, latencies added along the path).
//!
//! The learner loads or stores an address and sees, per level, how the
//! address splits into tag / set / offset, which set and way the line maps
//! to, hit or miss (and which of the three Cs), the victim and why the policy
//! chose it, dirty write-backs, and the cycles charged. Changing a level's
//! geometry, policy or latency replays every access made so far on the new
//! hierarchy, so the counts before and after compare the same trace.
//!
//! Break it: `Thrash` queues ways + 1 lines that all map to L1 set 0, three
//! times round. L1 misses on every one of them while most of it stays empty
//! — conflict misses; more ways at the same size make them hits.
//!
//! Focus keys: `l1`, `l2`, `l3`, `dram` (a level's box); `l1-set-3` (a set's
//! row); `l1-set-3-way-1` (one way); `addr` (the address split); `cycles`;
//! `queue` (the queued pattern).

mod config;
mod narrate;
mod report;
#[cfg(test)]
mod tests;

pub use config::{
    check_bounds, CacheHierarchyConfig, Preset, ADDRESS_BITS, LATENCY, LINE, MAX_LATENCY, NAMES,
    SETS, WAYS,
};

use crate::cpu::cachesim::{AccessKind, AccessReport, Allocation, Hierarchy, LevelSpec, Policy};
use crate::model::{Event, Figure, Model, Outcome, Refusal};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Accesses kept for the history strip.
pub const HISTORY: usize = 16;
/// Rounds of the thrash pattern.
pub const THRASH_ROUNDS: usize = 3;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CacheAction {
    Load(u64),
    Store(u64),
    /// Queue the break-it pattern: lines that all map to L1's set 0.
    Thrash,
    /// Run the next queued access.
    Step,
    /// A level's sets, ways and line size (replays the accesses so far).
    SetGeometry {
        level: usize,
        sets: u64,
        ways: usize,
        line: u64,
    },
    SetPolicy {
        level: usize,
        policy: Policy,
    },
    /// Cycles a level's lookup adds; `level` = number of levels means DRAM.
    SetLatency {
        level: usize,
        cycles: u32,
    },
    /// Start over, cold, from a preset.
    UsePreset(Preset),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheHierarchy {
    /// The current geometry, policies and latencies.
    pub config: CacheHierarchyConfig,
    /// The simulator: `sim.levels[i].sets` holds each set's ways (only sets
    /// ever touched are present), `sim.levels[i].stats` the counters.
    pub sim: Hierarchy,
    /// Every access made so far, oldest first (replayed on a change).
    pub trace: Vec<(AccessKind, u64)>,
    /// Accesses queued by a pattern; Step runs the front one.
    pub pending: VecDeque<(AccessKind, u64)>,
    /// The last [`HISTORY`] accesses in full, newest last: the back one is
    /// the access the picture shows.
    pub history: VecDeque<AccessReport>,
}

fn build(config: &CacheHierarchyConfig) -> Hierarchy {
    // The configuration was validated; an impossible one yields a cold L1 only.
    Hierarchy::new(config.specs(), config.dram_latency).unwrap_or_else(|_| {
        let fallback = CacheHierarchyConfig::default();
        Hierarchy::new(fallback.specs(), fallback.dram_latency).expect("default is valid")
    })
}

impl CacheHierarchy {
    /// Who served an access: a level's name, or `DRAM`.
    pub fn place_name(&self, place: crate::cpu::cachesim::Place) -> &str {
        narrate::place_name(&self.sim, place)
    }

    /// The access the picture shows.
    pub fn last(&self) -> Option<&AccessReport> {
        self.history.back()
    }

    fn address_limit(&self) -> u64 {
        1u64 << self.config.address_bits
    }

    fn record(&mut self, report: AccessReport) {
        if self.history.len() == HISTORY {
            self.history.pop_front();
        }
        self.history.push_back(report);
    }

    fn access(&mut self, kind: AccessKind, addr: u64) -> Outcome {
        if addr >= self.address_limit() {
            return Err(Refusal::new(format!(
                "{addr:#x} is outside the {}-bit address space: use an address below {:#x}.",
                self.config.address_bits,
                self.address_limit()
            )));
        }
        let report = self.sim.access(addr, kind);
        self.trace.push((kind, addr));
        let events = narrate::access(&self.sim, &report);
        self.record(report);
        Ok(events)
    }

    fn thrash(&mut self) -> Outcome {
        if !self.pending.is_empty() {
            return Err(Refusal::new(format!(
                "A pattern is already queued ({} accesses left): step through it first.",
                self.pending.len()
            )));
        }
        let l1 = &self.config.levels[0];
        // Addresses one L1 "way size" apart share a set index.
        let stride = l1.sets * l1.line;
        let lines = l1.ways as u64 + 1;
        if lines * stride > self.address_limit() {
            return Err(Refusal::new(
                "This address space is too small to hold that many lines of one L1 set: widen it or shrink L1.",
            ));
        }
        for _ in 0..THRASH_ROUNDS {
            for k in 0..lines {
                self.pending.push_back((AccessKind::Load, k * stride));
            }
        }
        Ok(vec![Event::warn(format!(
            "Queued {} loads: {lines} lines {stride} bytes apart, all in L1 set 0, {THRASH_ROUNDS} times round. L1 has {} ways there: under LRU or FIFO each line is evicted just before it comes back. Step through them.",
            self.pending.len(),
            l1.ways
        ))
        .at("queue")
        .at("l1-set-0")])
    }

    fn step(&mut self) -> Outcome {
        let Some(&(kind, addr)) = self.pending.front() else {
            return Err(Refusal::new(
                "Nothing is queued: load or store an address, or queue the thrash pattern.",
            ));
        };
        let outcome = self.access(kind, addr);
        if outcome.is_ok() {
            self.pending.pop_front();
        }
        outcome
    }

    /// Applies a new configuration and replays the trace on it.
    fn reconfigure(&mut self, config: CacheHierarchyConfig, what: String) -> Outcome {
        config.validate().map_err(Refusal::new)?;
        let before = self.sim.clone();
        let mut sim = build(&config);
        let mut history = VecDeque::new();
        for &(kind, addr) in &self.trace {
            if history.len() == HISTORY {
                history.pop_front();
            }
            history.push_back(sim.access(addr, kind));
        }
        self.config = config;
        self.sim = sim;
        self.history = history;
        Ok(narrate::reconfigured(&before, &self.sim, what))
    }

    fn level_index(&self, level: usize) -> Result<usize, Refusal> {
        if level < self.config.levels.len() {
            Ok(level)
        } else {
            Err(Refusal::new(format!(
                "There is no level {}: this hierarchy has {}.",
                level + 1,
                self.config.levels.len()
            )))
        }
    }

    fn set_geometry(&mut self, level: usize, sets: u64, ways: usize, line: u64) -> Outcome {
        let i = self.level_index(level)?;
        let old = &self.config.levels[i];
        if (old.sets, old.ways, old.line) == (sets, ways, line) {
            return Err(Refusal::new(format!(
                "{} already has {sets} sets of {ways} ways with {line}-byte lines.",
                old.name
            )));
        }
        let mut config = self.config.clone();
        let spec = LevelSpec {
            sets,
            ways,
            line,
            ..old.clone()
        };
        check_bounds(&spec).map_err(Refusal::new)?;
        let what = format!(
            "{} is now {sets} set{} × {ways} way{} × {line} B = {} bytes.",
            spec.name,
            crate::text::plural(sets as usize),
            crate::text::plural(ways),
            spec.bytes()
        );
        config.levels[i] = spec;
        self.reconfigure(config, what)
    }

    fn set_policy(&mut self, level: usize, policy: Policy) -> Outcome {
        let i = self.level_index(level)?;
        let old = &self.config.levels[i];
        if old.policy == policy {
            return Err(Refusal::new(format!(
                "{} already replaces by {}.",
                old.name,
                policy.label()
            )));
        }
        let mut config = self.config.clone();
        config.levels[i].policy = policy;
        let what = format!("{} now replaces by {}.", old.name, policy.label());
        self.reconfigure(config, what)
    }

    fn set_latency(&mut self, level: usize, cycles: u32) -> Outcome {
        let levels = self.config.levels.len();
        if level > levels {
            return Err(Refusal::new(format!(
                "There is no level {}: this hierarchy has {levels} and then DRAM.",
                level + 1
            )));
        }
        LATENCY.admit(cycles)?;
        let mut config = self.config.clone();
        let (name, slot) = match config.levels.get_mut(level) {
            Some(l) => (l.name.clone(), &mut l.latency),
            None => ("DRAM".to_string(), &mut config.dram_latency),
        };
        if *slot == cycles {
            return Err(Refusal::new(format!(
                "{name} already takes {cycles} cycles."
            )));
        }
        *slot = cycles;
        let what = format!("{name} now adds {cycles} cycles to an access that reaches it.");
        self.reconfigure(config, what)
    }

    fn use_preset(&mut self, preset: Preset) -> Outcome {
        let config = CacheHierarchyConfig::preset(preset);
        *self = CacheHierarchy::new(&config);
        let l = &self.config.levels;
        let victims = if l[2].allocation == Allocation::Victims {
            " L3 is non-inclusive: a line from DRAM goes past it into L2, and L3 takes the lines L2 evicts."
        } else {
            ""
        };
        Ok(vec![Event::info(format!(
            "All caches cold: L1 {} B, L2 {} B, L3 {} B, addresses below {:#x}.{victims}",
            l[0].bytes(),
            l[1].bytes(),
            l[2].bytes(),
            self.address_limit()
        ))
        .at("l1")
        .at("l2")
        .at("l3")])
    }
}

impl Model for CacheHierarchy {
    type Config = CacheHierarchyConfig;
    type Action = CacheAction;

    fn validate(config: &CacheHierarchyConfig) -> Result<(), String> {
        config.validate()
    }

    fn new(config: &CacheHierarchyConfig) -> Self {
        CacheHierarchy {
            sim: build(config),
            config: config.clone(),
            trace: Vec::new(),
            pending: VecDeque::new(),
            history: VecDeque::new(),
        }
    }

    fn intro(&self) -> Event {
        let l1 = &self.config.levels[0];
        Event::info(format!(
            "Every cache is cold. L1 has {} sets of {} ways with {}-byte lines: load or store an address, or queue the thrash pattern.",
            l1.sets, l1.ways, l1.line
        ))
        .at("l1")
    }

    fn apply(&mut self, action: &CacheAction) -> Outcome {
        match *action {
            CacheAction::Load(addr) => self.access(AccessKind::Load, addr),
            CacheAction::Store(addr) => self.access(AccessKind::Store, addr),
            CacheAction::Thrash => self.thrash(),
            CacheAction::Step => self.step(),
            CacheAction::SetGeometry {
                level,
                sets,
                ways,
                line,
            } => self.set_geometry(level, sets, ways, line),
            CacheAction::SetPolicy { level, policy } => self.set_policy(level, policy),
            CacheAction::SetLatency { level, cycles } => self.set_latency(level, cycles),
            CacheAction::UsePreset(preset) => self.use_preset(preset),
        }
    }

    fn next_auto(&self) -> Result<CacheAction, Refusal> {
        if self.pending.is_empty() {
            Err(Refusal::new(
                "Nothing is queued: load or store an address, or queue the thrash pattern.",
            ))
        } else {
            Ok(CacheAction::Step)
        }
    }

    fn check(&self) -> Result<(), String> {
        report::check(self)
    }

    fn status(&self) -> Vec<Figure> {
        report::status(self)
    }

    fn why(&self) -> Vec<String> {
        report::why(self)
    }

    fn leaves_out() -> &'static str {
        "Leaves out: prefetchers, the instruction cache and TLB, misses overlapping in an out-of-order core (each access here waits alone), L3 slice hashing, the heuristic by which Intel's non-inclusive L3 may drop an L2 victim instead of keeping it, and other cores sharing L3."
    }
}
