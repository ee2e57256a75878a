//! Reordering's lesson: store buffering under SC and TSO, the fence that
//! forbids it, message passing on x86 and on Arm, release and acquire, and
//! the stale read that comes back when the orders are stripped. Every answer
//! is read off the model's own enumeration of the outcomes its memory model
//! allows; the contrasts switch the memory model, or the test.

use crate::lesson::{Ask, Lesson, Question, Stop, Task};
use demos::memory::litmus::catalogue::find;
use demos::memory::litmus::explain::verdict_sentence;
use demos::memory::litmus::MemModel;
use demos::memory::reordering::{Reordering, ReorderingAction, ReorderingConfig};
use demos::{Model, Scenario};

/// The choices for "can the exists outcome happen".
const CAN: &[&str] = &["yes: the model allows it", "no: the model forbids it"];

/// A catalogue test's text.
fn text(name: &str) -> String {
    find(name)
        .unwrap_or_else(|| panic!("{name} is in the catalogue"))
        .text
        .to_string()
}

fn config(test: &str, model: MemModel) -> ReorderingConfig {
    ReorderingConfig {
        text: text(test),
        model,
    }
}

fn at(test: &str, model: MemModel, actions: &[ReorderingAction]) -> Scenario<Reordering> {
    Scenario {
        config: config(test, model),
        actions: actions.to_vec(),
    }
}

/// Whether the model allows some outcome that satisfies the test's `exists`
/// condition: read off its enumeration of allowed outcomes.
fn exists_allowed(m: &Reordering) -> bool {
    m.analysis.allowed(m.model).any(|row| row.satisfies)
}

fn can(m: &Reordering) -> Vec<usize> {
    vec![usize::from(!exists_allowed(m))]
}

/// The model's verdict on the `exists` condition, with its cycle if it
/// forbids it.
fn verdict(m: &Reordering) -> String {
    verdict_sentence(&m.analysis, m.model)
}

/// The model's why: its verdict, then how many outcomes each model allows.
fn why(m: &Reordering) -> String {
    m.why().into_iter().take(2).collect::<Vec<_>>().join(" ")
}

fn under_tso(config: &mut ReorderingConfig) {
    config.model = MemModel::Tso;
}

fn under_sc(config: &mut ReorderingConfig) {
    config.model = MemModel::Sc;
}

fn under_armv8(config: &mut ReorderingConfig) {
    config.model = MemModel::Armv8;
}

/// The same test without its fences.
fn without_fences(config: &mut ReorderingConfig) {
    config.text = text("SB");
}

/// The same test with plain accesses.
fn plain_mp(config: &mut ReorderingConfig) {
    config.text = text("MP");
}

/// What "Remove the fences and orders" sends for MP+rel+acq.
fn strip_mp_rel_acq() -> Vec<ReorderingAction> {
    let m = Reordering::build(&config("MP+rel+acq", MemModel::Armv8))
        .expect("the catalogue's MP+rel+acq is valid");
    vec![ReorderingAction::LoadText(super::stripped(&m))]
}

