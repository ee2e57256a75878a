//! TLB and page walk: a load's virtual address is looked up in the TLB; on a
//! miss the hardware walks the 4-level page table (`paging.rs`), reading one
//! 8-byte entry per level, and caches the translation.
//!
//! The TLB is the shared cache simulator (`cpu::cachesim`) with one level:
//! a line is one page, so an entry holds one translation, its set is the
//! page number modulo the number of sets, and LRU picks the victim.
//!
//! Page sizes: real first-level data TLBs keep 2 MiB translations in their
//! own, smaller array. Skylake's L1 DTLB holds 64 entries for 4 KiB pages
//! and 32 for 2 MiB pages, both 4-way (Intel 64 and IA-32 Architectures
//! Optimization Reference Manual, 248966-045, Table 2-15, the Skylake TLB
//! parameters; Skylake-SP has the same TLBs). This model keeps that ratio at a
//! teaching size: 8 entries, 4-way, for 4 KiB pages and 4 entries, 4-way,
//! for 2 MiB pages. A run maps all its memory with one page size, so one of
//! the two is in use.
//!
//! Cost: a hit costs nothing beyond the load itself. The L1 data cache is
//! virtually indexed and physically tagged (32 KiB, 8-way: each way is one
//! 4 KiB page, so the set index lies in the page offset), so the TLB lookup
//! runs alongside the cache lookup and its time is part of the load-to-use
//! latency. A miss adds the walk: one memory read per level it reads.
//!
//! The optional page-walk cache models Intel's paging-structure caches (SDM
//! Vol. 3A §4.10.3): small fully associative LRU caches of PML4, PDPT and PD
//! entries, keyed by the address bits that select them (47:39, 47:30,
//! 47:21). On a TLB miss the walk starts below the deepest cached entry,
//! saving the reads above it; with 2 MiB pages the PD entry is the
//! translation itself, so only the PML4 and PDPT caches apply.
//!
//! Break it: `Loop` queues a loop over consecutive pages, three times round.
//! In each set, pages beyond its ways thrash: under LRU a cyclic loop over
//! more pages than a set's ways evicts each of them before its turn comes
//! round, so all of that set's loads miss, while a set with no more pages
//! than ways hits from the second round on (`forecast.rs` computes both
//! from the sets). Only a fully associative TLB loses every page as soon as
//! the loop has one page more than its entries.
//!
//! Focus keys: `va` (the address split), `va-pml4` … `va-pt`, `va-offset` (its
//! fields), `tlb`, `tlb-set-1`, `tlb-set-1-way-2`, `walk-pml4` … `walk-pt`
//! (the tables of the walk), `pwc`, `pa`, `queue`.

pub mod forecast;
mod narrate;
pub mod paging;
mod report;
#[cfg(test)]
mod tests;

pub use paging::{Table, WalkStep, CR3, HUGE_PAGE, PAGE};

use crate::cpu::cachesim::{Hierarchy, LevelSpec, Place, Policy};
use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::Bound;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Entries of either TLB (a power of two of sets times the ways).
pub const ENTRIES: Bound<usize> = Bound::new("number of TLB entries", "", 1, 1024);
pub const MAX_ENTRIES: usize = ENTRIES.max;
/// Entries in each paging-structure cache.
pub const PWC_ENTRIES: Bound<usize> = Bound::new("size of a page-walk cache", " entries", 1, 64);
/// Cycles of one page-table entry read.
pub const READ_CYCLES: Bound<u32> = Bound::new("cost of a page-table read", " cycles", 0, 10_000);
/// Pages of the break-it loop.
pub const LOOP_PAGES: Bound<usize> = Bound::new("loop", " pages", 1, 64);
pub const LOOP_ROUNDS: usize = 3;
/// Where the break-it loop starts: a typical user-space address.
pub const LOOP_BASE: u64 = 0x7f00_0000_0000;
/// Translations kept for the history strip.
pub const HISTORY: usize = 12;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TlbConfig {
    /// The TLB for 4 KiB pages.
    pub entries: usize,
    pub ways: usize,
    /// The separate, smaller TLB for 2 MiB pages.
    pub huge_entries: usize,
    pub huge_ways: usize,
    /// Cycles of each page-table entry read during a walk. 25 makes a full
    /// 4-level walk 100 cycles, the original lab's figure; real walks vary
    /// with where the entries sit in the data caches.
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
            // Half the 4 KiB entries, both 4-way: Skylake's 32 against 64.
            huge_entries: 4,
            huge_ways: 4,
            read_cycles: 25,
            pwc: false,
            pwc_entries: 4,
            huge_pages: false,
        }
    }
}

