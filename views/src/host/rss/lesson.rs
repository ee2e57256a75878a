//! The RSS lesson: the hash picks the queue, a few heavy flows defeat it,
//! RPS spreads a node's work in software, queues that spill onto the far
//! node, and processing away from the reader. Every answer is read off the
//! model at the stop or after the change asked.

use crate::lesson::{after, at, at_config, Ask, Lesson, Question, Stop, Task};
use demos::host::rss::{Rss, RssAction, RssConfig};
use demos::Model;

fn elephants() -> RssConfig {
    RssConfig {
        elephants: true,
        ..RssConfig::default()
    }
}

fn eight_queues() -> RssConfig {
    RssConfig {
        queues: 8,
        ..RssConfig::default()
    }
}

/// The sentence of the model's "why" that begins with `start`.
fn why(m: &Rss, start: &str) -> String {
    m.why()
        .into_iter()
        .find(|s| s.starts_with(start))
        .unwrap_or_default()
}

/// The table entry the next packet's hash picks.
fn next_entry(m: &Rss) -> f64 {
    let (next, _) = after(m, RssAction::Receive);
    let flows = next.flows();
    next.last
        .map(|i| next.path(i, &flows[i]).entry as f64)
        .unwrap_or(0.0)
}

pub fn lesson() -> Lesson<Rss> {
    Lesson {
        goal: "After this you can follow a received packet from its hash to a queue and a core, and say why a few heavy flows, a badly placed interrupt or a distant reader each waste the cores you have.",
        stops: vec![
            Stop {
                title: "The hash picks the queue",
                text: "The NIC hashes the packet's addresses and ports. The hash's low 7 bits choose one of the table's 128 entries, and the entry holds a queue number.",
                state: at(&[]),
                focus: "table",
                task: None,
                question: Some(Question {
                    ask: "Step once. Which table entry does the first packet's hash pick?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: next_entry,
                    },
                    explain: |m| after(m, RssAction::Receive).1,
                    contrast: |c| c.seed = 2,
                }),
            },
            Stop {
                title: "Break it: elephants",
                text: "Four heavy flows from one backup host now carry most of the packets. Each flow stays on one queue, so how evenly the work spreads depends on where just four hashes land.",
                state: at_config(elephants(), &[]),
                focus: "cores",
                task: Some(Task {
                    ask: "Select a table entry an elephant lands on (a warning-coloured cell) until the busiest core's share falls.",
                    done: |m| m.busiest_share() < Rss::new(&m.config).busiest_share(),
                    witness: witness_move,
                }),
                question: Some(Question {
                    ask: "Over a round, what share of the packets does the busiest core process?",
                    kind: Ask::Number {
                        unit: "%",
                        decimals: 1,
                        tolerance: 0.5,
                        answer: |m| m.busiest_share(),
                    },
                    explain: |m| why(m, "The 4 elephants"),
                    contrast: |c| c.queues = 8,
                }),
            },
            Stop {
                title: "RPS: software spreading",
                text: "With RPS, the core that took the interrupt hands each packet to a core of its node, chosen by the hash's high bits. A flow still stays on one core.",
                state: at_config(elephants(), &[]),
                focus: "cores",
                task: None,
                question: Some(Question {
                    ask: "Turn RPS on. What share of the packets does the busiest core process then?",
                    kind: Ask::Number {
                        unit: "%",
                        decimals: 1,
                        tolerance: 0.5,
                        answer: |m| after(m, RssAction::SetRps(true)).0.busiest_share(),
                    },
                    explain: |m| after(m, RssAction::SetRps(true)).1,
                    contrast: |c| c.per_node = 2,
                }),
            },
            Stop {
                title: "Queues on the far node",
                text: "Eight queues, but the NIC's node has four cores: the driver places the other four queues' interrupts on node 1. The NIC still writes every packet into node 0's memory.",
                state: at_config(eight_queues(), &[]),
                focus: "cores",
                task: None,
                question: Some(Question {
                    ask: "What share of the packets is handled on node 1, away from the NIC?",
                    kind: Ask::Number {
                        unit: "%",
                        decimals: 1,
                        tolerance: 0.5,
                        answer: |m| m.remote_share(),
                    },
                    explain: |m| why(m, &format!("{} % of the packets are handled", demos::text::decimal(m.remote_share(), 1))),
                    contrast: |c| c.queues = 4,
                }),
            },
            Stop {
                title: "Process where the reader runs",
                text: "Each flow's application thread reads on its own core. Unless the packet was processed there, its data must move between caches.",
                state: at(&[]),
                focus: "flows",
                task: Some(Task {
                    ask: "Turn RFS on and watch the flows' stack core follow their application core.",
                    done: |m| m.config.rfs,
                    witness: || vec![RssAction::SetRfs(true)],
                }),
                question: Some(Question {
                    ask: "With RFS off, what share of the packets is processed on a core other than their application's?",
                    kind: Ask::Number {
                        unit: "%",
                        decimals: 1,
                        tolerance: 0.5,
                        answer: |m| m.handover_share(),
                    },
                    explain: |m| why(m, &format!("{} % of the packets are processed", demos::text::decimal(m.handover_share(), 1))),
                    contrast: |c| c.per_node = 2,
                }),
            },
        ],
        next: &["/nic/napi", "/cpu/numa"],
    }
}

/// One way to lower the busiest core's share with the elephants on: move
/// the entry of an elephant that shares the busiest core's queue. The
/// lesson tests check it works; the learner may find another.
fn witness_move() -> Vec<RssAction> {
    let m = Rss::new(&elephants());
    let flows = m.flows();
    let busiest = m.busiest_core();
    flows
        .iter()
        .enumerate()
        .filter(|(_, f)| f.elephant)
        .map(|(i, f)| m.path(i, f))
        .find(|p| p.stack_core == busiest)
        .map(|p| vec![RssAction::CycleEntry(p.entry as u8)])
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answers_are_the_models() {
        // The first flow's hash picks entry 24; three of the four
        // elephants share queue 1 (29 of 48 packets a round); RPS spreads
        // node 0's work to at most 14 of 48; queues 4–7 take half the
        // packets; RFS off, 15 of 16 flows are processed away from their
        // reader.
        assert_eq!(
            crate::lesson::answer_texts(&lesson(), |_| {}),
            ["24", "60.4 %", "29.2 %", "50.0 %", "93.8 %"]
        );
    }
}
