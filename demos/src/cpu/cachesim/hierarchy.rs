//! The levels together: one demand access walks outward until a level hits,
//! the line is filled back inward, and dirty victims are written outward.
//! The exact order is documented in the module doc (`cachesim/mod.rs`).

use super::classify::MissKind;
use super::level::{Evicted, Level, Placed};
use super::set::Block;
use super::spec::{check_levels, Allocation, LevelSpec};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AccessKind {
    Load,
    Store,
}

impl AccessKind {
    pub fn verb(self) -> &'static str {
        match self {
            AccessKind::Load => "load",
            AccessKind::Store => "store",
        }
    }
}

/// Who answered an access, or received a write-back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Place {
    /// A cache level, by index (0 is the innermost, L1).
    Level(usize),
    Memory,
}

/// One level's answer to the demand access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lookup {
    pub level: usize,
    pub tag: u64,
    pub set: u64,
    pub offset: u64,
    /// The way that holds the line, on a hit.
    pub way: Option<usize>,
    /// Why it missed; `None` on a hit.
    pub miss: Option<MissKind>,
}

impl Lookup {
    pub fn hit(&self) -> bool {
        self.way.is_some()
    }
}

/// A line brought into a level that missed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fill {
    pub level: usize,
    pub placed: Placed,
}

/// A line sent from one level to the next: a dirty line written back, or a
/// clean one evicted into a victim level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WriteBack {
    pub from: usize,
    /// The line was dirty; a clean one only moves into a victim level.
    pub dirty: bool,
    /// First byte of the line written back.
    pub base: u64,
    pub to: Place,
    /// Where it landed (`None` for memory).
    pub placed: Option<Placed>,
    /// The line was already in the receiving level (it only turned dirty).
    pub was_present: bool,
}

/// Everything one access did, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccessReport {
    pub addr: u64,
    pub kind: AccessKind,
    pub served: Place,
    /// The latencies of every level looked up, plus memory's if it was reached.
    pub cycles: u64,
    /// One per level consulted, innermost first; the last one hit unless
    /// memory served.
    pub lookups: Vec<Lookup>,
    /// The levels that missed, outermost first (the order data flows in).
    pub fills: Vec<Fill>,
    /// Dirty lines moved outward, in the order they happened.
    pub writebacks: Vec<WriteBack>,
}

impl AccessReport {
    pub fn lookup(&self, level: usize) -> Option<&Lookup> {
        self.lookups.iter().find(|l| l.level == level)
    }

    pub fn fill(&self, level: usize) -> Option<&Fill> {
        self.fills.iter().find(|f| f.level == level)
    }

