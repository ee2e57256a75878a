//! One set: its ways, what each holds, and the replacement state that picks
//! a victim when all of them are full.

use super::plru;
use super::spec::Policy;
use crate::rng::Rng;
use serde::{Deserialize, Serialize};

/// A valid line in a way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Block {
    /// The byte address where the line begins.
    pub base: u64,
    /// Written since it was filled: must be written back when evicted.
    pub dirty: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheSet {
    /// What each way holds; `None` is an invalid (empty) way.
    pub ways: Vec<Option<Block>>,
    /// LRU: the level's clock at each way's last use. FIFO: at its fill.
    pub stamps: Vec<u64>,
    /// Tree-PLRU bits (`ways - 1` of them; empty for other policies).
    pub tree: Vec<bool>,
}

impl CacheSet {
    pub fn new(ways: usize, policy: Policy) -> Self {
        let tree_bits = if policy == Policy::Plru { ways - 1 } else { 0 };
        CacheSet {
            ways: vec![None; ways],
            stamps: vec![0; ways],
            tree: vec![false; tree_bits],
        }
    }

    /// The way holding the line that begins at `base`.
    pub fn find(&self, base: u64) -> Option<usize> {
        self.ways
            .iter()
            .position(|w| w.is_some_and(|b| b.base == base))
    }

    pub fn valid(&self) -> usize {
        self.ways.iter().filter(|w| w.is_some()).count()
    }

    /// A demand hit on `way`: LRU and PLRU record the use; FIFO and random
    /// ignore hits by definition.
    pub fn touch(&mut self, way: usize, policy: Policy, clock: u64) {
        match policy {
            Policy::Lru => self.stamps[way] = clock,
            Policy::Plru => plru::touch(&mut self.tree, way),
            Policy::Fifo | Policy::Random => {}
        }
    }

    /// The way a new line goes to: the lowest-numbered empty way if there is
    /// one, else the policy's choice. Returns the way and whether the policy
    /// chose it (a line will be evicted).
    pub fn choose(&self, policy: Policy, rng: &mut Rng) -> (usize, bool) {
        if let Some(empty) = self.ways.iter().position(Option::is_none) {
            return (empty, false);
        }
        let way = match policy {
            // Stamps are distinct (one clock tick per use), so the minimum is unique.
            Policy::Lru | Policy::Fifo => (0..self.ways.len())
                .min_by_key(|&w| self.stamps[w])
                .unwrap_or(0),
            Policy::Plru => plru::victim(&self.tree),
            Policy::Random => rng.range(0, self.ways.len() as u64 - 1) as usize,
        };
        (way, true)
    }

    /// The way the next new line would take, when no random draw decides
    /// it: the lowest empty way, else the policy's victim (`None` for a full
    /// set under the random policy). What a picture marks as "next out".
    pub fn next_way(&self, policy: Policy) -> Option<usize> {
        match (self.ways.iter().position(Option::is_none), policy) {
            (Some(empty), _) => Some(empty),
            (None, Policy::Random) => None,
            // The generator is not consulted by the other policies.
            (None, _) => Some(self.choose(policy, &mut Rng::new(0)).0),
        }
    }

    /// Puts a line in `way`, returning what was there. The new line counts as
    /// just used (LRU, PLRU) and just filled (FIFO).
    pub fn place(&mut self, way: usize, block: Block, policy: Policy, clock: u64) -> Option<Block> {
        let old = self.ways[way].replace(block);
        match policy {
            Policy::Lru | Policy::Fifo => self.stamps[way] = clock,
            Policy::Plru => plru::touch(&mut self.tree, way),
            Policy::Random => {}
        }
        old
    }

    /// Ways from the least to the most recently used (LRU), or from the oldest
    /// to the newest fill (FIFO); empty ways first. Other policies keep no
    /// order, so their ways come in index order.
    pub fn order(&self, policy: Policy) -> Vec<usize> {
        let mut ways: Vec<usize> = (0..self.ways.len()).collect();
        if matches!(policy, Policy::Lru | Policy::Fifo) {
            ways.sort_by_key(|&w| (self.ways[w].is_some(), self.stamps[w]));
        }
        ways
    }
}
