//! Batching's lesson: the fixed cost one item at a time pays, the wait for a
//! batch to fill, the flush timer that caps it, and the biggest batch with no
//! timer, whose items wait milliseconds. The stops use evenly spaced
//! arrivals, so each answer can be worked out before it is revealed; every
//! answer is read off the model after the run the question describes.

use crate::lesson::{after_all, at_config, narration, Ask, Lesson, Question, Stop, Task};
use demos::cpu::batching::{BatchAction, BatchConfig, Batching, Flush, BATCH_MAX};
use demos::Model;

/// The choices for "why does the batch leave".
const WHY_LEFT: &[&str] = &["it is full", "the flush timer fires"];

/// Longer than any batch's filling takes in events (a batch holds ≤ 256).
const MOST_STEPS: usize = 1_000;

/// The demo's settings with evenly spaced arrivals, one every microsecond.
fn even() -> BatchConfig {
    BatchConfig {
        poisson: false,
        ..BatchConfig::default()
    }
}

/// The steps from `m` until one more batch has left.
fn until_a_batch_leaves(m: &Batching) -> Vec<BatchAction> {
    let mut next = m.clone();
    let start = next.batches_left;
    let mut steps = Vec::new();
    while next.batches_left == start && steps.len() < MOST_STEPS {
        if next.apply(&BatchAction::Step).is_err() {
            break;
        }
        steps.push(BatchAction::Step);
    }
    steps
}

/// The narration of the step that sent the batch on its way.
fn leaving_told(m: &Batching) -> String {
    let steps = until_a_batch_leaves(m);
    let before = after_all(m, &steps[..steps.len().saturating_sub(1)]).0;
    narration(&before, &[BatchAction::Step])
}

/// Why the newest batch left.
fn reason(m: &Batching) -> Option<Flush> {
    m.ready
        .back()
        .or(m.serving.as_ref().map(|s| &s.0))
        .map(|b| b.reason)
}

/// The model's why after `actions`, sentences `from` to `to` (exclusive).
fn why_after(m: &Batching, actions: &[BatchAction], from: usize, to: usize) -> String {
    after_all(m, actions)
        .0
        .why()
        .into_iter()
        .take(to)
        .skip(from)
        .collect::<Vec<_>>()
        .join(" ")
}

fn batch_of_32(config: &mut BatchConfig) {
    config.batch = 32;
}

fn batch_of_8(config: &mut BatchConfig) {
    config.batch = 8;
}

fn poisson(config: &mut BatchConfig) {
    config.poisson = true;
}

