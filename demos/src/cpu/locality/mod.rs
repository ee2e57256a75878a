//! Cache locality: the same array of 8-byte elements walked in different
//! orders through one cache (the shared `cpu::cachesim`), each walk from a
//! cold cache. A miss brings a whole line, so the elements beside the one
//! missed become hits, if the walk reaches them before the line is evicted.
//!
//! Every number is the simulator's: per access hit or miss, per walk the
//! totals and cycles, and the miss rate against stride (a cold run per
//! stride). The default cache (2 sets × 2 ways × 64 B = 256 bytes) is
//! smaller than the default 512-byte array, so the order of the walk matters;
//! enlarge the cache past the array and every order costs the same.
//!
//! The array starts at address 0: element `i` is at byte `8 i`.
//! Focus keys: `elem-9` (an element's cell), `line-1` (the elements of one
//! line), `cache`, `results`, `chart`.

mod column;
mod report;
#[cfg(test)]
mod tests;
mod walk;

pub use column::ColumnLines;
pub use walk::{order, Walk};

use crate::bound::Bound;
use crate::cpu::cachesim::{Hierarchy, LevelSpec, Place, Policy};
use crate::cpu::latency;
use crate::model::{Event, Figure, Model, Outcome, Refusal};
use serde::{Deserialize, Serialize};

pub const ELEMENT_BYTES: u64 = 8;
/// The array's length (a power of two, checked apart).
pub const ELEMENTS: Bound<usize> = Bound::new("array length", " elements", 64, 4096);
pub const MIN_ELEMENTS: usize = ELEMENTS.min;
pub const MAX_ELEMENTS: usize = ELEMENTS.max;
/// The cache's sets, ways and line size (sets and line powers of two).
pub const SETS: Bound<u64> = Bound::new("number of sets", "", 1, 256);
pub const WAYS: Bound<usize> = Bound::new("number of ways", "", 1, 16);
pub const LINE: Bound<u64> = Bound::new("line size", " bytes", 8, 512);
/// The cache may hold at most this many lines: enough for the largest array
/// at 64-byte lines, and each of the timeline's snapshots stays small.
pub const CACHE_LINES: Bound<u64> = Bound::new("cache size", " lines", 1, 512);
pub const MAX_CACHE_LINES: u64 = CACHE_LINES.max;
/// Largest stride on the miss-rate chart.
pub const MAX_CHART_STRIDE: usize = 512;
/// Cycles of an access that hits: an L1 hit, from the CPU demos' one
/// latency table (`cpu::latency`, with its sources).
pub const HIT_CYCLES: u32 = latency::L1_HIT;
/// Cycles a miss adds: with no L2 or L3 here, the rest of a DRAM access
/// from the same table, so a miss costs `latency::DRAM` in all.
pub const MISS_CYCLES: u32 = latency::DRAM - latency::L1_HIT;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LocalityConfig {
    /// Array length, a power of two from 64 to 4,096.
    pub elements: usize,
    /// Step of the stride walk, a power of two below `elements`.
    pub stride: usize,
    /// Columns of the 2-D view (rows = elements / cols), a power of two.
    pub cols: usize,
    pub sets: u64,
    pub ways: usize,
    pub line: u64,
    pub policy: Policy,
    /// Seeds the random walk (and the random policy).
    pub seed: u64,
}

impl Default for LocalityConfig {
    fn default() -> Self {
        LocalityConfig {
            elements: 64,
            stride: 8,
            cols: 8,
            sets: 2,
            ways: 2,
            line: 64,
            policy: Policy::Lru,
            seed: 42,
        }
    }
}

impl LocalityConfig {
    pub fn rows(&self) -> usize {
        self.elements / self.cols
    }

    fn spec(&self) -> LevelSpec {
        LevelSpec::new("cache", self.sets, self.ways, self.line, self.policy)
            .with_latency(HIT_CYCLES)
            .with_seed(self.seed)
    }