/// Entries and ways of one TLB: they must make a power-of-two number of sets.
fn check_geometry(what: &str, entries: usize, ways: usize) -> Result<(), String> {
    ENTRIES.check(entries)?;
    if ways == 0 || !entries.is_multiple_of(ways) {
        return Err(format!(
            "{ways} ways do not divide the {what} TLB's {entries} entries into whole sets."
        ));
    }
    if !(entries / ways).is_power_of_two() {
        return Err(format!(
            "{entries} entries of {ways} ways make {} sets; the set count must be a power of two.",
            entries / ways
        ));
    }
    Ok(())
}

impl TlbConfig {
    pub fn page_bytes(&self) -> u64 {
        if self.huge_pages {
            HUGE_PAGE
        } else {
            PAGE
        }
    }

    /// Entries and ways of the TLB for the page size in use.
    pub fn geometry(&self) -> (usize, usize) {
        if self.huge_pages {
            (self.huge_entries, self.huge_ways)
        } else {
            (self.entries, self.ways)
        }
    }

    /// "4 KiB" or "2 MiB".
    pub fn page_label(&self) -> &'static str {
        if self.huge_pages {
            "2 MiB"
        } else {
            "4 KiB"
        }
    }

    /// The TLB in use as a one-level cache: sets = entries / ways, one page a line.
    pub fn tlb_spec(&self) -> LevelSpec {
        let (entries, ways) = self.geometry();
        let sets = (entries / ways.max(1)) as u64;
        LevelSpec::new("TLB", sets, ways, self.page_bytes(), Policy::Lru)
    }

    pub fn validate(&self) -> Result<(), String> {
        check_geometry("4 KiB", self.entries, self.ways)?;
        check_geometry("2 MiB", self.huge_entries, self.huge_ways)?;
        PWC_ENTRIES.check(self.pwc_entries)?;
        READ_CYCLES.check(self.read_cycles)?;
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
    /// The TLB for 4 KiB pages.
    SetTlb {
        entries: usize,
        ways: usize,
    },
    /// The TLB for 2 MiB pages.
    SetHugeTlb {
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
            // A hit overlaps the L1 lookup: no cycles beyond the load's own.
            cycles: 0,
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
        LOOP_PAGES.admit(pages)?;
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
        let f = forecast::LoopForecast::new(&self.config, pages);
        Ok(vec![Event::warn(format!(
            "Queued {} loads: {pages} consecutive 4 KiB pages from {LOOP_BASE:#x}, {LOOP_ROUNDS} times round. {}",
            self.pending.len(),
            f.sentence()
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
        let (entries, ways) = self.config.geometry();
        Event::info(format!(
            "An empty {entries}-entry, {ways}-way TLB for {} pages; CR3 points at the PML4 table at {CR3:#x}. Load an address, or queue a loop over pages.",
            self.config.page_label()
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
                    "The TLB for 4 KiB pages now has {entries} entries in {} set{} of {ways} ways.",
                    entries / ways.max(1),
                    crate::text::plural(entries / ways.max(1))
                ),
            ),
            TlbAction::SetHugeTlb { entries, ways } => self.reconfigure(
                TlbConfig {
                    huge_entries: entries,
                    huge_ways: ways,
                    ..c
                },
                format!(
                    "The TLB for 2 MiB pages now has {entries} entries in {} set{} of {ways} ways.",
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
                    format!(
                        "Memory is mapped with 2 MiB pages: the PD entry is the leaf, and the {}-entry TLB for 2 MiB pages holds the translations, each covering 512 small pages.",
                        c.huge_entries
                    )
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
        "Leaves out: the second-level TLB, 1 GiB pages and mixing page sizes in one run, page faults (every page here is mapped), accessed and dirty bits, PCIDs and invalidation, 5-level paging, and the data caches that walk reads go through."
    }
}
