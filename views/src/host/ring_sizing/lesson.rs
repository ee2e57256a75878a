//! Ring sizing's lesson: what a ring absorbs, a stall it cannot, the
//! smallest ring that drops nothing, leaky DMA, and whether one ring can do
//! both. Every answer is read off the model at the stop or after the change
//! the stop asks for.

use super::{BREAK_QUEUES, BREAK_STALL_US};
use crate::lesson::{after, at, at_config, Ask, Lesson, Question, Stop, Task};
use demos::host::ring_sizing::sizing::Smallest;
use demos::host::ring_sizing::{RingSizing, RingSizingAction, RingSizingConfig};

/// The stall of the second and third stops: longer than the default ring
/// absorbs.
const LONG_STALL_US: u32 = 200;

fn long_stall() -> RingSizingConfig {
    RingSizingConfig {
        stall_us: LONG_STALL_US,
        ..RingSizingConfig::default()
    }
}

fn longest_stall() -> RingSizingConfig {
    RingSizingConfig {
        stall_us: BREAK_STALL_US,
        ..RingSizingConfig::default()
    }
}

fn finished(m: &RingSizing) -> RingSizing {
    after(m, RingSizingAction::Finish).0
}

fn many_queues(m: &RingSizing) -> RingSizing {
    after(m, RingSizingAction::SetQueues(BREAK_QUEUES)).0
}

pub fn lesson() -> Lesson<RingSizing> {
    Lesson {
        goal: "After this you can size a receive ring: deep enough to absorb the core's stalls at line rate, shallow enough that its buffers stay in the cache ways DDIO writes into.",
        stops: vec![
            Stop {
                title: "What a ring absorbs",
                text: "Each full-size frame takes more than its 1,500 bytes of line time: header, FCS, preamble and the gap count too (the table lists them). While the core stalls, the ring must hold every frame that arrives.",
                state: at(&[]),
                focus: "wire",
                task: None,
                question: Some(Question {
                    ask: "How long a stall, in µs, can this 1,024-entry ring absorb? (The driver keeps one entry empty.)",
                    kind: Ask::Number {
                        unit: "µs",
                        decimals: 1,
                        tolerance: 1.0,
                        answer: |m| m.absorbs_ps() as f64 / 1e6,
                    },
                    explain: |m| format!("{} {}", m.why_wire(), m.why_absorbs()),
                    contrast: |c| c.entries = 2_048,
                }),
            },
            Stop {
                title: "A longer stall",
                text: "Now the core stops for 200 µs, longer than the ring absorbs. Frames that find the ring full are dropped.",
                state: at_config(long_stall(), &[]),
                focus: "timeline",
                task: Some(Task {
                    ask: "Press Run to the end, or Step until the run is over.",
                    done: |m| m.finished(),
                    witness: || vec![RingSizingAction::Finish],
                }),
                question: Some(Question {
                    ask: "How many frames will the ring drop?",
                    kind: Ask::Number {
                        unit: "frames",
                        decimals: 0,
                        tolerance: 2.0,
                        answer: |m| finished(m).run.dropped as f64,
                    },
                    explain: |m| m.why_stall(),
                    contrast: |c| c.stall_us = 300,
                }),
            },
            Stop {
                title: "The smallest ring",
                text: "A ring that drops nothing must hold every frame of the stall, plus the entry the driver keeps empty. ethtool then rounds the size up to a multiple of 32.",
                state: at_config(long_stall(), &[]),
                focus: "answers",
                task: None,
                question: Some(Question {
                    ask: "What is the smallest ring, in entries, that drops nothing in this 200 µs stall?",
                    kind: Ask::Number {
                        unit: "entries",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| match m.smallest() {
                            Smallest::Ring(n) => f64::from(n),
                            _ => 0.0,
                        },
                    },
                    explain: |m| m.why_stall(),
                    contrast: |c| c.stall_us = 100,
                }),
            },
            Stop {
                title: "Break it: leaky DMA",
                text: "DDIO writes received frames into only 2 of the LLC's 11 ways. Each queue has its own ring, and the NIC uses every ring's buffers in turn: all of them must fit those ways.",
                state: at(&[]),
                focus: "cache",
                task: Some(Task {
                    ask: "In Break it, press 16 queues.",
                    done: |m| m.config.queues >= BREAK_QUEUES,
                    witness: || vec![RingSizingAction::SetQueues(BREAK_QUEUES)],
                }),
                question: Some(Question {
                    ask: "With 16 rings of 1,024 entries, what share of their footprint cannot stay in the DDIO ways, in %?",
                    kind: Ask::Number {
                        unit: "%",
                        decimals: 1,
                        tolerance: 1.0,
                        answer: |m| many_queues(m).overflow_tenths() as f64 / 10.0,
                    },
                    explain: |m| many_queues(m).why_cache(),
                    contrast: |c| c.ddio_ways = 4,
                }),
            },
            Stop {
                title: "Both at once",
                text: "A 500 µs stall needs a deep ring; the DDIO ways want a shallow one. The table compares the two ends.",
                state: at_config(longest_stall(), &[]),
                focus: "answers",
                task: None,
                question: Some(Question {
                    ask: "Is there a ring size that drops nothing in this stall and still fits the DDIO ways?",
                    kind: Ask::Choice {
                        options: &["Yes", "No"],
                        right: |m| vec![usize::from(m.both().is_none())],
                    },
                    explain: |m| format!("{} {}", m.why_stall(), m.why_answer()),
                    contrast: |c| c.ddio_ways = 4,
                }),
            },
        ],
        next: &["/nic/descriptor-ring", "/host/pcie"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answers_are_the_rings() {
        // 1,023 × 123.04 ns = 125.9 µs; a 200 µs stall brings 1,626
        // frames, 603 more than 1,023; they need 1,627 entries, 1,632 as
        // the driver rounds; 16 × 1,024 × 1,568 B = 24.5 MiB against
        // 4.5 MiB: 81.6 % beyond; a 500 µs stall needs 4,096 entries, and
        // only 3,008 fit.
        assert_eq!(
            crate::lesson::answer_texts(&lesson(), |_| {}),
            ["125.9 µs", "603 frames", "1632 entries", "81.6 %", "No"]
        );
    }
}
