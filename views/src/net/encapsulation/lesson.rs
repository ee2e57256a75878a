//! Encapsulation's lesson: what each layer adds to a send(), a datagram
//! over the MTU cut into fragments, the same datagram with DF set dropped
//! and reported by ICMP, TCP lowering its MSS to fit, a flipped bit the FCS
//! catches, and the damage a middlebox hides from it. Every answer is read
//! off the model after stepping it from the stop's state.

use super::long_payload;
use crate::lesson::{at, at_config, run, Ask, Lesson, Question, Stop, Task};
use demos::net::encapsulation::{EncapAction, EncapConfig, Encapsulation, Stage, Verdict};
use demos::net::wire::receive::Check;
use demos::net::wire::{ethernet, ipv4, tcp};
use demos::Model;

use EncapAction::{FlipBit, SetMiddlebox, Step};

/// Steps a question may take before it gives up.
const STEPS: usize = 64;
/// The first data byte of a frame that carries the TCP header.
const DATA: usize = ethernet::HEADER_LEN + ipv4::HEADER_LEN + tcp::HEADER_LEN;
/// A bit of the first data byte (bit 0 is the most significant).
const BIT: usize = 3;
const FATES: &[&str] = &[
    "sends it whole",
    "cuts it into fragments",
    "drops it and ICMP reports the MTU",
];
const CHECKS: &[&str] = &[
    "the NIC's FCS check",
    "IP's header checksum",
    "TCP's checksum",
    "none: the damage is delivered",
];

/// Steps until the first frame is on the wire.
fn to_wire(m: &Encapsulation) -> (Encapsulation, Vec<String>) {
    let mut next = m.clone();
    let mut said = Vec::new();
    for _ in 0..STEPS {
        if next.stage == Stage::Wire {
            break;
        }
        match next.apply(&Step) {
            Ok(events) => said.extend(events.into_iter().map(|e| e.text)),
            Err(_) => break,
        }
    }
    (next, said)
}

/// What IP does with the segment TCP built: one of [`FATES`].
fn fate(m: &Encapsulation) -> usize {
    let after = run(m, &[Step]).0;
    match (after.stage, after.packets.len()) {
        (Stage::Refused, _) => 2,
        (_, 1) => 0,
        _ => 1,
    }
}

/// The middlebox damages the same bit of the first and third data bytes:
/// the same place in two 16-bit words of the TCP checksum's sum.
fn two_flips() -> [EncapAction; 3] {
    [
        FlipBit {
            frame: 0,
            bit: DATA * 8 + BIT,
        },
        FlipBit {
            frame: 0,
            bit: (DATA + 2) * 8 + BIT,
        },
        Step,
    ]
}

/// Which of [`CHECKS`] throws the frame away.
fn catcher(m: &Encapsulation) -> usize {
    match run(m, &two_flips()).0.verdict {
        Some(Verdict::Caught { check, .. }) => match check {
            Check::Fcs | Check::MacFilter | Check::EtherType => 0,
            Check::TcpHeader | Check::TcpChecksum | Check::TcpPort => 2,
            _ => 1,
        },
        _ => 3,
    }
}

fn catcher_said(m: &Encapsulation) -> String {
    let (after, mut said) = run(m, &two_flips());
    said.extend(after.why());
    said.join(" ")
}

/// 1,000 bytes, MSS 1460, MTU 576: the demo's Break-it settings.
fn oversized(df: bool) -> EncapConfig {
    EncapConfig {
        payload: long_payload(),
        mss: 1460,
        mtu: 576,
        df,
        ..EncapConfig::default()
    }
}

fn tiny_payload(c: &mut EncapConfig) {
    c.payload = "hi".into();
}

fn smaller_mtu(c: &mut EncapConfig) {
    c.mtu = 300;
}

fn ethernet_mtu(c: &mut EncapConfig) {
    c.mtu = 1500;
}

fn mtu_1000(c: &mut EncapConfig) {
    c.mtu = 1000;
}

fn put_not_get(c: &mut EncapConfig) {
    c.payload = c.payload.replacen("GET", "PUT", 1);
}

