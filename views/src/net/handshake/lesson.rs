//! The handshake's lesson: the SYN's sequence number, the first retransmission
//! timer, what a lost SYN costs, the 2·MSL of TIME-WAIT and the lost last ACK
//! it guards against, and a crash that leaves a half-open connection. Every
//! answer is read off the model after stepping it from the stop's state.

use crate::lesson::{at, Ask, Lesson, Question, Stop, Task};
use demos::net::handshake::{Ending, Handshake, HandshakeAction, HandshakeConfig, Side, TcpState};
use demos::net::wire::tcp::SYN;
use demos::Model;

use HandshakeAction::{ActiveOpen, Advance, Close, Crash, Drop, Send};

/// Events a question may step through before it gives up.
const STEPS: usize = 32;
const YES_NO: &[&str] = &["yes", "no"];

/// The three segments of the handshake, each delivered.
const OPENED: [HandshakeAction; 4] = [ActiveOpen(Side::Client), Advance, Advance, Advance];

/// Steps `m` until `stop` holds (or nothing is left to happen), gathering
/// the model's narration on the way.
fn step_until(m: &Handshake, stop: impl Fn(&Handshake) -> bool) -> (Handshake, Vec<String>) {
    let mut next = m.clone();
    let mut said = Vec::new();
    for _ in 0..STEPS {
        if stop(&next) {
            break;
        }
        match next.apply(&Advance) {
            Ok(events) => said.extend(events.into_iter().map(|e| e.text)),
            Err(_) => break,
        }
    }
    (next, said)
}

/// The ACK number of the server's first SYN,ACK, after the SYN arrives.
fn syn_ack_number(m: &Handshake) -> Option<u32> {
    let (after, _) = step_until(m, |n| {
        n.segments
            .iter()
            .any(|s| s.from == Side::Server && s.flags & SYN != 0)
    });
    after
        .segments
        .iter()
        .find(|s| s.from == Side::Server && s.flags & SYN != 0)
        .map(|s| s.ack)
}

fn syn_ack_said(m: &Handshake) -> String {
    step_until(m, |n| {
        n.segments
            .iter()
            .any(|s| s.from == Side::Server && s.flags & SYN != 0)
    })
    .1
    .join(" ")
}

/// Steps until the client is ESTABLISHED or has retransmitted.
fn established_or_resent(m: &Handshake) -> (Handshake, Vec<String>) {
    step_until(m, |n| {
        n.client.state == TcpState::Established || n.counters.retransmissions > 0
    })
}

/// Steps until the client is ESTABLISHED.
fn until_established(m: &Handshake) -> (Handshake, Vec<String>) {
    step_until(m, |n| n.client.state == TcpState::Established)
}

/// From the server's FIN reaching the client to the client's TCB deleted:
/// the time spent, and what was said.
fn time_wait(m: &Handshake) -> (u64, Vec<String>) {
    let (entered, mut said) = step_until(m, |n| n.client.state == TcpState::TimeWait);
    let (closed, more) = step_until(&entered, |n| n.client.state == TcpState::Closed);
    said.extend(more);
    (closed.now_ms - entered.now_ms, said)
}

/// Opened, then both sides close; the server's FIN and its ACK of the
/// client's FIN are on the way to the client.
fn closing() -> Vec<HandshakeAction> {
    let mut out = OPENED.to_vec();
    out.extend([Close(Side::Client), Advance, Close(Side::Server)]);
    out
}

/// The client in TIME-WAIT, its last ACK in flight.
fn last_ack() -> Vec<HandshakeAction> {
    let mut out = closing();
    out.extend([Advance, Advance]);
    out
}

fn other_client_isn(c: &mut HandshakeConfig) {
    c.client_isn = 1_000;
}

fn long_path(c: &mut HandshakeConfig) {
    c.delay_ms = 600;
}

fn slower_path(c: &mut HandshakeConfig) {
    c.delay_ms = 200;
}

fn short_msl(c: &mut HandshakeConfig) {
    c.msl_ms = 30_000;
}

