//! The lesson: a classic packet's transactions, Ensō's shared
//! notification, the headline's rate, one core's budget, and what a held
//! packet costs Ensō. Every answer is read off the model at its stop.

use crate::lesson::{after, at, Ask, Lesson, Question, Stop, Task};
use demos::host::streaming::{Streaming, StreamingAction};
use demos::Model;

fn why(m: &Streaming, i: usize) -> String {
    m.why().get(i).cloned().unwrap_or_default()
}

fn held(m: &Streaming) -> Streaming {
    after(m, StreamingAction::SetHold(true)).0
}

/// The choices of the headline's question, in order.
const WHO_KEEPS_UP: &[&str] = &["neither", "only the classic NIC", "only Ensō", "both"];

pub fn lesson() -> Lesson<Streaming> {
    Lesson {
        goal: "After this you can count what a packet costs a NIC interface on PCIe and in the core's cache, and say why a byte stream with a notification per batch reaches 100 Gb/s with minimum-size packets where a descriptor per packet does not, and what it gives up.",
        stops: vec![
            Stop {
                title: "A descriptor and a buffer",
                text: "One 64-byte frame has come in. The classic driver rang a doorbell, the NIC fetched a descriptor, wrote the packet into that descriptor's buffer and wrote the descriptor back.",
                state: at(&[StreamingAction::Deliver]),
                focus: "classic",
                task: None,
                question: Some(Question {
                    ask: "How many bytes did the classic NIC put on the link toward the host for this packet?",
                    kind: Ask::Number {
                        unit: "bytes",
                        decimals: 0,
                        tolerance: 0.5,
                        answer: |m| m.classic_per_packet().up,
                    },
                    explain: |m| why(m, 0),
                    contrast: |c| c.interrupts = true,
                }),
            },
            Stop {
                title: "Back to back, told once",
                text: "Ensō's NIC writes each packet right after the last one in its pipe and fetches no descriptor. Only when the batch is done does it write one notification.",
                state: at(&[StreamingAction::DeliverBatch]),
                focus: "enso",
                task: None,
                question: Some(Question {
                    ask: "Shared out over the batch, how many bytes does Ensō put toward the host per packet?",
                    kind: Ask::Number {
                        unit: "bytes",
                        decimals: 1,
                        tolerance: 0.5,
                        answer: |m| m.enso_per_packet().up,
                    },
                    explain: |m| why(m, 1),
                    contrast: |c| c.batch = 8,
                }),
            },
            Stop {
                title: "The headline",
                text: "Ensō's authors forward 148.8 million minimum-size packets a second, a full 100 Gb/s, on one core. Forwarding is receiving and sending back; the demo counts the receive half. The chart puts what the link allows each interface against the port's line rate.",
                state: at(&[]),
                focus: "rates",
                task: None,
                question: Some(Question {
                    ask: "Which interface can this link carry at 100 GbE's rate of 64-byte frames?",
                    kind: Ask::Choice {
                        options: WHO_KEEPS_UP,
                        right: |m| {
                            let line = m.line_rate();
                            let classic = m.classic_rate() >= line;
                            let enso = m.enso_rate() >= line;
                            vec![usize::from(classic) + 2 * usize::from(enso)]
                        },
                    },
                    explain: |m| why(m, 2),
                    contrast: |c| c.lanes = 8,
                }),
            },
            Stop {
                title: "One core",
                text: "The link is only half of it: one core must also keep up. Every packet it reads from a new place in memory can stall it.",
                state: at(&[]),
                focus: "cpu",
                task: None,
                question: Some(Question {
                    ask: "At line rate, how many cycles does one core have for each packet?",
                    kind: Ask::Number {
                        unit: "cycles",
                        decimals: 1,
                        tolerance: 0.2,
                        answer: |m| m.budget(),
                    },
                    explain: |m| why(m, 3),
                    contrast: |c| c.frame = 128,
                }),
            },
            Stop {
                title: "Break it: hold one packet",
                text: "A receiver may keep a segment that came early until the one before it arrives. The classic driver just posts a fresh buffer. Ensō frees its pipe only in order.",
                state: at(&[]),
                focus: "enso",
                task: Some(Task {
                    ask: "In Break it, turn on Hold packet 1, then Step.",
                    done: |m| m.config.hold,
                    witness: || vec![StreamingAction::SetHold(true)],
                }),
                question: Some(Question {
                    ask: "With packet 1 held and packets coming at line rate, how many microseconds until Ensō's whole pipe is full behind it?",
                    kind: Ask::Number {
                        unit: "µs",
                        decimals: 0,
                        tolerance: 2.0,
                        answer: |m| held(m).pipe_full_us(),
                    },
                    explain: |m| {
                        let h = held(m);
                        why(&h, h.why().len() - 1)
                    },
                    contrast: |c| c.frame = 1_518,
                }),
            },
        ],
        next: &["/host/pcie", "/nic/descriptor-ring"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answers_are_the_models() {
        // 24 + (24 + 60) + (24 + 16) = 148 bytes; (32 × 88 + 88) / 32 =
        // 90.75; on Gen3 ×16 only Ensō clears 148.8 M; 3.5 GHz ÷ 148.8 M =
        // 23.5 cycles; 32,768 flits ÷ 148.8 M a second = 220 µs.
        assert_eq!(
            crate::lesson::answer_texts(&lesson(), |_| {}),
            [
                "148 bytes",
                "90.8 bytes",
                "only Ensō",
                "23.5 cycles",
                "220 µs"
            ]
        );
    }
}
