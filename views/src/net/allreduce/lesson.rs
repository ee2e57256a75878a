//! All-reduce's lesson: the ring's 2(N−1) steps, the chunk each GPU owns
//! after the reduce-scatter, the 2(N−1)/N of its vector each GPU sends,
//! ring against tree by message size, and the slow link every ring step
//! waits for. Every answer is read off the model: its steps run, or its
//! cost model asked.

use super::SLOW;
use crate::lesson::{at, run, Ask, Lesson, Question, Stop, Task};
use demos::net::allreduce::schedule::Algorithm;
use demos::net::allreduce::{AllReduce, AllReduceAction, AllReduceConfig};
use demos::Model;

use AllReduceAction::{SetSlowLink, Step};

const ALGORITHMS: &[&str] = &["the ring", "the unpipelined binary tree"];

/// Steps until step `until` (or the end), and what was said.
fn step_to(m: &AllReduce, until: usize) -> (AllReduce, Vec<String>) {
    let mut next = m.clone();
    let mut said = Vec::new();
    while next.step < until.min(next.total_steps) {
        match next.apply(&Step) {
            Ok(events) => said.extend(events.into_iter().map(|e| e.text)),
            Err(_) => break,
        }
    }
    (next, said)
}

fn to_end(m: &AllReduce) -> (AllReduce, Vec<String>) {
    step_to(m, m.total_steps)
}

/// The last thing said (the run's finale), then the model's why.
fn finale_and_why(m: &AllReduce) -> String {
    let (after, said) = to_end(m);
    let mut out: Vec<String> = said.last().cloned().into_iter().collect();
    out.extend(after.why().into_iter().take(1));
    out.join(" ")
}

/// Elements of GPU 0's buffer that already sum every GPU's input, once the
/// reduce-scatter is over.
fn complete_at_gpu0(m: &AllReduce) -> usize {
    let (after, _) = step_to(m, m.total_steps / 2);
    let all = (0..after.gpus()).fold(0u64, |acc, g| acc | 1 << g);
    after.included[0]
        .iter()
        .filter(|&&mask| mask == all)
        .count()
}

/// Time of the whole all-reduce with `algorithm` on this fabric, ns.
fn total_with(m: &AllReduce, algorithm: Algorithm) -> u64 {
    m.fabric.total_ns(algorithm, m.message_bytes)
}

fn eight_gpus(c: &mut AllReduceConfig) {
    c.gpus = 8;
}

fn longer_vectors(c: &mut AllReduceConfig) {
    c.elements = 16;
}

fn one_kib(c: &mut AllReduceConfig) {
    c.message_bytes = 1 << 10;
}

fn faster_links(c: &mut AllReduceConfig) {
    c.gbps = 50;
}

