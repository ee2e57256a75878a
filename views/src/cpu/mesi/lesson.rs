//! MESI's lesson: from a cold line to a stale copy. Every answer is read off
//! the coherence model after the access the question asks about.

use crate::lesson::{after, at, Ask, Lesson, Question, Stop, Task};
use demos::coherence::{Protocol, State};
use demos::cpu::mesi::{Mesi, MesiAction, MesiConfig};

const A: usize = 0;
const B: usize = 1;
const LINE: usize = 0;

/// The choices for "which state": the letters of every protocol's states.
const STATES: &[&str] = &["M", "O", "E", "S", "I"];
/// The choices for "is memory up to date".
const FRESHNESS: &[&str] = &["yes, memory holds the latest value", "no, memory is stale"];

fn read(core: usize) -> MesiAction {
    MesiAction::Read { core, line: LINE }
}

fn write(core: usize) -> MesiAction {
    MesiAction::Write { core, line: LINE }
}

fn state_index(state: State) -> usize {
    STATES
        .iter()
        .position(|l| *l == state.letter())
        .expect("every state has a letter among the choices")
}

fn bus_transactions(m: &Mesi) -> u32 {
    let c = &m.system().counts;
    c.bus_rd + c.bus_rdx + c.bus_upgr
}

fn under_msi(config: &mut MesiConfig) {
    config.protocol = Protocol::Msi;
}

fn under_moesi(config: &mut MesiConfig) {
    config.protocol = Protocol::Moesi;
}

pub fn lesson() -> Lesson<Mesi> {
    Lesson {
        goal: "After this you can explain why a write must reach every other copy of a line, and what the E and O states save on the bus.",
        stops: vec![
            Stop {
                title: "A cold line",
                text: "Neither cache holds the line: both copies are Invalid and memory has the only value.",
                state: at(&[]),
                focus: "memory",
                task: None,
                question: Some(Question {
                    ask: "Core A reads the line. In which state will A's copy be?",
                    kind: Ask::Choice {
                        options: STATES,
                        right: |m| vec![state_index(after(m, read(A)).0.system().state(A, LINE))],
                    },
                    explain: |m| after(m, read(A)).1,
                    contrast: |setup| under_msi(setup),
                }),
            },
            Stop {
                title: "The only copy",
                text: "A now holds the line and no other cache does. Whether it may write without asking depends on the state it is in.",
                state: at(&[read(A)]),
                focus: "core-0",
                task: None,
                question: Some(Question {
                    ask: "Core A writes the line. How many requests does that put on the bus?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| {
                            f64::from(bus_transactions(&after(m, write(A)).0) - bus_transactions(m))
                        },
                    },
                    explain: |m| after(m, write(A)).1,
                    contrast: |setup| under_msi(setup),
                }),
            },
            Stop {
                title: "A dirty line is read",
                text: "A's copy is Modified: memory is stale, so when B reads, A's cache must answer.",
                state: at(&[read(A), write(A)]),
                focus: "bus",
                task: None,
                question: Some(Question {
                    ask: "Core B reads the line. In which state is A's copy afterwards?",
                    kind: Ask::Choice {
                        options: STATES,
                        right: |m| vec![state_index(after(m, read(B)).0.system().state(A, LINE))],
                    },
                    explain: |m| after(m, read(B)).1,
                    contrast: |setup| under_moesi(setup),
                }),
            },
            Stop {
                title: "Who keeps memory up to date",
                text: "B's copy is Modified and memory is stale. When A reads, B's cache supplies the line; whether memory takes the value too depends on the protocol.",
                state: at(&[read(A), write(A), read(B), write(B)]),
                focus: "memory",
                task: None,
                question: Some(Question {
                    ask: "Core A reads the line. Afterwards, does memory hold the latest value?",
                    kind: Ask::Choice {
                        options: FRESHNESS,
                        right: |m| {
                            let fresh = after(m, read(A)).0.system().lines[LINE].memory_fresh();
                            vec![usize::from(!fresh)]
                        },
                    },
                    explain: |m| after(m, read(A)).1,
                    contrast: |setup| under_moesi(setup),
                }),
            },
            Stop {
                title: "Break it: no invalidation",
                text: "Turn invalidation off in Break it, then let B write while A still holds a copy: A keeps reading its old value.",
                state: at(&[read(A), read(B)]),
                focus: "core-0",
                task: Some(Task {
                    ask: "Switch invalidation off, have B write, then have A read.",
                    done: |m| {
                        m.tainted && m.system().state(A, LINE) != State::I && {
                            let line = &m.system().lines[LINE];
                            line.values[A] != line.latest
                        }
                    },
                    witness: || vec![MesiAction::SetInvalidation(false), write(B), read(A)],
                }),
                question: None,
            },
        ],
        next: &["/cpu/numa"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The right answers at each stop, as the reveal shows them.
    fn answers(config: MesiConfig) -> Vec<Vec<String>> {
        crate::lesson::answers(&lesson(), |_, s| s.config = config.clone())
    }

    #[test]
    fn the_answers_are_the_textbooks() {
        // MESI: a sole reader gets E, whose write is silent; a dirty line
        // read by another goes to S and memory picks up the flush.
        assert_eq!(
            answers(MesiConfig::default()),
            [
                vec!["E"],
                vec!["0"],
                vec!["S"],
                vec!["yes, memory holds the latest value"]
            ]
        );
        // MSI has no E: the reader gets S and its write needs BusUpgr.
        let msi = answers(MesiConfig {
            protocol: Protocol::Msi,
            ..MesiConfig::default()
        });
        assert_eq!(msi[0], ["S"]);
        assert_eq!(msi[1], ["1"]);
        // MOESI keeps the dirty line in O and memory stale.
        let moesi = answers(MesiConfig {
            protocol: Protocol::Moesi,
            ..MesiConfig::default()
        });
        assert_eq!(moesi[2], ["O"]);
        assert_eq!(moesi[3], ["no, memory is stale"]);
    }
}
