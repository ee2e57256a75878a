//! The PCIe budget's lesson: a TLP's fixed cost, cutting at the MPS, a read
//! crossing twice, too few read tags, and a NIC's cost per packet. Every
//! answer is read off the model at the stop or after the change asked.

use crate::lesson::{after, at, at_config, Ask, Lesson, Question, Stop, Task};
use demos::host::pcie::{Kind, Pcie, PcieAction, PcieConfig, PACKETS};
use demos::Model;

/// The stops' settings, each from the demo's defaults.
fn small_write() -> PcieConfig {
    PcieConfig {
        size: 64,
        ..PcieConfig::default()
    }
}

fn small_read() -> PcieConfig {
    PcieConfig {
        kind: Kind::Read,
        ..small_write()
    }
}

/// A Gen5 ×16 link reading 4 KiB at a time, with all 256 tags.
fn fast_read() -> PcieConfig {
    PcieConfig {
        generation: 5,
        lanes: 16,
        kind: Kind::Read,
        size: 4_096,
        ..PcieConfig::default()
    }
}

/// The tag count the break-it stop asks for: 5-bit tags' 32.
const FEW_TAGS: u32 = 32;
/// The MPS the second stop asks for.
const SMALL_MPS: u32 = 128;

fn why(m: &Pcie, i: usize) -> String {
    m.why().get(i).cloned().unwrap_or_default()
}

pub fn lesson() -> Lesson<Pcie> {
    Lesson {
        goal: "After this you can work out what a PCIe link leaves for a device's DMA, and why small transfers, small payload sizes and too few read tags each cost bandwidth.",
        stops: vec![
            Stop {
                title: "A TLP's fixed cost",
                text: "The device writes 64 bytes into host memory. The bytes travel in one memory-write TLP, and the link adds framing, a sequence number, a CRC and a header to it whatever it carries.",
                state: at_config(small_write(), &[]),
                focus: "tlp-0",
                task: None,
                question: Some(Question {
                    ask: "What share of the bytes this write puts on the wire is data?",
                    kind: Ask::Number {
                        unit: "%",
                        decimals: 1,
                        tolerance: 0.5,
                        answer: |m| 100.0 * m.data_share(),
                    },
                    explain: |m| why(m, 1),
                    contrast: |c| c.size = 512,
                }),
            },
            Stop {
                title: "Cut at the MPS",
                text: "A 1,500-byte packet is written in TLPs of at most the maximum payload size the device was programmed with. Each TLP pays the same overhead again.",
                state: at(&[]),
                focus: "tlp-0",
                task: None,
                question: Some(Question {
                    ask: "Set the maximum payload size to 128 bytes. How many TLPs does the write take then?",
                    kind: Ask::Number {
                        unit: "TLPs",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| after(m, PcieAction::SetMps(SMALL_MPS)).0.total() as f64,
                    },
                    explain: |m| after(m, PcieAction::SetMps(SMALL_MPS)).1,
                    contrast: |c| c.size = 3_000,
                }),
            },
            Stop {
                title: "A read crosses twice",
                text: "To send a packet the device reads it from host memory: a request goes up, and the data comes back down in completions, each with its own header.",
                state: at_config(small_read(), &[]),
                focus: "curve",
                task: None,
                question: Some(Question {
                    ask: "Back to back, how many Gb/s of data do 64-byte reads get on this Gen3 ×8 link?",
                    kind: Ask::Number {
                        unit: "Gb/s",
                        decimals: 1,
                        tolerance: 0.2,
                        answer: |m| m.effective_gbps(),
                    },
                    explain: |m| why(m, 2),
                    contrast: |c| c.lanes = 16,
                }),
            },
            Stop {
                title: "Break it: too few tags",
                text: "A reader may have only as many requests in flight as it has tags, and each waits the whole read latency. A fast link needs many of them.",
                state: at_config(fast_read(), &[]),
                focus: "curve",
                task: Some(Task {
                    ask: "In Break it, set Read tags in flight to 32.",
                    done: |m| m.tags <= FEW_TAGS,
                    witness: || vec![PcieAction::SetTags(FEW_TAGS)],
                }),
                question: Some(Question {
                    ask: "With 32 tags and this latency, how many Gb/s of data can the reads get?",
                    kind: Ask::Number {
                        unit: "Gb/s",
                        decimals: 1,
                        tolerance: 0.2,
                        answer: |m| after(m, PcieAction::SetTags(FEW_TAGS)).0.effective_gbps(),
                    },
                    explain: |m| why(&after(m, PcieAction::SetTags(FEW_TAGS)).0, 2),
                    contrast: |c| c.latency_ns = 1_000,
                }),
            },
            Stop {
                title: "Per packet",
                text: "A simple NIC spends several transactions on every packet it receives besides the packet itself: the table lists them. For small packets they dominate.",
                state: at(&[]),
                focus: "nic",
                task: None,
                question: Some(Question {
                    ask: "How many million 60-byte packets a second can this NIC receive over the link?",
                    kind: Ask::Number {
                        unit: "M/s",
                        decimals: 1,
                        tolerance: 0.2,
                        answer: |m| m.receive_rate(PACKETS[0]) / 1e6,
                    },
                    explain: |m| why(m, m.why().len() - 1),
                    contrast: |c| c.lanes = 4,
                }),
            },
        ],
        next: &["/nic/descriptor-ring", "/nic/mmio"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answers_are_the_links() {
        // 64 / (64 + 24) = 72.7 %; 1,500 bytes at MPS 128 is 12 TLPs; a
        // 64-byte read brings 64 bytes in 20 + 64 on a 57.88 Gb/s link:
        // 44.1; 32 tags × 512 B × 8 / 500 ns = 262.1 Gb/s; the receive path
        // needs 200 bytes up for a 60-byte packet: 57.88e9 / 1600 = 36.2 M.
        assert_eq!(
            crate::lesson::answer_texts(&lesson(), |_| {}),
            ["72.7 %", "12 TLPs", "44.1 Gb/s", "262.1 Gb/s", "36.2 M/s"]
        );
    }
}
