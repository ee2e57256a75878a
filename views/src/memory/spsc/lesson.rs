//! The SPSC ring's lesson: one writer per index, the slot store that the
//! release store of tail must not overtake, the acquire load that meets it,
//! head handing a slot back only after it was read, cached indices, and the
//! relaxed tail that lets the consumer read a stale slot. Every answer is
//! read off the model after the steps the question describes.

use crate::lesson::{after_all, at, narration, Ask, Lesson, Question, Stop, Task};
use demos::memory::spsc::{Fault, Spsc, SpscAction, SpscConfig, PRODUCER};
use demos::memory::store_buffer::Drain;
use demos::Model;

use SpscAction::{Consumer, DrainProducer, Producer};

/// The choices for "can the tail store reach memory first".
const FIRST: &[&str] = &[
    "yes: tail may reach memory before the slot",
    "no: tail waits until the slot store has left",
];

/// Longer than any run a question plays (capacity ≤ 16, three steps an item).
const MOST_STEPS: usize = 200;

/// The producer's steps from `m` until its check for space says full.
fn fill(m: &Spsc) -> Vec<SpscAction> {
    let mut next = m.clone();
    let mut steps = Vec::new();
    while steps.len() < MOST_STEPS && next.apply(&Producer).is_ok() {
        steps.push(Producer);
    }
    steps
}

/// The first check for space and the one that finds the ring full.
fn fill_told(m: &Spsc) -> String {
    let steps = fill(m);
    let first = narration(m, &[Producer]);
    let last = narration(&after_all(m, &steps).0, &[Producer]);
    [first, last].join(" ")
}

/// What Step does from `m` until the consumer has read one more slot.
fn until_a_slot_is_read(m: &Spsc) -> Vec<SpscAction> {
    let mut next = m.clone();
    let mut steps = Vec::new();
    let start = next.dequeued;
    while next.dequeued == start && steps.len() < MOST_STEPS {
        let Ok(a) = next.next_auto() else { break };
        if next.apply(&a).is_err() {
            break;
        }
        steps.push(a);
    }
    steps
}

/// One item through: check space, write the slot, publish tail, then both
/// stores drain, oldest first.
const ONE_ITEM: [SpscAction; 5] = [
    Producer,
    Producer,
    Producer,
    DrainProducer(0),
    DrainProducer(0),
];

fn bigger(config: &mut SpscConfig) {
    config.capacity = 8;
}

fn relaxed_tail(config: &mut SpscConfig) {
    config.fault = Fault::RelaxedTail;
}

fn early_head(config: &mut SpscConfig) {
    config.fault = Fault::EarlyHead;
}

fn cached(config: &mut SpscConfig) {
    config.cached = true;
}