pub fn lesson() -> Lesson<Handshake> {
    Lesson {
        goal: "After this you can explain why a SYN and a FIN each take a sequence number, what a lost SYN costs, and why the side that closes first waits 2·MSL in TIME-WAIT.",
        stops: vec![
            Stop {
                title: "The SYN",
                text: "The client picks its initial sequence number (ISN) and sends a SYN, then waits in SYN-SENT. A SYN carries no data, yet it uses up one sequence number.",
                state: at(&[ActiveOpen(Side::Client)]),
                focus: "seg-1",
                task: None,
                question: Some(Question {
                    ask: "The server answers with a SYN,ACK. What acknowledgment number does it carry?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| syn_ack_number(m).map_or(f64::NAN, f64::from),
                    },
                    explain: syn_ack_said,
                    contrast: |setup| other_client_isn(setup),
                }),
            },
            Stop {
                title: "The SYN,ACK",
                text: "The server took the SYN, picked its own ISN and answers with SYN and ACK in one segment. Since its SYN left, the client's retransmission timer has been running with RFC 6298's first RTO, one second.",
                state: at(&[ActiveOpen(Side::Client), Advance]),
                focus: "seg-2",
                task: None,
                question: Some(Question {
                    ask: "Does the SYN,ACK reach the client before the client's retransmission timer fires?",
                    kind: Ask::Choice {
                        options: YES_NO,
                        right: |m| {
                            let (after, _) = established_or_resent(m);
                            vec![usize::from(after.counters.retransmissions > 0)]
                        },
                    },
                    explain: |m| established_or_resent(m).1.join(" "),
                    contrast: |setup| long_path(setup),
                }),
            },
            Stop {
                title: "A lost SYN",
                text: "This time the SYN is lost on the link. Nothing comes back, so only the client's timer can tell it to send the SYN again.",
                state: at(&[ActiveOpen(Side::Client), Drop { id: 1 }]),
                focus: "client",
                task: None,
                question: Some(Question {
                    ask: "At what time does the client reach ESTABLISHED?",
                    kind: Ask::Number {
                        unit: "ms",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| {
                            let (after, _) = until_established(m);
                            if after.client.state == TcpState::Established {
                                after.now_ms as f64
                            } else {
                                f64::NAN
                            }
                        },
                    },
                    explain: |m| until_established(m).1.join(" "),
                    contrast: |setup| slower_path(setup),
                }),
            },
            Stop {
                title: "Both sides close",
                text: "The client closed first, then the server. Each FIN takes one sequence number, like a SYN. The server's ACK of the client's FIN and its own FIN are on the way to the client.",
                state: at(&closing()),
                focus: "seg-6",
                task: None,
                question: Some(Question {
                    ask: "Once the server's FIN reaches the client, how many seconds pass before the client deletes the connection?",
                    kind: Ask::Number {
                        unit: "s",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| time_wait(m).0 as f64 / 1000.0,
                    },
                    explain: |m| time_wait(m).1.join(" "),
                    contrast: |setup| short_msl(setup),
                }),
            },
            Stop {
                title: "What TIME-WAIT waits for",
                text: "The client is in TIME-WAIT and its last ACK is on the link. If that ACK is lost, the server sends its FIN again, and only a client that still keeps the connection can acknowledge it.",
                state: at(&last_ack()),
                focus: "seg-7",
                task: Some(Task {
                    ask: "Click the client's last ACK to lose it, then step until the server is CLOSED.",
                    done: |m| {
                        m.counters.dropped > 0
                            && m.counters.retransmissions > 0
                            && m.server.state == TcpState::Closed
                            && m.client.state == TcpState::TimeWait
                    },
                    witness: || vec![Drop { id: 7 }, Advance, Advance, Advance],
                }),
                question: None,
            },
            Stop {
                title: "Break it: a half-open connection",
                text: "Both sides are ESTABLISHED. A host that crashes forgets its connections and tells no one, so its peer still believes in the connection until it next sends.",
                state: at(&OPENED),
                focus: "server",
                task: Some(Task {
                    ask: "Crash the server in Break it, send from the client, and step until the client hears back.",
                    done: |m| m.counters.crashes > 0 && m.client.ended == Some(Ending::Reset),
                    witness: || {
                        vec![
                            Crash(Side::Server),
                            Send {
                                side: Side::Client,
                                bytes: 100,
                            },
                            Advance,
                            Advance,
                        ]
                    },
                }),
                question: None,
            },
        ],
        next: &["/net/congestion", "/net/encapsulation"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The right answers at each stop, as the reveal shows them.
    fn answers(config: HandshakeConfig) -> Vec<Vec<String>> {
        crate::lesson::answers(&lesson(), |_, s| s.config = config.clone())
    }

    #[test]
    fn the_answers_are_the_textbooks() {
        // ACK = ISN + 1; a 100 ms round trip beats the 1 s initial RTO; a
        // lost SYN costs the RTO plus a round trip; TIME-WAIT is 2·MSL with
        // RFC 9293's MSL of two minutes.
        assert_eq!(
            answers(HandshakeConfig::default()),
            [vec!["101"], vec!["yes"], vec!["1100 ms"], vec!["240 s"]]
        );
        assert_eq!(
            answers(HandshakeConfig {
                client_isn: 1_000,
                ..HandshakeConfig::default()
            })[0],
            ["1001"]
        );
        // A 1.2 s round trip: the timer fires before the SYN,ACK arrives.
        assert_eq!(
            answers(HandshakeConfig {
                delay_ms: 600,
                ..HandshakeConfig::default()
            })[1],
            ["no"]
        );
        assert_eq!(
            answers(HandshakeConfig {
                delay_ms: 200,
                ..HandshakeConfig::default()
            })[2],
            ["1400 ms"]
        );
        assert_eq!(
            answers(HandshakeConfig {
                msl_ms: 30_000,
                ..HandshakeConfig::default()
            })[3],
            ["60 s"]
        );
    }
}