    /// The stride walk's step: a power of two below the array's length.
    pub fn stride_bound(&self) -> Bound<usize> {
        Bound::new("stride", " elements", 1, (self.elements / 2).max(1))
    }

    /// Columns of the 2-D view: a power of two, at least two rows.
    pub fn cols_bound(&self) -> Bound<usize> {
        Bound::new("number of columns", "", 2, (self.elements / 2).max(2))
    }

    pub fn validate(&self) -> Result<(), String> {
        let n = ELEMENTS.check(self.elements)?;
        let stride = self.stride_bound().check(self.stride)?;
        let cols = self.cols_bound().check(self.cols)?;
        let line = LINE.check(self.line)?;
        let sets = SETS.check(self.sets)?;
        WAYS.check(self.ways)?;
        for (what, v) in [
            ("array length", n as u64),
            ("stride", stride as u64),
            ("number of columns", cols as u64),
            ("line size", line),
            ("number of sets", sets),
        ] {
            if !v.is_power_of_two() {
                return Err(format!("The {what} is a power of two; {v} is not."));
            }
        }
        let spec = self.spec();
        spec.check()
            .map_err(|e| format!("The cache cannot be built: {e}."))?;
        CACHE_LINES.check(spec.lines())?;
        Ok(())
    }

    /// A cold cache for a new walk.
    pub fn cold_cache(&self) -> Hierarchy {
        Hierarchy::new(vec![self.spec()], MISS_CYCLES)
            .unwrap_or_else(|_| LocalityConfig::default().cold_cache())
    }

    /// Runs a whole walk from cold.
    pub fn totals(&self, walk: Walk) -> WalkTotals {
        let mut sim = self.cold_cache();
        for e in order(walk, self.elements, self.stride, self.cols, self.seed) {
            sim.load(u64::from(e) * ELEMENT_BYTES);
        }
        WalkTotals::of(walk, &sim)
    }

    /// Misses of a cold stride-k walk for k = 1, 2, 4, … (each point its own run).
    pub fn stride_curve(&self) -> Vec<StridePoint> {
        let mut strides = Vec::new();
        let mut k = 1;
        while k < self.elements && k <= MAX_CHART_STRIDE {
            strides.push(k);
            k *= 2;
        }
        strides
            .into_iter()
            .map(|stride| {
                let t = LocalityConfig {
                    stride,
                    ..self.clone()
                }
                .totals(Walk::Stride);
                StridePoint {
                    stride,
                    misses: t.misses,
                    accesses: t.hits + t.misses,
                }
            })
            .collect()
    }
}

/// One finished walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WalkTotals {
    pub walk: Walk,
    pub hits: u64,
    pub misses: u64,
    pub cycles: u64,
}

impl WalkTotals {
    fn of(walk: Walk, sim: &Hierarchy) -> Self {
        let s = &sim.levels[0].stats;
        WalkTotals {
            walk,
            hits: s.hits,
            misses: s.misses,
            cycles: sim.cycles,
        }
    }
}

