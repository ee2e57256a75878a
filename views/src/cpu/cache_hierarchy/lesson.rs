//! The cache hierarchy's lesson: a cold load walks out to DRAM, a line is
//! the unit a cache holds, a set has only so many ways, what L1 drops L2
//! still has, and three lines that share one L1 set miss every time while
//! the rest of L1 stays empty. Every answer is read off the simulator after
//! the access the question asks about.

use crate::lesson::{after, at, Ask, Lesson, Question, Stop, Task};
use demos::cpu::cache_hierarchy::{CacheAction, CacheHierarchy, CacheHierarchyConfig};
use demos::cpu::cachesim::{MissKind, Policy};
use demos::Model;
use CacheAction::*;

/// The choices for "which level serves it".
const PLACES: &[&str] = &["L1", "L2", "L3", "DRAM"];
/// The choices for "which line leaves L1".
const VICTIMS: &[&str] = &["0x140", "0x240", "none: a way is still free"];
/// The choices for "what kind of miss".
const KINDS: &[&str] = &[
    "none: it hits in L1",
    "compulsory: the line was never loaded",
    "capacity: L1 is too small for these lines",
    "conflict: too many of these lines share one set",
];

/// `m` once every queued access has run.
fn drained(m: &CacheHierarchy) -> CacheHierarchy {
    let mut next = m.clone();
    while !next.pending.is_empty() {
        if next.apply(&Step).is_err() {
            break;
        }
    }
    next
}

/// Which of [`PLACES`] serves `action` at `m`.
fn served(m: &CacheHierarchy, action: CacheAction) -> Vec<usize> {
    let (next, _) = after(m, action);
    next.last()
        .and_then(|r| PLACES.iter().position(|p| *p == next.place_name(r.served)))
        .into_iter()
        .collect()
}

/// L1 with one more way in each set, the same number of sets.
fn one_more_l1_way(config: &mut CacheHierarchyConfig) {
    config.levels[0].ways += 1;
}

