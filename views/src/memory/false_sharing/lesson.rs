//! False sharing's lesson: two variables on one line, the write that takes
//! the whole line from the other core, the ping-pong over a run, and the
//! padding that ends it. Every answer is read off the model after the writes
//! the question asks about; the pattern of writes (A's run, then B's) is the
//! configuration the contrasts change.

use crate::lesson::{after_all, at, narration, to_the_end, Ask, Lesson, Question, Stop, Task};
use demos::coherence::{Access, Supplier};
use demos::memory::false_sharing::{FalseSharing, FalseSharingConfig, FsAction, Layout};
use demos::Model;

/// The choices for "where does the write find the line".
const WHERE: &[&str] = &[
    "in memory",
    "in the other core's cache",
    "in its own cache: a hit",
];

/// The one-line layout's side of the latest write.
fn last_shared(m: &FalseSharing) -> Option<&Access> {
    m.last.as_ref().map(|(shared, _)| shared)
}

/// The run to its end, then the model's why (the counts of both layouts).
fn why_at_the_end(m: &FalseSharing) -> String {
    let end = after_all(m, &to_the_end(m)).0;
    end.why().join(" ")
}

fn steps(n: usize) -> Vec<FsAction> {
    vec![FsAction::Next; n]
}

/// A writes twice in a row before B's turn.
fn a_twice(config: &mut FalseSharingConfig) {
    config.a_run = 2;
}

/// B writes twice in a row after A's turn.
fn b_twice(config: &mut FalseSharingConfig) {
    config.b_run = 2;
}

/// Each core writes four times in a row before the other's turn.
fn runs_of_four(config: &mut FalseSharingConfig) {
    config.a_run = 4;
    config.b_run = 4;
}

pub fn lesson() -> Lesson<FalseSharing> {
    Lesson {
        goal: "After this you can explain why two cores writing two different variables can slow each other down, and why padding each variable to its own cache line stops it.",
        stops: vec![
            Stop {
                title: "Two variables, one line",
                text: "Core A only writes a and core B only writes b. But a and b sit 8 bytes apart, so one 64-byte line holds both, and caches keep copies coherent a whole line at a time.",
                state: at(&[]),
                focus: "core-0",
                task: None,
                question: Some(Question {
                    ask: "Step twice: the pattern's first two writes. With a and b on one line, where does the second write find the line?",
                    kind: Ask::Choice {
                        options: WHERE,
                        right: |m| {
                            let next = after_all(m, &steps(2)).0;
                            let at = last_shared(&next).map(|a| (a.request, a.supplier));
                            vec![match at {
                                Some((None, _)) => 2,
                                Some((Some(_), Some(Supplier::Cache(_)))) => 1,
                                _ => 0,
                            }]
                        },
                    },
                    explain: |m| narration(m, &steps(2)),
                    contrast: |setup| a_twice(setup),
                }),
            },
            Stop {
                title: "B takes the whole line",
                text: "B wrote only b, yet its request for ownership took the whole line from A's cache and invalidated A's copy, a and all. A must now ask for the line back before it can write a again.",
                state: at(&steps(2)),
                focus: "bus",
                task: None,
                question: Some(Question {
                    ask: "Step makes the pattern's next write. How many cycles does it take with a and b on one line?",
                    kind: Ask::Number {
                        unit: "cycles",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| {
                            let next = after_all(m, &[FsAction::Next]).0;
                            last_shared(&next).map_or(0, |a| a.cycles) as f64
                        },
                    },
                    explain: |m| narration(m, &[FsAction::Next]),
                    contrast: |setup| b_twice(setup),
                }),
            },
            Stop {
                title: "The line ping-pongs",
                text: "Each write takes the line back from the other cache, so the line crosses the bus again and again though the two cores share no data. The table counts every move.",
                state: at(&steps(4)),
                focus: "cmp-transfers",
                task: None,
                question: Some(Question {
                    ask: "Play runs the rest of the writes. By the end, how many times will the one line have moved between the two caches?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| f64::from(after_all(m, &to_the_end(m)).0.shared.counts.flushes),
                    },
                    explain: why_at_the_end,
                    contrast: |setup| runs_of_four(setup),
                }),
            },
            Stop {
                title: "What the ping-pong costs",
                text: "Both layouts see the same writes. Padded, each core took its own line from memory once, and every write since has hit in M with no bus traffic.",
                state: at(&steps(4)),
                focus: "cmp-cycles",
                task: None,
                question: Some(Question {
                    ask: "Play runs the rest of the writes. At the end, how many times as many cycles has the one line spent as the padded layout?",
                    kind: Ask::Number {
                        unit: "×",
                        decimals: 1,
                        tolerance: 1.0,
                        answer: |m| {
                            after_all(m, &to_the_end(m)).0.slowdown_tenths() as f64 / 10.0
                        },
                    },
                    explain: why_at_the_end,
                    contrast: |setup| runs_of_four(setup),
                }),
            },
            Stop {
                title: "Break it: a line each",
                text: "Put alignas(64) on each variable and they land on lines of their own. Bring the padded layout to the front and step: each core keeps its line in M.",
                state: at(&steps(4)),
                focus: "core-0",
                task: Some(Task {
                    ask: "In Break it, put the padded layout in front, then Step once.",
                    done: |m| {
                        m.layout == Layout::Padded
                            && m.last.as_ref().is_some_and(|(_, padded)| padded.request.is_none())
                    },
                    witness: || vec![FsAction::SetLayout(Layout::Padded), FsAction::Next],
                }),
                question: None,
            },
        ],
        next: &["/cpu/mesi"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The right answers at each stop, as the reveal shows them.
    fn answers(config: FalseSharingConfig) -> Vec<Vec<String>> {
        crate::lesson::answers(&lesson(), |_, s| s.config = config.clone())
    }

    #[test]
    fn the_answers_are_the_textbooks() {
        // Taking turns: B's first write takes the line from A's cache, a
        // transfer costs 175 cycles, every write but the first moves the
        // line (47 of 48), and one line spends 9.2× the padded cycles.
        assert_eq!(
            answers(FalseSharingConfig::default()),
            [
                vec!["in the other core's cache"],
                vec!["175 cycles"],
                vec!["47"],
                vec!["9.2 ×"]
            ]
        );
        // A writing twice in a row: its second write hits.
        let a2 = answers(FalseSharingConfig {
            a_run: 2,
            ..FalseSharingConfig::default()
        });
        assert_eq!(a2[0], ["in its own cache: a hit"]);
        // B writing twice in a row: after A, B, the next write is B's hit.
        let b2 = answers(FalseSharingConfig {
            b_run: 2,
            ..FalseSharingConfig::default()
        });
        assert_eq!(b2[1], ["5 cycles"]);
        // Runs of four: the line moves only when the writer changes.
        let four = answers(FalseSharingConfig {
            a_run: 4,
            b_run: 4,
            ..FalseSharingConfig::default()
        });
        assert_eq!(four[2], ["11"]);
        assert_eq!(four[3], ["2.6 ×"]);
    }
}
