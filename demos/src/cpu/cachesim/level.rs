//! One level of the hierarchy: its sets (only those ever touched are
//! stored, so a 2 MiB cache costs nothing until used), its counters and its
//! three-C classifier.

use super::classify::{Classifier, MissKind};
use super::set::{Block, CacheSet};
use super::spec::{LevelSpec, Split};
use crate::rng::Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Counters of one level. `hits + misses` are the demand accesses it
/// received; write-backs arriving from the level above are counted apart.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelStats {
    pub hits: u64,
    pub misses: u64,
    pub compulsory: u64,
    pub capacity: u64,
    pub conflict: u64,
    /// Valid lines pushed out to make room (for a demand fill or a write-back).
    pub evictions: u64,
    /// Dirty lines this level wrote back to the next level (or memory).
    pub writebacks: u64,
    /// Dirty lines the level above wrote back into this one.
    pub writebacks_in: u64,
    /// Clean lines the level above evicted into this one (a victim level only).
    pub victims_in: u64,
}

impl LevelStats {
    pub fn accesses(&self) -> u64 {
        self.hits + self.misses
    }
}

/// A line pushed out of a way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evicted {
    pub way: usize,
    pub block: Block,
}

/// Where a line was put, and what it displaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placed {
    pub set: u64,
    pub way: usize,
    pub evicted: Option<Evicted>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Level {
    pub spec: LevelSpec,
    /// The sets that have ever held a line, by index.
    pub sets: BTreeMap<u64, CacheSet>,
    pub stats: LevelStats,
    classifier: Classifier,
    /// Advances on every use or fill, so LRU/FIFO stamps are distinct.
    clock: u64,
    rng: Rng,
}

impl Level {
    /// A cold level; `spec` must have passed [`LevelSpec::check`].
    pub fn new(spec: LevelSpec) -> Self {
        Level {
            classifier: Classifier::new(spec.lines()),
            rng: Rng::new(spec.seed),
            sets: BTreeMap::new(),
            stats: LevelStats::default(),
            clock: 0,
            spec,
        }
    }

    pub fn split(&self, addr: u64) -> Split {
        self.spec.split(addr)
    }

    fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    /// The way holding `addr`'s line, if any. Changes nothing.
    pub fn probe(&self, addr: u64) -> Option<usize> {
        let set = self.split(addr).set;
        self.sets.get(&set)?.find(self.spec.base_of(addr))
    }

    /// A demand access: counts a hit or a classified miss and, on a hit,
    /// updates the replacement state (and sets the dirty bit for a store).
    pub fn lookup(&mut self, addr: u64, store: bool) -> (Option<usize>, Option<MissKind>) {
        let way = self.probe(addr);
        let kind = self
            .classifier
            .record(self.spec.line_of(addr), way.is_some());
        match (way, kind) {
            (Some(w), _) => {
                self.stats.hits += 1;
                let clock = self.tick();
                let policy = self.spec.policy;
                let set = self.split(addr).set;
                if let Some(s) = self.sets.get_mut(&set) {
                    s.touch(w, policy, clock);
                    if let (true, Some(b)) = (store, s.ways[w].as_mut()) {
                        b.dirty = true;
                    }
                }
            }
            (None, kind) => {
                self.stats.misses += 1;
                match kind {
                    Some(MissKind::Compulsory) => self.stats.compulsory += 1,
                    Some(MissKind::Capacity) => self.stats.capacity += 1,
                    Some(MissKind::Conflict) | None => self.stats.conflict += 1,
                }
            }
        }
        (way, kind)
    }

    /// Allocates `addr`'s line (absent here) with the given dirty bit,
    /// evicting per the policy if the set is full. A dirty victim is counted
    /// as a write-back; sending it on is the hierarchy's job.
    pub fn fill(&mut self, addr: u64, dirty: bool) -> Placed {
        let set = self.split(addr).set;
        let (ways, policy) = (self.spec.ways, self.spec.policy);
        let clock = self.tick();
        let entry = self
            .sets
            .entry(set)
            .or_insert_with(|| CacheSet::new(ways, policy));
        let (way, _) = entry.choose(policy, &mut self.rng);
        let block = Block {
            base: self.spec.base_of(addr),
            dirty,
        };
        let evicted = entry
            .place(way, block, policy, clock)
            .map(|block| Evicted { way, block });
        if let Some(e) = evicted {
            self.stats.evictions += 1;
            if e.block.dirty {
                self.stats.writebacks += 1;
            }
        }
        Placed { set, way, evicted }
    }

    /// A line the level above sent out: dirty (a write-back), or clean to a
    /// victim level. Not a demand access: no hit or miss is counted and the
    /// classifier does not see it. A line already here keeps its place in
    /// the replacement order (and becomes dirty if the one sent was); an
    /// absent one is allocated with the sender's dirty bit, which may evict.
    /// Returns where the line is and whether it was already present.
    pub fn absorb(&mut self, addr: u64, dirty: bool) -> (Placed, bool) {
        if dirty {
            self.stats.writebacks_in += 1;
        } else {
            self.stats.victims_in += 1;
        }
        let set = self.split(addr).set;
        if let Some(way) = self.probe(addr) {
            if let Some(Some(b)) = self.sets.get_mut(&set).map(|s| &mut s.ways[way]) {
                b.dirty |= dirty;
            }
            let placed = Placed {
                set,
                way,
                evicted: None,
            };
            return (placed, true);
        }
        (self.fill(addr, dirty), false)
    }

    /// The block in a set's way, if valid.
    pub fn block(&self, set: u64, way: usize) -> Option<Block> {
        self.sets.get(&set).and_then(|s| s.ways[way])
    }

    /// Valid lines held.
    pub fn occupancy(&self) -> u64 {
        self.sets.values().map(|s| s.valid() as u64).sum()
    }

    /// Distinct lines its demand stream has touched.
    pub fn distinct_lines(&self) -> usize {
        self.classifier.distinct()
    }
}
