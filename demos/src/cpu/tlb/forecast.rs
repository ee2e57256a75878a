//! What a loop over consecutive pages does to the TLB, worked out from its
//! sets rather than from its total size.
//!
//! A loop visits its pages in the same order every round. Within one set,
//! between two visits to a translation the loop touches every other
//! translation of that set once. Under LRU the translation survives exactly
//! when those others are fewer than the set's ways: so a set given no more
//! translations than ways hits on every visit after the first round, and a
//! set given more misses on every visit, in every round. Consecutive loads
//! of one translation (4 KiB loads inside one 2 MiB page) hit regardless.
//! This is exact from the second round on, if no other load comes between.

use super::{TlbConfig, LOOP_BASE, LOOP_ROUNDS, PAGE};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopForecast {
    /// 4 KiB pages the loop loads, once each per round.
    pub pages: usize,
    pub ways: usize,
    /// Distinct translations the loop needs in each set.
    pub per_set: Vec<usize>,
    /// Loads of one round that hit in every later round.
    pub steady_hits_per_round: usize,
}

impl LoopForecast {
    pub fn new(config: &TlbConfig, pages: usize) -> Self {
        let (entries, ways) = config.geometry();
        let sets = (entries / ways.max(1)).max(1);
        let page = config.page_bytes();
        let translation = |p: usize| (LOOP_BASE + p as u64 * PAGE) / page;
        let set = |t: u64| (t % sets as u64) as usize;
        let mut per_set = vec![0; sets];
        for p in 0..pages {
            // Pages in order: a new translation starts where the last ends.
            if p == 0 || translation(p) != translation(p - 1) {
                per_set[set(translation(p))] += 1;
            }
        }
        // A wrap-around back to the same translation (one translation for
        // the whole loop) is counted once above, as it should be.
        let steady_hits_per_round = (0..pages)
            .filter(|&p| {
                let t = translation(p);
                let repeat = p > 0 && translation(p - 1) == t
                    || p == 0 && pages > 1 && translation(pages - 1) == t;
                repeat || per_set[set(t)] <= ways
            })
            .count();
        LoopForecast {
            pages,
            ways,
            per_set,
            steady_hits_per_round,
        }
    }

    /// Sets given more translations than ways, with their counts.
    pub fn thrashing(&self) -> Vec<(usize, usize)> {
        self.per_set
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n > self.ways)
            .map(|(s, &n)| (s, n))
            .collect()
    }

    /// Loads after the first round.
    pub fn later_loads(&self) -> usize {
        self.pages * (LOOP_ROUNDS - 1)
    }

    /// Hits after the first round.
    pub fn later_hits(&self) -> usize {
        self.steady_hits_per_round * (LOOP_ROUNDS - 1)
    }

    /// The forecast in words, for the narration.
    pub fn sentence(&self) -> String {
        let thrashing = self.thrashing();
        let rounds = format!(
            "rounds 2 and 3 should hit {} of their {} loads",
            self.later_hits(),
            self.later_loads()
        );
        if thrashing.is_empty() {
            let most = self.per_set.iter().copied().max().unwrap_or(0);
            return format!(
                "No set gets more pages than its {} ways (at most {most}), so {rounds}.",
                self.ways
            );
        }
        let sets: Vec<String> = thrashing
            .iter()
            .enumerate()
            .map(|(i, (s, n))| {
                if i == 0 {
                    format!("set {s} gets {n} pages")
                } else {
                    format!("set {s} gets {n}")
                }
            })
            .collect();
        let fitting = self.per_set.len() - thrashing.len();
        format!(
            "{}, but a set holds {} ways: under LRU each of those pages is evicted before its turn and misses every round. {}, so {rounds}.",
            crate::text::capitalised(&join(&sets)),
            self.ways,
            match fitting {
                0 => "No set keeps its pages".to_string(),
                1 => "The other set keeps its pages".to_string(),
                n => format!("The other {n} sets keep their pages"),
            }
        )
    }
}

/// "a", "a and b", "a, b and c".
fn join(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
