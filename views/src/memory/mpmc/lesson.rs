//! MPMC's lesson: Vyukov's bounded queue, from one enqueue's steps through
//! a stolen position, a full ring and a slot handed to the next lap, to a
//! consumer reading a slot nobody wrote once the sequence numbers are gone.
//! Every answer is read off the model after the steps the question asks
//! about.

use crate::lesson::{after_all, at, narration_and_why, Ask, Lesson, Question, Stop, Task};
use demos::memory::mpmc::{Mpmc, MpmcAction, MpmcConfig};
use demos::{Model, Scenario};

const P1: usize = 0;
const P2: usize = 1;
const C1: usize = 2;
/// Micro-steps of one enqueue with sequence numbers: load the position,
/// read the sequence, CAS, write, publish.
const ENQUEUE: usize = 5;

fn step(a: usize) -> MpmcAction {
    MpmcAction::Step(a)
}

/// P1's steps until it has either reserved a slot or been told the queue is
/// full.
fn p1_tries(m: &Mpmc) -> Vec<MpmcAction> {
    until(m, P1, |before, now| {
        now.full_returns > before.full_returns || now.enqueue_pos > before.enqueue_pos
    })
}

/// C1's steps until it has either finished a dequeue or been told the queue
/// is empty.
fn c1_tries(m: &Mpmc) -> Vec<MpmcAction> {
    until(m, C1, |before, now| {
        now.empty_returns > before.empty_returns || now.agents[C1].done > before.agents[C1].done
    })
}

/// Agent `a`'s steps from `m` until `over` holds (at most a few).
fn until(m: &Mpmc, a: usize, over: fn(&Mpmc, &Mpmc) -> bool) -> Vec<MpmcAction> {
    let mut next = m.clone();
    let mut steps = Vec::new();
    while steps.len() < 2 * ENQUEUE && !over(m, &next) && next.apply(&step(a)).is_ok() {
        steps.push(step(a));
    }
    steps
}

/// P1 enqueues, then P2, then each again: four published items.
fn four_items() -> Vec<MpmcAction> {
    [P1, P2, P1, P2]
        .into_iter()
        .flat_map(|a| [step(a); ENQUEUE])
        .collect()
}

pub fn lesson() -> Lesson<Mpmc> {
    let c1_read: Vec<MpmcAction> = four_items().into_iter().chain([step(C1); 4]).collect();
    Lesson {
        goal: "After this you can explain why producers sharing a ring must each win a CAS to reserve a slot, and why a slot's sequence number, not the indices, tells a consumer its data is there.",
        stops: vec![
            Stop {
                title: "Reserve, write, publish",
                text: "An enqueue loads enqueue_pos, reads that slot's sequence number, and CASes enqueue_pos one forward to reserve the slot. Only then does it write the data, and a last store of the sequence number publishes it.",
                state: at(&[]),
                focus: "agent-0",
                task: Some(Task {
                    ask: "Step P1 through one whole enqueue, until its slot holds a published item.",
                    done: |m| !m.enqueued.is_empty(),
                    witness: || vec![step(P1); ENQUEUE],
                }),
                question: None,
            },
            Stop {
                title: "Two producers, one position",
                text: "P1 has loaded enqueue_pos and found the slot free for this lap, but only its CAS reserves it. If another producer moves enqueue_pos first, the CAS fails and P1 retries from the position it found.",
                state: at(&[step(P1), step(P1)]),
                focus: "agent-0",
                task: Some(Task {
                    ask: "Press \"P2 steals the head\", then run P1's CAS.",
                    done: |m| m.agents[P1].retries > 0,
                    witness: || vec![MpmcAction::Steal, step(P1)],
                }),
                question: None,
            },
            Stop {
                title: "A full ring",
                text: "The producers have published an item in every slot, and no consumer has run yet. Each slot's sequence number is its position plus one: published, not yet consumed.",
                state: at(&four_items()),
                focus: "slot-0",
                task: None,
                question: Some(Question {
                    ask: "P1 starts its next enqueue. What does it find?",
                    kind: Ask::Choice {
                        options: &[
                            "a free slot, which it goes on to reserve",
                            "the queue full, so it returns false",
                        ],
                        right: |m| {
                            let next = after_all(m, &p1_tries(m)).0;
                            vec![usize::from(next.full_returns > m.full_returns)]
                        },
                    },
                    explain: |m| narration_and_why(m, &p1_tries(m)),
                    contrast: |c| c.capacity = 8,
                }),
            },
            Stop {
                title: "The next lap",
                text: "C1 has claimed the oldest position and read its item. Its last step hands the slot back: it stores a sequence number that names the position allowed to use the slot next.",
                state: at(&c1_read),
                focus: "slot-0",
                task: None,
                question: Some(Question {
                    ask: "C1 releases slot 0. Which sequence number does it store there?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| f64::from(after_all(m, &[step(C1)]).0.cells[0].seq),
                    },
                    explain: |m| narration_and_why(m, &[step(C1)]),
                    contrast: |c| c.capacity = 8,
                }),
            },
            Stop {
                title: "Break it: no sequence numbers",
                text: "Break it drops the sequence numbers, so only the two indices guard the ring. P1 has won its CAS for slot 0 but has not written its item yet.",
                state: Scenario {
                    config: MpmcConfig {
                        sequenced: false,
                        ..MpmcConfig::default()
                    },
                    actions: vec![step(P1); 3],
                },
                focus: "slot-0",
                task: Some(Task {
                    ask: "Step C1 through a dequeue before P1 writes, and find the fault in the list under the picture.",
                    done: |m| !m.torn.is_empty(),
                    witness: || vec![step(C1); 4],
                }),
                question: Some(Question {
                    ask: "C1 tries to dequeue now. What happens?",
                    kind: Ask::Choice {
                        options: &[
                            "it finds the queue empty and returns false",
                            "it claims position 0 and reads a slot nobody has written",
                        ],
                        right: |m| {
                            let next = after_all(m, &c1_tries(m)).0;
                            vec![usize::from(next.torn.len() > m.torn.len())]
                        },
                    },
                    explain: |m| narration_and_why(m, &c1_tries(m)),
                    contrast: |c| c.sequenced = true,
                }),
            },
        ],
        next: &["/memory/spsc", "/memory/false-sharing"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The right answers at each stop with a question, under `change`.
    fn answers(change: fn(&mut MpmcConfig)) -> Vec<Vec<String>> {
        crate::lesson::answers(&lesson(), |_, s| change(s))
    }

    #[test]
    fn the_answers_are_the_textbooks() {
        // Four slots, four items: slot 0's sequence 1 is below position 4,
        // so full; C1 hands slot 0 to position 0 + 4; without sequence
        // numbers C1 reads the reserved, unwritten slot.
        assert_eq!(
            answers(|_| {}),
            [
                vec!["the queue full, so it returns false"],
                vec!["4"],
                vec!["it claims position 0 and reads a slot nobody has written"]
            ]
        );
        // Eight slots: room for a fifth item, and slot 0 goes to position 8.
        let eight = answers(|c| c.capacity = 8);
        assert_eq!(eight[0], ["a free slot, which it goes on to reserve"]);
        assert_eq!(eight[1], ["8"]);
        // With sequence numbers C1 sees slot 0 unpublished: empty.
        assert_eq!(
            answers(|c| c.sequenced = true)[2],
            ["it finds the queue empty and returns false"]
        );
    }
}
