//! The Maglev lesson: the paper's worked example turn by turn, what moves
//! when a backend leaves, modulo hashing's and a ring's answers to the same
//! change, and a table too small for its backends. Every answer is read off
//! the model at the stop or after the actions the question names.

use crate::lesson::{after, after_all, at, Ask, Lesson, Question, Stop, Task};
use demos::fabric::maglev::{Maglev, MaglevAction as A};
use demos::Model;

/// The backend that leaves in the lesson: B1, as in the paper's Table 1.
const LEAVER: usize = 1;
/// The crowd the break-it stop asks for on the large table.
const CROWD: u32 = 100;

/// The sentence of the model's "why" that contains `part`.
fn why(m: &Maglev, part: &str) -> String {
    m.why()
        .into_iter()
        .find(|s| s.contains(part))
        .unwrap_or_default()
}

/// The entry the third turn claims: B2's first.
fn third_claim(m: &Maglev) -> f64 {
    let (next, _) = after_all(m, &[A::Claim, A::Claim, A::Claim]);
    next.last_turn().map_or(-1.0, |t| t.claimed as f64)
}

fn crowded(m: &Maglev) -> Maglev {
    after(m, A::SetCompareBackends(CROWD)).0
}

pub fn lesson() -> Lesson<Maglev> {
    Lesson {
        goal: "After this you can build a Maglev lookup table by hand, say which entries change owner when a backend leaves, and pick a table size for a pool of backends.",
        stops: vec![
            Stop {
                title: "Preference lists",
                text: "This is the paper's example: 7 entries and three backends. Each backend prefers the entries offset, offset + skip, offset + 2·skip, and so on, mod 7. On its turn it claims the first entry of its list that is still empty.",
                state: at(&[]),
                focus: "list-2",
                task: None,
                question: Some(Question {
                    ask: "Step three times: B0, B1, then B2 take a turn. Which entry does B2 claim?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: third_claim,
                    },
                    explain: |m| after_all(m, &[A::Claim, A::Claim, A::Claim]).1,
                    contrast: |c| c.backends[2].offset = 5,
                }),
            },
            Stop {
                title: "Turns share the table",
                text: "Every turn claims exactly one entry, and the backends take turns in order. So the shares can differ by one entry at most, whatever the lists look like.",
                state: at(&[]),
                focus: "table",
                task: None,
                question: Some(Question {
                    ask: "Fill the table. How many of the 7 entries does B0 own?",
                    kind: Ask::Number {
                        unit: "entries",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| after(m, A::Fill).0.shares()[0] as f64,
                    },
                    explain: |m| after(m, A::Fill).1,
                    contrast: |c| c.size = 11,
                }),
            },
            Stop {
                title: "A backend leaves",
                text: "B1 fails. The other two keep their lists and their order, and the table is built again without B1. B1's entries must move. Do any others?",
                state: at(&[A::Fill]),
                focus: "list-1",
                task: Some(Task {
                    ask: "Under \"A backend leaves\", choose B1, then Step until the table is full.",
                    done: |m| m.left == Some(LEAVER),
                    witness: || vec![A::Leave(LEAVER)],
                }),
                question: Some(Question {
                    ask: "When B1 leaves, how many of the 7 entries change owner in all?",
                    kind: Ask::Number {
                        unit: "entries",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| m.moved_when_leaves(LEAVER) as f64,
                    },
                    explain: |m| after_all(m, &[A::Leave(LEAVER), A::Fill]).1,
                    contrast: |c| c.size = 11,
                }),
            },
            Stop {
                title: "Modulo hashing",
                text: "The simplest table sends entry k to backend k mod N. When N drops from 3 to 2, the divisor changes for every entry, not only for B1's.",
                state: at(&[A::Leave(LEAVER), A::Fill]),
                focus: "modulo",
                task: None,
                question: Some(Question {
                    ask: "With k mod N, how many of the 7 entries change owner when B1 leaves?",
                    kind: Ask::Number {
                        unit: "entries",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| m.modulo_moved(LEAVER) as f64,
                    },
                    explain: |m| why(m, "Modulo hashing"),
                    contrast: |c| c.size = 11,
                }),
            },
            Stop {
                title: "A ring is uneven",
                text: "A hash ring puts each backend at many points, and an entry goes to the next point clockwise. When a backend leaves, only its own entries move. But the gaps between points are random, so the shares are uneven.",
                state: at(&[]),
                focus: "compare",
                task: None,
                question: Some(Question {
                    ask: "On the large table, the ring's busiest backend owns how many times the mean share?",
                    kind: Ask::Number {
                        unit: "× the mean",
                        decimals: 2,
                        tolerance: 0.02,
                        answer: |m| {
                            let c = m.comparison();
                            c.ring.most_over_mean(c.size, c.backends)
                        },
                    },
                    explain: |m| why(m, "M/N is"),
                    contrast: |c| c.virtual_nodes = 5,
                }),
            },
            Stop {
                title: "Break it: too few entries",
                text: "The paper picks M larger than 100 × N so that shares differ by at most 1 %. The large table has 1,021 entries for 10 backends. Crowd it.",
                state: at(&[]),
                focus: "compare",
                task: Some(Task {
                    ask: "In Break it, set Backends on the large table to 100.",
                    done: |m| m.config.compare_backends >= CROWD,
                    witness: || vec![A::SetCompareBackends(CROWD)],
                }),
                question: Some(Question {
                    ask: "With 100 backends on 1,021 entries, how many percent more entries does Maglev give its busiest backend than its least busy?",
                    kind: Ask::Number {
                        unit: "%",
                        decimals: 1,
                        tolerance: 0.5,
                        answer: |m| crowded(m).comparison().maglev.spread_percent().unwrap_or(0.0),
                    },
                    explain: |m| why(&crowded(m), "M/N is"),
                    contrast: |c| c.compare_size = 4_093,
                }),
            },
        ],
        next: &["/host/rss"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answers_are_the_papers() {
        // Table 1: B2 passes B0's entry 3 and claims 4; B0 owns 3 of 7;
        // without B1 three entries move (B1's two and entry 6); modulo
        // moves 4 of 7. 1,021 entries for 100 backends: 10 or 11, 10 %.
        let got = crate::lesson::answer_texts(&lesson(), |_| {});
        assert_eq!(got[..4], ["4", "3 entries", "3 entries", "4 entries"]);
        assert_eq!(got[4], "1.20 × the mean");
        assert_eq!(got[5], "10.0 %");
    }
}
