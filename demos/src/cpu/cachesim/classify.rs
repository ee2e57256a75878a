//! The three Cs: why a demand access missed (Hill & Smith, "Evaluating
//! Associativity in CPU Caches", IEEE Trans. Computers 38(12), 1989;
//! Hennessy & Patterson, 6th ed., §B.3).
//!
//! This classifier works **per miss**, not by totals. Hennessy & Patterson
//! define the three Cs with the miss counts of three caches run on the same
//! trace: compulsory = the misses of an infinite cache, capacity = the misses
//! of a fully associative cache of the same size minus those, conflict = the
//! real cache's misses minus the fully associative cache's. We label each
//! miss as it happens instead, so that every miss the picture shows gets one
//! label. Each level keeps, beside its real sets, a record of every line its
//! demand stream has touched and a shadow cache: fully associative, LRU, with
//! the same number of lines, fed the same demand accesses (never
//! write-backs). A miss is
//! - *compulsory* if the stream never touched that line before;
//! - *capacity* if the shadow missed too: no placement of that many lines
//!   would have kept it;
//! - *conflict* otherwise: the shadow still held it, so only the set mapping
//!   (and the policy) lost it.
//!
//! The two methods agree on compulsory misses. They can differ on the other
//! two: an access the real cache hits but the shadow misses (LRU in one big
//! set can do worse than in several small ones) adds to the totals method's
//! capacity count and subtracts from its conflict count, which can then be
//! negative. Per miss, the three counts are never negative and always add up
//! to the level's misses (`tests.rs` has a trace where the two disagree).

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