    /// The line a level evicted for this access's own fill.
    pub fn evicted(&self, level: usize) -> Option<Evicted> {
        self.fill(level).and_then(|f| f.placed.evicted)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemoryStats {
    /// Lines read because every level missed.
    pub reads: u64,
    /// Dirty lines the last level wrote back.
    pub writes: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hierarchy {
    /// Innermost (L1) first.
    pub levels: Vec<Level>,
    /// Cycles memory adds to an access that every level missed.
    pub memory_latency: u32,
    pub memory: MemoryStats,
    pub accesses: u64,
    /// Sum of every access's cycles.
    pub cycles: u64,
}

impl Hierarchy {
    pub fn new(specs: Vec<LevelSpec>, memory_latency: u32) -> Result<Self, String> {
        check_levels(&specs)?;
        Ok(Hierarchy {
            levels: specs.into_iter().map(Level::new).collect(),
            memory_latency,
            memory: MemoryStats::default(),
            accesses: 0,
            cycles: 0,
        })
    }

    /// The name of whoever answered: `L1`, `L2`, …, or `MEM`.
    pub fn name(&self, place: Place) -> &str {
        match place {
            Place::Level(i) => &self.levels[i].spec.name,
            Place::Memory => "MEM",
        }
    }

    pub fn load(&mut self, addr: u64) -> AccessReport {
        self.access(addr, AccessKind::Load)
    }

    pub fn store(&mut self, addr: u64) -> AccessReport {
        self.access(addr, AccessKind::Store)
    }

    /// One demand access from the CPU.
    pub fn access(&mut self, addr: u64, kind: AccessKind) -> AccessReport {
        let store = kind == AccessKind::Store;
        let mut lookups = Vec::new();
        let mut cycles = 0u64;
        let mut served = Place::Memory;
        // 1. Look up outward until a level hits. Only L1 sees the store
        //    itself; the levels beyond see a read for the line.
        for i in 0..self.levels.len() {
            let level = &mut self.levels[i];
            let split = level.split(addr);
            let (way, miss) = level.lookup(addr, store && i == 0);
            cycles += u64::from(level.spec.latency);
            lookups.push(Lookup {
                level: i,
                tag: split.tag,
                set: split.set,
                offset: split.offset,
                way,
                miss,
            });
            if way.is_some() {
                served = Place::Level(i);
                break;
            }
        }
        if served == Place::Memory {
            self.memory.reads += 1;
            cycles += u64::from(self.memory_latency);
        }
        // 2. Fill every level that missed, outermost first; each fill's dirty
        //    victim is written back (and may cascade) before the next fill.
        let missed = match served {
            Place::Level(i) => i,
            Place::Memory => self.levels.len(),
        };
        let mut fills = Vec::new();
        let mut writebacks = Vec::new();
        for i in (0..missed).rev() {
            // A victim level is not filled on the way in (spec.rs, Allocation).
            if self.takes_victims(i) {
                continue;
            }
            let placed = self.levels[i].fill(addr, store && i == 0);
            fills.push(Fill { level: i, placed });
            if let Some(e) = placed.evicted {
                self.send_out(i, e.block, &mut writebacks);
            }
        }
        self.accesses += 1;
        self.cycles += cycles;
        AccessReport {
            addr,
            kind,
            served,
            cycles,
            lookups,
            fills,
            writebacks,
        }
    }

    /// Level `level` exists and is filled only by its inner level's victims.
    fn takes_victims(&self, level: usize) -> bool {
        self.levels
            .get(level)
            .is_some_and(|l| l.spec.allocation == Allocation::Victims)
    }

    /// Sends a line evicted from level `from` outward: a dirty one is written
    /// back; a clean one goes on only into a victim level, and is otherwise
    /// dropped. Each allocation can evict at most one line, so a cascade is a
    /// chain, not a tree.
    fn send_out(&mut self, mut from: usize, mut block: Block, out: &mut Vec<WriteBack>) {
        loop {
            let to = from + 1;
            if !block.dirty && !self.takes_victims(to) {
                return;
            }
            if to == self.levels.len() {
                self.memory.writes += 1;
                out.push(WriteBack {
                    from,
                    dirty: true,
                    base: block.base,
                    to: Place::Memory,
                    placed: None,
                    was_present: false,
                });
                return;
            }
            let (placed, was_present) = self.levels[to].absorb(block.base, block.dirty);
            out.push(WriteBack {
                from,
                dirty: block.dirty,
                base: block.base,
                to: Place::Level(to),
                placed: Some(placed),
                was_present,
            });
            match placed.evicted {
                Some(e) => {
                    from = to;
                    block = e.block;
                }
                None => return,
            }
        }
    }

    /// The `cachesim` example's `--detail` lines: per level the misses by
    /// kind, evictions and write-backs received, then memory's reads and
    /// writes, then the accesses and their total cycles.
    pub fn detail(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .levels
            .iter()
            .map(|l| {
                let s = &l.stats;
                let line = format!(
                    "{} compulsory={} capacity={} conflict={} evictions={} wb_in={}",
                    l.spec.name, s.compulsory, s.capacity, s.conflict, s.evictions, s.writebacks_in
                );
                // Only a victim level says how many clean victims it took,
                // so the output for every other configuration is unchanged.
                match l.spec.allocation {
                    Allocation::Victims => format!("{line} victims_in={}", s.victims_in),
                    Allocation::OnMiss => line,
                }
            })
            .collect();
        out.push(format!(
            "MEM reads={} writes={}",
            self.memory.reads, self.memory.writes
        ));
        out.push(format!("accesses={} cycles={}", self.accesses, self.cycles));
        out
    }

    /// The contract output: one line per level, `L1 hits=H misses=M wb=W`.
    pub fn summary(&self) -> Vec<String> {
        self.levels
            .iter()
            .map(|l| {
                format!(
                    "{} hits={} misses={} wb={}",
                    l.spec.name, l.stats.hits, l.stats.misses, l.stats.writebacks
                )
            })
            .collect()
    }
}
