//! The NIC's side: fetch a WQE, check it, move the bytes (with the peer's
//! NIC answering), write its completion.
//!
//! One WQE at a time, in order: completions for a work queue are returned in
//! the order its WRs were posted (IBTA vol. 1 §11.4). In the Error state the
//! NIC processes nothing and completes every outstanding WR with
//! `IBV_WC_WR_FLUSH_ERR` (IBTA vol. 1 §10.3, "Error" state). It never waits
//! for room in the CQ: the post-time budget in `app.rs` guarantees it.

use super::*;
use crate::text::plural;

impl RdmaQp {
    /// Whether the NIC has a step to take, or why not.
    pub(super) fn nic_ready(&self) -> Result<(), Refusal> {
        let Some((_, head)) = self.head() else {
            return Err(Refusal::new(
                "The NIC is idle: the SQ holds no work request to process. Post one.",
            ));
        };
        if let Stage::RnrWait(_) = head.stage {
            if self.config.rnr_retry == RNR_RETRY_MAX
                && self.peer_rq == 0
                && self.qp == QpState::Rts
            {
                return Err(Refusal::new(
                    "rnr_retry is 7, so the NIC retries for ever, and every retry meets the same empty RQ: post a receive at the peer.",
                ));
            }
        }
        Ok(())
    }

    pub(super) fn nic_step(&mut self) -> Outcome {
        self.nic_ready()?;
        let Some((at, head)) = self.head() else {
            return Err(Refusal::new("The NIC is idle."));
        };
        let (wr_id, wr) = (head.wr_id, head.wr);
        if self.qp == QpState::Err && !matches!(head.stage, Stage::Failed(_)) {
            self.complete(at, WcStatus::WrFlushErr);
            return Ok(vec![Event::warn(format!(
                "The QP is in ERR, so the NIC does not touch WR #{wr_id}: the QP state machine completes it with IBV_WC_WR_FLUSH_ERR, as it would on any QP type."
            ))
            .at("cq")
            .at("qp-state")]);
        }
        match head.stage {
            Stage::Posted => {
                self.set_stage(at, Stage::Fetched);
                Ok(vec![Event::info(format!(
                    "NIC fetched WR #{wr_id} ({}): it read the WQE out of the SQ in host memory by DMA.",
                    wr.op.name()
                ))
                .at("sq")
                .at("nic")])
            }
            Stage::Fetched => self.transfer(at, wr_id, wr, 0),
            Stage::RnrWait(naks) => self.transfer(at, wr_id, wr, naks),
            Stage::Acked => Ok(self.succeed(at, wr_id, wr)),
            Stage::Failed(status) => {
                self.complete(at, status);
                Ok(vec![Event::fault(format!(
                    "NIC wrote an error completion for WR #{wr_id}: {}. Errors complete whether signaled or not; every WR after it will be flushed. Only wr_id, status, qp_num and vendor_err are valid in it, so the app finds the request by its wr_id.",
                    status.label()
                ))
                .at("cq")])
            }
            Stage::Done => Err(Refusal::new("That WR is already done.")),
        }
    }