pub fn lesson() -> Lesson<AllReduce> {
    Lesson {
        goal: "After this you can explain how a ring all-reduce leaves the sum on every GPU, why each GPU sends less than twice its vector however many GPUs there are, and why one slow link slows every step.",
        stops: vec![
            Stop {
                title: "Four vectors to sum",
                text: "Each GPU holds its own vector, and every GPU must end with their element-wise sum. In a ring, each GPU sends only to the next one and receives only from the one before.",
                state: at(&[]),
                focus: "gpu-0",
                task: None,
                question: Some(Question {
                    ask: "How many steps does the ring take until every GPU holds the sum?",
                    kind: Ask::Number {
                        unit: "steps",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| to_end(m).0.step as f64,
                    },
                    explain: finale_and_why,
                    contrast: |setup| eight_gpus(setup),
                }),
            },
            Stop {
                title: "Reduce-scatter",
                text: "The vector is cut into one chunk per GPU. At each step every GPU passes one chunk to the next, which adds it to its own elements: partial sums travel round the ring.",
                state: at(&[Step]),
                focus: "gpu-1",
                task: None,
                question: Some(Question {
                    ask: "When the reduce-scatter half is over, how many elements of GPU 0's vector hold the complete sum?",
                    kind: Ask::Number {
                        unit: "elements",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| complete_at_gpu0(m) as f64,
                    },
                    explain: |m| step_to(m, m.total_steps / 2).1.join(" "),
                    contrast: |setup| longer_vectors(setup),
                }),
            },
            Stop {
                title: "All-gather",
                text: "Each GPU now owns one finished chunk. In the second half the finished chunks go round the ring the same way, copied rather than added, until every GPU has all of them.",
                state: at(&[Step, Step, Step]),
                focus: "gpu-0",
                task: None,
                question: Some(Question {
                    ask: "By the end, how much has each GPU sent, as a percentage of its own vector?",
                    kind: Ask::Number {
                        unit: "%",
                        decimals: 0,
                        tolerance: 1.0,
                        answer: |m| to_end(m).0.sent_share_tenths(0) as f64 / 10.0,
                    },
                    explain: finale_and_why,
                    contrast: |setup| eight_gpus(setup),
                }),
            },
            Stop {
                title: "Ring or tree",
                text: "Every step costs a fixed latency α plus the time to push its data through a link. The ring takes many small steps; an unpipelined tree takes fewer steps, each moving the whole vector.",
                state: at(&[]),
                focus: "cost-chart",
                task: None,
                question: Some(Question {
                    ask: "For the message size set here, which finishes sooner?",
                    kind: Ask::Choice {
                        options: ALGORITHMS,
                        right: |m| {
                            let (ring, tree) =
                                (total_with(m, Algorithm::Ring), total_with(m, Algorithm::Tree));
                            vec![usize::from(tree < ring)]
                        },
                    },
                    explain: |m| m.why().into_iter().take(2).collect::<Vec<_>>().join(" "),
                    contrast: |setup| one_kib(setup),
                }),
            },
            Stop {
                title: "Break it: one slow link",
                text: "All four GPUs work at full speed. In a ring every GPU sends and receives in every step, and a step ends only when its slowest transfer does.",
                state: at(&[]),
                focus: "gpu-1",
                task: Some(Task {
                    ask: "Slow GPU 1's link in Break it, then step the ring to the end.",
                    done: |m| m.fabric.slow.is_some() && m.done(),
                    witness: || {
                        let mut out = vec![SetSlowLink(Some(SLOW))];
                        out.extend(vec![Step; 6]);
                        out
                    },
                }),
                question: Some(Question {
                    ask: "With GPU 1's link 4× slower, how long does the whole ring take?",
                    kind: Ask::Number {
                        unit: "ms",
                        decimals: 1,
                        tolerance: 0.5,
                        answer: |m| {
                            run(m, &[SetSlowLink(Some(SLOW))]).0.predicted_ns() as f64 / 1e6
                        },
                    },
                    explain: |m| {
                        let (after, mut said) = run(m, &[SetSlowLink(Some(SLOW))]);
                        said.extend(after.why().into_iter().last());
                        said.join(" ")
                    },
                    contrast: |setup| faster_links(setup),
                }),
            },
        ],
        next: &["/net/incast", "/net/congestion"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The right answers at each stop, with `change` made to its settings.
    fn answers(change: fn(&mut AllReduceConfig)) -> Vec<Vec<String>> {
        crate::lesson::answers(&lesson(), |_, s| change(s))
    }

    #[test]
    fn the_answers_are_the_textbooks() {
        // 2(N−1) = 6 steps; 8 elements / 4 GPUs = 2 per chunk; 2(N−1)/N =
        // 150 %; 64 MiB is bandwidth-bound, so the ring wins; 4 × the
        // healthy ring's bandwidth time (1.5 × 64 MiB / 25 GB/s ≈ 4.03 ms)
        // plus 6 × 10 µs.
        assert_eq!(
            answers(|_| {}),
            [
                vec!["6 steps"],
                vec!["2 elements"],
                vec!["150 %"],
                vec!["the ring"],
                vec!["16.2 ms"]
            ]
        );
        let eight = answers(eight_gpus);
        assert_eq!(eight[0], ["14 steps"]);
        assert_eq!(eight[2], ["175 %"]);
        assert_eq!(answers(longer_vectors)[1], ["4 elements"]);
        // 1 KiB is latency-bound: fewer steps win.
        assert_eq!(answers(one_kib)[3], ["the unpipelined binary tree"]);
        assert_eq!(answers(faster_links)[4], ["8.1 ms"]);
    }
}
