//! The retry-storm lesson: a server that keeps up, a trigger it recovers
//! from, a longer one it does not, the two stable states, and a retry
//! budget that brings it back. Every answer is read off the model at the
//! stop or after the actions the question names.

use crate::lesson::{after, after_all, at, Ask, Lesson, Question, Stop, Task};
use demos::fabric::metastable::config::TIPPING_LENGTH;
use demos::fabric::metastable::{Metastable, MetastableAction as A};
use demos::Model;

/// The tick the last stop turns the budget on at: long after the trigger.
const FIX_AT: u32 = 100;

/// The sentence of the model's "why" that contains `part`.
fn why(m: &Metastable, part: &str) -> String {
    m.why()
        .into_iter()
        .find(|s| s.contains(part))
        .unwrap_or_default()
}

/// The tick a run recovered at, or the end of the run if it never did.
fn recovery(m: &Metastable) -> f64 {
    f64::from(m.recovered_at().unwrap_or(m.tick()))
}

pub fn lesson() -> Lesson<Metastable> {
    Lesson {
        goal: "After this you can explain how a short trigger leaves a server overloaded for good, read the two stable states off a goodput curve, and say which fixes break the loop.",
        stops: vec![
            Stop {
                title: "A server that keeps up",
                text: "Clients send 8 new requests a tick; the server completes up to 10. A client gives up on a request after 5 ticks and sends it again, up to twice. Nothing waits: the queue is empty after every tick.",
                state: at(&[A::Run(19)]),
                focus: "queue",
                task: None,
                question: Some(Question {
                    ask: "Step once. How many requests does the server complete in time this tick?",
                    kind: Ask::Number {
                        unit: "requests",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| after(m, A::Tick).0.last().map_or(0.0, |r| f64::from(r.good)),
                    },
                    explain: |m| after(m, A::Tick).1,
                    contrast: |c| c.rate = 6,
                }),
            },
            Stop {
                title: "The trigger",
                text: "At tick 20 the server slows to 5 requests a tick for 10 ticks. 8 still arrive every tick, so the queue grows by 3 a tick, and every request waits longer.",
                state: at(&[A::Run(20)]),
                focus: "trigger",
                task: None,
                question: Some(Question {
                    ask: "Run 10 ticks, to the end of the slowdown. How many requests are queued then?",
                    kind: Ask::Number {
                        unit: "requests",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| after(m, A::Run(10)).0.queued().0 as f64,
                    },
                    explain: |m| after(m, A::Run(10)).1,
                    contrast: |c| c.trigger.slow_capacity = 2,
                }),
            },
            Stop {
                title: "It recovers",
                text: "When the slowdown ends the server completes 10 a tick again, 2 more than arrive. If the queue is short enough that no request waits past its timeout, it simply drains.",
                state: at(&[A::Run(30)]),
                focus: "goodput-chart",
                task: None,
                question: Some(Question {
                    ask: "Run to the end. From which tick on is the queue empty after every tick?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| {
                            let end = after(m, A::ToEnd).0;
                            f64::from(end.drained_at().unwrap_or(end.tick()))
                        },
                    },
                    explain: |m| after(m, A::ToEnd).1,
                    contrast: |c| c.trigger.length = 5,
                }),
            },
            Stop {
                title: "Break it: a longer trigger",
                text: "Now the slowdown lasts 15 ticks. The queue grows past what the server can clear within a timeout, so requests die in the queue, their clients retry, and the retries join the same queue.",
                state: at(&[A::SetTriggerLength(TIPPING_LENGTH)]),
                focus: "goodput-chart",
                task: Some(Task {
                    ask: "Run to the end.",
                    done: |m| m.over(),
                    witness: || vec![A::ToEnd],
                }),
                question: Some(Question {
                    ask: "How many requests a tick does the server complete in time over the last 50 ticks, long after the trigger?",
                    kind: Ask::Number {
                        unit: "a tick",
                        decimals: 1,
                        tolerance: 0.05,
                        answer: |m| after(m, A::ToEnd).0.recent_goodput(),
                    },
                    explain: |m| {
                        let (end, said) = after(m, A::ToEnd);
                        format!("{said} {}", why(&end, "sustaining effect"))
                    },
                    contrast: |c| c.retries = 0,
                }),
            },
            Stop {
                title: "Two stable states",
                text: "The lower chart runs the model again at every load: once from an empty queue, once through this trigger. Where the two curves part, the same load has two stable states: serving everything, or serving nothing.",
                state: at(&[A::SetTriggerLength(TIPPING_LENGTH)]),
                focus: "sweep",
                task: None,
                question: Some(Question {
                    ask: "What is the lowest number of new requests a tick at which the two runs settle apart?",
                    kind: Ask::Number {
                        unit: "a tick",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| m.sweep().bistable().first().map_or(-1.0, |r| f64::from(*r)),
                    },
                    explain: |m| why(m, "model's own runs"),
                    contrast: |c| c.timeout = 6,
                }),
            },
            Stop {
                title: "Fix it: a retry budget",
                text: "The server is stuck at tick 100, long after the trigger. A retry budget (gRPC's retry throttling) lets clients retry only while more than half of its 10 tokens are left; every failure costs a token.",
                state: at(&[A::SetTriggerLength(TIPPING_LENGTH), A::Run(FIX_AT)]),
                focus: "fixes",
                task: Some(Task {
                    ask: "Under Fixes, turn on the retry budget.",
                    done: |m| m.config.fixes.budget,
                    witness: || vec![A::SetBudget(true)],
                }),
                question: Some(Question {
                    ask: "With the budget on from tick 100, run to the end. From which tick on has it recovered?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| recovery(&after_all(m, &[A::SetBudget(true), A::ToEnd]).0),
                    },
                    explain: |m| after_all(m, &[A::SetBudget(true), A::ToEnd]).1,
                    contrast: |c| c.capacity = 12,
                }),
            },
        ],
        next: &["/fabric/maglev"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answers_are_the_models() {
        let got = crate::lesson::answer_texts(&lesson(), |_| {});
        // 8 served of 8; 20 + 10 × (8 − 5) = 30 queued; 30 drain at 2 a tick,
        // empty after tick 44; stuck at 0; two states from 8 a tick; the budget at tick
        // 100 clears the queue by tick 179.
        assert_eq!(
            got,
            [
                "8 requests",
                "30 requests",
                "44",
                "0.0 a tick",
                "8 a tick",
                "179"
            ]
        );
    }
}
