//! TLB and page walk: a load's virtual address is looked up in the TLB; on a
//! miss the hardware walks the 4-level page table (`paging.rs`), reading one
//! 8-byte entry per level, and caches the translation.
//!
//! The TLB *is* the shared cache simulator (`cpu::cachesim`) with one level:
//! sets = entries / ways, LRU, and a "line" of one page (4 KiB, or 2 MiB with
//! huge pages), so a TLB entry is a line and the page number its tag and set.
//!
//! The optional page-walk cache models Intel's paging-structure caches (SDM
//! Vol. 3A §4.10.3): small fully associative LRU caches of PML4, PDPT and PD
//! entries, keyed by the address bits that select them (47:39, 47:30,
//! 47:21). On a TLB miss the walk starts below the deepest cached entry,
//! saving the reads above it; with 2 MiB pages the PD entry is the
//! translation itself, so only the PML4 and PDPT caches apply.
//!
//! Break it: `Loop` queues a loop over consecutive pages, three times round.
//! Up to the TLB's reach the repeats hit; one page more and LRU evicts each
//! page just before it comes back: the hit rate collapses to the first-round
//! misses and nothing else.
//!
//! Focus keys: `va` (the address split), `va-pml4` … `va-pt`, `va-offset` (its
//! fields), `tlb`, `tlb-set-1`, `tlb-set-1-way-2`, `walk-pml4` … `walk-pt`
//! (the tables of the walk), `pwc`, `pa`, `queue`.

mod narrate;
pub mod paging;
mod report;
#[cfg(test)]
mod tests;

pub use paging::{Table, WalkStep, CR3, HUGE_PAGE, PAGE};

use crate::cpu::cachesim::{Hierarchy, LevelSpec, Place, Policy};
use crate::model::{Event, Figure, Model, Outcome, Refusal};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

pub const MAX_ENTRIES: usize = 1024;
pub const MAX_PWC_ENTRIES: usize = 64;
pub const MAX_CYCLES: u32 = 10_000;
pub const MAX_LOOP_PAGES: usize = 64;
pub const LOOP_ROUNDS: usize = 3;
/// Where the break-it loop starts: a typical user-space address.
pub const LOOP_BASE: u64 = 0x7f00_0000_0000;
/// Translations kept for the history strip.
pub const HISTORY: usize = 12;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TlbConfig {
    pub entries: usize,
    pub ways: usize,
    /// Cycles of a TLB lookup: about one, in parallel with the L1 access.
    pub hit_cycles: u32,
    /// Cycles of each page-table entry read during a walk. 25 makes a full
    /// 4-level walk about 100 cycles, the original lab's figure; real walks
    /// vary with where the entries sit in the data caches.
    pub read_cycles: u32,
    pub pwc: bool,
    /// Entries in each of the three paging-structure caches (a teaching size).
    pub pwc_entries: usize,
    pub huge_pages: bool,
}

impl Default for TlbConfig {
    fn default() -> Self {
        TlbConfig {
            entries: 8,
            ways: 4,
            hit_cycles: 1,
            read_cycles: 25,
            pwc: false,
            pwc_entries: 4,
            huge_pages: false,
        }
    }
}

impl TlbConfig {
    pub fn page_bytes(&self) -> u64 {
        if self.huge_pages {
            HUGE_PAGE
        } else {
            PAGE
        }
    }

    /// The TLB as a one-level cache: sets = entries / ways, one page a line.
    pub fn tlb_spec(&self) -> LevelSpec {
        let sets = (self.entries / self.ways.max(1)) as u64;
        LevelSpec::new("TLB", sets, self.ways, self.page_bytes(), Policy::Lru)
    }

