//! The CAS loop's lesson: from one uninterrupted increment to the lost
//! update of a plain store. Every answer is read off the model after the
//! steps the question asks about.

use crate::lesson::{after_all, at, narration, to_the_end, Ask, Lesson, Question, Stop, Task};
use demos::memory::cas::{Cas, CasAction, CasConfig, Method};
use demos::{Model, Scenario};

const T1: usize = 0;
const T2: usize = 1;

fn step(t: usize) -> CasAction {
    CasAction::Step(t)
}

/// T1's steps, alone, until its first increment lands (or it has none left).
fn t1_first_increment(m: &Cas) -> Vec<CasAction> {
    let mut next = m.clone();
    let mut steps = Vec::new();
    let start = next.threads[T1].done;
    while next.threads[T1].done == start && next.apply(&step(T1)).is_ok() {
        steps.push(step(T1));
    }
    steps
}

fn plain() -> CasConfig {
    CasConfig {
        method: Method::Plain,
        ..CasConfig::default()
    }
}

/// T1 loads and computes; T2 then makes a whole increment.
const T2_FIRST: [CasAction; 5] = [
    CasAction::Step(T1),
    CasAction::Step(T1),
    CasAction::Step(T2),
    CasAction::Step(T2),
    CasAction::Step(T2),
];

pub fn lesson() -> Lesson<Cas> {
    let failed: Vec<CasAction> = T2_FIRST.iter().copied().chain([step(T1)]).collect();
    let retried: Vec<CasAction> = failed.iter().copied().chain([step(T1), step(T1)]).collect();
    Lesson {
        goal: "After this you can explain why a plain load, add and store loses updates when threads interleave, and how a CAS loop turns the same race into a retry.",
        stops: vec![
            Stop {
                title: "Load, compute, compare-and-swap",
                text: "A thread loads the counter into e and computes d = e + 1. Its CAS then stores d only if the counter still holds e. You are the scheduler: click a thread to run its next step.",
                state: at(&[]),
                focus: "thread-0",
                task: None,
                question: Some(Question {
                    ask: "T1 runs alone until its first increment lands. How many steps does that take?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| t1_first_increment(m).len() as f64,
                    },
                    explain: |m| narration(m, &t1_first_increment(m)),
                    contrast: |c| c.method = Method::FetchAdd,
                }),
            },
            Stop {
                title: "Someone got there first",
                text: "T1 loaded the counter and computed d, then stalled. Meanwhile T2 made a whole increment, so the counter no longer holds T1's e.",
                state: at(&T2_FIRST),
                focus: "counter",
                task: None,
                question: Some(Question {
                    ask: "T1 runs its CAS now. What will T1's e hold afterwards?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| {
                            f64::from(after_all(m, &[step(T1)]).0.threads[T1].loaded.unwrap_or(0))
                        },
                    },
                    explain: |m| narration(m, &[step(T1)]),
                    contrast: |c| c.initial = 5,
                }),
            },
            Stop {
                title: "Retry from what the CAS found",
                text: "The failed CAS wrote nothing. It handed T1 the value it found instead, so T1 recomputes d from that without loading again.",
                state: at(&failed),
                focus: "thread-0",
                task: Some(Task {
                    ask: "Make T1's CAS fail a second time: an outside write (+1) before its CAS does it.",
                    done: |m| m.threads[T1].retries >= 2,
                    witness: || vec![CasAction::Inject, step(T1), step(T1)],
                }),
                question: None,
            },
            Stop {
                title: "Nothing lost, something retried",
                text: "T1's retry succeeded. Every CAS that stored a value had checked that the counter was still what it computed from.",
                state: at(&retried),
                focus: "counter",
                task: None,
                question: Some(Question {
                    ask: "Both threads now run to the end, taking turns. What will the counter read?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| f64::from(after_all(m, &to_the_end(m)).0.value),
                    },
                    explain: |m| after_all(m, &to_the_end(m)).0.why().join(" "),
                    contrast: |c| c.increments = 3,
                }),
            },
            Stop {
                title: "Break it: a plain store",
                text: "Break it swaps the CAS for a plain load, add and store. Both threads have loaded the same value and added 1 in a register, and a plain store checks nothing before it writes.",
                state: Scenario {
                    config: plain(),
                    actions: vec![step(T1), step(T2), step(T1), step(T2)],
                },
                focus: "counter",
                task: Some(Task {
                    ask: "Run both stores, then find the lost update in the list under the picture.",
                    done: |m| m.lost() != 0,
                    witness: || vec![step(T1), step(T2)],
                }),
                question: Some(Question {
                    ask: "T1 stores, then T2 stores. How many updates are lost?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| f64::from(after_all(m, &[step(T1), step(T2)]).0.lost().count_ones()),
                    },
                    explain: |m| narration(m, &[step(T1), step(T2)]),
                    contrast: |c| c.method = Method::CasLoop,
                }),
            },
        ],
        next: &["/memory/aba", "/memory/mpmc"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The right answers at each stop with a question, under `change`.
    fn answers(change: fn(&mut CasConfig)) -> Vec<Vec<String>> {
        crate::lesson::answers(&lesson(), |_, s| change(s))
    }

    #[test]
    fn the_answers_are_the_textbooks() {
        // A CAS increment is load, compute, CAS; a failed CAS refreshes e;
        // two threads of two increments end at 4; two plain stores from
        // the same load lose one update.
        assert_eq!(
            answers(|_| {}),
            [vec!["3"], vec!["1"], vec!["4"], vec!["1"]]
        );
        // fetch_add is one step; a counter starting at 5 refreshes e to 6;
        // three increments each end at 6; CAS loses nothing.
        assert_eq!(answers(|c| c.method = Method::FetchAdd)[0], ["1"]);
        assert_eq!(answers(|c| c.initial = 5)[1], ["6"]);
        assert_eq!(answers(|c| c.increments = 3)[2], ["6"]);
        assert_eq!(answers(|c| c.method = Method::CasLoop)[3], ["0"]);
    }
}
