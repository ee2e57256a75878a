//! Congestion control's lesson: slow start doubling the window each round
//! trip, the buffer that overflows when it outgrows pipe plus buffer, the
//! timeout after a window's worth of losses, Reno halving on three duplicate
//! ACKs, and the queueing delay of a buffer far larger than the pipe. Every
//! answer is read off the model after stepping it from the stop's state.

use crate::lesson::{at, run, Ask, Lesson, Question, Stop, Task};
use demos::model::Tone;
use demos::net::congestion::{segments_tenths, Congestion, CongestionAction, CongestionConfig};
use demos::{Model, Scenario};

use CongestionAction::{DropNext, Event, Rtt};

const YES_NO: &[&str] = &["yes", "no"];
/// Single events a question may step through before it gives up.
const EVENTS: usize = 5_000;
/// Round trips into the run where flow 1 is in congestion avoidance, after
/// its slow start overshot and timed out.
const STEADY: usize = 30;
/// Round trips into the bloated run where the queue is long and nothing
/// has been lost yet.
const BLOATING: usize = 10;

fn cwnd_segments(m: &Congestion) -> f64 {
    f64::from(segments_tenths(m.path.flows[0].sender.cwnd)) / 10.0
}

fn drops(m: &Congestion) -> u64 {
    m.path.flows.iter().map(|f| f.drops).sum()
}

/// Flow 1 loses its next packet; events run until its fast recovery is
/// over (or its timer fires). Returns the model then and what was said
/// about the loss and the recovery (not every ACK).
fn lose_one(m: &Congestion) -> (Congestion, Vec<String>) {
    let mut next = m.clone();
    let mut said = Vec::new();
    if let Err(r) = next.apply(&DropNext(0)) {
        return (next, vec![r.reason]);
    }
    let (fast, timeouts) = {
        let s = &next.path.flows[0].sender;
        (s.fast_retransmits, s.timeouts)
    };
    for _ in 0..EVENTS {
        let Ok(events) = next.apply(&Event) else {
            break;
        };
        said.extend(
            events
                .into_iter()
                .filter(|e| e.tone != Tone::Info)
                .map(|e| e.text),
        );
        let s = &next.path.flows[0].sender;
        if s.timeouts > timeouts || (s.fast_retransmits > fast && !s.in_recovery) {
            break;
        }
    }
    (next, said)
}

fn slower_link(c: &mut CongestionConfig) {
    c.link_mbps = 2;
}

fn bigger_buffer(c: &mut CongestionConfig) {
    c.buffer = 100;
}

fn double_buffer(c: &mut CongestionConfig) {
    c.buffer = 64;
}

fn faster_link(c: &mut CongestionConfig) {
    c.link_mbps = 20;
}

pub fn lesson() -> Lesson<Congestion> {
    Lesson {
        goal: "After this you can explain how a TCP sender finds the bandwidth of a path by losing packets: slow start, halving on three duplicate ACKs, one segment after a timeout, and why a huge buffer only adds delay.",
        stops: vec![
            Stop {
                title: "Slow start",
                text: "Flow 1 began with Linux's initial window and its first ACKs are on the way back. In slow start every ACK that acknowledges new data adds one segment to cwnd.",
                state: at(&[Rtt]),
                focus: "flow-1",
                task: None,
                question: Some(Question {
                    ask: "Step one round trip. How many segments is cwnd then?",
                    kind: Ask::Number {
                        unit: "segments",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| cwnd_segments(&run(m, &[Rtt]).0),
                    },
                    explain: |m| run(m, &[Rtt]).1.join(" "),
                    contrast: |setup| slower_link(setup),
                }),
            },
            Stop {
                title: "The buffer fills",
                text: "The window is now larger than the path holds, so the extra packets wait in the bottleneck's buffer and the RTT grows. The sender still doubles its window every round trip.",
                state: at(&vec![Rtt; 3]),
                focus: "queue",
                task: None,
                question: Some(Question {
                    ask: "Step one more round trip. Does the buffer overflow and drop a packet?",
                    kind: Ask::Choice {
                        options: YES_NO,
                        right: |m| vec![usize::from(drops(&run(m, &[Rtt]).0) == drops(m))],
                    },
                    explain: |m| run(m, &[Rtt]).1.join(" "),
                    contrast: |setup| bigger_buffer(setup),
                }),
            },
            Stop {
                title: "A timeout",
                text: "Slow start overshot and lost many packets of one window. Reno's fast retransmit resent only the first lost packet, and the next ACK ended its recovery. With the other holes unfilled and the window full, no more ACKs came, so the sender waited for its retransmission timer, cut cwnd to one segment and began slow start again.",
                state: at(&vec![Rtt; 15]),
                focus: "chart",
                task: None,
                question: None,
            },
            Stop {
                title: "Three duplicate ACKs",
                text: "Now flow 1 is in congestion avoidance, adding about one segment per round trip. When one packet is lost, the packets after it still arrive and each brings back a duplicate ACK.",
                state: at(&vec![Rtt; STEADY]),
                focus: "flow-1",
                task: None,
                question: Some(Question {
                    ask: "Lose flow 1's next packet. When fast recovery is over, about how many segments is cwnd?",
                    kind: Ask::Number {
                        unit: "segments",
                        decimals: 1,
                        tolerance: 1.0,
                        answer: |m| cwnd_segments(&lose_one(m).0),
                    },
                    explain: |m| lose_one(m).1.join(" "),
                    contrast: |setup| double_buffer(setup),
                }),
            },
            Stop {
                title: "Break it: bufferbloat",
                text: "The same link with a buffer about thirty times what the pipe holds. Nothing has been lost yet, so Reno keeps growing its window and every extra packet only joins the queue.",
                state: Scenario {
                    config: CongestionConfig::bufferbloat(),
                    actions: vec![Rtt; BLOATING],
                },
                focus: "queue",
                task: Some(Task {
                    ask: "Step until the buffer overflows, and watch the RTT on the way.",
                    done: |m| drops(m) > 0,
                    witness: || vec![Rtt; 25],
                }),
                question: Some(Question {
                    ask: "A packet joins the back of the queue now. How long does it wait before it is on the wire?",
                    kind: Ask::Number {
                        unit: "ms",
                        decimals: 0,
                        tolerance: 5.0,
                        answer: |m| m.path.queue_delay() as f64 / 1e6,
                    },
                    explain: |m| m.why().join(" "),
                    contrast: |setup| faster_link(setup),
                }),
            },
        ],
        next: &["/net/incast", "/net/handshake"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The right answers at each stop, as the reveal shows them.
    fn answers(change: fn(&mut CongestionConfig)) -> Vec<Vec<String>> {
        crate::lesson::answers(&lesson(), |_, s| change(s))
    }

    #[test]
    fn the_answers_are_the_textbooks() {
        // Slow start doubles 10 to 20; a window of 40 growing to 80 overflows
        // a 33-packet pipe plus a 32-packet buffer; Reno halves a window of
        // about 33; 238 packets queued at 1.2 ms each.
        assert_eq!(
            answers(|_| {}),
            [
                vec!["20 segments"],
                vec!["yes"],
                vec!["17.0 segments"],
                vec!["286 ms"]
            ]
        );
        // At 2 Mbit/s the ACKs come 6 ms apart: only 6 of 10 in the round trip.
        assert_eq!(answers(slower_link)[0], ["16 segments"]);
        // 33 + 100 places take the doubled window.
        assert_eq!(answers(bigger_buffer)[1], ["no"]);
    }
}
