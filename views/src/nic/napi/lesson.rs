//! NAPI's lesson: one interrupt per burst, polls under a budget, the line
//! re-armed only when a poll finishes early, and a driver that forgets to.
//! Every answer is read off the model after the steps the question asks
//! about.

use crate::lesson::{after, at, at_config, auto_until, Ask, Lesson, Question, Stop, Task};
use demos::nic::napi::{Line, Napi, NapiAction, NapiConfig};

/// More steps than any of these stops can take before NAPI has nothing
/// left to run.
const STEPS: usize = 64;

/// The choices for "what starts the next poll".
const STARTERS: &[&str] = &[
    "a hard IRQ from the next packet",
    "the gro_flush_timeout timer",
    "nothing: the poll stays scheduled",
];

/// The interrupt deferral of stops 4 and 5: two empty polls, a 200 µs timer.
fn deferring() -> NapiConfig {
    NapiConfig {
        defer_hard_irqs: 2,
        gro_flush_timeout_us: 200,
        ..NapiConfig::default()
    }
}

fn broken() -> NapiConfig {
    NapiConfig {
        never_unmasks: true,
        ..NapiConfig::default()
    }
}

fn armed(m: &Napi) -> bool {
    m.line == Line::Armed
}

/// `m` stepped until the line is armed again.
fn rearmed(m: &Napi) -> (Napi, String) {
    let mut next = m.clone();
    let said = auto_until(&mut next, STEPS, armed).join(" ");
    (next, said)
}

/// `m` after a burst of `n`, stepped until nothing is left to run: how many
/// of those packets a poll processed, and the burst's narration.
fn ever_processed(m: &Napi, n: usize) -> (u64, String) {
    let (mut next, said) = after(m, NapiAction::Burst(n));
    auto_until(&mut next, STEPS, |_| false);
    (next.processed - m.processed, said)
}