pub fn lesson() -> Lesson<Batching> {
    let one_at_a_time = BatchConfig { batch: 1, ..even() };
    let no_timer = BatchConfig {
        timeout_ns: 0,
        ..even()
    };
    Lesson {
        goal: "After this you can explain why batching cuts the fixed cost each item pays, why it makes items wait, and how a flush timer bounds that wait.",
        stops: vec![
            Stop {
                title: "One operation per item",
                text: "Every operation costs the consumer a fixed amount, here about one system call, plus a little for each item. With a batch of one, every item pays the whole fixed cost.",
                state: at_config(one_at_a_time, &[]),
                focus: "curve-1",
                task: None,
                question: Some(Question {
                    ask: "Run to the end. What share of the consumer's busy time goes to the fixed cost?",
                    kind: Ask::Number {
                        unit: "%",
                        decimals: 1,
                        tolerance: 3.0,
                        answer: |m| {
                            let end = after_all(m, &[BatchAction::Finish]).0;
                            end.overhead_measured_tenths() as f64 / 10.0
                        },
                    },
                    explain: |m| why_after(m, &[BatchAction::Finish], 0, 1),
                    contrast: |setup| batch_of_32(setup),
                }),
            },
            Stop {
                title: "Waiting for the batch to fill",
                text: "Now a batch leaves only when it is full, and there is no timer. An item arrives every microsecond, evenly; the first has just come, and the consumer pays nothing until the batch leaves.",
                state: at_config(no_timer, &[BatchAction::Step]),
                focus: "consumer",
                task: None,
                question: Some(Question {
                    ask: "How long does this first item wait before its batch leaves?",
                    kind: Ask::Number {
                        unit: "µs",
                        decimals: 1,
                        tolerance: 0.5,
                        answer: |m| {
                            let next = after_all(m, &until_a_batch_leaves(m)).0;
                            next.max_fill_wait as f64 / 1_000.0
                        },
                    },
                    explain: |m| {
                        let left = leaving_told(m);
                        [left, why_after(m, &[], 2, 3)].join(" ")
                    },
                    contrast: |setup| batch_of_8(setup),
                }),
            },
            Stop {
                title: "A flush timer",
                text: "The first item of a batch starts a flush timer: the batch leaves when it is full or when the timer fires, whichever comes first. NIC interrupt coalescing (ethtool's rx-frames and rx-usecs) follows a rule of this kind.",
                state: at_config(even(), &[BatchAction::Step]),
                focus: "timer",
                task: None,
                question: Some(Question {
                    ask: "Step on until this batch leaves. Why does it leave?",
                    kind: Ask::Choice {
                        options: WHY_LEFT,
                        right: |m| {
                            let next = after_all(m, &until_a_batch_leaves(m)).0;
                            vec![usize::from(reason(&next) == Some(Flush::Timeout))]
                        },
                    },
                    explain: leaving_told,
                    contrast: |setup| batch_of_8(setup),
                }),
            },
            Stop {
                title: "Break it: the biggest batch, no timer",
                text: "The table runs the same arrivals at every batch size: the bigger the batch, the smaller the fixed-cost share. Break it takes the biggest batch, drops the timer and slows the arrivals, so the first item waits until the batch's last item arrives.",
                state: at_config(even(), &[]),
                focus: "curve-256",
                task: Some(Task {
                    ask: "Press Break it, then Run to the end, and read the latencies.",
                    done: |m| {
                        m.config.batch == BATCH_MAX
                            && m.config.timeout_ns == 0
                            && m.latencies.len() == m.config.items as usize
                    },
                    witness: || vec![BatchAction::BreakIt, BatchAction::Finish],
                }),
                question: Some(Question {
                    ask: "After Break it, run to the end. How long does the first item wait before its batch leaves?",
                    kind: Ask::Number {
                        unit: "ms",
                        decimals: 2,
                        tolerance: 0.2,
                        answer: |m| {
                            let end = after_all(m, &[BatchAction::BreakIt, BatchAction::Finish]).0;
                            end.max_fill_wait as f64 / 1_000_000.0
                        },
                    },
                    explain: |m| why_after(m, &[BatchAction::BreakIt, BatchAction::Finish], 2, 4),
                    contrast: |setup| poisson(setup),
                }),
            },
        ],
        next: &["/nic/coalescing", "/nic/napi"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The right answers at each stop, as the reveal shows them, with each
    /// stop's configuration changed by `change`.
    fn answers(change: fn(&mut BatchConfig)) -> Vec<Vec<String>> {
        crate::lesson::answers(&lesson(), |_, s| change(s))
    }

    #[test]
    fn the_answers_are_the_textbooks() {
        // 700 / (700 + 50) of the time is fixed cost one item at a time; a
        // full batch of 32 at one item a microsecond takes 31 more arrivals;
        // the 16 µs timer fires first; 255 gaps of 10 µs before a batch of
        // 256 leaves.
        assert_eq!(
            answers(|_| {}),
            [
                vec!["93.3 %"],
                vec!["31.0 µs"],
                vec![WHY_LEFT[1]],
                vec!["2.55 ms"]
            ]
        );
        // Batches of 32 cut short by the timer at 17 items: 16 batches'
        // fixed costs over 256 items' work. Batches of 8 fill in 7 µs,
        // before the timer.
        let contrasts: Vec<String> = crate::lesson::answers(&lesson(), |q, s| (q.contrast)(s))
            .into_iter()
            .filter_map(|a| a.into_iter().next())
            .collect();
        assert_eq!(contrasts[..3], ["46.7 %", "7.0 µs", WHY_LEFT[0]]);
        // Poisson arrivals: 255 random gaps, not exactly 2.55 ms.
        assert_ne!(contrasts[3], "2.55 ms");
    }
}