    /// The local check, then the bytes: to or from the peer.
    fn transfer(&mut self, at: usize, wr_id: u64, wr: WorkRequest, naks: u8) -> Outcome {
        if let Some(why) = wr.protection_error() {
            self.fail(at, WcStatus::LocProtErr);
            return Ok(vec![Event::fault(format!(
                "Local protection check failed for WR #{wr_id}: {why}. Nothing is sent, and the QP moves to ERR."
            ))
            .at("mr")
            .at("qp-state")]);
        }
        if let Some(why) = wr.remote_error() {
            self.fail(at, WcStatus::RemAccessErr);
            return Ok(vec![Event::fault(format!(
                "The peer's NIC NAKed WR #{wr_id} with a remote access error: {why}. Its memory is untouched; our QP moves to ERR."
            ))
            .at("peer-mr")
            .at("qp-state")]);
        }
        match wr.op {
            Op::Send if self.peer_rq == 0 => {
                let naks = naks + 1;
                self.counters.rnr_naks += 1;
                let forever = self.config.rnr_retry == RNR_RETRY_MAX;
                if !forever && naks > self.config.rnr_retry {
                    self.fail(at, WcStatus::RnrRetryExcErr);
                    return Ok(vec![Event::fault(format!(
                        "RNR NAK again for WR #{wr_id}: the peer still has no receive posted, and rnr_retry = {} is used up. The WR fails with IBV_WC_RNR_RETRY_EXC_ERR and the QP moves to ERR.",
                        self.config.rnr_retry
                    ))
                    .at("peer-rq")
                    .at("qp-state")]);
                }
                self.set_stage(at, Stage::RnrWait(naks));
                let left = if forever {
                    "it retries for ever (rnr_retry = 7)".to_string()
                } else {
                    format!("retry {naks} of {}", self.config.rnr_retry)
                };
                Ok(vec![Event::warn(format!(
                    "RNR NAK: the peer has no receive WQE for WR #{wr_id}'s Send. The requester waits the RNR timer and sends again: {left}."
                ))
                .at("peer-rq")
                .at("wire")])
            }
            Op::Send => {
                self.peer_rq -= 1;
                self.counters.peer_recvs += 1;
                self.moved(at, wr_id, wr);
                Ok(vec![Event::info(format!(
                    "lkey and bounds check out: the NIC DMAs the {} bytes straight from the region onto the wire, zero copies. The peer consumes a receive WQE ({} left) and its app will get a receive completion; it ACKs.",
                    wr.len, self.peer_rq
                ))
                .at("mr")
                .at("wire")
                .at("peer-rq")])
            }
            Op::Write => {
                self.counters.bytes_written_remote += u64::from(wr.len);
                self.moved(at, wr_id, wr);
                Ok(vec![Event::info(format!(
                    "RDMA WRITE: {} bytes cross the wire; the peer's NIC checks rkey {:#x} and places them at {:#x}. No receive WQE, no completion, no instruction of the peer's CPU.",
                    wr.len, wr.rkey, wr.remote_addr
                ))
                .at("wire")
                .at("peer-mr")])
            }
            Op::Read => {
                self.counters.bytes_read_remote += u64::from(wr.len);
                self.moved(at, wr_id, wr);
                Ok(vec![Event::info(format!(
                    "RDMA READ: the peer's NIC checks rkey {:#x}, reads {} bytes at {:#x} and sends them back; our NIC DMAs them into {:#x}. The peer's CPU never knew.",
                    wr.rkey, wr.len, wr.remote_addr, wr.addr
                ))
                .at("peer-mr")
                .at("wire")
                .at("mr")])
            }
        }
    }

    fn moved(&mut self, at: usize, wr_id: u64, wr: WorkRequest) {
        self.set_stage(at, Stage::Acked);
        self.counters.bytes_sent += u64::from(wr.len);
        self.on_wire = Some((wr_id, wr.len, wr.op));
    }

    /// A successful WR: a completion if signaled, else a silent finish.
    fn succeed(&mut self, at: usize, wr_id: u64, wr: WorkRequest) -> Vec<Event> {
        if !wr.signaled {
            self.set_stage(at, Stage::Done);
            self.counters.silent += 1;
            return vec![Event::info(format!(
                "WR #{wr_id} is done but unsignaled: no CQE. Its SQ slot stays taken until a later signaled completion tells the app ({} slot{} held so far).",
                self.silent_done(),
                plural(self.silent_done())
            ))
            .at("sq")];
        }
        let freed = self.silent_done();
        self.complete(at, WcStatus::Success);
        let mut text = format!(
            "NIC wrote a completion for WR #{wr_id}: IBV_WC_SUCCESS, {}",
            wr.op.wc_label()
        );
        if wr.op == Op::Read {
            text.push_str(&format!(", byte_len {}", wr.len));
        }
        text.push('.');
        if freed > 0 {
            text.push_str(&format!(
                " It also tells the app that the {freed} unsignaled WR{} before it finished: their slots are free.",
                plural(freed)
            ));
        }
        vec![Event::done(text).at("cq").at("sq")]
    }

    fn set_stage(&mut self, at: usize, stage: Stage) {
        if let Some(w) = self.sq.get_mut(at) {
            w.stage = stage;
        }
    }

    fn fail(&mut self, at: usize, status: WcStatus) {
        self.set_stage(at, Stage::Failed(status));
        self.qp = QpState::Err;
    }

    /// Writes the completion of the WQE at `at`, retiring it and the
    /// unsignaled WQEs that finished before it.
    fn complete(&mut self, at: usize, status: WcStatus) {
        let Some(wqe) = self.sq.get(at).copied() else {
            return;
        };
        self.sq.drain(..=at);
        self.counters.retired += at as u64 + 1;
        self.cq.push_back(Cqe {
            wr_id: wqe.wr_id,
            status,
            opcode: (status == WcStatus::Success).then_some(wqe.wr.op),
            byte_len: (status == WcStatus::Success && wqe.wr.op == Op::Read).then_some(wqe.wr.len),
        });
        self.counters.completed += 1;
        match status {
            WcStatus::Success => self.counters.success += 1,
            WcStatus::LocProtErr => self.counters.prot_errors += 1,
            WcStatus::RemAccessErr => self.counters.rem_errors += 1,
            WcStatus::RnrRetryExcErr => self.counters.rnr_errors += 1,
            WcStatus::WrFlushErr => self.counters.flushed += 1,
        }
    }
}