/// A point of the miss-rate-against-stride chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StridePoint {
    pub stride: usize,
    pub misses: u64,
    pub accesses: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LocalityAction {
    /// Start this walk, cold.
    Select(Walk),
    /// The next access of the current walk.
    Step,
    /// Finish the current walk.
    RunToEnd,
    /// Run every walk from cold for the side-by-side table.
    RunAll,
    SetElements(usize),
    SetStride(usize),
    SetColumns(usize),
    SetCache {
        sets: u64,
        ways: usize,
        line: u64,
    },
    SetPolicy(Policy),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Locality {
    pub config: LocalityConfig,
    /// The walk being stepped.
    pub walk: Walk,
    /// Accesses of the current walk done so far.
    pub position: usize,
    /// Per element (by index): `Some(true)` hit, `Some(false)` miss, `None`
    /// not reached yet in the current walk.
    pub outcome: Vec<Option<bool>>,
    /// The element accessed last.
    pub last: Option<u32>,
    /// The cache as the current walk has left it.
    pub sim: Hierarchy,
    /// Totals of each walk run to its end, in [`Walk::ALL`] order.
    pub results: Vec<Option<WalkTotals>>,
    /// Miss rate against stride, for the chart.
    pub stride_curve: Vec<StridePoint>,
}

impl Locality {
    /// Element indices of the current walk in visiting order.
    pub fn order(&self) -> Vec<u32> {
        let c = &self.config;
        order(self.walk, c.elements, c.stride, c.cols, c.seed)
    }

    fn restart(&mut self, walk: Walk) {
        self.walk = walk;
        self.position = 0;
        self.outcome = vec![None; self.config.elements];
        self.last = None;
        self.sim = self.config.cold_cache();
    }

    fn finished(&self) -> bool {
        self.position == self.config.elements
    }

    fn access_next(&mut self, order: &[u32]) -> Event {
        let e = order[self.position];
        let addr = u64::from(e) * ELEMENT_BYTES;
        let r = self.sim.load(addr);
        let hit = r.served == Place::Level(0);
        self.outcome[e as usize] = Some(hit);
        self.position += 1;
        self.last = Some(e);
        let line = addr / self.config.line;
        let per_line = self.config.line / ELEMENT_BYTES;
        let (first, last) = (line * per_line, line * per_line + per_line - 1);
        if hit {
            Event::done(format!(
                "Element {e} (byte {addr:#x}) hits: line {line} is still cached, {} cycles.",
                r.cycles
            ))
        } else {
            Event::warn(format!(
                "Element {e} (byte {addr:#x}) misses: line {line} comes from memory in {} cycles, bringing elements {first} to {last}.",
                r.cycles
            ))
        }
        .at(format!("elem-{e}"))
        .at(format!("line-{line}"))
    }

    fn complete(&mut self) -> Event {
        let t = WalkTotals::of(self.walk, &self.sim);
        self.results[self.walk.index()] = Some(t);
        Event::done(format!(
            "The {} walk is done: {} hits, {} misses, {} cycles.",
            self.walk.label(),
            t.hits,
            t.misses,
            t.cycles
        ))
        .at("results")
    }

    fn step(&mut self) -> Outcome {
        if self.finished() {
            return Err(Refusal::new(format!(
                "The {} walk is finished: pick a walk to start again.",
                self.walk.label()
            )));
        }
        let order = self.order();
        let mut events = vec![self.access_next(&order)];
        if self.finished() {
            events.push(self.complete());
        }
        Ok(events)
    }

    fn run_to_end(&mut self) -> Outcome {
        if self.finished() {
            return Err(Refusal::new(format!(
                "The {} walk is already finished.",
                self.walk.label()
            )));
        }
        let order = self.order();
        let from = self.position;
        while !self.finished() {
            self.access_next(&order);
        }
        Ok(vec![
            Event::info(format!(
                "Ran the remaining {} accesses.",
                self.position - from
            ))
            .at("cache"),
            self.complete(),
        ])
    }

    fn run_all(&mut self) -> Outcome {
        let totals: Vec<WalkTotals> = Walk::ALL.iter().map(|&w| self.config.totals(w)).collect();
        let changed = totals
            .iter()
            .any(|t| self.results[t.walk.index()] != Some(*t));
        if !changed {
            return Err(Refusal::new(
                "Every walk has already been run with these settings.",
            ));
        }
        let summary: Vec<String> = totals
            .iter()
            .map(|t| format!("{} {}", t.walk.label(), t.misses))
            .collect();
        for t in totals {
            self.results[t.walk.index()] = Some(t);
        }
        Ok(vec![Event::info(format!(
            "Every walk from a cold cache, misses out of {}: {}.",
            self.config.elements,
            summary.join(", ")
        ))
        .at("results")])
    }

    /// Applies a new configuration: results and the chart start over.
    fn reconfigure(&mut self, config: LocalityConfig, what: String) -> Outcome {
        if config == self.config {
            return Err(Refusal::new("That is the current setting."));
        }
        config.validate().map_err(Refusal::new)?;
        let walk = self.walk;
        *self = Locality::new(&config);
        self.restart(walk);
        Ok(vec![Event::info(format!(
            "{what} Every walk starts over from a cold cache."
        ))
        .at("cache")
        .at("chart")])
    }
}

impl Model for Locality {
    type Config = LocalityConfig;
    type Action = LocalityAction;

    fn validate(config: &LocalityConfig) -> Result<(), String> {
        config.validate()
    }

    fn new(config: &LocalityConfig) -> Self {
        Locality {
            walk: Walk::Sequential,
            position: 0,
            outcome: vec![None; config.elements],
            last: None,
            sim: config.cold_cache(),
            results: vec![None; Walk::ALL.len()],
            stride_curve: config.stride_curve(),
            config: config.clone(),
        }
    }

    fn intro(&self) -> Event {
        let c = &self.config;
        Event::info(format!(
            "{} elements of 8 bytes ({} bytes), a cold {}-byte cache of {}-byte lines. Step through the sequential walk, or pick another.",
            c.elements,
            c.elements as u64 * ELEMENT_BYTES,
            self.sim.levels[0].spec.bytes(),
            c.line
        ))
        .at("cache")
    }

    fn apply(&mut self, action: &LocalityAction) -> Outcome {
        let c = self.config.clone();
        match *action {
            LocalityAction::Select(walk) => {
                if walk == self.walk && self.position == 0 {
                    return Err(Refusal::new(format!(
                        "The {} walk is already at its start.",
                        walk.label()
                    )));
                }
                self.restart(walk);
                Ok(vec![Event::info(format!(
                    "The {} walk starts from a cold cache.",
                    walk.label()
                ))
                .at("cache")])
            }
            LocalityAction::Step => self.step(),
            LocalityAction::RunToEnd => self.run_to_end(),
            LocalityAction::RunAll => self.run_all(),
            LocalityAction::SetElements(elements) => {
                // Keep stride and columns legal for the new length where possible.
                let config = LocalityConfig {
                    elements,
                    stride: c.stride.min(elements / 2).max(1),
                    cols: c.cols.min(elements / 2),
                    ..c
                };
                self.reconfigure(config, format!("The array now has {elements} elements."))
            }
            LocalityAction::SetStride(stride) => self.reconfigure(
                LocalityConfig { stride, ..c },
                format!("The stride walk now steps {stride} elements."),
            ),
            LocalityAction::SetColumns(cols) => {
                let rows = c.elements / cols.max(1);
                self.reconfigure(
                    LocalityConfig { cols, ..c },
                    format!("The 2-D array is now {rows} rows × {cols} columns."),
                )
            }
            LocalityAction::SetCache { sets, ways, line } => self.reconfigure(
                LocalityConfig {
                    sets,
                    ways,
                    line,
                    ..c
                },
                format!(
                    "The cache is now {sets} set{} × {ways} way{} × {line} bytes.",
                    crate::text::plural(sets as usize),
                    crate::text::plural(ways)
                ),
            ),
            LocalityAction::SetPolicy(policy) => self.reconfigure(
                LocalityConfig { policy, ..c },
                format!("The cache now replaces by {}.", policy.label()),
            ),
        }
    }

    fn next_auto(&self) -> Result<LocalityAction, Refusal> {
        if self.finished() {
            Err(Refusal::new(format!(
                "The {} walk is finished: pick a walk to start again.",
                self.walk.label()
            )))
        } else {
            Ok(LocalityAction::Step)
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
        "Leaves out: hardware prefetchers (which hide most sequential and small-stride misses on real CPUs), the L2 and L3 between this cache and DRAM, TLB misses, and overlapping misses: each access waits alone."
    }
}
