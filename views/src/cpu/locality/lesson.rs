//! Locality's lesson: a miss brings a whole line, so a walk in address order
//! misses once per line; the same elements walked column by column miss on
//! every access, because each line is evicted before the walk comes back
//! for its next element; a cache that holds every line the column touches
//! fixes it. Every answer is read off the simulator after the walk.

use crate::lesson::{after_all, at, Ask, Lesson, Question, Stop, Task};
use demos::cpu::locality::{Locality, LocalityAction, LocalityConfig, Walk, ELEMENT_BYTES};
use demos::Model;
use LocalityAction::*;

/// The choices for "hit or miss".
const OUTCOMES: &[&str] = &["hit", "miss"];

/// The misses of `walk` once run to its end from `m`'s current walk.
fn misses(m: &Locality, walk: Walk) -> Option<u64> {
    m.results[walk.index()].map(|t| t.misses)
}

/// Whether the next step's element hits, as an index of [`OUTCOMES`].
fn next_outcome(m: &Locality) -> Vec<usize> {
    let (next, _) = after_all(m, &[Step]);
    next.last
        .and_then(|e| next.outcome[e as usize])
        .map(|hit| usize::from(!hit))
        .into_iter()
        .collect()
}

/// The actions that double the cache's ways and walk column by column.
fn doubled(m: &Locality) -> Vec<LocalityAction> {
    let c = &m.config;
    vec![
        SetCache {
            sets: c.sets,
            ways: c.ways * 2,
            line: c.line,
        },
        RunToEnd,
    ]
}

