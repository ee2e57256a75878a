//! Incast's lesson: answers that fit the port's buffer, one server more
//! whose lost tail costs a whole retransmission timeout, the idle link while
//! it waits, the delay a bigger buffer trades for the loss, and the goodput
//! collapse against the number of servers. Every answer is read off the
//! model after running the first request from the stop's state.

use crate::lesson::{at_config, Ask, Lesson, Question, Stop, Task};
use demos::net::incast::{Fate, Incast, IncastAction, IncastConfig};
use demos::{Model, Tone};

use IncastAction::{Slice, Sweep, Toggle};

const YES_NO: &[&str] = &["yes", "no"];
/// Slices a question may run before it gives up.
const SLICES: usize = 10_000;

/// `m` once its first request is complete, and the model's warnings and
/// verdicts on the way (not every slice's tally).
fn first_request(m: &Incast) -> (Incast, Vec<String>) {
    let mut next = m.clone();
    let mut said = Vec::new();
    for _ in 0..SLICES {
        if !next.finished.is_empty() {
            break;
        }
        match next.apply(&Slice) {
            Ok(events) => said.extend(
                events
                    .into_iter()
                    .filter(|e| e.tone != Tone::Info)
                    .map(|e| e.text),
            ),
            Err(_) => break,
        }
    }
    (next, said)
}

/// What the model says about the first request, then its why.
fn first_request_said(m: &Incast) -> String {
    let (after, mut said) = first_request(m);
    said.extend(after.why());
    said.join(" ")
}

fn servers(n: usize) -> IncastConfig {
    IncastConfig {
        senders: n,
        ..IncastConfig::default()
    }
}

/// Slices until some server has nothing in flight and waits for its timer.
fn until_waiting() -> Vec<IncastAction> {
    let mut m = Incast::new(&servers(5));
    let mut out = Vec::new();
    while out.len() < 100 && !(0..m.senders()).any(|f| matches!(m.fate(f), Fate::WaitingRto(_))) {
        if m.apply(&Slice).is_err() {
            break;
        }
        out.push(Slice);
    }
    out
}

fn one_more_server(c: &mut IncastConfig) {
    c.senders += 1;
}

fn fine_rto(c: &mut IncastConfig) {
    c.fixes.fine_rto = true;
}

fn shorter_answers(c: &mut IncastConfig) {
    c.burst = 8;
}

pub fn lesson() -> Lesson<Incast> {
    Lesson {
        goal: "After this you can explain why many servers answering one client at once can make goodput collapse, and what a bigger buffer or a finer retransmission timer changes.",
        stops: vec![
            Stop {
                title: "A few servers answer",
                text: "The client asks every server for a block at once. Each answers with a burst at the full rate of its link, and all the bursts meet in the one switch port in front of the client, which sends only one packet at a time.",
                state: at_config(servers(4), &[]),
                focus: "port",
                task: None,
                question: Some(Question {
                    ask: "Is any packet dropped at the port while the first request is answered?",
                    kind: Ask::Choice {
                        options: YES_NO,
                        right: |m| vec![usize::from(first_request(m).0.drops() == 0)],
                    },
                    explain: first_request_said,
                    contrast: |setup| one_more_server(setup),
                }),
            },
            Stop {
                title: "One server more",
                text: "One more server, so one more burst into the same port. The client starts its next request only when every answer is complete.",
                state: at_config(servers(5), &[]),
                focus: "port",
                task: None,
                question: Some(Question {
                    ask: "How long does the first request take?",
                    kind: Ask::Number {
                        unit: "ms",
                        decimals: 0,
                        tolerance: 5.0,
                        answer: |m| {
                            first_request(m)
                                .0
                                .finished
                                .first()
                                .map_or(f64::NAN, |r| r.duration_ns as f64 / 1e6)
                        },
                    },
                    explain: first_request_said,
                    contrast: |setup| fine_rto(setup),
                }),
            },
            Stop {
                title: "Waiting for the timer",
                text: "The packet the port dropped was the last of its server's answer. No packet follows it, so no duplicate ACK comes back and fast retransmit cannot start. Without SACK and a tail loss probe, as here, the server waits for its retransmission timer while the link idles.",
                state: at_config(servers(5), &until_waiting()),
                focus: "sender-5",
                task: None,
                question: None,
            },
            Stop {
                title: "A bigger buffer",
                text: "Back to sixteen servers, now with a port that can hold every packet of every answer. Nothing is lost, but what does not fit on the wire must wait in the queue.",
                state: at_config(
                    IncastConfig {
                        fixes: demos::net::incast::Fixes {
                            big_buffer: true,
                            ..Default::default()
                        },
                        ..IncastConfig::default()
                    },
                    &[],
                ),
                focus: "port",
                task: None,
                question: Some(Question {
                    ask: "A packet leaves the port every 12 µs. What is the longest a packet waits in the port during the first request?",
                    kind: Ask::Number {
                        unit: "ms",
                        decimals: 1,
                        tolerance: 0.3,
                        answer: |m| first_request(m).0.worst_queueing_ns() as f64 / 1e6,
                    },
                    explain: first_request_said,
                    contrast: |setup| shorter_answers(setup),
                }),
            },
            Stop {
                title: "Break it: sixty-four servers",
                text: "Sixty-four servers answer at once into the shallow buffer. The chart plots goodput against the number of servers, one curve per set of fixes.",
                state: at_config(servers(64), &[]),
                focus: "chart",
                task: Some(Task {
                    ask: "Sweep the curve with no fix, switch on the 1 ms RTO floor, and sweep again.",
                    done: |m| m.sweeps.len() >= 2 && m.sweeps.iter().any(|s| s.fixes.fine_rto),
                    witness: || {
                        vec![
                            Sweep,
                            Toggle(demos::net::incast::Fix::FineRto),
                            Sweep,
                        ]
                    },
                }),
                question: None,
            },
        ],
        next: &["/net/congestion", "/net/allreduce"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The right answers at each stop, with `change` made to its settings.
    fn answers(change: fn(&mut IncastConfig)) -> Vec<Vec<String>> {
        crate::lesson::answers(&lesson(), |_, s| change(s))
    }

    #[test]
    fn the_answers_are_the_textbooks() {
        // 4 × 16 − 15 = 49 packets at the peak fit in 64; a fifth server
        // pushes the peak to 65 and its lost tail waits out SRTT + 200 ms;
        // 16 × 16 − 15 = 241 packets queued at 12 µs each.
        assert_eq!(
            answers(|_| {}),
            [vec!["no"], vec!["202 ms"], vec!["2.9 ms"]]
        );
        assert_eq!(answers(one_more_server)[0], ["yes"]);
        // With a 1 ms floor the timer fires after SRTT + 1 ms.
        let fine = answers(fine_rto);
        let ms: f64 = fine[1][0].trim_end_matches(" ms").parse().unwrap();
        assert!(ms < 5.0, "{ms} ms");
        // 16 × 8 − 7 = 121 packets at 12 µs.
        assert_eq!(answers(shorter_answers)[2], ["1.5 ms"]);
    }
}
