//! NUMA's lesson: first touch places a page beside the thread that touches
//! it, one miss at a time pulls one line per latency, a thread moved after
//! its pages are placed finds them all remote, and interleave trades
//! locality for an even spread. Every answer is read off the model after
//! the run the question asks about.

use crate::lesson::{at, texts, Ask, Lesson, Question, Stop, Task};
use demos::cpu::numa::{Numa, NumaAction, Policy};
use demos::Model;
use NumaAction::*;

/// Independent misses the code offers in the Little's-law question.
const OFFERED: u32 = 10;

/// `m` after `actions`, then run to the end; and what the model says of it.
fn finished(m: &Numa, actions: &[NumaAction]) -> (Numa, String) {
    let mut next = m.clone();
    let mut said: Vec<String> = actions.iter().map(|a| texts(next.apply(a))).collect();
    if next.done < next.config.accesses {
        said.push(texts(next.apply(&Finish)));
    }
    said.extend(next.why());
    (next, said.join(" "))
}

/// Break it on, run to the end.
const BREAK_IT: &[NumaAction] = &[SetBreakIt(true)];
/// Interleave for the pages of a fresh run, Break it still on.
const INTERLEAVED: &[NumaAction] = &[SetPolicy(Policy::Interleave), Restart];
/// The code offers [`OFFERED`] misses at once (this restarts the run).
const PARALLEL: &[NumaAction] = &[SetInFlight(OFFERED)];

pub fn lesson() -> Lesson<Numa> {
    Lesson {
        goal: "After this you can explain why a thread's memory accesses can become remote without its code changing, and what first touch and interleave do about where pages live.",
        stops: vec![
            Stop {
                title: "Pages go where they are first touched",
                text: "Each socket has its own memory. Under Linux's default policy a page is placed on the node of the CPU that first touches it: page 0 now lives on node 0, beside the thread.",
                state: at(&[Access]),
                focus: "page-0",
                task: None,
                question: Some(Question {
                    ask: "Run to the end. What is the thread's average memory latency?",
                    kind: Ask::Number {
                        unit: "ns",
                        decimals: 0,
                        tolerance: 1.0,
                        answer: |m| finished(m, &[]).0.avg_latency_tenths() as f64 / 10.0,
                    },
                    explain: |m| finished(m, &[]).1,
                    contrast: |config| config.policy = Policy::Interleave,
                }),
            },
            Stop {
                title: "One line per latency",
                text: "Each access here waits for the one before it, so one line is in flight at a time: the thread pulls one line per memory latency, far below what its memory can deliver.",
                state: at(&[Finish]),
                focus: "thread",
                task: None,
                question: Some(Question {
                    ask: "Let the code offer 10 independent misses at once and run again. What bandwidth does the thread reach?",
                    kind: Ask::Number {
                        unit: "GB/s",
                        decimals: 1,
                        tolerance: 0.2,
                        answer: |m| finished(m, PARALLEL).0.bandwidth_tenths() as f64 / 10.0,
                    },
                    explain: |m| finished(m, PARALLEL).1,
                    contrast: |config| config.fill_buffers = 4,
                }),
            },
            Stop {
                title: "Break it: the thread moves",
                text: "Break it has the scheduler move the thread to the far socket as soon as every page has been placed. The thread's code stays the same.",
                state: at(&[]),
                focus: "thread",
                task: Some(Task {
                    ask: "Turn on Break it, then run to the end.",
                    done: |m| m.moved_after_touch && m.done == m.config.accesses,
                    witness: || vec![SetBreakIt(true), Finish],
                }),
                question: Some(Question {
                    ask: "Turn on Break it and run to the end. How many of the accesses are remote?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| f64::from(finished(m, BREAK_IT).0.remote),
                    },
                    explain: |m| finished(m, BREAK_IT).1,
                    contrast: |config| config.pages = 32,
                }),
            },
            Stop {
                title: "The pages stay behind",
                text: "The pages stayed on the node where they were first touched, so every access after the move crossed the link. Linux does not move a page along with its thread: only automatic NUMA balancing, or an explicit migration, moves it later.",
                state: at(&[SetBreakIt(true), Finish]),
                focus: "link-0",
                task: None,
                question: Some(Question {
                    ask: "Choose interleave, which deals pages round-robin over the nodes, and restart with Break it still on. How many accesses are remote now?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| f64::from(finished(m, INTERLEAVED).0.remote),
                    },
                    explain: |m| finished(m, INTERLEAVED).1,
                    contrast: |config| config.sockets = 4,
                }),
            },
        ],
        next: &["/cpu/mesi", "/cpu/cache-hierarchy"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::cpu::numa::NumaConfig;

    /// The right answers at each stop, as the reveal shows them.
    fn answers(config: NumaConfig) -> Vec<Vec<String>> {
        crate::lesson::answers(&lesson(), |_, s| s.config = config.clone())
    }

    #[test]
    fn the_answers_are_the_textbooks() {
        // First touch: all 256 accesses local at 90 ns. Ten lines in flight
        // pull 10 × 64 B per 90 ns. Moved after its 16 pages are placed,
        // the thread makes the other 240 accesses remote; interleaved, half
        // the pages are remote before the move and the other half after.
        assert_eq!(
            answers(NumaConfig::default()),
            [vec!["90 ns"], vec!["7.1 GB/s"], vec!["240"], vec!["128"]]
        );
        // Interleave on two sockets: half at 90 ns, half at 144 ns.
        let interleave = answers(NumaConfig {
            policy: Policy::Interleave,
            ..NumaConfig::default()
        });
        assert_eq!(interleave[0], ["117 ns"]);
        // Four fill buffers keep four lines in flight: 4 × 64 B / 90 ns.
        let four = answers(NumaConfig {
            fill_buffers: 4,
            ..NumaConfig::default()
        });
        assert_eq!(four[1], ["2.8 GB/s"]);
        // 32 pages take 32 accesses to place.
        let more = answers(NumaConfig {
            pages: 32,
            ..NumaConfig::default()
        });
        assert_eq!(more[2], ["224"]);
        // Four sockets: interleave leaves a quarter of the pages local.
        let four_sockets = answers(NumaConfig {
            sockets: 4,
            ..NumaConfig::default()
        });
        assert_eq!(four_sockets[3], ["192"]);
    }
}