    pub fn validate(&self) -> Result<(), String> {
        if !(1..=MAX_ENTRIES).contains(&self.entries) {
            return Err(format!(
                "The TLB has 1 to {MAX_ENTRIES} entries, not {}.",
                self.entries
            ));
        }
        if self.ways == 0 || !self.entries.is_multiple_of(self.ways) {
            return Err(format!(
                "{} ways do not divide {} entries into whole sets.",
                self.ways, self.entries
            ));
        }
        if !(self.entries / self.ways).is_power_of_two() {
            return Err(format!(
                "{} entries of {} ways make {} sets; the set count must be a power of two.",
                self.entries,
                self.ways,
                self.entries / self.ways
            ));
        }
        if !(1..=MAX_PWC_ENTRIES).contains(&self.pwc_entries) {
            return Err(format!(
                "Each page-walk cache has 1 to {MAX_PWC_ENTRIES} entries."
            ));
        }
        if self.hit_cycles > MAX_CYCLES || self.read_cycles > MAX_CYCLES {
            return Err(format!("Cycle costs are at most {MAX_CYCLES}."));
        }
        self.tlb_spec().check()
    }
}

/// One paging-structure cache: fully associative LRU over the regions one
/// entry of `table` maps (512 GiB for PML4, 1 GiB for PDPT, 2 MiB for PD).
fn pwc_cache(table: Table, entries: usize) -> Hierarchy {
    let region = 1u64 << table.shift();
    let spec = LevelSpec::new(table.label(), 1, entries, region, Policy::Lru);
    Hierarchy::new(vec![spec], 0).expect("a valid paging-structure cache")
}

