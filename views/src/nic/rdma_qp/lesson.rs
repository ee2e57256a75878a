//! RDMA queue pair's lesson: posting without the kernel, the completion
//! queue's budget, unsignaled requests that hold their slots, a Send with no
//! receive posted, and a wrong rkey that sends the QP to ERR. Every answer
//! is read off the model after the posts and steps the question asks about.

use crate::lesson::{auto_until, texts, Ask, Lesson, Question, Stop, Task};
use demos::nic::rdma_qp::{RdmaAction, RdmaConfig, RdmaQp, WcStatus, WorkRequest};
use demos::{Model, Scenario};

use RdmaAction::{NicStep, PollCq, PostSend};

/// More posts or steps than any question here can take.
const LIMIT: usize = 64;

/// How the third Send ends, in the order `rnr_end` numbers them.
const ENDS: &[&str] = &[
    "IBV_WC_SUCCESS",
    "IBV_WC_RNR_RETRY_EXC_ERR",
    "it never completes: the NIC retries for ever",
];

/// The lesson's queue pair: a CQ deeper than the SQ, so the two limits
/// differ.
fn config() -> RdmaConfig {
    RdmaConfig {
        cq_depth: 8,
        ..RdmaConfig::default()
    }
}

fn at(actions: &[RdmaAction]) -> Scenario<RdmaQp> {
    Scenario {
        config: config(),
        actions: actions.to_vec(),
    }
}

/// Two Sends posted, carried through by the NIC and polled: the peer's
/// preposted receives are used up.
fn receives_used() -> Vec<RdmaAction> {
    let send = PostSend(WorkRequest::valid());
    let mut out = vec![send, send];
    out.extend([NicStep; 6]);
    out.push(PollCq);
    out
}

fn bad_rkey() -> RdmaAction {
    PostSend(WorkRequest::wrong_rkey())
}

/// Posts `wr` again and again, letting the NIC finish everything whenever a
/// post is refused, and never polling: how many posts were taken, and the
/// refusal that ended it.
fn posts_without_polling(m: &RdmaQp, wr: WorkRequest) -> (u64, String) {
    let mut next = m.clone();
    let before = next.counters.posted;
    let mut refusal = String::new();
    for _ in 0..LIMIT {
        if next.apply(&PostSend(wr)).is_ok() {
            continue;
        }
        auto_until(&mut next, LIMIT, |_| false);
        match next.apply(&PostSend(wr)) {
            Ok(_) => continue,
            Err(r) => {
                refusal = r.reason;
                break;
            }
        }
    }
    (next.counters.posted - before, refusal)
}

/// A Send posted with no receive at the peer, stepped until it completes
/// or the NIC can do nothing more: its completion, if any, and the story.
fn rnr_end(m: &RdmaQp) -> (Option<WcStatus>, String) {
    let mut next = m.clone();
    let mut said = vec![texts(next.apply(&PostSend(WorkRequest::valid())))];
    said.extend(auto_until(&mut next, LIMIT, |m| !m.cq.is_empty()));
    if let Err(r) = next.next_auto() {
        if next.cq.is_empty() {
            said.push(r.reason);
        }
    }
    (next.cq.back().map(|c| c.status), said.join(" "))
}

/// Sends posted behind the bad WRITE until the SQ takes no more, then the
/// NIC stepped until idle: the flushed completions and the story.
fn flushed_behind(m: &RdmaQp) -> (u64, String) {
    let mut next = m.clone();
    for _ in 0..LIMIT {
        if next.apply(&PostSend(WorkRequest::valid())).is_err() {
            break;
        }
    }
    let said = auto_until(&mut next, LIMIT, |_| false).join(" ");
    (next.counters.flushed - m.counters.flushed, said)
}

