//! The TLB's lesson: a load's address must be translated, a TLB miss walks
//! one table per level, the TLB then saves that walk for the page, a loop
//! that gives a set more pages than ways misses every time, and 2 MiB pages
//! cover that loop with one entry. Every answer is read off the model after
//! the loads the question asks about.

use crate::lesson::{after, at, Ask, Lesson, Question, Stop, Task};
use demos::cpu::tlb::forecast::LoopForecast;
use demos::cpu::tlb::{Tlb, TlbAction, LOOP_BASE, LOOP_ROUNDS};
use demos::Model;
use TlbAction::*;

/// The Try buttons' first address: page 1 of the loop's region.
const FIRST: u64 = LOOP_BASE + 0x1234;
/// The Try buttons' second address: the next 4 KiB page.
const NEXT_PAGE: u64 = LOOP_BASE + 0x2234;
/// The Break-it loop at the default TLB (8 entries, 2 sets of 4 ways): one
/// page more than each set holds.
const OVER: usize = 10;
/// The loop over as many pages as the default TLB has entries.
const FIT: usize = 8;

/// `Loop(pages)` followed by a Step for each of its loads.
fn looped(pages: usize) -> Vec<TlbAction> {
    let mut actions = vec![Loop(pages)];
    actions.extend(std::iter::repeat_n(Step, pages * LOOP_ROUNDS));
    actions
}

/// `m` once every queued load has run.
fn drained(m: &Tlb) -> Tlb {
    let mut next = m.clone();
    while !next.pending.is_empty() {
        if next.apply(&Step).is_err() {
            break;
        }
    }
    next
}

/// The model's forecast of the queued loop, from its sets, and the tally
/// once it has run.
fn loop_explain(m: &Tlb) -> String {
    let pages = m.pending.len() / LOOP_ROUNDS;
    let forecast = LoopForecast::new(&m.config, pages).sentence();
    let run = drained(m);
    let tally = run.why().get(1).cloned().unwrap_or_default();
    format!("{forecast} {tally}")
}

/// The page-table entries the last load read.
fn reads(m: &Tlb) -> f64 {
    m.last().map_or(0.0, |t| t.steps.len() as f64)
}

