//! ABA's lesson: the classic interleaving on a Treiber stack, one stop per
//! turn of it, to the freed node the stale CAS puts on top. Every answer is
//! read off the model after the steps the question asks about.

use crate::lesson::{after_all, narration_and_why, Ask, Lesson, Question, Stop, Task};
use demos::memory::aba::{Aba, AbaAction, AbaConfig, Home, Next, Task as Job, CLASSIC, NODES};
use demos::Scenario;

const T1: usize = 0;
const T2: usize = 1;
const A: u8 = 0;

/// The choices for "which node": A to D, or no node at all.
const POINTERS: &[&str] = &["A", "B", "C", "D", "null"];
/// The choices for "where does the popped node go".
const FATES: &[&str] = &[
    "onto the free list, ready for reuse",
    "onto the retired list, not yet reusable",
    "nowhere: it stays on the stack",
];

/// The index in [`POINTERS`] of a pointer.
fn pointer(p: Option<u8>) -> usize {
    p.map_or(NODES, usize::from)
}

/// T2 pops, start to finish.
const T2_POPS: [AbaAction; 3] = [AbaAction::Pop(T2), AbaAction::Step(T2), AbaAction::Step(T2)];

/// The first `n` moves of the classic interleaving.
fn classic(n: usize) -> Scenario<Aba> {
    Scenario {
        config: AbaConfig::default(),
        actions: CLASSIC[..n].to_vec(),
    }
}

/// T1 is in a pop and its CAS comes next.
fn t1_about_to_cas(m: &Aba) -> bool {
    let w = &m.workers[T1];
    w.task == Job::Pop && w.next_step == Next::Cas
}

pub fn lesson() -> Lesson<Aba> {
    Lesson {
        goal: "After this you can explain why a CAS that compares only a pointer succeeds on a node that was popped and pushed back, and how a version tag or hazard pointers stop it.",
        stops: vec![
            Stop {
                title: "A lock-free stack",
                text: "A pop reads head, reads that node's next, then CASes head from the node it read to that next. The CAS succeeds only if head still holds the same node.",
                state: classic(0),
                focus: "head",
                task: Some(Task {
                    ask: "Start a pop on T1 and step it until its CAS comes next.",
                    done: t1_about_to_cas,
                    witness: || vec![AbaAction::Pop(T1), AbaAction::Step(T1)],
                }),
                question: None,
            },
            Stop {
                title: "T1 stalls before its CAS",
                text: "T1 read head = A and A.next = B, and waits to CAS head from A to B. Meanwhile T2 runs.",
                state: classic(2),
                focus: "thread-0",
                task: None,
                question: Some(Question {
                    ask: "T2 pops A, start to finish. Where does A go?",
                    kind: Ask::Choice {
                        options: FATES,
                        right: |m| {
                            vec![match after_all(m, &T2_POPS).0.nodes[usize::from(A)].home {
                                Home::Free => 0,
                                Home::Retired => 1,
                                _ => 2,
                            }]
                        },
                    },
                    explain: |m| narration_and_why(m, &T2_POPS),
                    contrast: |c| c.deferred = true,
                }),
            },
            Stop {
                title: "Break it: push A back",
                text: "T2 has popped A and then B, so both are on the free list and head is C. A free node can be pushed again, at the same address.",
                state: classic(8),
                focus: "node-0",
                task: Some(Task {
                    ask: "Push A back with T2 (Break it offers the move), then step T2 until its push lands.",
                    done: |m| m.head == Some(A) && t1_about_to_cas(m),
                    witness: || vec![AbaAction::Push(T2, A), AbaAction::Step(T2)],
                }),
                question: None,
            },
            Stop {
                title: "The stale CAS",
                text: "A is on top again, now with next = C. T1 still holds the B it read before all this.",
                state: classic(10),
                focus: "thread-0",
                task: None,
                question: Some(Question {
                    ask: "T1 runs its CAS(head, A, B) now. Where does head point afterwards?",
                    kind: Ask::Choice {
                        options: POINTERS,
                        right: |m| vec![pointer(after_all(m, &[AbaAction::Step(T1)]).0.head)],
                    },
                    explain: |m| narration_and_why(m, &[AbaAction::Step(T1)]),
                    contrast: |c| c.tagged = true,
                }),
            },
            Stop {
                title: "A freed node on top",
                text: "The stale CAS compared only the pointer, so it succeeded, and head now points to a node that was already freed.",
                state: classic(CLASSIC.len()),
                focus: "head",
                task: None,
                question: Some(Question {
                    ask: "T2 pops once more. Which node does its pop return?",
                    kind: Ask::Choice {
                        options: POINTERS,
                        right: |m| vec![pointer(after_all(m, &T2_POPS).0.workers[T2].seen)],
                    },
                    explain: |m| narration_and_why(m, &T2_POPS),
                    contrast: |c| c.tagged = true,
                }),
            },
        ],
        next: &["/memory/rcu", "/memory/mpmc"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The right answers at each stop with a question, under `config`.
    fn answers(config: AbaConfig) -> Vec<Vec<String>> {
        crate::lesson::answers(&lesson(), |_, s| s.config = config.clone())
    }

    #[test]
    fn the_answers_are_the_textbooks() {
        // Raw CAS: a popped node is free at once; the stale CAS installs
        // freed B; the next pop hands B out a second time.
        assert_eq!(
            answers(AbaConfig::default()),
            [
                vec!["onto the free list, ready for reuse"],
                vec!["B"],
                vec!["B"]
            ]
        );
        // A tag makes the stale CAS fail: head stays A, and A is popped.
        let tagged = answers(AbaConfig {
            tagged: true,
            deferred: false,
        });
        assert_eq!(tagged[1], ["A"]);
        assert_eq!(tagged[2], ["A"]);
        // Hazard pointers: T1 holds A, so T2's pop only retires it.
        let hazard = answers(AbaConfig {
            tagged: false,
            deferred: true,
        });
        assert_eq!(hazard[0], ["onto the retired list, not yet reusable"]);
    }
}
