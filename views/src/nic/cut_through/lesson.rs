//! Cut-through's lesson: the head start cut-through gets, what it saves on a
//! longer frame, the threshold a faster wire needs, and the CPU stall that
//! runs a frame dry. Every answer is read off the model after the steps or
//! the change the question asks about.

use crate::lesson::{after, at, texts, Ask, Lesson, Question, Stop, Task};
use demos::nic::cut_through::{ChunkState, CtAction, CtpioMode, CutThrough};
use demos::Model;

/// The longer frame of the second question, in chunks.
const LONG_FRAME: usize = 24;
/// The fast wire of the third question, Gb/s.
const FAST_WIRE: u32 = 100;

/// What the receiver gets, in the order `received` numbers them.
const RECEIVED: &[&str] = &[
    "the cut-through frame, whole",
    "the store-and-forward frame, whole",
    "a poisoned frame it drops, then the fallback copy",
];

/// `m` ticked until the store-and-forward frame's first bit is on the
/// wire, and the model's account: the last tick's narration and its why.
fn sf_started(m: &CutThrough) -> (CutThrough, String) {
    let mut next = m.clone();
    let mut last = String::new();
    while next.now_units() < next.store_and_forward().start {
        let Ok(action) = next.next_auto() else { break };
        last = texts(next.apply(&action));
    }
    let said = format!("{last} {}", next.why().join(" "));
    (next, said)
}

/// `m` with the frame lengthened: the model's why for it.
fn longer(m: &CutThrough) -> (CutThrough, String) {
    let (next, _) = after(m, CtAction::SetChunks(LONG_FRAME));
    let said = next.why().join(" ");
    (next, said)
}

/// `m` with the CPU stalling mid-frame, run to the end.
fn stalled(m: &CutThrough) -> (CutThrough, String) {
    let (mut next, said) = after(m, CtAction::SetJitter(true));
    let ran = texts(next.apply(&CtAction::RunToEnd));
    (next, format!("{said} {ran}"))
}