pub fn lesson() -> Lesson<RdmaQp> {
    Lesson {
        goal: "After this you can explain how an RDMA queue pair moves data without a system call, and what the send queue, the completion queue and the peer's receives each limit.",
        stops: vec![
            Stop {
                title: "Posting without the kernel",
                text: "The app writes a work request into the send queue, memory it shares with the NIC, and rings a doorbell with one MMIO write: no system call. The NIC fetches it by DMA, checks the lkey, moves the bytes and writes a completion into the CQ.",
                state: at(&[]),
                focus: "sq",
                task: Some(Task {
                    ask: "Post a Send, then step the NIC until its completion is in the CQ.",
                    done: |m| m.counters.completed > 0,
                    witness: || vec![PostSend(WorkRequest::valid()), NicStep, NicStep, NicStep],
                }),
                question: None,
            },
            Stop {
                title: "The CQ has a size",
                text: "The NIC never waits for room in the CQ: a completion that finds it full is an error. So an app keeps its outstanding requests and unpolled completions within the CQ's depth, and this demo refuses a post that would break that budget.",
                state: at(&[]),
                focus: "cq",
                task: None,
                question: Some(Question {
                    ask: "Post RDMA WRITEs, let the NIC finish each, and never poll the CQ. How many can you post before ibv_post_send must wait for a poll?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| posts_without_polling(m, WorkRequest::write()).0 as f64,
                    },
                    explain: |m| posts_without_polling(m, WorkRequest::write()).1,
                    contrast: |c| c.cq_depth = 4,
                }),
            },
            Stop {
                title: "Unsignaled requests",
                text: "A request posted without IBV_SEND_SIGNALED writes no completion when it succeeds. The app learns it is done, and gets its SQ slot back, only from a later signaled completion.",
                state: at(&[]),
                focus: "sq",
                task: None,
                question: Some(Question {
                    ask: "Post unsignaled RDMA WRITEs and let the NIC finish each. How many can you post before the SQ is full?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| {
                            posts_without_polling(m, WorkRequest::write().unsignaled()).0 as f64
                        },
                    },
                    explain: |m| posts_without_polling(m, WorkRequest::write().unsignaled()).1,
                    contrast: |c| c.sq_depth = 2,
                }),
            },
            Stop {
                title: "No receive posted",
                text: "A Send lands in a receive the peer posted in advance, and two Sends have used up the peer's. Its NIC answers a Send with RNR NAK (receiver not ready); ours waits the RNR timer and tries again, up to rnr_retry times.",
                state: at(&receives_used()),
                focus: "peer-rq",
                task: None,
                question: Some(Question {
                    ask: "Post a third Send and step the NIC. How does it complete?",
                    kind: Ask::Choice {
                        options: ENDS,
                        right: |m| {
                            vec![match rnr_end(m).0 {
                                Some(WcStatus::Success) => 0,
                                Some(_) => 1,
                                None => 2,
                            }]
                        },
                    },
                    explain: |m| rnr_end(m).1,
                    contrast: |c| c.rnr_retry = 7,
                }),
            },
            Stop {
                title: "Break it: a wrong rkey",
                text: "An RDMA WRITE names the peer's memory by address and rkey, and the peer's NIC checks both without its CPU. This WRITE carries an rkey the peer never handed out.",
                state: at(&[bad_rkey()]),
                focus: "peer-mr",
                task: Some(Task {
                    ask: "Step the NIC until the WRITE's error completion is in the CQ.",
                    done: |m| m.counters.rem_errors > 0,
                    witness: || vec![NicStep, NicStep, NicStep],
                }),
                question: Some(Question {
                    ask: "Post Sends behind it until ibv_post_send refuses, then step the NIC until it is idle. How many completions say IBV_WC_WR_FLUSH_ERR?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| flushed_behind(m).0 as f64,
                    },
                    explain: |m| flushed_behind(m).1,
                    contrast: |c| c.sq_depth = 2,
                }),
            },
            Stop {
                title: "Back to RTS",
                text: "The error moved the QP to ERR, where every outstanding request is flushed rather than sent. To send again the app takes the QP through RESET, INIT and RTR back to RTS, with ibv_modify_qp calls that each enter the kernel.",
                state: at(&[bad_rkey(), NicStep, NicStep, NicStep]),
                focus: "qp-state",
                task: Some(Task {
                    ask: "Reset the QP, then post a Send and step the NIC until it succeeds.",
                    done: |m| m.counters.control_syscalls > 0 && m.counters.success > 0,
                    witness: || {
                        vec![
                            RdmaAction::ResetQp,
                            PostSend(WorkRequest::valid()),
                            NicStep,
                            NicStep,
                            NicStep,
                        ]
                    },
                }),
                question: None,
            },
        ],
        next: &["/nic/send-path", "/net/allreduce"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The right answers at each question, with one change to the stops'
    /// configuration.
    fn answers(change: fn(&mut RdmaConfig)) -> Vec<String> {
        crate::lesson::answers(&lesson(), |_, s| change(s))
            .into_iter()
            .map(|a| a.concat())
            .collect()
    }

    #[test]
    fn the_answers_are_the_verbs() {
        // SQ 4, CQ 8, rnr_retry 2: unpolled completions fill the CQ's 8;
        // unsignaled WRITEs hold the SQ's 4 slots; the third Send is NAKed
        // three times and fails; three Sends fit behind the bad WRITE and
        // all are flushed.
        assert_eq!(answers(|_| {}), ["8", "4", "IBV_WC_RNR_RETRY_EXC_ERR", "3"]);
        assert_eq!(answers(|c| c.cq_depth = 4)[0], "4");
        let short = answers(|c| c.sq_depth = 2);
        assert_eq!(short[1], "2");
        assert_eq!(short[3], "1");
        assert_eq!(
            answers(|c| c.rnr_retry = 7)[2],
            "it never completes: the NIC retries for ever"
        );
    }
}
