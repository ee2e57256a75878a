//! MMIO's lesson: a posted write frees the core at once, a read waits a
//! whole round trip, and a register read inside a per-packet loop. Every
//! answer is read off the model after the steps or the change the question
//! asks about.

use crate::lesson::{after, at, texts, Ask, Lesson, Question, Stop, Task};
use demos::nic::mmio::{Mmio, MmioAction, OpKind};
use demos::Model;

/// The fast path of the last question: little work per packet.
const FAST_WORK_NS: u64 = 50;

/// `m` stepped as Step does until the writes core is free, and the
/// narration of those steps.
fn writes_done(m: &Mmio) -> (Mmio, String) {
    let mut next = m.clone();
    let mut said = Vec::new();
    while next.now < next.writes_core_free() {
        let Ok(action) = next.next_auto() else { break };
        said.push(texts(next.apply(&action)));
    }
    (next, said.join(" "))
}

/// The round trip doubled.
fn doubled(m: &Mmio) -> MmioAction {
    MmioAction::SetRoundTrip(m.rtt_ns * 2)
}

pub fn lesson() -> Lesson<Mmio> {
    Lesson {
        goal: "After this you can explain why a driver rings a doorbell with a posted write but never reads a NIC register on its per-packet path.",
        stops: vec![
            Stop {
                title: "Posting a write",
                text: "One core writes a device register several times; another reads it as often. A write to device memory is a posted PCIe request: no reply ever comes back, so the core pays only to issue it.",
                state: at(&[]),
                focus: "writes-core",
                task: None,
                question: Some(Question {
                    ask: "Step until the writes core is free. How many of its writes have reached the device by then?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| {
                            let (done, _) = writes_done(m);
                            done.landed(OpKind::Write, done.now) as f64
                        },
                    },
                    explain: |m| writes_done(m).1,
                    contrast: |c| c.rtt_ns = 100,
                }),
            },
            Stop {
                title: "In flight, in order",
                text: "The writes core has moved on while its writes are still crossing the link. A posted write may not pass an earlier one, so they reach the register in the order they were posted.",
                state: at(&[MmioAction::Advance; 5]),
                focus: "writes-link",
                task: None,
                question: None,
            },
            Stop {
                title: "A read waits for its answer",
                text: "A read is non-posted: the device must send the value back in a Completion, and the core cannot retire the load before it arrives. Only then does it issue the next read.",
                state: at(&[MmioAction::Advance]),
                focus: "reads-core",
                task: None,
                question: Some(Question {
                    ask: "The PCIe round trip doubles. At what time is the reads core free again?",
                    kind: Ask::Number {
                        unit: "ns",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| after(m, doubled(m)).0.reads_core_free() as f64,
                    },
                    explain: |m| after(m, doubled(m)).1,
                    contrast: |c| c.count = 3,
                }),
            },
            Stop {
                title: "Break it: a read in the loop",
                text: "A driver that reads a NIC register to learn what the device has done puts one of those round trips into every pass of its loop.",
                state: at(&[MmioAction::RunToEnd]),
                focus: "reads-core",
                task: Some(Task {
                    ask: "Turn on \"Read a NIC register every packet\" in Break it.",
                    done: |m| m.hot_read,
                    witness: || vec![MmioAction::SetHotRead(true)],
                }),
                question: Some(Question {
                    ask: "With one register read in every pass, how many times slower does the per-packet loop run?",
                    kind: Ask::Number {
                        unit: "times",
                        decimals: 1,
                        tolerance: 0.05,
                        answer: |m| after(m, MmioAction::SetHotRead(true)).0.slowdown(),
                    },
                    explain: |m| after(m, MmioAction::SetHotRead(true)).1,
                    contrast: |c| c.work_ns = 2_000,
                }),
            },
            Stop {
                title: "The faster the loop, the worse",
                text: "The read costs the same round trip whatever the loop does around it. Drivers learn of completions instead from status the NIC writes into host memory by DMA, which the CPU reads without crossing PCIe.",
                state: at(&[MmioAction::RunToEnd, MmioAction::SetHotRead(true)]),
                focus: "hot-loop",
                task: None,
                question: Some(Question {
                    ask: "Cut the real work to 50 ns a packet. How many times slower is the loop with the read now?",
                    kind: Ask::Number {
                        unit: "times",
                        decimals: 1,
                        tolerance: 0.05,
                        answer: |m| after(m, MmioAction::SetWork(FAST_WORK_NS)).0.slowdown(),
                    },
                    explain: |m| {
                        let (next, said) = after(m, MmioAction::SetWork(FAST_WORK_NS));
                        format!("{said} {}", next.why().last().cloned().unwrap_or_default())
                    },
                    contrast: |c| c.rtt_ns = 100,
                }),
            },
        ],
        next: &["/nic/descriptor-ring", "/nic/send-path"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::nic::mmio::MmioConfig;

    /// The right answers at each question, with one change to the stops'
    /// configuration.
    fn answers(change: fn(&mut MmioConfig)) -> Vec<String> {
        crate::lesson::answers(&lesson(), |_, s| change(s))
            .into_iter()
            .map(|a| a.concat())
            .collect()
    }

    #[test]
    fn the_answers_are_pcies() {
        // 60 ns issue, 600 ns round trip, 5 of each, 200 ns of work: the core
        // is free at 300 ns, before W0 lands at 360 ns; doubled, a read costs
        // 60 + 1200 ns, five of them 6300 ns; a read per packet makes a pass
        // (200 + 660) / 200 = 4.3 times longer, and (50 + 660) / 50 = 14.2.
        assert_eq!(answers(|_| {}), ["0", "6300 ns", "4.3 times", "14.2 times"]);
        // A 100 ns round trip lands four writes by 300 ns; three reads at
        // 1260 ns each; 2000 ns of work hides a read to (2000 + 660) / 2000;
        // and a 100 ns round trip costs a 50 ns pass (50 + 160) / 50.
        assert_eq!(answers(|c| c.rtt_ns = 100)[0], "4");
        assert_eq!(answers(|c| c.count = 3)[1], "3780 ns");
        assert_eq!(answers(|c| c.work_ns = 2_000)[2], "1.3 times");
        assert_eq!(answers(|c| c.rtt_ns = 100)[3], "4.2 times");
    }
}
