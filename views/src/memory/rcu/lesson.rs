//! RCU's lesson: readers that never wait, an updater that publishes a copy,
//! the grace period that decides when the old copy may be freed, and the
//! use-after-free of freeing at once. Every answer is read off the model
//! after the actions the question describes. The configuration's one value
//! is the number of reader CPUs, so each question is about all of them.

use crate::lesson::{after_all, at, narration_and_why, Ask, Lesson, Question, Stop, Task};
use demos::memory::rcu::{Rcu, RcuAction, RcuConfig};

const CPU1: usize = 0;
const CPU2: usize = 1;
/// Version A, the middle element's first.
const A: u8 = 0;

/// Enter a critical section and walk to the middle element.
fn walk_in(r: usize) -> [RcuAction; 3] {
    [RcuAction::Lock(r), RcuAction::Deref(r), RcuAction::Deref(r)]
}

/// Every reader CPU outside a critical section walks in, to whichever
/// version is linked.
fn others_walk_in(m: &Rcu) -> Vec<RcuAction> {
    (0..m.readers.len())
        .filter(|&r| !m.readers[r].in_cs)
        .flat_map(walk_in)
        .collect()
}

/// Q1: the others walk to A, then the updater publishes B.
fn publish_over_readers(m: &Rcu) -> Vec<RcuAction> {
    let mut out = others_walk_in(m);
    out.push(RcuAction::Publish);
    out
}

/// Q2: the others walk in (finding B), then synchronize_rcu().
fn synchronize_over_readers(m: &Rcu) -> Vec<RcuAction> {
    let mut out = others_walk_in(m);
    out.push(RcuAction::Synchronize);
    out
}

/// Q3: the others walk in during the grace period, then CPU 1 leaves.
fn late_readers_then_leave(m: &Rcu) -> Vec<RcuAction> {
    let mut out = others_walk_in(m);
    out.push(RcuAction::Unlock(CPU1));
    out
}

fn more_readers(config: &mut RcuConfig) {
    config.readers = 4;
}

pub fn lesson() -> Lesson<Rcu> {
    let on_a: Vec<RcuAction> = walk_in(CPU1).to_vec();
    let published: Vec<RcuAction> = on_a.iter().copied().chain([RcuAction::Publish]).collect();
    let both: Vec<RcuAction> = published.iter().copied().chain(walk_in(CPU2)).collect();
    let waiting: Vec<RcuAction> = published
        .iter()
        .copied()
        .chain([RcuAction::Synchronize])
        .collect();
    Lesson {
        goal: "After this you can explain why an RCU updater must wait a grace period before it frees an old version, and why that wait covers only the readers already inside.",
        stops: vec![
            Stop {
                title: "Readers never wait",
                text: "A reader brackets its walk with rcu_read_lock() and rcu_read_unlock(), and fetches each pointer with rcu_dereference(). It takes no lock the updater must wait for and writes nothing shared.",
                state: at(&[]),
                focus: "reader-0",
                task: Some(Task {
                    ask: "Walk CPU 1 to the middle element: rcu_read_lock(), then rcu_dereference() twice.",
                    done: |m| m.readers[CPU1].held().is_some(),
                    witness: || walk_in(CPU1).to_vec(),
                }),
                question: None,
            },
            Stop {
                title: "Publish a copy",
                text: "The updater never edits A in place. It copies A into a new node, changes the copy, and publishes it with rcu_assign_pointer(first->next, …).",
                state: at(&on_a),
                focus: "link",
                task: None,
                question: Some(Question {
                    ask: "Every other reader CPU walks to A too, then the updater publishes B. How many readers still hold A afterwards?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| {
                            let next = after_all(m, &publish_over_readers(m)).0;
                            next.readers.iter().filter(|r| r.held() == Some(A)).count() as f64
                        },
                    },
                    explain: |m| narration_and_why(m, &publish_over_readers(m)),
                    contrast: |setup| more_readers(setup),
                }),
            },
            Stop {
                title: "Old and new side by side",
                text: "CPU 1 still holds A: unlinked, but intact, and its next still leads to last. CPU 2 began after the publish and found B. Each reads a whole node, never a half-written one.",
                state: at(&both),
                focus: "node-0",
                task: None,
                question: Some(Question {
                    ask: "The other reader CPUs walk in too, finding B. Then the updater calls synchronize_rcu(). How many CPUs does the grace period wait for?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| {
                            let next = after_all(m, &synchronize_over_readers(m)).0;
                            next.grace.last().map_or(0, |g| g.waiting_on.len()) as f64
                        },
                    },
                    explain: |m| narration_and_why(m, &synchronize_over_readers(m)),
                    contrast: |setup| more_readers(setup),
                }),
            },
            Stop {
                title: "Later readers do not count",
                text: "The updater is blocked in synchronize_rcu(). Its grace period waits only for CPU 1, the one reader that was inside when it began.",
                state: at(&waiting),
                focus: "grace",
                task: None,
                question: Some(Question {
                    ask: "Every other reader CPU now walks in, then CPU 1 calls rcu_read_unlock(). How many readers are still inside when synchronize_rcu() returns?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| {
                            // CPU 1's unlock ends the grace period: count
                            // the readers inside at that moment.
                            let next = after_all(m, &late_readers_then_leave(m)).0;
                            next.readers.iter().filter(|r| r.in_cs).count() as f64
                        },
                    },
                    explain: |m| narration_and_why(m, &late_readers_then_leave(m)),
                    contrast: |setup| more_readers(setup),
                }),
            },
            Stop {
                title: "Break it: free at once",
                text: "Break it frees the old version with kfree() the moment it is unlinked, with no grace period. CPU 1 fetched A before the update and may still read it.",
                state: at(&published),
                focus: "node-0",
                task: Some(Task {
                    ask: "Free A at once in Break it, then have CPU 1 read p->data.",
                    done: |m| !m.damage.is_empty(),
                    witness: || vec![RcuAction::FreeNow, RcuAction::Use(CPU1)],
                }),
                question: None,
            },
        ],
        next: &["/memory/aba"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The right answers at each stop with a question, with `readers` CPUs.
    fn answers(readers: usize) -> Vec<Vec<String>> {
        crate::lesson::answers(&lesson(), |_, s| s.config = RcuConfig { readers })
    }

    #[test]
    fn the_answers_are_the_textbooks() {
        // Three readers: publishing moves none of them off A; the grace
        // period waits for all three, even those holding B; it ends with
        // the two late readers still inside.
        assert_eq!(answers(3), [vec!["3"], vec!["3"], vec!["2"]]);
        assert_eq!(answers(4), [vec!["4"], vec!["4"], vec!["3"]]);
        assert_eq!(answers(2), [vec!["2"], vec!["2"], vec!["1"]]);
    }

    #[test]
    fn the_last_answer_is_counted_when_synchronize_rcu_has_returned() {
        let lesson = lesson();
        let stop = &lesson.stops[3];
        let m = stop.model().unwrap();
        let next = after_all(&m, &late_readers_then_leave(&m)).0;
        assert_eq!(next.updater, demos::memory::rcu::Updater::Idle);
        assert_eq!(
            next.nodes[usize::from(A)],
            demos::memory::rcu::NodeState::Freed
        );
    }
}
