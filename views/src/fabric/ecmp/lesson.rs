//! The ECMP lesson: the closed forms for 8 connections on 8 uplinks, one
//! draw beside them, the step set by the busiest uplink, more QPs a
//! connection, and packet spraying's reordering. Every answer is read off
//! the model at the stop or after the actions the question names.

use crate::lesson::{after, after_all, at, at_config, Ask, Lesson, Question, Stop, Task};
use demos::fabric::ecmp::send::Balancer;
use demos::fabric::ecmp::{Ecmp, EcmpAction as A, EcmpConfig};
use demos::Model;

/// The QPs a connection the fourth stop asks for.
const MORE_QPS: u32 = 4;

/// The sentence of the model's "why" that contains `part`.
fn why(m: &Ecmp, part: &str) -> String {
    m.why()
        .into_iter()
        .find(|s| s.contains(part))
        .unwrap_or_default()
}

fn sent(m: &Ecmp) -> (Ecmp, String) {
    after_all(m, &[A::PlaceAll, A::Send])
}

fn spraying() -> EcmpConfig {
    EcmpConfig {
        balancer: Balancer::Spray,
        ..EcmpConfig::default()
    }
}

pub fn lesson() -> Lesson<Ecmp> {
    Lesson {
        goal: "After this you can predict how unevenly a hash spreads a few large flows over equal-cost paths, what that costs an all-reduce step, and what each fix trades.",
        stops: vec![
            Stop {
                title: "Eight flows, eight uplinks",
                text: "Eight large connections leave leaf A over eight equal uplinks. The switch hashes each one and cuts the hash space into eight equal regions. Each connection lands on any uplink with chance 1/8, whatever the others did.",
                state: at(&[]),
                focus: "odds",
                task: None,
                question: Some(Question {
                    ask: "On average, how many of the 8 uplinks carry no connection at all?",
                    kind: Ask::Number {
                        unit: "uplinks",
                        decimals: 2,
                        tolerance: 0.05,
                        answer: |m| m.odds().idle,
                    },
                    explain: |m| why(m, "stay idle on average"),
                    contrast: |c| c.paths = 16,
                }),
            },
            Stop {
                title: "One draw",
                text: "The closed forms are averages. A real hash of real ports gives one draw. Hash the connections one by one and watch where they land.",
                state: at(&[]),
                focus: "uplinks",
                task: Some(Task {
                    ask: "Press Step until every connection is hashed.",
                    done: |m| m.all_placed(),
                    witness: || vec![A::PlaceAll],
                }),
                question: Some(Question {
                    ask: "How many connections does the busiest uplink carry in this draw?",
                    kind: Ask::Number {
                        unit: "connections",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| after(m, A::PlaceAll).0.busiest_now() as f64,
                    },
                    explain: |m| after(m, A::PlaceAll).1,
                    contrast: |c| c.seed = 3,
                }),
            },
            Stop {
                title: "The step waits for the busiest uplink",
                text: "A ring all-reduce step ends when its slowest flow ends. An uplink sends one packet a tick, so c connections on one uplink each get 1/c of it.",
                state: at(&[A::PlaceAll]),
                focus: "compare",
                task: None,
                question: Some(Question {
                    ask: "Run the step. How many times longer than a connection alone does it take?",
                    kind: Ask::Number {
                        unit: "×",
                        decimals: 2,
                        tolerance: 0.01,
                        answer: |m| {
                            let (next, _) = after(m, A::Send);
                            next.stretch(&next.step())
                        },
                    },
                    explain: |m| sent(m).1,
                    contrast: |c| c.seed = 3,
                }),
            },
            Stop {
                title: "More QPs a connection",
                text: "Meta's fix: hash the destination QP number too, and spread each connection over several QPs. Each QP is hashed on its own and carries a share of the connection.",
                state: at(&[]),
                focus: "odds",
                task: Some(Task {
                    ask: "Under Fixes, set QPs a connection to 4.",
                    done: |m| m.config.qps >= MORE_QPS,
                    witness: || vec![A::SetQps(MORE_QPS)],
                }),
                question: Some(Question {
                    ask: "With 4 QPs a connection and no pauses, how many times a connection alone does ECMP's step take on average?",
                    kind: Ask::Number {
                        unit: "×",
                        decimals: 2,
                        tolerance: 0.02,
                        answer: |m| after(m, A::SetQps(MORE_QPS)).0.expected_stretch(),
                    },
                    explain: |m| why(&after(m, A::SetQps(MORE_QPS)).0, "ring all-reduce"),
                    contrast: |c| c.paths = 16,
                }),
            },
            Stop {
                title: "Break it: spraying reorders",
                text: "Packet spraying sends every packet on a random uplink. The load evens out, but a packet on a short queue can overtake one sent before it.",
                state: at_config(spraying(), &[A::PlaceAll]),
                focus: "compare",
                task: None,
                question: Some(Question {
                    ask: "Run the step with spraying. How many packets arrive out of order?",
                    kind: Ask::Number {
                        unit: "packets",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| after(m, A::Send).0.step().out_of_order as f64,
                    },
                    explain: |m| {
                        let (next, said) = after(m, A::Send);
                        format!("{said} {}", why(&next, "Packet spraying"))
                    },
                    contrast: |c| c.qps = 4,
                }),
            },
        ],
        next: &["/net/allreduce"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answers_are_the_models() {
        let got: Vec<String> = crate::lesson::answers(&lesson(), |_, _| {})
            .into_iter()
            .map(|a| a.concat())
            .collect();
        // 8·(7/8)^8; the default draw piles 3 on uplink 7, so the step
        // takes 3 times as long; 4 QPs a connection: E[max(1, M/4)] for 32
        // QPs on 8 uplinks; spraying's reordering on the default draw.
        assert_eq!(
            got,
            [
                "2.75 uplinks",
                "3 connections",
                "3.00 ×",
                "1.76 ×",
                "257 packets"
            ]
        );
    }
}