pub fn lesson() -> Lesson<Encapsulation> {
    Lesson {
        goal: "After this you can explain what each layer adds to the bytes of a send(), what IP does with a datagram larger than the MTU, and which check catches a bit damaged on the way.",
        stops: vec![
            Stop {
                title: "One send()",
                text: "An HTTP request waits in the socket buffer. On its way down, TCP and IP each put a header in front of it, and Ethernet adds its own header in front and a checksum, the FCS, behind.",
                state: at(&[]),
                focus: "layer-app",
                task: None,
                question: Some(Question {
                    ask: "TCP and IP headers are 20 bytes each, the Ethernet header 14 and the FCS 4. How many bytes is the frame on the wire, FCS included?",
                    kind: Ask::Number {
                        unit: "bytes",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| to_wire(m).0.wire.first().map_or(f64::NAN, |f| f.len() as f64),
                    },
                    explain: |m| to_wire(m).1.join(" "),
                    contrast: |setup| tiny_payload(setup),
                }),
            },
            Stop {
                title: "Larger than the MTU",
                text: "Now the payload is a thousand bytes and the link's MTU is smaller than the datagram. Don't Fragment (DF) is clear, so IP may cut the datagram up; each fragment but the last carries a multiple of 8 data bytes.",
                state: at_config(oversized(false), &[Step]),
                focus: "layer-ip",
                task: None,
                question: Some(Question {
                    ask: "Into how many fragments does IP cut this datagram?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| run(m, &[Step]).0.packets.len() as f64,
                    },
                    explain: |m| run(m, &[Step]).1.join(" "),
                    contrast: |setup| smaller_mtu(setup),
                }),
            },
            Stop {
                title: "Don't Fragment",
                text: "The same datagram with DF set, as Linux sets it on TCP to discover the path's MTU. A host or router may not fragment it.",
                state: at_config(oversized(true), &[Step]),
                focus: "layer-ip",
                task: None,
                question: Some(Question {
                    ask: "What does IP do with this datagram?",
                    kind: Ask::Choice {
                        options: FATES,
                        right: |m| vec![fate(m)],
                    },
                    explain: |m| run(m, &[Step]).1.join(" "),
                    contrast: |setup| ethernet_mtu(setup),
                }),
            },
            Stop {
                title: "TCP makes it fit",
                text: "ICMP's \"fragmentation needed\" carries the MTU back to the sender. TCP must not send datagrams larger than that, so it cuts its segments smaller and sends again.",
                state: at_config(oversized(true), &[Step, Step]),
                focus: "layer-tcp",
                task: None,
                question: Some(Question {
                    ask: "What MSS does TCP cut with from now on?",
                    kind: Ask::Number {
                        unit: "bytes",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| run(m, &[Step]).0.mss as f64,
                    },
                    explain: |m| run(m, &[Step]).1.join(" "),
                    contrast: |setup| mtu_1000(setup),
                }),
            },
            Stop {
                title: "A bit flips on the wire",
                text: "The request's frame is on the wire. The receiving NIC computes a CRC-32 over the frame and compares it with the FCS before anything else looks at the bytes.",
                state: at(&[Step, Step, Step, Step]),
                focus: "wire",
                task: Some(Task {
                    ask: "Flip a bit of the TCP data in Break it, then step to see which check throws the frame away.",
                    done: |m| m.counters.caught_fcs > 0,
                    witness: || {
                        vec![
                            FlipBit {
                                frame: 0,
                                bit: DATA * 8 + BIT,
                            },
                            Step,
                        ]
                    },
                }),
                question: None,
            },
            Stop {
                title: "Break it: a middlebox",
                text: "A router, or any box that rewrites frames, checks the FCS as a frame comes in and computes a new one as it goes out. Damage done inside it gets a valid FCS, leaving only IP's and TCP's checksums: ones' complement sums of 16-bit words.",
                state: at(&[Step, Step, Step, Step, SetMiddlebox(true)],
                ),
                focus: "middlebox",
                task: None,
                question: Some(Question {
                    ask: "Inside the middlebox the same bit flips in the first and the third data byte, the same place of two 16-bit words. Which check throws the segment away?",
                    kind: Ask::Choice {
                        options: CHECKS,
                        right: |m| vec![catcher(m)],
                    },
                    explain: catcher_said,
                    contrast: |setup| put_not_get(setup),
                }),
            },
        ],
        next: &["/net/handshake", "/nic/cut-through"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The right answers at each stop, with `change` made to its settings.
    fn answers(change: fn(&mut EncapConfig)) -> Vec<Vec<String>> {
        crate::lesson::answers(&lesson(), |_, s| change(s))
    }

    #[test]
    fn the_answers_are_the_textbooks() {
        // 34 bytes + 20 + 20 + 14 + 4; a 1,020-byte segment in fragments of
        // 552 data bytes; DF set: dropped; MSS = 576 − 40; 'G' (0x47) and
        // 'T' (0x54) differ in bit 3, so one word gains what the other loses
        // and the ones' complement sum does not change.
        assert_eq!(
            answers(|_| {}),
            [
                vec!["92 bytes"],
                vec!["2"],
                vec!["drops it and ICMP reports the MTU"],
                vec!["536 bytes"],
                vec!["none: the damage is delivered"]
            ]
        );
        // 2 + 40 + 14 = 56, padded to 60, + 4.
        assert_eq!(answers(tiny_payload)[0], ["64 bytes"]);
        // 280 data bytes per fragment: 1,020 needs 4.
        assert_eq!(answers(smaller_mtu)[1], ["4"]);
        assert_eq!(answers(ethernet_mtu)[2], ["sends it whole"]);
        assert_eq!(answers(mtu_1000)[3], ["960 bytes"]);
        // 'P' (0x50) has bit 3 set like 'T': both words lose, the sum moves.
        assert_eq!(answers(put_not_get)[4], ["TCP's checksum"]);
    }
}
