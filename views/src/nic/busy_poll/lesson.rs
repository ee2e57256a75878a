//! Busy polling's lesson: what the interrupt path costs a packet, what the
//! reader's own polling takes off it, what it costs in CPU, and what keeps
//! the device interrupt quiet. Every answer is read off the model after the
//! switch the question asks about.
//!
//! Not yet sound: `BusyPollConfig` has no field (the packet rate and the
//! Break-it switch are actions, not configuration), so no question's
//! `contrast` can change a value, and `tests/lessons.rs` rejects each one.
//! The contrasts below say, in their comments, the one value each would
//! change once the rate is configuration.

use crate::lesson::{Ask, Lesson, Question, Stop, Task};
use demos::nic::busy_poll::{BusyPoll, BusyPollAction, BusyPollConfig, BUSY, PREFER};
use demos::nic::stages::StageAction;
use demos::{Model, Scenario};

/// The choices for "does the device IRQ still fire".
const FIRES: &[&str] = &[
    "yes: its handler still runs for every packet",
    "no: it stays masked",
];
/// The choices for "which costs less CPU per packet".
const CHEAPER: &[&str] = &["interrupts", "polling"];
/// The choices for "what gro_flush_timeout 0 costs".
const LOSSES: &[&str] = &[
    "latency: the interrupt is back on the packet's path",
    "CPU: the IRQ fires again, but the path is unchanged",
    "nothing: napi_defer_hard_irqs alone keeps the IRQ masked",
];

fn use_(technique: usize) -> BusyPollAction {
    BusyPollAction::Stage(StageAction::Use {
        technique,
        on: true,
    })
}

fn at(actions: &[BusyPollAction]) -> Scenario<BusyPoll> {
    Scenario {
        config: BusyPollConfig::default(),
        actions: actions.to_vec(),
    }
}

fn texts(outcome: demos::Outcome) -> String {
    match outcome {
        Ok(events) => events
            .into_iter()
            .map(|e| e.text)
            .collect::<Vec<_>>()
            .join(" "),
        Err(refusal) => refusal.reason,
    }
}

/// The model after `action` (unchanged if refused), and what it said.
fn after(m: &BusyPoll, action: BusyPollAction) -> (BusyPoll, String) {
    let mut next = m.clone();
    let said = texts(next.apply(&action));
    (next, said)
}

/// What leaving gro_flush_timeout at 0 costs, as an index into [`LOSSES`].
fn loss(m: &BusyPoll) -> usize {
    let (next, _) = after(m, BusyPollAction::SetZeroFlushTimeout(true));
    if next.pipe.total(&demos::nic::busy_poll::SPEC) != m.pipe.total(&demos::nic::busy_poll::SPEC) {
        0
    } else if next.irqs_fire() {
        1
    } else {
        2
    }
}

/// No configuration value to change (see the module notes).
fn no_contrast(_: &mut BusyPollConfig) {}

