//! Interrupt moderation's lesson: the NIC holds its interrupt back by time
//! or by count, one interrupt then carries a batch, the wait is what that
//! costs, and a count alone can strand a packet. Every answer is read off
//! the model after running its clock.

use crate::lesson::{at, at_config, texts, Ask, Lesson, Question, Stop, Task};
use demos::nic::coalescing::{
    Coalescing, CoalescingAction, CoalescingConfig, Summary, HORIZON_NS, STRANDED_NS,
};
use demos::text::{duration, grouped};
use demos::Model;
use CoalescingAction::*;

/// The choices for "which limit fires".
const LIMITS: &[&str] = &[
    "rx-usecs: the wait runs out first",
    "rx-frames: the count is reached first",
];
/// The choices for "what a longer wait changes".
const TRADES: &[&str] = &[
    "fewer interrupts, longer waits",
    "fewer interrupts, shorter waits",
    "more interrupts, longer waits",
    "more interrupts, shorter waits",
];
/// The rx-usecs the trade-off question asks about.
const LONGER_USECS: u32 = 100;

/// Slow traffic: packets far apart, moderation as by default.
fn slow() -> CoalescingConfig {
    CoalescingConfig {
        rate_pps: 10_000,
        ..CoalescingConfig::default()
    }
}

/// What Break it sets: no time limit, a count of 32, slow traffic.
fn count_only() -> CoalescingConfig {
    CoalescingConfig {
        rate_pps: 10_000,
        rx_usecs: 0,
        rx_frames: 32,
        ..CoalescingConfig::default()
    }
}

/// Steps the clock of a copy of `m` until `done` holds or the run ends,
/// with the narration of every step.
fn run_until(m: &Coalescing, done: impl Fn(&Coalescing) -> bool) -> (Coalescing, String) {
    let mut next = m.clone();
    let mut said = Vec::new();
    while !done(&next) && next.now < HORIZON_NS {
        said.push(texts(next.apply(&Advance)));
    }
    (next, said.join(" "))
}

/// `m` run until the next interrupt has fired.
fn next_irq(m: &Coalescing) -> (Coalescing, String) {
    let irqs = m.totals.irqs;
    run_until(m, |n| n.totals.irqs > irqs)
}

/// The packets the next interrupt's poll takes, once it has ended, and
/// the narration up to then.
fn next_batch(m: &Coalescing) -> (u32, String) {
    let number = m.totals.irqs + 1;
    let ended = |n: &Coalescing| {
        n.recent_irqs
            .iter()
            .find(|r| r.number == number && r.poll_end.is_some())
            .map(|r| r.batch)
    };
    let (next, said) = run_until(m, |n| ended(n).is_some());
    (ended(&next).unwrap_or(0), said)
}

/// The current setting and rx-usecs [`LONGER_USECS`], each run alone for 1 ms.
fn trade(m: &Coalescing) -> (Summary, Summary) {
    (
        m.summary(m.rx_usecs, m.rx_frames),
        m.summary(LONGER_USECS, m.rx_frames),
    )
}

fn trade_index(m: &Coalescing) -> usize {
    let (now, longer) = trade(m);
    let fewer = longer.irqs_per_s < now.irqs_per_s;
    let wait_longer = longer.avg_latency_ns > now.avg_latency_ns;
    usize::from(!fewer) * 2 + usize::from(!wait_longer)
}

fn trade_explain(m: &Coalescing) -> String {
    let (now, longer) = trade(m);
    let say = |s: &Summary| {
        format!(
            "rx-usecs {} gives {} interrupts/s and an average wait of {}",
            s.usecs,
            grouped(s.irqs_per_s as i64),
            duration(s.avg_latency_ns)
        )
    };
    format!(
        "Each run alone for 1 ms at this rate, with rx-frames {}: {}; {}.",
        m.rx_frames,
        say(&now),
        say(&longer)
    )
}

/// The oldest waiting packet has waited long enough to count as stranded.
fn stranded(m: &Coalescing) -> bool {
    m.pending.front().is_some_and(|&t| m.now - t >= STRANDED_NS)
}

