//! The snooping bus itself: 2–4 private caches and memory, one or more lines.
//!
//! Transitions (Culler & Singh §5.3, Figs. 5.13 MSI and 5.15 MESI; Sorin,
//! Hill & Wood ch. 7; MOESI as AMD64 APM vol. 2 §7.3 describes the Owned state):
//! - Read hit in M/O/E/S: no bus traffic.
//! - Read miss: BusRd. A dirty copy (M, or O in MOESI) supplies the line by a
//!   cache-to-cache Flush. Under MSI/MESI the M copy drops to S and memory picks
//!   up the flushed data; under MOESI it becomes O and memory stays stale. A
//!   clean E copy drops to S and S copies stay: clean data comes from memory,
//!   however many caches share it (no cache-to-cache transfer of clean lines;
//!   Intel's MESIF Forward state is left out). The reader lands in E when no
//!   other cache raised the shared signal (MESI/MOESI), otherwise in S; MSI
//!   always lands in S.
//! - Write hit in M: no bus traffic. In E: silent E → M, the point of E.
//! - Write in S (or O): BusUpgr, no data; every other copy → I.
//! - Write miss: BusRdX; a dirty copy supplies the line and every other copy → I.
//! - Evict: M or O writes the line back to memory; E and S drop silently.
//!
//! Break-it (`invalidation == false`): snoops of BusRdX and BusUpgr are
//! ignored, so stale copies survive a write.

use super::bus::{Access, BusOp, Counts, Op, Snoop, Supplier};
use super::core_name;
use super::cost::Costs;
use super::protocol::{Protocol, State};
use crate::bound::Bound;
use serde::{Deserialize, Serialize};

/// Cores on the bus: named A to D in narration.
pub const CORES: Bound<usize> = Bound::new("number of cores", "", 2, 4);
/// Lines the engine can track at once.
pub const LINES: Bound<usize> = Bound::new("number of lines", "", 1, 4);
pub const MIN_CORES: usize = CORES.min;
pub const MAX_CORES: usize = CORES.max;
pub const MAX_LINES: usize = LINES.max;

/// One cache line as every cache and memory see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    /// Per core.
    pub states: Vec<State>,
    /// The value in each core's copy; meaningful only where the state is valid.
    pub values: Vec<u32>,
    pub memory: u32,
    /// The value of the most recent write (writes store 1, 2, 3, … in turn).
    pub latest: u32,
    pub last_writer: Option<usize>,
}

