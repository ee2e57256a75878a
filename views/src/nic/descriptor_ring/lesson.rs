//! The descriptor ring's lesson: who owns which slot, what the doorbell
//! publishes, what the NIC writes back, and the two barriers that keep the
//! driver and the NIC from reading each other's half-written descriptors.
//! Every answer is read off the ring after the action the question asks
//! about.

use crate::lesson::{after, at_config, Ask, Lesson, Question, Stop, Task};
use demos::nic::descriptor_ring::{DescriptorRing, Direction, RingAction, RingConfig};
use demos::Model;
use RingAction::*;

/// The choices for "what does the NIC do on Step".
const NIC_MOVES: &[&str] = &[
    "reads descriptor 0 and starts the transfer",
    "waits for a frame from the wire",
    "waits: nothing is published to it",
];

fn rx() -> RingConfig {
    RingConfig::default()
}

/// A send ring whose driver asks for RS on every fourth descriptor.
fn tx_rs_every_4() -> RingConfig {
    RingConfig {
        direction: Direction::Tx,
        rs_every: 4,
        ..RingConfig::default()
    }
}

/// What Step does to the NIC now: the model's next move, or why it waits.
fn nic_step(m: &DescriptorRing) -> (usize, String) {
    match m.next_auto() {
        Ok(action) => (0, after(m, action).1),
        Err(refusal) if m.published_pending() > 0 => (1, refusal.reason),
        Err(refusal) => (2, refusal.reason),
    }
}

/// One buffer through the ring: posted, published, filled and reaped.
const ROUND: [RingAction; 7] = [
    Post,
    Doorbell,
    FrameArrives,
    NicFetch,
    NicDma,
    NicWriteBack,
    Reap,
];

/// The receive ring with the NIC between its DMA and its write-back.
const WRITING_BACK: [RingAction; 5] = [Post, Doorbell, FrameArrives, NicFetch, NicDma];

