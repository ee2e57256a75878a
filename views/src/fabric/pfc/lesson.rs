//! The lossless-Ethernet lesson: the headroom a cable needs, the victim of
//! an incast's pauses, the deadlock of a loop, DCQCN's short queues, and a
//! lossless class that drops when its headroom is short. Every answer is
//! read off the model at the stop or after the actions the question names.

use crate::lesson::{after, at, at_config, Ask, Lesson, Question, Stop, Task};
use demos::fabric::pfc::config::SMALL_HEADROOM_KB;
use demos::fabric::pfc::{Pfc, PfcAction as A, PfcConfig};
use demos::Model;

/// Ticks in 100 µs and in 200 µs.
const US_100: u32 = 1_000;
const US_200: u32 = 2_000;

fn why(m: &Pfc, part: &str) -> String {
    m.why()
        .into_iter()
        .find(|s| s.contains(part))
        .unwrap_or_default()
}

pub fn lesson() -> Lesson<Pfc> {
    Lesson {
        goal: "After this you can size a lossless port's headroom, explain how PFC stalls flows that never touch the congested receiver, recognise a PFC deadlock, and say what ECN with DCQCN changes.",
        stops: vec![
            Stop {
                title: "Headroom",
                text: "When an ingress counter reaches XOFF the switch sends a pause upstream, but bytes keep arriving until the pause has crossed the cable and the sender has stopped. Every port keeps headroom above XOFF for them.",
                state: at(&[]),
                focus: "headroom",
                task: None,
                question: Some(Question {
                    ask: "With 100 m cables at 100 Gb/s and a 4096-byte MTU, how many KB can still arrive after XOFF in the worst case?",
                    kind: Ask::Number {
                        unit: "KB",
                        decimals: 1,
                        tolerance: 4.0,
                        answer: |m| m.headroom().bytes() as f64 / 1_000.0,
                    },
                    explain: |m| why(m, "bytes keep coming"),
                    contrast: |c| c.cable_m = 500,
                }),
            },
            Stop {
                title: "The victim",
                text: "A, B and C all send to H3 at line rate. L1's counters reach XOFF and it pauses S0, which carries V's bytes to the idle H5 too. V waits behind a pause it did nothing to cause.",
                state: at(&[]),
                focus: "flows",
                task: None,
                question: Some(Question {
                    ask: "Run to 2 ms with PFC alone. What rate does V average, in Gb/s, though H5 is idle?",
                    kind: Ask::Number {
                        unit: "Gb/s",
                        decimals: 1,
                        tolerance: 2.0,
                        answer: |m| after(m, A::ToEnd).0.victim_mean_gbps(),
                    },
                    explain: |m| {
                        let end = after(m, A::ToEnd).0;
                        format!("{} {}", why(&end, "averaged"), why(&end, "spread up the tree"))
                    },
                    contrast: |c| c.dcqcn = true,
                }),
            },
            Stop {
                title: "Break it: a loop",
                text: "A routing error sends H5's traffic round L0 → S0 → L1 → S1 → L0. Each switch on the ring fills, pauses the one before it, and waits for the one after it.",
                state: at_config(
                    PfcConfig {
                        loop_route: true,
                        ..PfcConfig::default()
                    },
                    &[],
                ),
                focus: "deadlock",
                task: None,
                question: Some(Question {
                    ask: "Run 200 µs. How many link directions are paused then?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| f64::from(after(m, A::Run(US_200)).0.fabric.paused_count()),
                    },
                    explain: |m| after(m, A::Run(US_200)).1,
                    contrast: |c| c.loop_route = false,
                }),
            },
            Stop {
                title: "Fix it: ECN with DCQCN",
                text: "Switches mark ECN once a queue passes Kmin; H3 and H5 turn marks into CNPs; each sender cuts its rate by α/2 and climbs back in stages. The senders slow before any counter reaches XOFF.",
                state: at(&[]),
                focus: "flows",
                task: Some(Task {
                    ask: "Under Fix it, turn on ECN marking with DCQCN.",
                    done: |m| m.config.dcqcn,
                    witness: || vec![A::SetDcqcn(true)],
                }),
                question: Some(Question {
                    ask: "With DCQCN on, run to 2 ms. How deep, in KB, does the queue for H3 get in the second millisecond?",
                    kind: Ask::Number {
                        unit: "KB",
                        decimals: 1,
                        tolerance: 3.0,
                        answer: |m| {
                            let mut x = m.clone();
                            let _ = x.apply(&A::SetDcqcn(true));
                            let _ = x.apply(&A::ToEnd);
                            x.settled_hot_queue() as f64 / 1_000.0
                        },
                    },
                    explain: |m| {
                        let mut x = m.clone();
                        let _ = x.apply(&A::SetDcqcn(true));
                        let _ = x.apply(&A::ToEnd);
                        why(&x, "DCQCN holds")
                    },
                    contrast: |c| c.mtu = 9_216,
                }),
            },
            Stop {
                title: "Break it: too little headroom",
                text: "Now each port keeps only 10 KB above XOFF. The pause still takes the same time to bite, so the bytes on their way have nowhere to go.",
                state: at(&[A::SetHeadroom(SMALL_HEADROOM_KB)]),
                focus: "headroom",
                task: None,
                question: Some(Question {
                    ask: "Run 100 µs. How many KB are dropped on the \"lossless\" priority?",
                    kind: Ask::Number {
                        unit: "KB",
                        decimals: 1,
                        tolerance: 5.0,
                        answer: |m| after(m, A::Run(US_100)).0.overflow() as f64 / 1_000.0,
                    },
                    explain: |m| after(m, A::Run(US_100)).1,
                    contrast: |c| c.cable_m = 10,
                }),
            },
        ],
        next: &["/fabric/metastable"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answers_are_the_models() {
        let got = crate::lesson::answer_texts(&lesson(), |_| {});
        // 4 116 + 84 + 2 × 21 610 + 25 216 + 4 116 bytes of headroom; V
        // averages 20 Gb/s under PFC alone; the loop pauses its four links,
        // H0 to H2's and S0's link down to L1... seven in all; DCQCN keeps
        // the queue for H3 under 30 KB; 10 KB of headroom loses 754 KB in
        // 100 µs.
        assert_eq!(got, ["76.8 KB", "20.0 Gb/s", "7", "29.1 KB", "753.8 KB"]);
    }
}
