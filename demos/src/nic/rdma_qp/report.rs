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
            Figure::new("rdma-syscalls", "RDMA data-path syscalls", c.data_syscalls),
            Figure::new("rdma-copies", "RDMA copies", c.copies),
            Figure::new("sock-syscalls", "sockets syscalls", c.sock_syscalls),
            Figure::new("sock-copies", "sockets copies", c.sock_copies),
        ]
    }

    pub(super) fn sentences(&self) -> Vec<String> {
        let c = &self.counters;
        let mut out = vec![format!(
            "{} RDMA send{} posted with {} system call{} and {} copies: the queues live in memory the app and the NIC share, so posting and polling are loads, stores and a doorbell write.",
            c.posted,
            plural(c.posted as usize),
            c.data_syscalls,
            plural(c.data_syscalls as usize),
            c.copies
        )];
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
        if c.prot_errors > 0 || self.qp == QpState::Err {
            out.push(format!(
                "Registration is what makes zero copy safe: the NIC checks every WR's lkey and bounds itself. {} WR{} failed that check; one failure puts the whole QP in ERR and flushes what follows ({} so far), because a reliable connection cannot skip a message.",
                c.prot_errors,
                plural(c.prot_errors as usize),
                c.flushed
            ));
        }
        out.push(format!(
            "The CQ holds {} completions, so at most {} WRs may be outstanding or unpolled at once; posting beyond that is refused rather than risk overrunning it.",
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
        if c.posted != c.completed + self.sq.len() as u64 {
            return Err("a posted WR is neither outstanding nor completed".into());
        }
        if c.completed != c.polled + self.cq.len() as u64 {
            return Err("a completion is neither in the CQ nor polled".into());
        }
        if c.completed != c.success + c.prot_errors + c.flushed {
            return Err("completions do not add up by status".into());
        }
        if self.next_wr_id != c.posted + 1 {
            return Err("WR ids are not numbered from 1 in posting order".into());
        }
        // Completions come back in posting order: every id in the CQ is older
        // than every id still in the SQ, and both run in order.
        let ids: Vec<u64> = self
            .cq
            .iter()
            .map(|e| e.wr_id)
            .chain(self.sq.iter().map(|w| w.wr_id))
            .collect();
        if ids.windows(2).any(|p| p[0] >= p[1]) {
            return Err("completions out of posting order".into());
        }
        if self.sq.iter().skip(1).any(|w| w.stage != Stage::Posted) {
            return Err("the NIC works on a WQE that is not at the head".into());
        }
        if self.sq.iter().any(|w| w.stage == Stage::Failed) && self.qp != QpState::Err {
            return Err("a failed WQE in a QP that is not in ERR".into());
        }
        if !matches!(self.qp, QpState::Rts | QpState::Err) {
            return Err("the QP rests in a transient state".into());
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