pub fn lesson() -> Lesson<Coalescing> {
    Lesson {
        goal: "After this you can explain how a NIC trades latency for fewer interrupts by holding its interrupt back, and why a packet count with no time limit can leave a packet waiting.",
        stops: vec![
            Stop {
                title: "Holding the interrupt back",
                text: "Packets arrive at a steady rate. The NIC does not interrupt for each one: it waits until rx-usecs have passed since the first waiting packet, or until rx-frames packets are waiting, whichever comes first.",
                state: at(&[]),
                focus: "timeline",
                task: None,
                question: Some(Question {
                    ask: "Which limit will fire the first interrupt?",
                    kind: Ask::Choice {
                        options: LIMITS,
                        right: |m| vec![usize::from(next_irq(m).0.totals.by_frames > 0)],
                    },
                    explain: |m| next_irq(m).1,
                    contrast: |c| c.rx_frames = 3,
                }),
            },
            Stop {
                title: "One interrupt, one batch",
                text: "The interrupt started a poll that took every waiting packet. Packets that came during the poll raised no interrupt of their own: the poll found them. Each bar shows how many packets one poll took.",
                state: at(&[Advance]),
                focus: "polls",
                task: None,
                question: Some(Question {
                    ask: "Suppose rx-usecs were 100 instead. What would change?",
                    kind: Ask::Choice {
                        options: TRADES,
                        right: |m| vec![trade_index(m)],
                    },
                    explain: trade_explain,
                    contrast: |c| c.rx_usecs = 250,
                }),
            },
            Stop {
                title: "Slow traffic",
                text: "The same settings, but now the packets arrive far apart.",
                state: at_config(slow(), &[]),
                focus: "arrivals",
                task: None,
                question: Some(Question {
                    ask: "How many packets will the first interrupt's poll take?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| f64::from(next_batch(m).0),
                    },
                    explain: |m| next_batch(m).1,
                    contrast: |c| c.rx_usecs = 250,
                }),
            },
            Stop {
                title: "Break it: a count and no clock",
                text: "These are the settings Break it sets: rx-usecs 0, so no time limit, and a count of rx-frames, with slow traffic. Only the last packet of the count can fire the interrupt.",
                state: at_config(count_only(), &[]),
                focus: "timeline",
                task: Some(Task {
                    ask: "Run to 2 ms and see how long the first packet has waited.",
                    done: stranded,
                    witness: || vec![RunToEnd],
                }),
                question: Some(Question {
                    ask: "Run the whole 2 ms. How many interrupts fire?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| {
                            let (end, _) = run_until(m, |_| false);
                            (end.totals.irqs - m.totals.irqs) as f64
                        },
                    },
                    explain: |m| {
                        let mut end = m.clone();
                        texts(end.apply(&RunToEnd))
                    },
                    contrast: |c| c.rate_pps = 20_000,
                }),
            },
        ],
        next: &["/nic/busy-poll"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The right answers at each question, with `change` made to each
    /// stop's configuration.
    fn answers(change: fn(&mut CoalescingConfig)) -> Vec<Vec<String>> {
        crate::lesson::answers(&lesson(), |_, s| change(s))
    }

    #[test]
    fn the_answers_are_the_moderations() {
        // A packet every 10 µs: 30 µs pass long before 32 packets wait.
        // Longer waits, fewer interrupts. A packet every 100 µs: each one
        // waits out rx-usecs alone. At 10 k pkt/s a count of 32 takes 3.1 ms.
        assert_eq!(
            answers(|_| {}),
            [
                vec!["rx-usecs: the wait runs out first"],
                vec!["fewer interrupts, longer waits"],
                vec!["1"],
                vec!["0"]
            ]
        );
        assert_eq!(
            answers(|c| c.rx_frames = 3)[0],
            ["rx-frames: the count is reached first"]
        );
        // From 250 µs down to 100, or a 250 µs wait holding three packets.
        let longer = answers(|c| c.rx_usecs = 250);
        assert_eq!(longer[1], ["more interrupts, shorter waits"]);
        assert_eq!(longer[2], ["3"]);
        // At 20 k pkt/s the 32nd packet comes at 1.55 ms.
        assert_eq!(answers(|c| c.rate_pps = 20_000)[3], ["1"]);
    }
}
