//! Send path's lesson: what a kernel send spends, what kernel bypass, TX
//! push and CTPIO each take off it, and the full TX ring that puts a wait
//! back on. Every answer is read off the model after the switch the
//! question asks about.
//!
//! `SendPathConfig` has no field (stage costs and switches are actions), so
//! each question's contrast prepends one action to its stop's
//! (`contrast_action`): a stage that stays on the path made dearer.

use crate::lesson::{after, at, Ask, Lesson, Question, Stop, Task};
use demos::nic::send_path::{SendPath, BYPASS, CTPIO, NET_TX, SPEC, STOPPED, TX_PUSH};
use demos::nic::stages::StageAction;

/// Stage indices of `send_path::STAGES` the contrasts change.
#[cfg_attr(not(test), allow(dead_code))]
const KERNEL_STACK: usize = 1;
#[cfg_attr(not(test), allow(dead_code))]
const DMA: usize = 8;
#[cfg_attr(not(test), allow(dead_code))]
const PHY: usize = 9;

fn use_(technique: usize) -> StageAction {
    StageAction::Use {
        technique,
        on: true,
    }
}

fn total(m: &SendPath) -> u32 {
    m.pipe.total(&SPEC)
}

/// The send's total after switching `technique` on, in ns.
fn total_with(m: &SendPath, technique: usize) -> f64 {
    f64::from(total(&after(m, use_(technique)).0))
}

/// What switching `technique` on changes the send's total by, in ns
/// (positive: it takes longer).
fn change_with(m: &SendPath, technique: usize) -> f64 {
    total_with(m, technique) - f64::from(total(m))
}

/// The model's narration of the switch: what left or joined the path, and
/// the totals before and after.
fn told(m: &SendPath, technique: usize) -> String {
    after(m, use_(technique)).1
}

/// The one action each question's contrast prepends to its stop's
/// actions, in question order: a stage that stays on the path made
/// dearer, so the computed answer moves.
pub fn contrast_action(question: usize) -> StageAction {
    let (stage, ns) = match question {
        0 => (KERNEL_STACK, 500),
        1 => (DMA, 400),
        2 => (PHY, 200),
        _ => (NET_TX, 2_000),
    };
    StageAction::SetCost { stage, ns }
}

pub fn lesson() -> Lesson<SendPath> {
    Lesson {
        goal: "After this you can explain where the time of one send goes, what kernel bypass, TX push and CTPIO each take off its path, and why a TX ring too small for the app's bursts puts a wait back on.",
        stops: vec![
            Stop {
                title: "An ordinary kernel send",
                text: "send() enters the kernel, whose TCP/IP stack builds an sk_buff and copies the payload into a kernel buffer. The driver then writes a TX descriptor and rings the doorbell, and the NIC reads the descriptor and the frame across PCIe.",
                state: at(&[]),
                focus: "kernel-stack",
                task: None,
                question: Some(Question {
                    ask: "Turn on kernel bypass. How much time does it take off this send?",
                    kind: Ask::Number {
                        unit: "ns",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| -change_with(m, BYPASS),
                    },
                    explain: |m| told(m, BYPASS),
                    // Prepends contrast_action(0): a dearer kernel stack.
                    contrast: |s| s.actions.insert(0, contrast_action(0)),
                }),
            },
            Stop {
                title: "What bypass leaves",
                text: "With kernel bypass the app drives the NIC's rings from user space: it writes the descriptor and rings the doorbell itself. The NIC still reads the descriptor, then the frame, across PCIe.",
                state: at(&[use_(BYPASS)]),
                focus: "fetch",
                task: None,
                question: Some(Question {
                    ask: "Turn on TX push as well. How long does the send take now?",
                    kind: Ask::Number {
                        unit: "ns",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| total_with(m, TX_PUSH),
                    },
                    explain: |m| told(m, TX_PUSH),
                    // Prepends contrast_action(1): a slower payload DMA.
                    contrast: |s| s.actions.insert(0, contrast_action(1)),
                }),
            },
            Stop {
                title: "The CPU writes the frame",
                text: "TX push put the descriptor inside the doorbell write. CTPIO goes further: the CPU writes the whole frame into the NIC, which starts it onto the wire as the bytes arrive, with no descriptor to read and no DMA of the payload.",
                state: at(&[use_(BYPASS), use_(TX_PUSH)]),
                focus: "pio",
                task: None,
                question: Some(Question {
                    ask: "Turn on CTPIO. How long does the frame take now from the app to the wire?",
                    kind: Ask::Number {
                        unit: "ns",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| total_with(m, CTPIO),
                    },
                    explain: |m| told(m, CTPIO),
                    // Prepends contrast_action(2): a slower PHY.
                    contrast: |s| s.actions.insert(0, contrast_action(2)),
                }),
            },
            Stop {
                title: "Break it: a TX ring too small",
                text: "Back on the kernel path, with TX push on. An app that sends in bursts larger than its TX ring fills the ring, and the driver stops the queue.",
                state: at(&[use_(TX_PUSH)]),
                focus: "net-tx",
                task: Some(Task {
                    ask: "In Break it, make the TX ring too small, then step until the frame is on the wire.",
                    done: |m| m.pipe.uses(STOPPED) && m.pipe.walk_done(&SPEC),
                    witness: || {
                        let mut out = vec![use_(STOPPED)];
                        out.extend([StageAction::Advance; 9]);
                        out
                    },
                }),
                question: Some(Question {
                    ask: "The ring fills and the driver stops the queue. How much longer does this send take?",
                    kind: Ask::Number {
                        unit: "ns",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| change_with(m, STOPPED),
                    },
                    explain: |m| told(m, STOPPED),
                    // Prepends contrast_action(3): a longer wait for NET_TX.
                    contrast: |s| s.actions.insert(0, contrast_action(3)),
                }),
            },
            Stop {
                title: "Waiting for a completion",
                text: "The frame waited in the qdisc until a TX completion freed room in the ring; then the driver woke the queue and the NET_TX softirq sent it. TX push needs an empty ring, so the descriptor fetch came back too.",
                state: at(&[use_(TX_PUSH), use_(STOPPED)]),
                focus: "net-tx",
                task: None,
                question: None,
            },
        ],
        next: &["/nic/descriptor-ring", "/nic/cut-through"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The right answers at each question, at its stop or, with
    /// `contrasted`, under its contrast (one dearer stage prepended).
    fn answers(contrasted: bool) -> Vec<String> {
        crate::lesson::contrast_texts(&lesson(), contrasted)
    }

    #[test]
    fn the_answers_are_the_paths() {
        // Bypass takes 90 + 220 + 80 ns; TX push then the 300 ns fetch,
        // leaving 40 + 60 + 250 + 80; CTPIO leaves the PIO write and the
        // PHY, 60 + 80; a full ring adds the 500 ns wait and the 300 ns
        // fetch TX push no longer saves.
        assert_eq!(answers(false), ["390 ns", "430 ns", "140 ns", "800 ns"]);
        // Each contrast moves its own answer: a 500 ns stack, a 400 ns DMA,
        // a 200 ns PHY, a 2,000 ns wait.
        assert_eq!(answers(true), ["670 ns", "580 ns", "260 ns", "2300 ns"]);
    }
}