impl Line {
    /// Memory holds the latest value.
    pub fn memory_fresh(&self) -> bool {
        self.memory == self.latest
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct System {
    pub protocol: Protocol,
    /// False in break-it mode: invalidating snoops are ignored.
    pub invalidation: bool,
    pub costs: Costs,
    pub lines: Vec<Line>,
    pub counts: Counts,
    /// Cycles charged to each core.
    pub core_cycles: Vec<u64>,
}

impl System {
    /// Every line Invalid in every cache, memory holding 0. Counts outside
    /// [`MIN_CORES`]..=[`MAX_CORES`] and 1..=[`MAX_LINES`] are clamped.
    pub fn new(protocol: Protocol, cores: usize, lines: usize) -> Self {
        let cores = cores.clamp(CORES.min, CORES.max);
        let line = Line {
            states: vec![State::I; cores],
            values: vec![0; cores],
            memory: 0,
            latest: 0,
            last_writer: None,
        };
        System {
            protocol,
            invalidation: true,
            costs: Costs::default(),
            lines: vec![line; lines.clamp(LINES.min, LINES.max)],
            counts: Counts::default(),
            core_cycles: vec![0; cores],
        }
    }

    pub fn cores(&self) -> usize {
        self.core_cycles.len()
    }

    pub fn state(&self, core: usize, line: usize) -> State {
        self.lines[line].states[core]
    }

    /// Performs one access; refuses an unknown core or line and evicting a line not held.
    pub fn access(&mut self, op: Op, core: usize, line: usize) -> Result<Access, String> {
        if core >= self.cores() {
            return Err(format!(
                "There are {} cores, A to {}.",
                self.cores(),
                core_name(self.cores() - 1)
            ));
        }
        if line >= self.lines.len() {
            return Err(format!(
                "There {} line{} (0 to {}).",
                if self.lines.len() == 1 {
                    "is one"
                } else {
                    "are"
                },
                if self.lines.len() == 1 { "" } else { "s" },
                self.lines.len() - 1
            ));
        }
        let before = self.lines[line].states[core];
        if op == Op::Evict && !before.is_valid() {
            return Err(format!(
                "Core {} holds no copy of line {line}: there is nothing to evict.",
                core_name(core)
            ));
        }
        let was_broken = self.swmr().is_err();
        let mut access = Access {
            op,
            core,
            line,
            before,
            after: before,
            request: None,
            supplier: None,
            snoops: Vec::new(),
            ignored: Vec::new(),
            wrote_back: false,
            value: 0,
            stale: None,
            broke_swmr: None,
            cycles: 0,
        };
        match op {
            Op::Read => self.read(&mut access),
            Op::Write => self.write(&mut access),
            Op::Evict => self.evict(&mut access),
        }
        access.after = self.lines[line].states[core];
        if !was_broken {
            access.broke_swmr = self.swmr().err();
        }
        self.counts.accesses += 1;
        self.counts.cycles += u64::from(access.cycles);
        self.core_cycles[core] += u64::from(access.cycles);
        Ok(access)
    }

    fn read(&mut self, a: &mut Access) {
        let (core, p) = (a.core, self.protocol);
        let line = &mut self.lines[a.line];
        if a.before.is_valid() {
            a.value = line.values[core];
            a.cycles = self.costs.hit;
            self.counts.hits += 1;
        } else {
            a.request = Some(BusOp::BusRd);
            self.counts.bus_rd += 1;
            let mut shared = false;
            for other in (0..line.states.len()).filter(|&c| c != core) {
                let from = line.states[other];
                shared |= from.is_valid();
                let to = match from {
                    State::M if p.has_owned() => State::O,
                    State::M | State::E => State::S,
                    unchanged => unchanged,
                };
                let flushed = from.is_dirty();
                if flushed {
                    a.supplier.get_or_insert(Supplier::Cache(other));
                    if !p.has_owned() {
                        // MSI/MESI: memory snarfs the flushed line, so it is clean again.
                        line.memory = line.values[other];
                        a.wrote_back = true;
                        self.counts.write_backs += 1;
                    }
                }
                if flushed || to != from {
                    line.states[other] = to;
                    a.snoops.push(Snoop {
                        core: other,
                        from,
                        to,
                        flushed,
                    });
                }
            }
            a.value = self.take_data(a);
            let line = &mut self.lines[a.line];
            line.states[core] = if shared || !p.has_exclusive() {
                State::S
            } else {
                State::E
            };
            line.values[core] = a.value;
        }
        let line = &self.lines[a.line];
        if a.value != line.latest {
            a.stale = Some(line.latest);
            self.counts.stale_reads += 1;
        }
    }

    fn write(&mut self, a: &mut Access) {
        match a.before {
            State::M | State::E => {
                a.cycles = self.costs.hit;
                self.counts.hits += 1;
            }
            State::S | State::O => {
                a.request = Some(BusOp::BusUpgr);
                self.counts.bus_upgr += 1;
                self.invalidate_others(a);
                a.cycles = self.costs.upgrade;
            }
            State::I => {
                a.request = Some(BusOp::BusRdX);
                self.counts.bus_rdx += 1;
                self.invalidate_others(a);
                self.take_data(a);
            }
        }
        let line = &mut self.lines[a.line];
        line.latest += 1;
        line.last_writer = Some(a.core);
        line.values[a.core] = line.latest;
        line.states[a.core] = State::M;
        a.value = line.latest;
    }

    fn evict(&mut self, a: &mut Access) {
        let line = &mut self.lines[a.line];
        a.value = line.values[a.core];
        if a.before.is_dirty() {
            line.memory = a.value;
            a.wrote_back = true;
            self.counts.write_backs += 1;
            self.counts.eviction_write_backs += 1;
        }
        line.states[a.core] = State::I;
    }

    /// The snoop side of BusRdX and BusUpgr: every other valid copy is
    /// invalidated, a dirty one supplying the line first — unless break-it
    /// mode ignores the request.
    fn invalidate_others(&mut self, a: &mut Access) {
        let supplies = a.request == Some(BusOp::BusRdX);
        let line = &mut self.lines[a.line];
        for other in (0..line.states.len()).filter(|&c| c != a.core) {
            let from = line.states[other];
            if !from.is_valid() {
                continue;
            }
            if !self.invalidation {
                a.ignored.push(other);
                continue;
            }
            let flushed = supplies && from.is_dirty();
            if flushed {
                a.supplier.get_or_insert(Supplier::Cache(other));
            }
            line.states[other] = State::I;
            self.counts.invalidations += 1;
            a.snoops.push(Snoop {
                core: other,
                from,
                to: State::I,
                flushed,
            });
        }
    }

    /// Settles who supplied a miss, counts it, charges it, returns the data.
    fn take_data(&mut self, a: &mut Access) -> u32 {
        let line = &self.lines[a.line];
        match *a.supplier.get_or_insert(Supplier::Memory) {
            Supplier::Cache(c) => {
                self.counts.flushes += 1;
                a.cycles = self.costs.cache_to_cache;
                line.values[c]
            }
            Supplier::Memory => {
                self.counts.memory_reads += 1;
                a.cycles = self.costs.memory;
                line.memory
            }
        }
    }
}
