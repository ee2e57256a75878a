//! Branch prediction's lesson: a 2-bit counter on sorted data misses only
//! at the switch, on shuffled data about half the time, what those misses
//! cost, a repeating T T N that the counter misses every third branch, and
//! gshare's history that learns it. Every answer is read off the model after
//! running the loop.

use crate::lesson::{at, at_config, texts, Ask, Lesson, Question, Stop, Task};
use demos::cpu::branch::{Branch, BranchAction, BranchConfig, Data, PredictorKind};
use demos::Model;
use BranchAction::*;

/// The table entry the loop's branch uses with the default 16-entry table.
const SLOT: &str = "pht-6";

fn shuffled() -> BranchConfig {
    BranchConfig {
        data: Data::Shuffled,
        ..BranchConfig::default()
    }
}

/// `m` after `actions`, then run to the end of the array.
fn finished(m: &Branch, actions: &[BranchAction]) -> Branch {
    let mut next = m.clone();
    for a in actions {
        let _ = next.apply(a);
    }
    if next.remaining() > 0 {
        let _ = next.apply(&Finish);
    }
    next
}

/// What the model says of the loop run to its end after `actions`.
fn finished_why(m: &Branch, actions: &[BranchAction]) -> String {
    finished(m, actions).why().join(" ")
}

/// Cycles sorting saves: the loop as it ran, against the same bytes sorted.
fn saved(m: &Branch) -> f64 {
    let sorted = finished(m, &[SetData(Data::Sorted)]);
    m.cycles() as f64 - sorted.cycles() as f64
}