pub fn lesson() -> Lesson<CacheHierarchy> {
    Lesson {
        goal: "After this you can explain why a load's cost depends on which level holds its line, and why lines that share a set can keep missing in a cache that is mostly empty.",
        stops: vec![
            Stop {
                title: "Cold caches",
                text: "Every level is empty. A load looks in L1, then L2, then L3, and asks DRAM only when all three miss; in this model each lookup on the way adds its own time.",
                state: at(&[]),
                focus: "dram",
                task: None,
                question: Some(Question {
                    ask: "Load 0x140. How many cycles does it take?",
                    kind: Ask::Number {
                        unit: "cycles",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| {
                            let (next, _) = after(m, Load(0x140));
                            next.last().map_or(0.0, |r| r.cycles as f64)
                        },
                    },
                    explain: |m| after(m, Load(0x140)).1,
                    contrast: |config| config.dram_latency += 150,
                }),
            },
            Stop {
                title: "A line, not a byte",
                text: "The miss brought the whole line holding 0x140 into every level. L1 cuts an address in three: the offset is the byte within the line, the set index picks the set, and the tag names the line.",
                state: at(&[Load(0x140)]),
                focus: "addr",
                task: None,
                question: Some(Question {
                    ask: "Now load 0x148, eight bytes further on. Which level serves it?",
                    kind: Ask::Choice {
                        options: PLACES,
                        right: |m| served(m, Load(0x148)),
                    },
                    explain: |m| after(m, Load(0x148)).1,
                    contrast: |config| config.levels[0].line = 8,
                }),
            },
            Stop {
                title: "Only so many ways",
                text: "0x240 has the same set index in L1 as 0x140, so it went into the other way of the same set. A line can live only in its own set.",
                state: at(&[Load(0x140), Load(0x240)]),
                focus: "l1-set-1",
                task: None,
                question: Some(Question {
                    ask: "Load 0x340, which maps to that set too. Which line does L1 evict for it?",
                    kind: Ask::Choice {
                        options: VICTIMS,
                        right: |m| {
                            let (next, _) = after(m, Load(0x340));
                            let out = next.last().and_then(|r| r.evicted(0));
                            let word = out.map(|e| format!("{:#x}", e.block.base));
                            let i = match word {
                                Some(w) => VICTIMS.iter().position(|v| *v == w),
                                None => Some(VICTIMS.len() - 1),
                            };
                            i.into_iter().collect()
                        },
                    },
                    explain: |m| after(m, Load(0x340)).1,
                    contrast: |setup| one_more_l1_way(setup),
                }),
            },
            Stop {
                title: "Evicted from L1, kept further out",
                text: "L1 dropped the line it had used least recently. L2 and L3 have more sets and kept their copies: in this model no level drops a line because another level evicted it.",
                state: at(&[Load(0x140), Load(0x240), Load(0x340)]),
                focus: "l2",
                task: None,
                question: Some(Question {
                    ask: "Load 0x140 again. Which level serves it?",
                    kind: Ask::Choice {
                        options: PLACES,
                        right: |m| served(m, Load(0x140)),
                    },
                    explain: |m| after(m, Load(0x140)).1,
                    contrast: |setup| one_more_l1_way(setup),
                }),
            },
            Stop {
                title: "Break it: one set, one line too many",
                text: "Break it has queued loads of lines that all map to L1 set 0, one line more than the set has ways, over and over. L1's other sets are free.",
                state: at(&[Thrash]),
                focus: "l1-set-0",
                task: None,
                question: Some(Question {
                    ask: "Step through every queued load. How many of them hit in L1?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| {
                            let run = drained(m);
                            (run.sim.levels[0].stats.hits - m.sim.levels[0].stats.hits) as f64
                        },
                    },
                    explain: |m| drained(m).why().join(" "),
                    contrast: |config| config.levels[0].policy = Policy::Random,
                }),
            },
            Stop {
                title: "Conflict, not capacity",
                text: "The first round missed because each line was new. Most of L1 is still empty.",
                state: at(&[Thrash, Step, Step, Step]),
                focus: "l1",
                task: Some(Task {
                    ask: "Step through the rest of the queue.",
                    done: |m| m.pending.is_empty() && !m.trace.is_empty(),
                    witness: || vec![Step; 6],
                }),
                question: Some(Question {
                    ask: "The next load is the first line again. What kind of L1 miss, if any, is it?",
                    kind: Ask::Choice {
                        options: KINDS,
                        right: |m| {
                            let (next, _) = after(m, Step);
                            let kind = next.last().and_then(|r| r.lookup(0)).map(|l| l.miss);
                            let i = match kind {
                                Some(None) => Some(0),
                                Some(Some(MissKind::Compulsory)) => Some(1),
                                Some(Some(MissKind::Capacity)) => Some(2),
                                Some(Some(MissKind::Conflict)) => Some(3),
                                None => None,
                            };
                            i.into_iter().collect()
                        },
                    },
                    explain: |m| after(m, Step).1,
                    contrast: |config| config.levels[0].sets = 1,
                }),
            },
            Stop {
                title: "More ways, same size",
                text: "Every later load missed too. The same bytes arranged as half the sets with twice the ways give each set room for more lines; the change replays the same loads.",
                state: at(&[Thrash, Step, Step, Step, Step, Step, Step, Step, Step, Step]),
                focus: "l1",
                task: Some(Task {
                    ask: "In Break it, halve L1's sets and double its ways.",
                    done: |m| {
                        let l1 = &m.sim.levels[0].stats;
                        m.sim.accesses > 0 && l1.conflict == 0
                    },
                    witness: || {
                        vec![SetGeometry {
                            level: 0,
                            sets: 2,
                            ways: 4,
                            line: 64,
                        }]
                    },
                }),
                question: None,
            },
        ],
        next: &["/memory/false-sharing"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The right answers at each stop, as the reveal shows them.
    fn answers(config: CacheHierarchyConfig) -> Vec<Vec<String>> {
        crate::lesson::answers(&lesson(), |_, s| s.config = config.clone())
    }

    #[test]
    fn the_answers_are_the_textbooks() {
        // A cold load pays every lookup and DRAM: 5 + 11 + 84 + 250; the
        // next byte of the line hits in L1; LRU evicts the older line, which
        // L2 still holds; two ways for three lines under LRU never hit, and
        // the misses after the first round are conflict misses.
        assert_eq!(
            answers(CacheHierarchyConfig::default()),
            [
                vec!["350 cycles"],
                vec!["L1"],
                vec!["0x140"],
                vec!["L2"],
                vec!["0"],
                vec!["conflict: too many of these lines share one set"],
            ]
        );
        let mut slower = CacheHierarchyConfig::default();
        slower.dram_latency += 150;
        assert_eq!(answers(slower)[0], ["500 cycles"]);
        // 8-byte L1 lines: 0x148 is another L1 line, still in L2's.
        let mut short = CacheHierarchyConfig::default();
        short.levels[0].line = 8;
        assert_eq!(answers(short)[1], ["L2"]);
        // A third way keeps all three lines of set 1.
        let mut wider = CacheHierarchyConfig::default();
        wider.levels[0].ways = 3;
        let wider = answers(wider);
        assert_eq!(wider[2], ["none: a way is still free"]);
        assert_eq!(wider[3], ["L1"]);
        // A random victim sometimes spares the line that comes next.
        let mut random = CacheHierarchyConfig::default();
        random.levels[0].policy = Policy::Random;
        assert_ne!(answers(random)[4], ["0"]);
        // One set of two ways: three lines do not fit in L1 at all.
        let mut one_set = CacheHierarchyConfig::default();
        one_set.levels[0].sets = 1;
        assert_eq!(
            answers(one_set)[5],
            ["capacity: L1 is too small for these lines"]
        );
    }
}
