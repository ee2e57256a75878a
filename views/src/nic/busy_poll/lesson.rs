//! Busy polling's lesson: what the interrupt path costs a packet, what the
//! reader's own polling takes off it, what it costs in CPU, and what keeps
//! the device interrupt quiet. Every answer is read off the model after the
//! switch the question asks about.
//!
//! `BusyPollConfig` has nothing to configure (the packet rate, the stage
//! costs and the Break-it switch are actions), so each question's contrast
//! changes one of its stop's actions: a cheaper wakeup, prefer-busy-poll in
//! place of plain busy polling, a higher packet rate.

use crate::lesson::{after, at, Ask, Lesson, Question, Setup, Stop, Task};
use demos::nic::busy_poll::{BusyPoll, BusyPollAction, BUSY, PREFER, SPEC};
use demos::nic::stages::StageAction;
use demos::Model;

/// The choices for "does the device IRQ still fire".
const FIRES: &[&str] = &[
    "yes: its handler still runs for every packet",
    "no: it stays masked",
];
/// The choices for "which costs less CPU per packet".
const CHEAPER: &[&str] = &["interrupts", "polling"];
/// The wakeup's stage, whose cost the first contrast lowers.
const WAKEUP: usize = 4;
/// The packet rate of the CPU stop, and the one its contrast offers.
const SLOW: u32 = 10_000;
const FAST: u32 = 1_000_000;
/// The packet rate of the Break-it stop, and its contrast's.
const BREAK_RATE: u32 = 500_000;
const BREAK_CONTRAST: u32 = 200_000;

fn use_(technique: usize) -> BusyPollAction {
    BusyPollAction::Stage(StageAction::Use {
        technique,
        on: true,
    })
}

/// Replaces the stop's `SetRate` action with one offering `rate`.
fn rate(setup: &mut Setup<BusyPoll>, rate: u32) {
    for action in &mut setup.actions {
        if let BusyPollAction::SetRate(r) = action {
            *r = rate;
        }
    }
}

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
                    done: |m| m.pipe.walk_done(&SPEC),
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
                    // A cheaper wakeup: busy polling saves less.
                    contrast: |setup| {
                        setup.actions.push(BusyPollAction::Stage(StageAction::SetCost {
                            stage: WAKEUP,
                            ns: 1_000,
                        }))
                    },
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
                    explain: |m| m.why().get(1).or(m.why().first()).cloned().unwrap_or_default(),
                    // Prefer-busy-poll (with its deferral set) in place of
                    // plain busy polling: the IRQ stays masked.
                    contrast: |setup| setup.actions[0] = use_(PREFER),
                }),
            },
            Stop {
                title: "The price of spinning",
                text: "A polling core is busy all the time, whether packets come or not. Its CPU per packet is a whole core shared among the packets of each second, plus the device IRQ if it still fires.",
                state: at(&[use_(BUSY), BusyPollAction::SetRate(SLOW)]),
                focus: "cpu",
                task: None,
                question: Some(Question {
                    ask: "At this packet rate, which costs less CPU per packet?",
                    kind: Ask::Choice {
                        options: CHEAPER,
                        right: |m| vec![usize::from(m.cpu().busy_cheaper())],
                    },
                    explain: |m| m.why().last().cloned().unwrap_or_default(),
                    // A hundred times the packets share the spinning core.
                    contrast: |setup| rate(setup, FAST),
                }),
            },
            Stop {
                title: "Break it: a deferral with no timer",
                text: "SO_PREFER_BUSY_POLL, with napi_defer_hard_irqs and gro_flush_timeout both set, keeps the device IRQ masked while the app polls. The deferral needs both settings.",
                state: at(&[use_(BUSY), use_(PREFER), BusyPollAction::SetRate(BREAK_RATE)]),
                focus: "cpu",
                task: Some(Task {
                    ask: "In Break it, leave gro_flush_timeout at 0 and see what the IRQ does.",
                    done: |m| m.zero_flush_timeout && m.irqs_fire(),
                    witness: || vec![BusyPollAction::SetZeroFlushTimeout(true)],
                }),
                question: Some(Question {
                    ask: "Leave gro_flush_timeout at 0, napi_defer_hard_irqs still set. How much CPU per packet does polling then cost?",
                    kind: Ask::Number {
                        unit: "ns",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| {
                            after(m, BusyPollAction::SetZeroFlushTimeout(true))
                                .0
                                .cpu()
                                .busy_ns as f64
                        },
                    },
                    explain: |m| after(m, BusyPollAction::SetZeroFlushTimeout(true)).1,
                    // Fewer packets share the spinning core.
                    contrast: |setup| rate(setup, BREAK_CONTRAST),
                }),
            },
        ],
        next: &["/nic/napi", "/nic/coalescing"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answers_are_busy_pollings() {
        let lesson = lesson();
        let answers = crate::lesson::answers(&lesson, |_, _| {});
        // MSI-X 500 ns, hard IRQ 1 µs and the wakeup 4 µs leave the path;
        // plain SO_BUSY_POLL leaves the IRQ armed; at 10 k pkt/s a core
        // spins 100 µs per packet against 7 µs of interrupt work; with
        // gro_flush_timeout 0 at 500 k pkt/s the core's 2 µs per packet
        // gets the 1 µs IRQ handler back.
        assert_eq!(
            answers,
            [
                vec!["5500 ns"],
                vec!["yes: its handler still runs for every packet"],
                vec!["interrupts"],
                vec!["3000 ns"]
            ]
        );
        // At the contrasts: a 1 µs wakeup saves 2.5 µs; prefer-busy-poll
        // masks the IRQ; at 1 M pkt/s polling is the cheaper; at 200 k
        // pkt/s the core spins 5 µs per packet, plus the IRQ.
        let contrasted = crate::lesson::answers(&lesson, |q, s| (q.contrast)(s));
        assert_eq!(
            contrasted,
            [
                vec!["2500 ns"],
                vec!["no: it stays masked"],
                vec!["polling"],
                vec!["6000 ns"]
            ]
        );
    }
}