/// What one load did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Translation {
    pub va: u64,
    /// PML4, PDPT, PD and PT indices.
    pub indices: [u16; 4],
    pub offset: u64,
    pub huge: bool,
    pub tlb_hit: bool,
    pub tlb_set: u64,
    /// The way the translation sits in after this access.
    pub tlb_way: usize,
    /// The page whose entry was evicted to make room (its first byte).
    pub evicted: Option<u64>,
    /// The deepest table whose entry the page-walk cache supplied.
    pub pwc_hit: Option<Table>,
    /// The entries read from memory, root first (empty on a TLB hit).
    pub steps: Vec<WalkStep>,
    pub pa: u64,
    pub cycles: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counters {
    pub accesses: u64,
    pub hits: u64,
    pub misses: u64,
    /// Page-table entries read from memory.
    pub reads: u64,
    /// Reads the page-walk cache made unnecessary.
    pub reads_saved: u64,
    pub cycles: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TlbAction {
    /// Load from a virtual address.
    Access(u64),
    /// Queue a loop over this many consecutive pages, three times round.
    Loop(usize),
    /// Run the next queued access.
    Step,
    SetTlb {
        entries: usize,
        ways: usize,
    },
    SetPwc(bool),
    SetHugePages(bool),
    /// Cycles per page-table entry read.
    SetReadCycles(u32),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tlb {
    pub config: TlbConfig,
    /// The TLB: `tlb.levels[0].sets` holds each set's ways; a way's block
    /// base is the first byte of the page it translates.
    pub tlb: Hierarchy,
    /// The paging-structure caches for PML4, PDPT and PD entries.
    pub pwc: Vec<Hierarchy>,
    pub counters: Counters,
    /// Every virtual address loaded so far (replayed on a change).
    pub trace: Vec<u64>,
    pub pending: VecDeque<u64>,
    /// The last [`HISTORY`] translations, newest last.
    pub history: VecDeque<Translation>,
}

impl Tlb {
    pub fn last(&self) -> Option<&Translation> {
        self.history.back()
    }

    fn cold(config: &TlbConfig) -> (Hierarchy, Vec<Hierarchy>) {
        let tlb = Hierarchy::new(vec![config.tlb_spec()], 0).unwrap_or_else(|_| {
            Hierarchy::new(vec![TlbConfig::default().tlb_spec()], 0).expect("default TLB")
        });
        let pwc = [Table::Pml4, Table::Pdpt, Table::Pd]
            .into_iter()
            .map(|t| pwc_cache(t, config.pwc_entries))
            .collect();
        (tlb, pwc)
    }

    /// The deepest table whose entry the page-walk cache holds; looks up
    /// from the deepest applicable cache outward, filling each one that
    /// missed (the walk is about to read that entry anyway).
    fn consult_pwc(&mut self, va: u64) -> Option<Table> {
        let deepest = if self.config.huge_pages {
            Table::Pdpt
        } else {
            Table::Pd
        };
        for table in Table::ALL[..=deepest.depth()].iter().rev() {
            let cache = &mut self.pwc[table.depth()];
            if cache.load(va).served == Place::Level(0) {
                return Some(*table);
            }
        }
        None
    }

    fn translate(&mut self, va: u64) -> Translation {
        let huge = self.config.huge_pages;
        let report = self.tlb.load(va);
        let tlb_hit = report.served == Place::Level(0);
        let lookup = report.lookups[0];
        let (tlb_way, evicted) = match report.fills.first() {
            Some(fill) => (fill.placed.way, fill.placed.evicted.map(|e| e.block.base)),
            None => (lookup.way.unwrap_or(0), None),
        };
        let mut t = Translation {
            va,
            indices: paging::indices(va),
            offset: paging::offset(va, huge),
            huge,
            tlb_hit,
            tlb_set: lookup.set,
            tlb_way,
            evicted,
            pwc_hit: None,
            steps: Vec::new(),
            pa: paging::translate(va, huge),
            cycles: u64::from(self.config.hit_cycles),
        };
        if !tlb_hit {
            let from = if self.config.pwc {
                t.pwc_hit = self.consult_pwc(va);
                t.pwc_hit.map_or(Table::Pml4, |c| Table::ALL[c.depth() + 1])
            } else {
                Table::Pml4
            };
            t.steps = paging::walk(va, from, huge);
            self.counters.reads += t.steps.len() as u64;
            self.counters.reads_saved += from.depth() as u64;
            t.cycles += t.steps.len() as u64 * u64::from(self.config.read_cycles);
        }
        self.counters.accesses += 1;
        if tlb_hit {
            self.counters.hits += 1;
        } else {
            self.counters.misses += 1;
        }
        self.counters.cycles += t.cycles;
        t
    }

    fn record(&mut self, t: Translation) {
        if self.history.len() == HISTORY {
            self.history.pop_front();
        }
        self.history.push_back(t);
    }

    fn access(&mut self, va: u64) -> Outcome {
        if !paging::canonical(va) {
            return Err(Refusal::new(format!(
                "{va:#x} is not canonical: bits 63 to 48 must all copy bit 47, so use an address below 0x800000000000."
            )));
        }
        let t = self.translate(va);
        self.trace.push(va);
        let events = narrate::translation(self, &t);
        self.record(t);
        Ok(events)
    }

    fn queue_loop(&mut self, pages: usize) -> Outcome {
        if !(1..=MAX_LOOP_PAGES).contains(&pages) {
            return Err(Refusal::new(format!(
                "The loop touches 1 to {MAX_LOOP_PAGES} pages, not {pages}."
            )));
        }
        if !self.pending.is_empty() {
            return Err(Refusal::new(format!(
                "A loop is already queued ({} loads left): step through it first.",
                self.pending.len()
            )));
        }
        for _ in 0..LOOP_ROUNDS {
            for p in 0..pages as u64 {
                self.pending.push_back(LOOP_BASE + p * PAGE);
            }
        }
        let reach = self.config.entries;
        let verdict = if pages > reach && !self.config.huge_pages {
            "more pages than entries, so some set gets more pages than ways and LRU evicts them before the loop returns"
        } else {
            "within the TLB's reach: after the first round every load should hit"
        };
        Ok(vec![Event::warn(format!(
            "Queued {} loads: {pages} consecutive 4 KiB pages from {LOOP_BASE:#x}, {LOOP_ROUNDS} times round. The TLB has {reach} entries; that is {verdict}.",
            self.pending.len()
        ))
        .at("queue")
        .at("tlb")])
    }

    fn step(&mut self) -> Outcome {
        let Some(&va) = self.pending.front() else {
            return Err(Refusal::new(
                "Nothing is queued: load an address, or queue a loop over pages.",
            ));
        };
        let outcome = self.access(va);
        if outcome.is_ok() {
            self.pending.pop_front();
        }
        outcome
    }

    /// A new configuration, cold, with the trace so far replayed on it.
    fn reconfigure(&mut self, config: TlbConfig, what: String) -> Outcome {
        if config == self.config {
            return Err(Refusal::new("That is the current setting."));
        }
        config.validate().map_err(Refusal::new)?;
        let before = self.counters.clone();
        let trace = std::mem::take(&mut self.trace);
        let pending = std::mem::take(&mut self.pending);
        *self = Tlb::new(&config);
        for va in trace {
            let t = self.translate(va);
            self.trace.push(va);
            self.record(t);
        }
        self.pending = pending;
        Ok(narrate::reconfigured(&before, &self.counters, what))
    }
}

impl Model for Tlb {
    type Config = TlbConfig;
    type Action = TlbAction;

    fn validate(config: &TlbConfig) -> Result<(), String> {
        config.validate()
    }

    fn new(config: &TlbConfig) -> Self {
        let (tlb, pwc) = Tlb::cold(config);
        Tlb {
            config: config.clone(),
            tlb,
            pwc,
            counters: Counters::default(),
            trace: Vec::new(),
            pending: VecDeque::new(),
            history: VecDeque::new(),
        }
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "An empty {}-entry, {}-way TLB; CR3 points at the PML4 table at {CR3:#x}. Load an address, or queue a loop over pages.",
            self.config.entries, self.config.ways
        ))
        .at("tlb")
    }

    fn apply(&mut self, action: &TlbAction) -> Outcome {
        let c = self.config.clone();
        match *action {
            TlbAction::Access(va) => self.access(va),
            TlbAction::Loop(pages) => self.queue_loop(pages),
            TlbAction::Step => self.step(),
            TlbAction::SetTlb { entries, ways } => self.reconfigure(
                TlbConfig { entries, ways, ..c },
                format!(
                    "The TLB now has {entries} entries in {} set{} of {ways} ways.",
                    entries / ways.max(1),
                    crate::text::plural(entries / ways.max(1))
                ),
            ),
            TlbAction::SetPwc(pwc) => self.reconfigure(
                TlbConfig { pwc, ..c },
                if pwc {
                    "The page-walk cache is on: walks may start below the root.".to_string()
                } else {
                    "The page-walk cache is off: every walk starts at the PML4 table.".to_string()
                },
            ),
            TlbAction::SetHugePages(huge_pages) => self.reconfigure(
                TlbConfig { huge_pages, ..c },
                if huge_pages {
                    "Memory is mapped with 2 MiB pages: the PD entry is the leaf and one TLB entry covers 512 small pages.".to_string()
                } else {
                    "Memory is mapped with 4 KiB pages: every walk goes down to the page table.".to_string()
                },
            ),
            TlbAction::SetReadCycles(read_cycles) => self.reconfigure(
                TlbConfig { read_cycles, ..c },
                format!("Each page-table read now costs {read_cycles} cycles."),
            ),
        }
    }

    fn next_auto(&self) -> Result<TlbAction, Refusal> {
        if self.pending.is_empty() {
            Err(Refusal::new(
                "Nothing is queued: load an address, or queue a loop over pages.",
            ))
        } else {
            Ok(TlbAction::Step)
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
        "Leaves out: the second-level TLB, separate TLBs per page size, page faults (every page here is mapped), accessed and dirty bits, PCIDs and invalidation, 5-level paging, and the data caches that walk reads go through."
    }
}
