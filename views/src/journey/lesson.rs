//! The journey's lesson: which stage dominates one 64-byte message, what
//! busy polling, kernel bypass and moderation each do to the whole path,
//! and what one dropped frame costs. Every answer is read off the model
//! after the move the question asks about.

use crate::lesson::{after, at, Ask, Lesson, Question, Stop, Task};
use demos::journey::{Fault, Journey, JourneyAction, StageId, Technique};
use demos::Model;

fn use_(t: Technique) -> JourneyAction {
    JourneyAction::Use(t, true)
}

/// The stages a "what dominates" question offers, and their words.
const DOMINANT: [StageId; 6] = [
    StageId::Socket,
    StageId::Napi,
    StageId::Interrupt,
    StageId::Fetch,
    StageId::Switch,
    StageId::Wire,
];
const DOMINANT_WORDS: &[&str] = &[
    "the socket: wakeup + recvmsg()",
    "the NAPI poll",
    "MSI-X + hard IRQ",
    "the NIC's fetch over PCIe",
    "the switch",
    "serialisation on the wire",
];

/// The option naming the stage that dominates `m`'s path.
fn dominant(m: &Journey) -> Vec<usize> {
    m.path()
        .dominant()
        .and_then(|s| DOMINANT.iter().position(|&d| d == s.id))
        .into_iter()
        .collect()
}

fn total(m: &Journey) -> f64 {
    m.path().total_ns as f64
}

/// The model's first "why" sentence: what dominates and by how much.
fn why_first(m: &Journey) -> String {
    m.why().into_iter().next().unwrap_or_default()
}

/// What the model said on the move, then what dominates after it.
fn told(m: &Journey, action: JourneyAction) -> String {
    let (next, said) = after(m, action);
    format!("{said} {}", why_first(&next))
}

/// Steps from the start to the message's arrival on the interrupt path
/// with the last frame dropped: its twelve stages and the retransmission.
const DROPPED_PATH_STAGES: usize = 13;