pub fn lesson() -> Lesson<Tlb> {
    Lesson {
        goal: "After this you can explain what a TLB miss costs, why a loop over a few more pages than a TLB set holds misses on every load, and how 2 MiB pages stretch the TLB's reach.",
        stops: vec![
            Stop {
                title: "Every load needs a translation",
                text: "With x86-64's 4-level paging a virtual address holds an index into each of four tables, then the offset within the page. The TLB is empty: the first load must walk the tables from CR3.",
                state: at(&[]),
                focus: "walk-pml4",
                task: None,
                question: Some(Question {
                    ask: "Load 0x7f0000001234. How many page-table entries does the hardware read to translate it?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| reads(&after(m, Access(FIRST)).0),
                    },
                    explain: |m| after(m, Access(FIRST)).1,
                    contrast: |config| config.huge_pages = true,
                }),
            },
            Stop {
                title: "The TLB keeps the answer",
                text: "The walk read one entry per table, one read each, and the TLB now holds this page's translation: another load from the same page needs no walk.",
                state: at(&[Access(FIRST)]),
                focus: "va",
                task: None,
                question: Some(Question {
                    ask: "Load 0x7f0000002234, in the next 4 KiB page. How many cycles does its translation add?",
                    kind: Ask::Number {
                        unit: "cycles",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| {
                            let (next, _) = after(m, Access(NEXT_PAGE));
                            next.last().map_or(0.0, |t| t.cycles as f64)
                        },
                    },
                    explain: |m| after(m, Access(NEXT_PAGE)).1,
                    contrast: |config| config.pwc = true,
                }),
            },
            Stop {
                title: "A loop that fits",
                text: "A loop over as many consecutive pages as the TLB has entries is queued, three times round. Consecutive pages take turns between the sets, so each set gets as many pages as it has ways.",
                state: at(&[Loop(FIT)]),
                focus: "tlb",
                task: None,
                question: Some(Question {
                    ask: "Step through every queued load. How many of them miss in the TLB?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| drained(m).counters.misses as f64,
                    },
                    explain: loop_explain,
                    contrast: |config| config.entries = 4,
                }),
            },
            Stop {
                title: "Break it: one page too many per set",
                text: "Break it has queued a loop over one page more than each set holds, three times round. The TLB is only a little too small for it.",
                state: at(&[Loop(OVER)]),
                focus: "tlb",
                task: Some(Task {
                    ask: "Step through every queued load.",
                    done: |m| {
                        let (entries, _) = m.config.geometry();
                        m.pending.is_empty() && m.counters.misses > entries as u64
                    },
                    witness: || vec![Step; OVER * LOOP_ROUNDS],
                }),
                question: Some(Question {
                    ask: "Step through every queued load. How many of them hit in the TLB?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| drained(m).counters.hits as f64,
                    },
                    explain: loop_explain,
                    contrast: |config| config.entries = 16,
                }),
            },
            Stop {
                title: "One entry for the whole loop",
                text: "Every load missed, and every miss walked all four tables. With 2 MiB pages one TLB entry covers the whole loop, and a walk stops at the PD table, whose entry maps the big page.",
                state: at(&looped(OVER)),
                focus: "walk-pd",
                task: Some(Task {
                    ask: "Turn on 2 MiB pages.",
                    done: |m| m.config.huge_pages,
                    witness: || vec![SetHugePages(true)],
                }),
                question: Some(Question {
                    ask: "Turn on 2 MiB pages, which replays the same loads. How many cycles do all their page walks take together?",
                    kind: Ask::Number {
                        unit: "cycles",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| after(m, SetHugePages(true)).0.counters.cycles as f64,
                    },
                    explain: |m| {
                        let (next, said) = after(m, SetHugePages(true));
                        format!("{said} {}", next.why().join(" "))
                    },
                    contrast: |config| config.read_cycles = 50,
                }),
            },
        ],
        next: &["/cpu/cache-hierarchy", "/nic/iommu"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::cpu::tlb::TlbConfig;

    /// The right answers at each stop, as the reveal shows them.
    fn answers(config: TlbConfig) -> Vec<Vec<String>> {
        crate::lesson::answers(&lesson(), |_, s| s.config = config.clone())
    }

    #[test]
    fn the_answers_are_the_textbooks() {
        // A 4-level walk reads 4 entries at 25 cycles each; a loop over the
        // TLB's 8 entries misses only in its first round; 10 pages put 5 in
        // each 4-way set, so LRU evicts every page before its turn; with
        // 2 MiB pages the loop is one page, one 3-read walk.
        assert_eq!(
            answers(TlbConfig::default()),
            [
                vec!["4"],
                vec!["100 cycles"],
                vec!["8"],
                vec!["0"],
                vec!["75 cycles"]
            ]
        );
        // With 2 MiB pages the PD entry is the leaf.
        let huge = answers(TlbConfig {
            huge_pages: true,
            ..TlbConfig::default()
        });
        assert_eq!(huge[0], ["3"]);
        // The page-walk cache holds the PD entry of the first load's region:
        // only the PT entry is read.
        let pwc = answers(TlbConfig {
            pwc: true,
            ..TlbConfig::default()
        });
        assert_eq!(pwc[1], ["25 cycles"]);
        // Four entries in one set: 8 pages never fit, all 24 loads miss.
        let small = answers(TlbConfig {
            entries: 4,
            ..TlbConfig::default()
        });
        assert_eq!(small[2], ["24"]);
        // 16 entries in 4 sets: 10 pages fit, rounds 2 and 3 hit.
        let big = answers(TlbConfig {
            entries: 16,
            ..TlbConfig::default()
        });
        assert_eq!(big[3], ["20"]);
        let slow = answers(TlbConfig {
            read_cycles: 50,
            ..TlbConfig::default()
        });
        assert_eq!(slow[4], ["150 cycles"]);
    }
}