pub fn lesson() -> Lesson<Branch> {
    Lesson {
        goal: "After this you can explain why the same loop runs much slower on shuffled data than on sorted data, and how a predictor that remembers recent outcomes learns a pattern that a counter cannot.",
        stops: vec![
            Stop {
                title: "A counter for one branch",
                text: "The loop's one branch, if (a[i] >= 128), is predicted from a 2-bit counter chosen by the branch's address. It counts up on taken and down on not taken, and predicts taken in its upper two states. The array is sorted.",
                state: at(&[]),
                focus: SLOT,
                task: None,
                question: Some(Question {
                    ask: "Run the loop to the end. How many branches does the counter mispredict?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| f64::from(finished(m, &[]).mispredicts),
                    },
                    explain: |m| finished_why(m, &[]),
                    contrast: |config| config.data = Data::Shuffled,
                }),
            },
            Stop {
                title: "Shuffled: a coin toss",
                text: "The same bytes in the order they were drawn: whether the next one is at least 128 has nothing to do with the ones before it.",
                state: at_config(shuffled(), &[]),
                focus: SLOT,
                task: None,
                question: Some(Question {
                    ask: "Run the loop to the end. What share of the branches does the counter mispredict?",
                    kind: Ask::Number {
                        unit: "%",
                        decimals: 0,
                        tolerance: 10.0,
                        answer: |m| {
                            let run = finished(m, &[]);
                            f64::from(run.mispredicts) * 100.0 / run.next.max(1) as f64
                        },
                    },
                    explain: |m| finished_why(m, &[]),
                    contrast: |config| config.data = Data::Sorted,
                }),
            },
            Stop {
                title: "What a mispredict costs",
                text: "Each iteration costs a fixed base, and each mispredict adds the penalty in the status: the core fetched down the wrong path until the branch resolved, then threw that work away and fetched the right one.",
                state: at_config(shuffled(), &[Finish]),
                focus: "elem-255",
                task: None,
                question: Some(Question {
                    ask: "Sort the same bytes and run the loop again. How many cycles does that save?",
                    kind: Ask::Number {
                        unit: "cycles",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: saved,
                    },
                    explain: |m| {
                        let sorted = finished(m, &[SetData(Data::Sorted)]);
                        format!(
                            "Shuffled: {} mispredicts, {} cycles. Sorted: {} mispredicts, {} cycles. {}",
                            m.mispredicts,
                            m.cycles(),
                            sorted.mispredicts,
                            sorted.cycles(),
                            m.why().first().cloned().unwrap_or_default()
                        )
                    },
                    contrast: |config| config.penalty = 30,
                }),
            },
            Stop {
                title: "Break it: taken, taken, not taken",
                text: "Break it makes the branch repeat taken, taken, not taken, still under the 2-bit counter. Every third outcome goes against the two before it.",
                state: at(&[BreakIt]),
                focus: SLOT,
                task: Some(Task {
                    ask: "Run the loop to the end.",
                    done: |m| m.remaining() == 0,
                    witness: || vec![Finish],
                }),
                question: Some(Question {
                    ask: "Run the loop to the end. About how many branches does the counter mispredict?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 3.0,
                        answer: |m| f64::from(finished(m, &[]).mispredicts),
                    },
                    explain: |m| {
                        let mut next = m.clone();
                        let first: Vec<String> = (0..3).map(|_| texts(next.apply(&Step))).collect();
                        format!("{} {}", first.join(" "), finished_why(m, &[]))
                    },
                    contrast: |config| config.length = 128,
                }),
            },
            Stop {
                title: "History tells the positions apart",
                text: "The counter sees only that the branch is mostly taken. gshare keeps the last few outcomes and mixes them into the table index, so each point of the pattern trains its own counter.",
                state: at(&[BreakIt, Finish]),
                focus: SLOT,
                task: Some(Task {
                    ask: "Switch the predictor to gshare.",
                    done: |m| m.config.predictor == PredictorKind::Gshare,
                    witness: || vec![SetPredictor(PredictorKind::Gshare)],
                }),
                question: Some(Question {
                    ask: "Switch to gshare and run the loop to the end. How many branches does it mispredict?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| {
                            let run = finished(m, &[SetPredictor(PredictorKind::Gshare)]);
                            f64::from(run.mispredicts)
                        },
                    },
                    explain: |m| finished_why(m, &[SetPredictor(PredictorKind::Gshare)]),
                    contrast: |config| config.history_bits = 1,
                }),
            },
        ],
        next: &["/cpu/cache-hierarchy", "/cpu/batching"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The right answers at each stop, computed at `config` with each stop's
    /// own data.
    fn answers(change: fn(&mut BranchConfig)) -> Vec<Vec<String>> {
        crate::lesson::answers(&lesson(), |_, s| change(s))
    }

    fn number(answer: &[String]) -> i64 {
        let digits: String = answer[0]
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        digits.parse().expect("a number")
    }

    #[test]
    fn the_answers_are_the_textbooks() {
        let base = answers(|_| {});
        // Sorted: the counter starts weakly not-taken, so it misses twice
        // at the switch from not-taken to taken, and nowhere else.
        assert_eq!(base[0], ["2"]);
        // Shuffled: about half.
        assert!((40..=60).contains(&number(&base[1])), "{:?}", base[1]);
        // T T N: one warm-up miss, then every N (one in three).
        assert!((84..=88).contains(&number(&base[3])), "{:?}", base[3]);
        // gshare with 4 bits of history learns T T N after a few misses.
        assert!(number(&base[4]) < 10, "{:?}", base[4]);
        // Sorting saves the penalty on every mispredict it removes.
        let shuffled = demos::Timeline::from_scenario(&lesson().stops[2].state)
            .unwrap()
            .model()
            .clone();
        assert_eq!(
            number(&base[2]),
            i64::from(shuffled.mispredicts - 2) * i64::from(shuffled.config.penalty)
        );
        // The contrasts.
        let shuffled_first = answers(|c| c.data = Data::Shuffled);
        assert!(number(&shuffled_first[0]) > 50);
        let sorted = answers(|c| c.data = Data::Sorted);
        assert!(number(&sorted[1]) < 5);
        let dearer = answers(|c| c.penalty = 30);
        assert_eq!(number(&dearer[2]), 2 * number(&base[2]));
        let half = answers(|c| c.length = 128);
        assert!((41..=45).contains(&number(&half[3])), "{:?}", half[3]);
        // One bit of history: after T comes T at one point and N at another.
        let short = answers(|c| c.history_bits = 1);
        assert!(number(&short[4]) > 40, "{:?}", short[4]);
    }
}