pub fn lesson() -> Lesson<BusyPoll> {
    Lesson {
        goal: "After this you can explain what busy polling takes off a received packet's path, what it costs in CPU, and why the device interrupt can keep firing under it.",
        stops: vec![
            Stop {
                title: "The interrupt path",
                text: "With interrupts, the NIC writes the frame and sends an MSI-X message. The hard IRQ schedules NAPI, whose poll runs the driver and the stack, then wakes the reader asleep in recvmsg().",
                state: at(&[]),
                focus: "irq",
                task: Some(Task {
                    ask: "Step the packet all the way to the app.",
                    done: |m| m.pipe.walk_done(&demos::nic::busy_poll::SPEC),
                    witness: || vec![BusyPollAction::Stage(StageAction::Advance); 6],
                }),
                question: None,
            },
            Stop {
                title: "The reader polls",
                text: "With SO_BUSY_POLL the reader does not sleep: it spins inside recvmsg() and runs the driver's NAPI poll itself. The driver and the stack still do their work.",
                state: at(&[]),
                focus: "wakeup",
                task: None,
                question: Some(Question {
                    ask: "Turn on kernel busy polling. How much sooner does the app hold the packet?",
                    kind: Ask::Number {
                        unit: "ns",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| after(m, use_(BUSY)).0.saving() as f64,
                    },
                    explain: |m| after(m, use_(BUSY)).1,
                    // Would change a stage's cost, were costs configuration.
                    contrast: |setup| no_contrast(setup),
                }),
            },
            Stop {
                title: "Off the path, not gone",
                text: "Busy polling took the interrupt and the wakeup off the packet's path: the packet no longer waits for them. Whether the device still raises its interrupt is another question.",
                state: at(&[use_(BUSY)]),
                focus: "cpu",
                task: None,
                question: Some(Question {
                    ask: "With plain busy polling on, does the device IRQ still fire?",
                    kind: Ask::Choice {
                        options: FIRES,
                        right: |m| vec![usize::from(!m.irqs_fire())],
                    },
                    explain: |m| m.why().get(1).cloned().unwrap_or_default(),
                    contrast: |setup| no_contrast(setup),
                }),
            },
            Stop {
                title: "The price of spinning",
                text: "A polling core is busy all the time, whether packets come or not. Its CPU per packet is a whole core shared among the packets of each second.",
                state: at(&[use_(BUSY), BusyPollAction::SetRate(10_000)]),
                focus: "cpu",
                task: None,
                question: Some(Question {
                    ask: "At this packet rate, which costs less CPU per packet?",
                    kind: Ask::Choice {
                        options: CHEAPER,
                        right: |m| vec![usize::from(m.cpu().busy_cheaper())],
                    },
                    explain: |m| m.why().last().cloned().unwrap_or_default(),
                    // Would raise the packet rate, were it configuration.
                    contrast: |setup| no_contrast(setup),
                }),
            },
            Stop {
                title: "Break it: a deferral with no timer",
                text: "SO_PREFER_BUSY_POLL, with napi_defer_hard_irqs and gro_flush_timeout both set, keeps the device IRQ masked while the app polls. The deferral needs both settings.",
                state: at(&[use_(BUSY), use_(PREFER)]),
                focus: "cpu",
                task: Some(Task {
                    ask: "In Break it, leave gro_flush_timeout at 0 and see what the IRQ does.",
                    done: |m| m.zero_flush_timeout && m.irqs_fire(),
                    witness: || vec![BusyPollAction::SetZeroFlushTimeout(true)],
                }),
                question: Some(Question {
                    ask: "Set gro_flush_timeout to 0 with napi_defer_hard_irqs still set. What does that cost?",
                    kind: Ask::Choice {
                        options: LOSSES,
                        right: |m| vec![loss(m)],
                    },
                    explain: |m| after(m, BusyPollAction::SetZeroFlushTimeout(true)).1,
                    contrast: |setup| no_contrast(setup),
                }),
            },
        ],
        next: &["/nic/napi", "/nic/coalescing"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(stop: &Stop<BusyPoll>) -> BusyPoll {
        stop.model().expect("the stop replays")
    }

    #[test]
    fn the_answers_are_busy_pollings() {
        let lesson = lesson();
        let answers: Vec<Vec<String>> = lesson
            .stops
            .iter()
            .filter_map(|s| Some(s.question.as_ref()?.answers(&model(s))))
            .collect();
        // MSI-X 500 ns, hard IRQ 1 µs and the wakeup 4 µs leave the path;
        // plain SO_BUSY_POLL leaves the IRQ armed; at 10 k pkt/s a core
        // spins 100 µs per packet; gro_flush_timeout 0 defers nothing.
        assert_eq!(
            answers,
            [
                vec!["5500 ns"],
                vec!["yes: its handler still runs for every packet"],
                vec!["interrupts"],
                vec!["CPU: the IRQ fires again, but the path is unchanged"]
            ]
        );
        // What the missing contrasts would show: the answers move with the
        // model. A cheaper wakeup saves less; prefer-busy-poll masks the
        // IRQ; at 1 M pkt/s polling is the cheaper.
        let stops = &lesson.stops;
        let mut cheap_wakeup = model(&stops[1]);
        cheap_wakeup
            .apply(&BusyPollAction::Stage(StageAction::SetCost {
                stage: 4,
                ns: 1_000,
            }))
            .unwrap();
        let q = |i: usize| stops[i].question.as_ref().unwrap();
        assert_eq!(q(1).answers(&cheap_wakeup), ["2500 ns"]);
        let (masked, _) = after(&model(&stops[2]), use_(PREFER));
        assert_eq!(q(2).answers(&masked), ["no: it stays masked"]);
        let (fast, _) = after(&model(&stops[3]), BusyPollAction::SetRate(1_000_000));
        assert_eq!(q(3).answers(&fast), ["polling"]);
    }
}