pub fn lesson() -> Lesson<Reordering> {
    use ReorderingAction::{Drain, Run};
    Lesson {
        goal: "After this you can explain why a load may miss another core's earlier store on x86 and Arm, and how a fence, or a release store and an acquire load, rules it out.",
        stops: vec![
            Stop {
                title: "Every interleaving",
                text: "In SB each thread stores 1 to its own location, then loads the other's. Under sequential consistency the instructions run one at a time in a single order, each thread's in program order, and a load reads the latest store.",
                state: at("SB", MemModel::Sc, &[]),
                focus: "verdict",
                task: None,
                question: Some(Question {
                    ask: "Under this model, can both loads read 0 (r1=0 and r2=0)?",
                    kind: Ask::Choice {
                        options: CAN,
                        right: can,
                    },
                    explain: verdict,
                    contrast: |setup| under_tso(setup),
                }),
            },
            Stop {
                title: "The store buffer",
                text: "On x86 a store first waits in its core's store buffer. The core's own later loads see it, but the other core reads memory, where the store has not landed yet.",
                state: at("SB", MemModel::Tso, &[]),
                focus: "buffer-0",
                task: Some(Task {
                    ask: "Be the scheduler: run both threads and drain both buffers so that the run ends with r1=0 and r2=0.",
                    done: |m| m.reached.iter().any(|&i| m.analysis.rows[i].satisfies),
                    witness: || vec![Run(0), Run(1), Run(0), Run(1), Drain(0), Drain(1)],
                }),
                question: Some(Question {
                    ask: "How many of SB's distinct outcomes does this model allow?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| m.allowed_count() as f64,
                    },
                    explain: why,
                    contrast: |setup| under_sc(setup),
                }),
            },
            Stop {
                title: "A fence between",
                text: "MFENCE lets no later load run until its own core's store buffer has drained, so each thread's store reaches memory before its load reads.",
                state: at("SB+mfences", MemModel::Tso, &[]),
                focus: "verdict",
                task: None,
                question: Some(Question {
                    ask: "With a fence between each thread's store and load, can r1=0 and r2=0 still happen?",
                    kind: Ask::Choice {
                        options: CAN,
                        right: can,
                    },
                    explain: verdict,
                    contrast: |setup| without_fences(setup),
                }),
            },
            Stop {
                title: "Message passing",
                text: "In MP, T0 writes the data x, then the flag y; T1 reads the flag, then the data. x86 keeps a core's stores in order, and its loads in order.",
                state: at("MP", MemModel::Tso, &[]),
                focus: "graph",
                task: None,
                question: Some(Question {
                    ask: "Under this model, can T1 see the flag (r1=1) yet read the old data (r2=0)?",
                    kind: Ask::Choice {
                        options: CAN,
                        right: can,
                    },
                    explain: verdict,
                    contrast: |setup| under_armv8(setup),
                }),
            },
            Stop {
                title: "Release and acquire",
                text: "Arm may reorder a core's stores, and its loads. A release store of the flag (STLR) keeps every earlier access before it; an acquire load of the flag (LDAR) keeps every later access after it.",
                state: at("MP+rel+acq", MemModel::Armv8, &[]),
                focus: "verdict",
                task: None,
                question: Some(Question {
                    ask: "With the flag stored with release and loaded with acquire, can r1=1 and r2=0 happen under ARMv8?",
                    kind: Ask::Choice {
                        options: CAN,
                        right: can,
                    },
                    explain: verdict,
                    contrast: |setup| plain_mp(setup),
                }),
            },
            Stop {
                title: "Break it: plain accesses",
                text: "Take the release and the acquire away and the two pairs may pass each other again: T1 can see the flag and still read stale data.",
                state: at("MP+rel+acq", MemModel::Armv8, &[]),
                focus: "graph",
                task: Some(Task {
                    ask: "In Break it, remove the fences and orders, and read the new verdict.",
                    done: exists_allowed,
                    witness: strip_mp_rel_acq,
                }),
                question: None,
            },
        ],
        next: &["/memory/spsc"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The right answers at each stop, as the reveal shows them, with each
    /// stop's configuration changed by `change`.
    fn answers(change: fn(&mut ReorderingConfig)) -> Vec<Vec<String>> {
        crate::lesson::answers(&lesson(), |_, s| change(s))
    }

    #[test]
    fn the_answers_are_the_textbooks() {
        // SB is forbidden under SC and allowed under TSO (4 of 4 outcomes);
        // MFENCE forbids it; MP is forbidden on x86, and with release and
        // acquire on Arm.
        let (yes, no) = (CAN[0], CAN[1]);
        assert_eq!(
            answers(|_| {}),
            [vec![no], vec!["4"], vec![no], vec![no], vec![no]]
        );
        // Each stop's contrast moves its answer the textbook's way: SB under
        // TSO, SB under SC (3 of 4), SB without fences, MP under ARMv8, plain MP.
        let contrasts: Vec<String> = lesson()
            .stops
            .iter()
            .filter_map(|stop| {
                let q = stop.question.as_ref()?;
                let mut setup = crate::lesson::Setup::of(&stop.state);
                (q.contrast)(&mut setup);
                let m = Reordering::build(&setup.config).ok()?;
                q.answers(&m).into_iter().next()
            })
            .collect();
        assert_eq!(contrasts, [yes, "3", yes, yes, yes]);
    }

    #[test]
    fn stripping_mp_rel_acq_gives_mp() {
        let [ReorderingAction::LoadText(plain)] = &strip_mp_rel_acq()[..] else {
            panic!("one LoadText");
        };
        let m = Reordering::build(&ReorderingConfig {
            text: plain.clone(),
            model: MemModel::Armv8,
        })
        .unwrap();
        assert_eq!(m.analysis.test.name, "MP");
        assert!(exists_allowed(&m));
    }
}