pub fn lesson() -> Lesson<CutThrough> {
    Lesson {
        goal: "After this you can explain what cut-through saves over store-and-forward, and why a NIC that cuts through must sometimes send a frame it knows is bad.",
        stops: vec![
            Stop {
                title: "Store and forward",
                text: "The CPU writes a frame into the NIC over PCIe, one 64-byte chunk at a time. Store-and-forward puts the first bit on the wire only once the last chunk is in.",
                state: at(&[]),
                focus: "sf",
                task: None,
                question: Some(Question {
                    ask: "Step until the store-and-forward frame's first bit leaves. How many chunks has the cut-through frame finished sending by then?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| {
                            let (next, _) = sf_started(m);
                            next.cut_through().count(ChunkState::Sent, next.now_units()) as f64
                        },
                    },
                    explain: |m| sf_started(m).1,
                    contrast: |c| c.pcie_gbps = 16,
                }),
            },
            Stop {
                title: "Cutting through",
                text: "Cut-through starts the wire once its threshold of chunks is in, while the rest is still crossing PCIe. Once started, an Ethernet frame cannot pause.",
                state: at(&[CtAction::Tick; 12]),
                focus: "ct",
                task: None,
                question: Some(Question {
                    ask: "Make the frame 24 chunks long. How much sooner does the cut-through frame's last bit leave than the store-and-forward frame's?",
                    kind: Ask::Number {
                        unit: "ns",
                        decimals: 1,
                        tolerance: 0.1,
                        answer: |m| {
                            let (next, _) = longer(m);
                            let (sf, ct) = (next.store_and_forward(), next.cut_through());
                            next.ns(sf.end) - next.ns(ct.end)
                        },
                    },
                    explain: |m| longer(m).1,
                    contrast: |c| c.pcie_gbps = 64,
                }),
            },
            Stop {
                title: "A wire faster than the bus",
                text: "Here the wire sends a chunk more slowly than PCIe delivers one, so chunks pile up in the NIC and a threshold of one is safe. When the wire is the faster of the two, the NIC's store of chunks drains as the frame goes out.",
                state: at(&[]),
                focus: "ct",
                task: None,
                question: Some(Question {
                    ask: "Set the wire to 100 Gb/s. What is the smallest threshold, in chunks, at which cut-through cannot run dry?",
                    kind: Ask::Number {
                        unit: "chunks",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| after(m, CtAction::SetWire(FAST_WIRE)).0.safe_threshold() as f64,
                    },
                    explain: |m| after(m, CtAction::SetWire(FAST_WIRE)).1,
                    contrast: |c| c.pcie_gbps = 64,
                }),
            },
            Stop {
                title: "Break it: the CPU stalls",
                text: "A real bus is rarely too slow; the CPU falters instead. A cache miss or a TLB walk pauses its writes mid-frame while the wire keeps sending.",
                state: at(&[]),
                focus: "pcie",
                task: Some(Task {
                    ask: "In Break it, make the CPU stall mid-frame, then run to the end.",
                    done: |m| m.stall.is_some() && m.next_auto().is_err(),
                    witness: || vec![CtAction::SetJitter(true), CtAction::RunToEnd],
                }),
                question: Some(Question {
                    ask: "The CPU stalls mid-frame. What does the receiver get?",
                    kind: Ask::Choice {
                        options: RECEIVED,
                        right: |m| {
                            let (next, _) = stalled(m);
                            vec![if next.poisoned() {
                                2
                            } else if next.mode.cuts_through() {
                                0
                            } else {
                                1
                            }]
                        },
                    },
                    explain: |m| stalled(m).1,
                    contrast: |c| c.mode = CtpioMode::Sf,
                }),
            },
            Stop {
                title: "Slack against a stall",
                text: "The NIC cut the frame short with a bad FCS, and then sent the fallback copy ef_vi had posted. A larger threshold starts the wire later, leaving the late chunk time to arrive.",
                state: at(&[CtAction::SetJitter(true), CtAction::RunToEnd]),
                focus: "ct",
                task: Some(Task {
                    ask: "Raise the threshold until cut-through no longer runs dry.",
                    done: |m| m.mode.cuts_through() && m.stall.is_some() && !m.poisoned(),
                    witness: || vec![CtAction::UseSafeThreshold],
                }),
                question: None,
            },
        ],
        next: &["/nic/send-path", "/nic/mmio"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::nic::cut_through::CutThroughConfig;

    /// The right answers at each question, with one change to the stops'
    /// configuration.
    fn answers(change: fn(&mut CutThroughConfig)) -> Vec<String> {
        crate::lesson::answers(&lesson(), |_, s| change(s))
            .into_iter()
            .map(|a| a.concat())
            .collect()
    }

    #[test]
    fn the_answers_are_the_wires() {
        // 12 chunks, PCIe 16 ns a chunk, the wire 51.2 ns: store-and-forward
        // starts at 192 ns, when cut-through (from 16 ns) has sent three.
        // 24 chunks: 23 chunks of PCIe time saved, 368 ns. At 100 Gb/s,
        // 5.12 ns a chunk: 12 − ⌊11 · 32 / 100⌋ = 9. The seeded stall (six
        // ticks before chunk 2) runs threshold 1 dry.
        assert_eq!(
            answers(|_| {}),
            [
                "3",
                "368.0 ns",
                "9 chunks",
                "a poisoned frame it drops, then the fallback copy"
            ]
        );
        // PCIe at 16 Gb/s: 32 ns a chunk, six sent by 384 ns. At 64 Gb/s:
        // 8 ns a chunk, 184 ns saved, and 12 − ⌊11 · 64 / 100⌋ = 5. In sf
        // mode the NIC waits for the whole frame.
        assert_eq!(answers(|c| c.pcie_gbps = 16)[0], "6");
        let fast = answers(|c| c.pcie_gbps = 64);
        assert_eq!(fast[1], "184.0 ns");
        assert_eq!(fast[2], "5 chunks");
        assert_eq!(
            answers(|c| c.mode = CtpioMode::Sf)[3],
            "the store-and-forward frame, whole"
        );
    }
}
