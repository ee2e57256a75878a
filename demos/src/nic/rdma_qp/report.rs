//! What the learner reads: the status line, "why it matters", the invariants.

use super::*;
use crate::text::plural;

impl RdmaQp {
    pub(super) fn figures(&self) -> Vec<Figure> {
        let c = &self.counters;
        vec![
            Figure::new("qp", "QP state", self.qp.label()),
            Figure::new(
                "sq",
                "SQ depth",
                format!("{}/{}", self.sq.len(), self.config.sq_depth),
            ),
            Figure::new("in-flight", "in flight", self.in_flight()),
            Figure::new(
                "cq",
                "CQ entries",
                format!("{}/{}", self.cq.len(), self.config.cq_depth),
            ),
            Figure::new("posted", "posted", c.posted),
            Figure::new("silent", "done without a CQE", c.silent),
            Figure::new("peer-rq", "peer receives posted", self.peer_rq),
            Figure::new("rnr", "RNR NAKs", c.rnr_naks),
            Figure::new(
                "remote-bytes",
                "bytes by WRITE / READ",
                format!("{} / {}", c.bytes_written_remote, c.bytes_read_remote),
            ),
            Figure::new("rdma-syscalls", "RDMA data-path syscalls", c.data_syscalls),
            Figure::new("rdma-copies", "RDMA copies", c.copies),
            Figure::new("sock-syscalls", "sockets syscalls", c.sock_syscalls),
            Figure::new("sock-copies", "sockets copies", c.sock_copies),
        ]
    }

    pub(super) fn sentences(&self) -> Vec<String> {
        let c = &self.counters;
        let mut out = vec![format!(
            "{} WR{} posted with {} system call{} and {} copies: the queues live in memory the app and the NIC share, so posting and polling are loads, stores and a doorbell write.",
            c.posted,
            plural(c.posted as usize),
            c.data_syscalls,
            plural(c.data_syscalls as usize),
            c.copies
        )];
        if c.bytes_written_remote + c.bytes_read_remote > 0 {
            out.push(format!(
                "One-sided: {} bytes written and {} read in the peer's memory with its rkey, and the peer's CPU ran no instruction for them; only Sends consumed its receives ({}).",
                c.bytes_written_remote, c.bytes_read_remote, c.peer_recvs
            ));
        }
        if c.rnr_naks > 0 {
            out.push(format!(
                "{} RNR NAK{}: a Send needs a receive WQE the peer posted in advance; with none, the requester can only wait and retry, rnr_retry = {} times{}.",
                c.rnr_naks,
                plural(c.rnr_naks as usize),
                self.config.rnr_retry,
                if self.config.rnr_retry == RNR_RETRY_MAX { " (7: for ever)" } else { "" }
            ));
        }
        if c.silent > 0 {
            out.push(format!(
                "{} WR{} finished unsignaled: no CQE to write or poll, but the app learns of them, and gets their SQ slots back, only through a later signaled completion. Signal at least one WR in every SQ-full.",
                c.silent,
                plural(c.silent as usize)
            ));
        }
        if c.sock_sends > 0 {
            out.push(format!(
                "The {} socket send{} took {} system call{} and copied {} bytes into the kernel before the NIC could see them; that per-send cost is what kernel bypass removes.",
                c.sock_sends,
                plural(c.sock_sends as usize),
                c.sock_syscalls,
                plural(c.sock_syscalls as usize),
                c.sock_bytes_copied
            ));
        }
        let errors = c.prot_errors + c.rem_errors + c.rnr_errors;
        if errors > 0 || self.qp == QpState::Err {
            out.push(format!(
                "{} WR{} failed a check (lkey, rkey or RNR retries). An error moves the QP to ERR, and the QP state machine then flushes every outstanding WR ({} so far): that is how verbs define the Error state, for every QP type, UD included.",
                errors,
                plural(errors as usize),
                c.flushed
            ));
        }
        out.push(format!(
            "The CQ holds {} completions, so at most {} WRs may be outstanding or unpolled at once: an HCA does not wait for room, an overrun is an error (IBV_EVENT_CQ_ERR).",
            self.config.cq_depth, self.config.cq_depth
        ));
        out
    }

    pub(super) fn check_invariants(&self) -> Result<(), String> {
        let c = &self.counters;
        if self.sq.len() > self.config.sq_depth {
            return Err("the SQ holds more than its depth".into());
        }
        if self.cq.len() > self.config.cq_depth {
            return Err("the CQ holds more than its depth".into());
        }
        if self.sq.len() + self.cq.len() > self.config.cq_depth {
            return Err("outstanding WRs could overrun the CQ".into());
        }
        if c.posted != c.retired + self.sq.len() as u64 {
            return Err("a posted WR is neither outstanding nor retired".into());
        }
        if c.completed + c.silent < c.retired {
            return Err("a WR left the SQ with no completion and no silent finish".into());
        }
        if c.completed != c.polled + self.cq.len() as u64 {
            return Err("a completion is neither in the CQ nor polled".into());
        }
        if c.completed != c.success + c.prot_errors + c.rem_errors + c.rnr_errors + c.flushed {
            return Err("completions do not add up by status".into());
        }
        if self.next_wr_id != c.posted + 1 {
            return Err("WR ids are not numbered from 1 in posting order".into());
        }
        // Completions come back in posting order.
        let ids: Vec<u64> = self
            .cq
            .iter()
            .map(|e| e.wr_id)
            .chain(self.sq.iter().map(|w| w.wr_id))
            .collect();
        if ids.windows(2).any(|p| p[0] >= p[1]) {
            return Err("completions out of posting order".into());
        }
        // Done WQEs form a prefix; after the head, everything is untouched.
        let done = self.silent_done();
        if self.sq.iter().take(done).any(|w| w.stage != Stage::Done) {
            return Err("an unsignaled WQE finished out of order".into());
        }
        if self
            .sq
            .iter()
            .skip(done + 1)
            .any(|w| w.stage != Stage::Posted)
        {
            return Err("the NIC works on a WQE that is not at the head".into());
        }
        if self.sq.iter().any(|w| matches!(w.stage, Stage::Failed(_))) && self.qp != QpState::Err {
            return Err("a failed WQE in a QP that is not in ERR".into());
        }
        if self
            .sq
            .iter()
            .any(|w| w.stage == Stage::Done && w.wr.signaled)
        {
            return Err("a signaled WR finished without a completion".into());
        }
        if !matches!(self.qp, QpState::Rts | QpState::Err) {
            return Err("the QP rests in a transient state".into());
        }
        if self.peer_rq > RQ_DEPTH {
            return Err("the peer's RQ holds more than its depth".into());
        }
        if c.data_syscalls != 0 || c.copies != 0 || c.bytes_copied != 0 {
            return Err("the RDMA data path made a system call or a copy".into());
        }
        if c.sock_syscalls != c.sock_sends || c.sock_copies != c.sock_sends {
            return Err("a socket send without its system call and copy".into());
        }
        if self.polled.len() > POLLED_KEPT {
            return Err("polled history too long".into());
        }
        Ok(())
    }
}