pub fn lesson() -> Lesson<Locality> {
    Lesson {
        goal: "After this you can explain why walking the same array in a different order can make every access miss, and how the cache's line size and capacity decide it.",
        stops: vec![
            Stop {
                title: "Elements side by side",
                text: "The array's 8-byte elements lie one after another from address 0. The cache is cold: its first access must go to memory.",
                state: at(&[]),
                focus: "elem-0",
                task: None,
                question: Some(Question {
                    ask: "Step once, to element 0, which misses. Step again, to element 1: hit or miss?",
                    kind: Ask::Choice {
                        options: OUTCOMES,
                        right: |m| next_outcome(&after_all(m, &[Step]).0),
                    },
                    explain: |m| after_all(m, &[Step, Step]).1,
                    contrast: |config| config.line = 8,
                }),
            },
            Stop {
                title: "A line at a time",
                text: "Element 0's miss fetched the whole line it lives in, so the elements after it in that line hit.",
                state: at(&[Step, Step]),
                focus: "cache",
                task: None,
                question: Some(Question {
                    ask: "Run the sequential walk to the end. How many of its accesses miss?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| {
                            let (next, _) = after_all(m, &[RunToEnd]);
                            misses(&next, Walk::Sequential).unwrap_or(0) as f64
                        },
                    },
                    explain: |m| {
                        let (next, said) = after_all(m, &[RunToEnd]);
                        format!("{said} {}", next.why().join(" "))
                    },
                    contrast: |config| config.line = 32,
                }),
            },
            Stop {
                title: "Break it: column by column",
                text: "A 2-D array in C is stored row by row, so the row-major walk is address order again: one miss per line. A column-major walk jumps a whole row at every step.",
                state: at(&[Select(Walk::RowMajor), RunToEnd]),
                focus: "results",
                task: Some(Task {
                    ask: "In Break it, walk the 2-D array column by column, and run it to the end.",
                    done: |m| misses(m, Walk::ColumnMajor).is_some(),
                    witness: || vec![Select(Walk::ColumnMajor), RunToEnd],
                }),
                question: Some(Question {
                    ask: "Walk the same array column by column. How many of its accesses miss?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| {
                            let (next, _) = after_all(m, &[Select(Walk::ColumnMajor), RunToEnd]);
                            misses(&next, Walk::ColumnMajor).unwrap_or(0) as f64
                        },
                    },
                    explain: |m| {
                        let (next, said) = after_all(m, &[Select(Walk::ColumnMajor), RunToEnd]);
                        format!("{said} {}", next.config.column_note())
                    },
                    contrast: |config| config.ways = 4,
                }),
            },
            Stop {
                title: "Gone before the next column",
                text: "The first column has touched one element in each line of the array, and the cache holds only some of those lines now. The next column wants the elements beside them.",
                state: at(&[
                    Select(Walk::ColumnMajor),
                    Step,
                    Step,
                    Step,
                    Step,
                    Step,
                    Step,
                    Step,
                    Step,
                ]),
                focus: "cache",
                task: None,
                question: Some(Question {
                    ask: "Step once more, to the top of the next column. Hit or miss?",
                    kind: Ask::Choice {
                        options: OUTCOMES,
                        right: next_outcome,
                    },
                    explain: |m| {
                        let (next, said) = after_all(m, &[Step]);
                        format!("{said} {}", next.config.column_note())
                    },
                    contrast: |config| config.ways = 4,
                }),
            },
            Stop {
                title: "Room for every line",
                text: "Column by column, every access missed: each line was fetched again for each of its elements. Twice the ways makes the cache as large as the array.",
                state: at(&[Select(Walk::ColumnMajor), RunToEnd]),
                focus: "cache",
                task: Some(Task {
                    ask: "Double the cache's ways, then run the column-major walk to the end.",
                    done: |m| {
                        let c = &m.config;
                        let lines = c.elements as u64 * ELEMENT_BYTES / c.line;
                        misses(m, Walk::ColumnMajor) == Some(lines)
                    },
                    witness: || {
                        let c = LocalityConfig::default();
                        vec![
                            SetCache {
                                sets: c.sets,
                                ways: c.ways * 2,
                                line: c.line,
                            },
                            RunToEnd,
                        ]
                    },
                }),
                question: Some(Question {
                    ask: "With twice the ways, how many of the column-major walk's accesses miss?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| {
                            let (next, _) = after_all(m, &doubled(m));
                            misses(&next, Walk::ColumnMajor).unwrap_or(0) as f64
                        },
                    },
                    explain: |m| {
                        let (next, said) = after_all(m, &doubled(m));
                        format!("{said} {}", next.config.column_note())
                    },
                    contrast: |config| config.elements = 128,
                }),
            },
        ],
        next: &["/cpu/tlb", "/cpu/cache-hierarchy"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The right answers at each stop, as the reveal shows them.
    fn answers(config: LocalityConfig) -> Vec<Vec<String>> {
        crate::lesson::answers(&lesson(), |_, s| s.config = config.clone())
    }

    #[test]
    fn the_answers_are_the_textbooks() {
        // 64 elements of 8 bytes, 64-byte lines: 8 lines. In address order
        // one miss per line; column by column (8 × 8) the 256-byte cache
        // keeps 4 of the 8 lines a column touches, so every access misses;
        // a 512-byte cache holds the array and misses once per line.
        assert_eq!(
            answers(LocalityConfig::default()),
            [vec!["hit"], vec!["8"], vec!["64"], vec!["miss"], vec!["8"]]
        );
        // 8-byte lines hold one element: nothing is fetched for free.
        let short = answers(LocalityConfig {
            line: 8,
            ..LocalityConfig::default()
        });
        assert_eq!(short[0], ["miss"]);
        // 32-byte lines: 16 lines.
        let half = answers(LocalityConfig {
            line: 32,
            ..LocalityConfig::default()
        });
        assert_eq!(half[1], ["16"]);
        // Four ways: the cache holds all 8 lines.
        let big = answers(LocalityConfig {
            ways: 4,
            ..LocalityConfig::default()
        });
        assert_eq!(big[2], ["8"]);
        assert_eq!(big[3], ["hit"]);
        // 128 elements are 16 lines: twice the ways (8 lines) is still too few.
        let long = answers(LocalityConfig {
            elements: 128,
            ..LocalityConfig::default()
        });
        assert_eq!(long[4], ["128"]);
    }
}
