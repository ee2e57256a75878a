//! The three Cs: why a demand access missed (Hill & Smith, "Evaluating
//! Associativity in CPU Caches", IEEE Trans. Computers 38(12), 1989;
//! Hennessy & Patterson, 6th ed., §B.3).
//!
//! Each level keeps, beside its real sets, a record of every line its demand
//! stream has touched and a shadow cache: fully associative, LRU, with the
//! same number of lines, fed the same demand accesses (never write-backs).
//! A miss is
//! - *compulsory* if the stream never touched that line before;
//! - *capacity* if the shadow missed too: no placement of that many lines
//!   would have kept it;
//! - *conflict* otherwise: the shadow still held it, so only the set mapping
//!   (and the policy) lost it.
//!
//! Classifying each miss as it happens keeps the three counts non-negative
//! and summing to the misses.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MissKind {
    Compulsory,
    Capacity,
    Conflict,
}

impl MissKind {
    pub fn label(self) -> &'static str {
        match self {
            MissKind::Compulsory => "compulsory",
            MissKind::Capacity => "capacity",
            MissKind::Conflict => "conflict",
        }
    }
}

/// A fully associative LRU cache of `capacity` lines, kept as two maps so an
/// access costs a logarithm, not a scan.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Classifier {
    capacity: u64,
    clock: u64,
    /// Every line number this level's demand stream has touched.
    seen: BTreeSet<u64>,
    /// Shadow contents: line number → time of last use.
    last_use: BTreeMap<u64, u64>,
    /// The same, by time: the first entry is the shadow's LRU line.
    by_time: BTreeMap<u64, u64>,
}

impl Classifier {
    pub fn new(capacity: u64) -> Self {
        Classifier {
            capacity,
            clock: 0,
            seen: BTreeSet::new(),
            last_use: BTreeMap::new(),
            by_time: BTreeMap::new(),
        }
    }

    /// Feeds one demand access to line `line`, which the real level answered
    /// with `hit`; returns the kind of miss, or `None` for a hit.
    pub fn record(&mut self, line: u64, hit: bool) -> Option<MissKind> {
        let first_touch = self.seen.insert(line);
        let shadow_hit = self.shadow_access(line);
        match (hit, first_touch, shadow_hit) {
            (true, _, _) => None,
            (false, true, _) => Some(MissKind::Compulsory),
            (false, false, false) => Some(MissKind::Capacity),
            (false, false, true) => Some(MissKind::Conflict),
        }
    }

    fn shadow_access(&mut self, line: u64) -> bool {
        self.clock += 1;
        let hit = match self.last_use.insert(line, self.clock) {
            Some(old) => {
                self.by_time.remove(&old);
                true
            }
            None => false,
        };
        self.by_time.insert(self.clock, line);
        if self.last_use.len() as u64 > self.capacity {
            if let Some((_, lru)) = self.by_time.pop_first() {
                self.last_use.remove(&lru);
            }
        }
        hit
    }

    /// Distinct lines the demand stream has touched.
    pub fn distinct(&self) -> usize {
        self.seen.len()
    }
}