pub fn lesson() -> Lesson<Napi> {
    Lesson {
        goal: "After this you can explain why a burst of packets costs NAPI one interrupt, when the driver may turn the interrupt back on, and what a driver that never does leaves behind.",
        stops: vec![
            Stop {
                title: "Armed and waiting",
                text: "The RX ring is empty and the interrupt line is armed: the next packet the NIC writes into the ring will interrupt the CPU.",
                state: at(&[]),
                focus: "irq-line",
                task: Some(Task {
                    ask: "Send a burst of packets and watch the line.",
                    done: |m| m.hard_irqs > 0,
                    witness: || vec![NapiAction::Burst(6)],
                }),
                question: None,
            },
            Stop {
                title: "One interrupt, then polls",
                text: "The first packet raised a hard IRQ, and its handler masked the line and scheduled a poll. A poll takes at most its budget, and only a poll that finishes under budget may turn the interrupt back on.",
                state: at(&[NapiAction::Burst(8)]),
                focus: "poll",
                task: None,
                question: Some(Question {
                    ask: "Step until the line is ARMED again. How many polls run?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| f64::from(rearmed(m).0.polls - m.polls),
                    },
                    explain: |m| rearmed(m).1,
                    contrast: |c| c.budget = 8,
                }),
            },
            Stop {
                title: "Masked means silent",
                text: "That poll used its whole budget, so it did not complete: NAPI will poll again, and the line stays masked meanwhile.",
                state: at(&[NapiAction::Burst(8), NapiAction::Poll],
                ),
                focus: "irq-line",
                task: None,
                question: Some(Question {
                    ask: "Another burst of 6 packets arrives now. How many hard IRQs does it raise?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| {
                            f64::from(after(m, NapiAction::Burst(6)).0.hard_irqs - m.hard_irqs)
                        },
                    },
                    explain: |m| after(m, NapiAction::Burst(6)).1,
                    contrast: |c| c.budget = 16,
                }),
            },
            Stop {
                title: "Deferring the interrupt",
                text: "This device sets napi_defer_hard_irqs and gro_flush_timeout. A poll that finishes under budget may then leave the line masked and let a timer schedule the next poll.",
                state: at_config(deferring(), &[NapiAction::Burst(3)]),
                focus: "timer",
                task: None,
                question: Some(Question {
                    ask: "The next poll empties the ring with budget to spare. What starts the poll after it?",
                    kind: Ask::Choice {
                        options: STARTERS,
                        right: |m| {
                            let (next, _) = after(m, NapiAction::Poll);
                            vec![if armed(&next) {
                                0
                            } else if next.timer_armed {
                                1
                            } else {
                                2
                            }]
                        },
                    },
                    explain: |m| after(m, NapiAction::Poll).1,
                    contrast: |c| c.defer_hard_irqs = 0,
                }),
            },
            Stop {
                title: "Empty polls count down",
                text: "Each deferred completion spends one of the napi_defer_hard_irqs count, and a poll that found packets fills it up again. The timer keeps polling an empty ring until the count runs out.",
                state: at_config(deferring(), &[NapiAction::Burst(3), NapiAction::Poll]),
                focus: "timer",
                task: None,
                question: Some(Question {
                    ask: "Step until the line is ARMED again. How many polls does the timer start?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| f64::from(rearmed(m).0.timer_polls - m.timer_polls),
                    },
                    explain: |m| rearmed(m).1,
                    contrast: |c| c.defer_hard_irqs = 1,
                }),
            },
            Stop {
                title: "Break it: never unmasked",
                text: "This driver forgets to unmask the interrupt after napi_complete_done(). Its last poll released NAPI, but the line is still masked, so no packet can schedule another poll.",
                state: at_config(
                    broken(),
                    &[NapiAction::Burst(6), NapiAction::Poll, NapiAction::Poll],
                ),
                focus: "irq-line",
                task: Some(Task {
                    ask: "Send bursts until the ring is full and the NIC drops packets.",
                    done: |m| m.stuck() && m.dropped > 0,
                    witness: || vec![NapiAction::Burst(20)],
                }),
                question: Some(Question {
                    ask: "A burst of 6 packets arrives. How many of them will a poll ever process?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| ever_processed(m, 6).0 as f64,
                    },
                    explain: |m| ever_processed(m, 6).1,
                    contrast: |c| c.never_unmasks = false,
                }),
            },
        ],
        next: &["/nic/coalescing", "/nic/busy-poll"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The right answers at each question, as the reveal shows them.
    fn answers(change: fn(&mut NapiConfig)) -> Vec<Vec<String>> {
        crate::lesson::answers(&lesson(), |_, s| change(s))
    }

    #[test]
    fn the_answers_are_napis() {
        // Budget 4, 8 packets: 4, then 4 (a full budget does not complete),
        // then an empty poll that re-arms. A masked line raises nothing.
        // napi_defer_hard_irqs 2 with a timeout: the timer, twice.
        // A driver that never unmasks strands every later packet.
        assert_eq!(
            answers(|_| {}),
            [
                vec!["3"],
                vec!["0"],
                vec!["the gro_flush_timeout timer"],
                vec!["2"],
                vec!["0"]
            ]
        );
        let contrasts = [
            |c: &mut NapiConfig| c.budget = 8,
            |c: &mut NapiConfig| c.budget = 16,
            |c: &mut NapiConfig| c.defer_hard_irqs = 0,
            |c: &mut NapiConfig| c.defer_hard_irqs = 1,
            |c: &mut NapiConfig| c.never_unmasks = false,
        ];
        let moved: Vec<String> = contrasts
            .iter()
            .enumerate()
            .map(|(i, change)| answers(*change)[i][0].clone())
            .collect();
        // Budget 8: 8 fills it, then an empty poll; budget 16: the first poll
        // re-arms, so the burst interrupts; no deferral: the IRQ; one deferral:
        // one timer poll; a driver that unmasks processes all six.
        assert_eq!(
            moved,
            ["2", "1", "a hard IRQ from the next packet", "1", "6"]
        );
    }
}
