//! The NIC's side: fetch a WQE, check it and DMA, write its completion.
//!
//! One WQE at a time, in order: completions for a work queue are returned in
//! the order its WRs were posted (IBTA vol. 1 §11.4). In the Error state the
//! NIC processes nothing and completes every outstanding WR with
//! `IBV_WC_WR_FLUSH_ERR` (IBTA vol. 1 §10.3, "Error" state). The NIC never
//! writes a CQE into a full CQ; it waits for the application to poll.

use super::*;

impl RdmaQp {
    /// Whether the NIC has a step to take, or why not.
    pub(super) fn nic_ready(&self) -> Result<(), Refusal> {
        let Some(head) = self.sq.front() else {
            return Err(Refusal::new(
                "The NIC is idle: the SQ holds no work request. Post a Send.",
            ));
        };
        let wants_cqe =
            self.qp == QpState::Err || matches!(head.stage, Stage::Sent | Stage::Failed);
        if wants_cqe && self.cq.len() >= self.config.cq_depth {
            return Err(Refusal::new(
                "The CQ is full: the NIC holds its next completion until the app polls.",
            ));
        }
        Ok(())
    }

    pub(super) fn nic_step(&mut self) -> Outcome {
        self.nic_ready()?;
        let (wr_id, wr, stage) = match self.sq.front() {
            Some(w) => (w.wr_id, w.wr, w.stage),
            None => return Err(Refusal::new("The NIC is idle.")),
        };
        if self.qp == QpState::Err && stage != Stage::Failed {
            self.complete(WcStatus::WrFlushErr, 0);
            return Ok(vec![Event::warn(format!(
                "The QP is in ERR, so the NIC does not touch WR #{wr_id}: it writes a completion with IBV_WC_WR_FLUSH_ERR instead."
            ))
            .at("cq")
            .at("qp-state")]);
        }
        match stage {
            Stage::Posted => {
                self.set_head(Stage::Fetched);
                Ok(vec![Event::info(format!(
                    "NIC fetched WR #{wr_id}: it read the WQE out of the SQ in host memory by DMA."
                ))
                .at("sq")
                .at("nic")])
            }
            Stage::Fetched => match wr.protection_error() {
                None => {
                    self.set_head(Stage::Sent);
                    self.counters.bytes_sent += u64::from(wr.len);
                    self.on_wire = Some((wr_id, wr.len));
                    Ok(vec![Event::info(format!(
                        "lkey and bounds check out, so the NIC DMAs the {} bytes straight from the registered region onto the wire: zero copies, no CPU involved.",
                        wr.len
                    ))
                    .at("mr")
                    .at("wire")])
                }
                Some(why) => {
                    self.set_head(Stage::Failed);
                    self.qp = QpState::Err;
                    Ok(vec![
                        Event::fault(format!(
                            "Protection check failed for WR #{wr_id}: {why}. Nothing is sent, and the QP moves to ERR."
                        ))
                        .at("mr")
                        .at("qp-state"),
                    ])
                }
            },
            Stage::Sent => {
                self.complete(WcStatus::Success, wr.len);
                Ok(vec![Event::done(format!(
                    "NIC wrote a completion for WR #{wr_id} into the CQ: IBV_WC_SUCCESS, {} bytes.",
                    wr.len
                ))
                .at("cq")])
            }
            Stage::Failed => {
                self.complete(WcStatus::LocProtErr, 0);
                Ok(vec![Event::fault(format!(
                    "NIC wrote a completion for WR #{wr_id}: IBV_WC_LOC_PROT_ERR. Every WR after it will be flushed."
                ))
                .at("cq")])
            }
        }
    }

    fn set_head(&mut self, stage: Stage) {
        if let Some(head) = self.sq.front_mut() {
            head.stage = stage;
        }
    }

    /// Retires the head WQE with a completion.
    fn complete(&mut self, status: WcStatus, byte_len: u32) {
        let Some(head) = self.sq.pop_front() else {
            return;
        };
        self.cq.push_back(Cqe {
            wr_id: head.wr_id,
            status,
            byte_len,
        });
        self.counters.completed += 1;
        match status {
            WcStatus::Success => self.counters.success += 1,
            WcStatus::LocProtErr => self.counters.prot_errors += 1,
            WcStatus::WrFlushErr => self.counters.flushed += 1,
        }
    }
}
