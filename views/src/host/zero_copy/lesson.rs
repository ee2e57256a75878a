//! Zero-copy receive's lesson: the copy, header split, zero-copy's buffers
//! held by the application, a pool run dry, and a flow without its steering
//! rule. Every answer is read off the model at the stop or after the
//! change asked.

use crate::lesson::{after_all, at, at_config, Ask, Lesson, Question, Stop, Task};
use demos::host::zero_copy::{Fate, Mode, Owner, Store, ZeroCopy, ZeroCopyAction, ZeroCopyConfig};
use demos::Model;

/// The hold the break-it stop asks for: two packet times past what eight
/// buffers allow.
const LONG_HOLD: u32 = 6;

fn config(mode: Mode) -> ZeroCopyConfig {
    ZeroCopyConfig {
        mode,
        ..ZeroCopyConfig::default()
    }
}

/// `n` whole packet times: each an arrival and a read.
fn packets(n: usize) -> Vec<ZeroCopyAction> {
    vec![ZeroCopyAction::Step; 2 * n]
}

fn why(m: &ZeroCopy, i: usize) -> String {
    m.why().get(i).cloned().unwrap_or_default()
}

/// The model's sentence that begins with `start`.
fn why_about(m: &ZeroCopy, start: &str) -> String {
    m.why()
        .into_iter()
        .find(|s| s.starts_with(start))
        .unwrap_or_default()
}

/// Where the latest packet's payload is, as the second stop's options say.
fn landing(m: &ZeroCopy) -> Vec<usize> {
    match m.last.map(|l| (l.split, l.fate)) {
        Some((false, Fate::Landed(Store::Page(_)))) => vec![0],
        Some((true, Fate::Landed(Store::Page(_)))) => vec![1],
        Some((_, Fate::Landed(Store::Area(_)))) => vec![2],
        _ => vec![],
    }
}

/// The model after `actions`, then two batches of packets.
fn after_twenty(m: &ZeroCopy, first: ZeroCopyAction) -> (ZeroCopy, String) {
    after_all(m, &[first, ZeroCopyAction::Batch, ZeroCopyAction::Batch])
}

pub fn lesson() -> Lesson<ZeroCopy> {
    Lesson {
        goal: "After this you can explain where a received packet's bytes land on the copy path, with header split and with zero-copy receive, what zero-copy pays instead of copying, and why buffers kept too long make the NIC drop packets.",
        stops: vec![
            Stop {
                title: "The copy path",
                text: "The NIC writes each whole frame into a page from the kernel's page pool. recv() then copies the payload into the application's buffer, and the page goes back to the pool.",
                state: at_config(config(Mode::Copy), &packets(3)),
                focus: "pages",
                task: None,
                question: Some(Question {
                    ask: "After three packets, how many payload bytes has recv() copied?",
                    kind: Ask::Number {
                        unit: "bytes",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| m.counts.bytes_copied as f64,
                    },
                    explain: |m| why(m, 0),
                    contrast: |c| c.payload = 512,
                }),
            },
            Stop {
                title: "Header split",
                text: "With header split the NIC cuts each packet at the TCP payload: the headers go to a small kernel buffer, the payload to a buffer of its own.",
                state: at_config(config(Mode::Split), &[ZeroCopyAction::Step]),
                focus: "hdr",
                task: None,
                question: Some(Question {
                    ask: "Where did packet 1's payload land?",
                    kind: Ask::Choice {
                        options: &[
                            "In a kernel page, together with its headers",
                            "In a kernel page of its own, apart from its headers",
                            "In a buffer bound to the queue, outside the kernel's pages",
                        ],
                        right: landing,
                    },
                    explain: |m| m.setup(),
                    contrast: |c| c.mode = Mode::ZeroCopy,
                }),
            },
            Stop {
                title: "Zero-copy",
                text: "Now the payloads land in buffers bound to the flow's queue, and the application reads them where they are: nothing is copied. But it must give each buffer back.",
                state: at(&packets(4)),
                focus: "area",
                task: None,
                question: Some(Question {
                    ask: "The application keeps each buffer two packet times. How many bound buffers does it hold now?",
                    kind: Ask::Number {
                        unit: "buffers",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| m.area_count(Owner::App) as f64,
                    },
                    explain: |m| why(m, 2),
                    contrast: |c| c.hold = 3,
                }),
            },
            Stop {
                title: "Break it: keep them too long",
                text: "The ring needs buffers posted, and the area has only so many. An application that keeps its buffers too long leaves the NIC nowhere to write.",
                state: at(&[]),
                focus: "area",
                task: Some(Task {
                    ask: "In Break it, make the application keep each buffer 6 packet times.",
                    done: |m| m.safe_hold().is_some_and(|safe| m.hold > safe),
                    witness: || vec![ZeroCopyAction::SetHold(LONG_HOLD)],
                }),
                question: Some(Question {
                    ask: "Keeping each buffer 6 packet times, send 20 packets. How many does the NIC drop?",
                    kind: Ask::Number {
                        unit: "packets",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| {
                            after_twenty(m, ZeroCopyAction::SetHold(LONG_HOLD)).0.counts.dropped
                                as f64
                        },
                    },
                    explain: |m| why(&after_twenty(m, ZeroCopyAction::SetHold(LONG_HOLD)).0, 2),
                    contrast: |c| c.buffers = 12,
                }),
            },
            Stop {
                title: "Break it: no steering rule",
                text: "Header split, a steering rule, RSS kept off the bound queue, a driver that can bind memory to one queue: zero-copy needs them all. Take the rule away.",
                state: at(&[]),
                focus: "needs",
                task: Some(Task {
                    ask: "In Break it, turn the steering rule off.",
                    done: |m| !m.steering,
                    witness: || vec![ZeroCopyAction::SetSteering(false)],
                }),
                question: Some(Question {
                    ask: "Without the rule, send 20 packets. How many payload bytes are copied?",
                    kind: Ask::Number {
                        unit: "bytes",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| {
                            after_twenty(m, ZeroCopyAction::SetSteering(false)).0.counts.bytes_copied
                                as f64
                        },
                    },
                    explain: |m| {
                        why_about(
                            &after_twenty(m, ZeroCopyAction::SetSteering(false)).0,
                            "Without the rule",
                        )
                    },
                    contrast: |c| c.payload = 1_000,
                }),
            },
        ],
        next: &["/nic/descriptor-ring", "/nic/dma-map"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answers_are_the_models() {
        // 3 × 1,448 bytes copied; packet 1's payload in its own kernel
        // page; two buffers held; eight buffers, four on the ring, allow a
        // hold of 4, so 6 runs the pool dry: packets 11 and 13 find the
        // ring empty (every drop leaves one buffer fewer held, so the run
        // steadies); 20 × 1,448 copied without the rule.
        assert_eq!(
            crate::lesson::answer_texts(&lesson(), |_| {}),
            [
                "4344 bytes",
                "In a kernel page of its own, apart from its headers",
                "2 buffers",
                "2 packets",
                "28960 bytes"
            ]
        );
    }
}