pub fn lesson() -> Lesson<DescriptorRing> {
    Lesson {
        goal: "After this you can explain how a driver and a NIC share a ring of descriptors without a lock: who owns which slot, what the doorbell publishes, and which barriers keep each side from reading the other's half-written descriptor.",
        stops: vec![
            Stop {
                title: "Who owns which slot",
                text: "Every slot is free and belongs to the driver. The NIC may touch only the slots from its HEAD up to the TAIL the driver last wrote to the NIC's register.",
                state: at_config(rx(), &[]),
                focus: "desc-0",
                task: Some(Task {
                    ask: "Post a buffer.",
                    done: |m| m.counters.posted > 0,
                    witness: || vec![Post],
                }),
                question: None,
            },
            Stop {
                title: "Written, not yet published",
                text: "The driver wrote descriptor 0 and moved its own TAIL. Its stores may still sit in the CPU's store buffer, and the NIC's TAIL register has not changed.",
                state: at_config(rx(), &[Post]),
                focus: "store-buffer",
                task: None,
                question: Some(Question {
                    ask: "The driver rings the doorbell with writel(). How many of its pending stores reach memory before the TAIL write goes out?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| {
                            let (next, _) = after(m, Doorbell);
                            (m.store_buffer.len() - next.store_buffer.len()) as f64
                        },
                    },
                    explain: |m| after(m, Doorbell).1,
                    contrast: |c| c.direction = Direction::Tx,
                }),
            },
            Stop {
                title: "The NIC's turn",
                text: "The doorbell moved the NIC's TAIL register, so descriptor 0 now belongs to the NIC. The driver must not touch it until the NIC hands it back.",
                state: at_config(rx(), &[Post, Doorbell]),
                focus: "nic",
                task: None,
                question: Some(Question {
                    ask: "Press Step. What does the NIC do?",
                    kind: Ask::Choice {
                        options: NIC_MOVES,
                        right: |m| vec![nic_step(m).0],
                    },
                    explain: |m| nic_step(m).1,
                    contrast: |c| c.direction = Direction::Tx,
                }),
            },
            Stop {
                title: "Written back",
                text: "The NIC put the frame in the buffer, then wrote the descriptor back: DD set, the length filled in, and the RSS hash where the buffer's address was. So the driver writes the address again every time it refills a slot.",
                state: at_config(rx(), &[Post, Doorbell, FrameArrives, NicFetch, NicDma, NicWriteBack]),
                focus: "desc-0",
                task: Some(Task {
                    ask: "Reap the frame: the driver finds it by reading DD in host memory, not a NIC register.",
                    done: |m| !m.delivered.is_empty(),
                    witness: || vec![Reap],
                }),
                question: None,
            },
            Stop {
                title: "Done only when reported",
                text: "This ring sends, and its driver asks for a status report (RS) on every fourth descriptor only. The NIC has sent both frames.",
                state: at_config(
                    tx_rs_every_4(),
                    &[Post, Post, Doorbell, NicFetch, NicDma, NicWriteBack, NicFetch, NicDma, NicWriteBack],
                ),
                focus: "desc-0",
                task: None,
                question: Some(Question {
                    ask: "The driver reaps completions. How many buffers can it free?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| f64::from(after(m, Reap).0.counters.reaped - m.counters.reaped),
                    },
                    explain: |m| after(m, Reap).1,
                    contrast: |c| c.rs_every = 1,
                }),
            },
            Stop {
                title: "Break it: the doorbell overtakes",
                text: "writel() waits for the descriptor stores before it rings. writel_relaxed() on a weakly ordered CPU does not, so the NIC may read a descriptor the driver has not finished writing.",
                state: at_config(rx(), &[]),
                focus: "doorbell",
                task: Some(Task {
                    ask: "Turn on the relaxed doorbell in Break it, then post, ring, let frames arrive and step the NIC until a transfer is corrupted.",
                    done: |m| m.damage.iter().any(|d| !d.read_side),
                    witness: || {
                        let mut way = vec![SetRelaxedDoorbell(true)];
                        way.extend(ROUND);
                        way.extend(ROUND);
                        way
                    },
                }),
                question: None,
            },
            Stop {
                title: "Break it: the length before DD",
                text: "The NIC is writing descriptor 0 back. The driver must read DD first and the length only after dma_rmb(); without the barrier the CPU may load the length early and see the old one.",
                state: at_config(rx(), &WRITING_BACK),
                focus: "desc-0",
                task: Some(Task {
                    ask: "Turn off dma_rmb() in Break it and reap while the NIC writes back, until a frame goes up with the wrong length.",
                    done: |m| m.damage.iter().any(|d| d.read_side),
                    witness: || vec![SetSkipRmb(true), Reap, Reap, Reap],
                }),
                question: None,
            },
        ],
        next: &["/nic/napi"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The right answers at each question, with `change` made to each
    /// stop's configuration.
    fn answers(change: fn(&mut RingConfig)) -> Vec<Vec<String>> {
        crate::lesson::answers(&lesson(), |_, s| change(s))
    }

    #[test]
    fn the_answers_are_the_rings() {
        // RX: a post stores the address and clears the write-back word, and
        // writel() drains both; an RX buffer waits for a frame; without RS
        // the NIC writes no DD, so nothing can be freed yet.
        assert_eq!(
            answers(|_| {}),
            [
                vec!["2"],
                vec!["waits for a frame from the wire"],
                vec!["0"]
            ]
        );
        let tx = answers(|c| c.direction = Direction::Tx);
        // TX: address, cmd_type_len and olinfo_status; the frame is ready.
        assert_eq!(tx[0], ["3"]);
        assert_eq!(tx[1], ["reads descriptor 0 and starts the transfer"]);
        // RS on every descriptor: both sent buffers are freed.
        assert_eq!(answers(|c| c.rs_every = 1)[2], ["2"]);
    }
}