pub fn lesson() -> Lesson<Spsc> {
    let full: Vec<SpscAction> = (0..SpscConfig::default().capacity)
        .flat_map(|_| ONE_ITEM)
        .chain([Consumer])
        .collect();
    Lesson {
        goal: "After this you can explain why a single-producer single-consumer ring needs no lock and no CAS, and why it still needs a release store and an acquire load on each index.",
        stops: vec![
            Stop {
                title: "One writer per index",
                text: "Only the producer writes tail and only the consumer writes head, so no index ever has two writers and no CAS is needed. Both count items forever: the ring is empty when they are equal and full when they differ by its capacity.",
                state: at(&[]),
                focus: "ring",
                task: None,
                question: Some(Question {
                    ask: "The producer enqueues and the consumer takes nothing. How many items does the producer publish before its check for space says full?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| f64::from(after_all(m, &fill(m)).0.tail),
                    },
                    explain: |m| {
                        let end = after_all(m, &fill(m)).0;
                        let full = narration(&end, &[Producer]);
                        let why = end.why().into_iter().next().unwrap_or_default();
                        [full, why].join(" ")
                    },
                    contrast: |setup| bigger(setup),
                }),
            },
            Stop {
                title: "Slot first, then tail",
                text: "The producer has stored the item to its slot, and the store waits in its core's store buffer. This core drains stores as Arm may: stores to different locations can reach memory in either order.",
                state: at(&[Producer, Producer]),
                focus: "buffer-producer",
                task: None,
                question: Some(Question {
                    ask: "The producer now publishes tail. Can the tail store reach memory before the slot store?",
                    kind: Ask::Choice {
                        options: FIRST,
                        right: |m| {
                            let next = after_all(m, &[Producer]).0;
                            let tail = next.buffers[PRODUCER].entries.len().saturating_sub(1);
                            vec![usize::from(
                                !next.buffers[PRODUCER].can_drain(tail, Drain::Weak),
                            )]
                        },
                    },
                    explain: |m| {
                        let next = after_all(m, &[Producer]).0;
                        let tail = next.buffers[PRODUCER].entries.len().saturating_sub(1);
                        narration(m, &[Producer, DrainProducer(tail as u8)])
                    },
                    contrast: |setup| relaxed_tail(setup),
                }),
            },
            Stop {
                title: "Acquire meets release",
                text: "Both stores have reached memory, the slot's first. The consumer loads tail with acquire: once it sees the new tail, its later read of the slot must see the item the release store published.",
                state: at(&ONE_ITEM),
                focus: "tail",
                task: Some(Task {
                    ask: "Take the item: the consumer reads tail, reads the slot, then publishes head.",
                    done: |m| m.dequeued > 0 && m.head > 0 && m.damage.is_empty(),
                    witness: || vec![Consumer, Consumer, Consumer],
                }),
                question: None,
            },
            Stop {
                title: "Head hands the slot back",
                text: "The ring is full, and the consumer has just seen that an item waits. The producer may refill a slot only once head has moved past it, so the consumer publishes head only after it has read the slot.",
                state: at(&full),
                focus: "head",
                task: None,
                question: Some(Question {
                    ask: "Step plays on until the consumer has read the slot. Which value does it read?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| {
                            let next = after_all(m, &until_a_slot_is_read(m)).0;
                            f64::from(next.received.last().copied().unwrap_or(0))
                        },
                    },
                    explain: |m| narration(m, &until_a_slot_is_read(m)),
                    contrast: |setup| early_head(setup),
                }),
            },
            Stop {
                title: "Fewer trips for the index lines",
                text: "Once one core has written an index, the other core's read of it pulls the index's cache line across. A side that keeps a copy of the other's index reads it again only when the copy says full or empty.",
                state: at(&[]),
                focus: "producer",
                task: None,
                question: Some(Question {
                    ask: "The producer enqueues into the empty ring until it is full. How many of those enqueues read head?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| f64::from(after_all(m, &fill(m)).0.index_reads),
                    },
                    explain: fill_told,
                    contrast: |setup| cached(setup),
                }),
            },
            Stop {
                title: "Break it: a relaxed tail",
                text: "Publish tail with a relaxed store and nothing keeps it behind the slot store. If tail reaches memory first, the consumer sees an item that is not there yet.",
                state: at(&[]),
                focus: "buffer-producer",
                task: Some(Task {
                    ask: "In Break it, publish tail with a relaxed store. Enqueue one item, drain the tail store before the slot store, and let the consumer read.",
                    done: |m| m.damage.last().is_some_and(|d| d.stale()),
                    witness: || {
                        vec![
                            SpscAction::SetFault(Fault::RelaxedTail),
                            Producer,
                            Producer,
                            Producer,
                            DrainProducer(1),
                            Consumer,
                            Consumer,
                        ]
                    },
                }),
                question: None,
            },
        ],
        next: &["/memory/rcu"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The right answers at each stop, as the reveal shows them.
    fn answers(config: SpscConfig) -> Vec<Vec<String>> {
        crate::lesson::answers(&lesson(), |_, s| s.config = config.clone())
    }

    #[test]
    fn the_answers_are_the_textbooks() {
        // Four slots, all usable; a release tail waits for the slot; the
        // consumer reads item 0 (value 1); every uncached enqueue reads head.
        assert_eq!(
            answers(SpscConfig::default()),
            [vec!["4"], vec![FIRST[1]], vec!["1"], vec!["4"]]
        );
        assert_eq!(
            answers(SpscConfig {
                capacity: 8,
                ..SpscConfig::default()
            })[0],
            ["8"]
        );
        // A relaxed tail may leave first.
        assert_eq!(
            answers(SpscConfig {
                fault: Fault::RelaxedTail,
                ..SpscConfig::default()
            })[1],
            [FIRST[0]]
        );
        // Head published early: the producer refills slot 0 with item 4
        // (value 5) before the consumer reads it.
        assert_eq!(
            answers(SpscConfig {
                fault: Fault::EarlyHead,
                ..SpscConfig::default()
            })[2],
            ["5"]
        );
        // Cached: the copy of head (0) shows room for every enqueue.
        assert_eq!(
            answers(SpscConfig {
                cached: true,
                ..SpscConfig::default()
            })[3],
            ["0"]
        );
    }
}