pub fn lesson() -> Lesson<Journey> {
    Lesson {
        goal: "After this you can say which stage dominates one small message's trip from one application to another, what busy polling, kernel bypass and interrupt moderation each change on the whole path, and why one dropped frame outweighs everything else.",
        stops: vec![
            Stop {
                title: "The interrupt path",
                text: "A 64-byte send() on ordinary sockets: the kernel builds the segment, the NIC fetches it over PCIe, the switch forwards it, and the receiving NIC interrupts a core, whose softirq runs the stack and wakes the reader.",
                state: at(&[]),
                focus: "stage-socket",
                task: None,
                question: Some(Question {
                    ask: "Which stage takes the longest?",
                    kind: Ask::Choice {
                        options: DOMINANT_WORDS,
                        right: dominant,
                    },
                    explain: why_first,
                    // With busy polling on, another stage dominates.
                    contrast: |s| s.actions.push(use_(Technique::BusyPoll)),
                }),
            },
            Stop {
                title: "Busy polling",
                text: "The reader can spin in recvmsg() and call the driver's poll itself. The interrupt and the wakeup leave the path; the stack stays.",
                state: at(&[]),
                focus: "stage-interrupt",
                task: None,
                question: Some(Question {
                    ask: "Turn on busy polling. How long does the message take end to end now?",
                    kind: Ask::Number {
                        unit: "ns",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| total(&after(m, use_(Technique::BusyPoll)).0),
                    },
                    explain: |m| told(m, use_(Technique::BusyPoll)),
                    // A 25 Gb/s line: a shorter wire and switch.
                    contrast: |s| s.config.line_gbps = 25,
                }),
            },
            Stop {
                title: "Kernel bypass",
                text: "With a poll-mode driver at both ends there is no system call, no kernel stack, no interrupt and no socket: the applications drive the NICs' rings themselves.",
                state: at(&[use_(Technique::BusyPoll)]),
                focus: "stage-napi",
                task: None,
                question: Some(Question {
                    ask: "Turn on kernel bypass. Which stage takes the longest now?",
                    kind: Ask::Choice {
                        options: DOMINANT_WORDS,
                        right: |m| dominant(&after(m, use_(Technique::Bypass)).0),
                    },
                    explain: |m| told(m, use_(Technique::Bypass)),
                    // A loaded switch queue outweighs the NIC's fetch.
                    contrast: |s| s.actions.push(use_(Technique::LoadedSwitch)),
                }),
            },
            Stop {
                title: "Interrupt moderation",
                text: "Back on the interrupt path. A NIC tuned for throughput holds its interrupt until rx-frames packets have come or rx-usecs have passed since the first: one message alone meets only the timer.",
                state: at(&[]),
                focus: "stage-moderation",
                task: None,
                question: Some(Question {
                    ask: "Turn on interrupt moderation (rx-usecs 30, rx-frames 32). How much longer does the message take?",
                    kind: Ask::Number {
                        unit: "ns",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| total(&after(m, use_(Technique::Moderation)).0) - total(m),
                    },
                    explain: |m| told(m, use_(Technique::Moderation)),
                    // A longer timer.
                    contrast: |s| s.config.coalescing.rx_usecs = 50,
                }),
            },
            Stop {
                title: "Break it: a dropped frame",
                text: "The switch drops the message's only frame. Nothing follows it, so no duplicate ACK can tell the sender: TCP learns of the loss only when its retransmission timer runs out.",
                state: at(&[]),
                focus: "stage-retransmit",
                task: Some(Task {
                    ask: "In Break it, drop the last frame, then step until the message arrives.",
                    done: |m| m.setup.drop && m.next_auto().is_err(),
                    witness: || {
                        let mut out = vec![JourneyAction::Break(Fault::Drop, true)];
                        out.extend([JourneyAction::Step; DROPPED_PATH_STAGES]);
                        out
                    },
                }),
                question: Some(Question {
                    ask: "With the frame dropped, how long does the message take end to end?",
                    kind: Ask::Number {
                        unit: "ns",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| total(&after(m, JourneyAction::Break(Fault::Drop, true)).0),
                    },
                    explain: |m| told(m, JourneyAction::Break(Fault::Drop, true)),
                    // The 1 ms floor instead of Linux's 200 ms.
                    contrast: |s| s.config.incast.fixes.fine_rto = true,
                }),
            },
            Stop {
                title: "What a loss costs",
                text: "The timer dwarfs every other stage put together: the microseconds the techniques save matter only on a path that loses nothing. The comparison table keeps every configuration you tried.",
                state: at(&[JourneyAction::Break(Fault::Drop, true)]),
                focus: "stage-retransmit",
                task: None,
                question: None,
            },
        ],
        next: &["/nic/busy-poll", "/nic/send-path", "/net/incast"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::journey::JourneyConfig;

    fn answers(contrasted: bool) -> Vec<String> {
        crate::lesson::contrast_texts(&lesson(), contrasted)
    }

    #[test]
    fn the_answers_are_the_models() {
        assert_eq!(
            answers(false),
            [
                "the socket: wakeup + recvmsg()",
                "3536 ns",
                "the NIC's fetch over PCIe",
                "30000 ns",
                "200009982 ns"
            ]
        );
        let contrasted = answers(true);
        assert_eq!(contrasted[0], "the NAPI poll");
        assert_eq!(contrasted[2], "the switch");
        assert_eq!(contrasted[3], "50000 ns");
        assert_eq!(contrasted[4], "1009982 ns");
        assert_ne!(contrasted[1], "3536 ns");
    }

    #[test]
    fn the_dropped_path_has_as_many_stages_as_the_witness_steps() {
        let mut m = Journey::new(&JourneyConfig::default());
        m.apply(&JourneyAction::Break(Fault::Drop, true)).unwrap();
        assert_eq!(m.path().on_path().count(), DROPPED_PATH_STAGES);
    }
}
