//! The application's side: post, poll, recover, the peer's receives, and
//! the sockets contrast.
//!
//! CQ sizing rule (our choice, and why): `ibv_post_send()` is refused when
//! the CQ could not take a completion for every outstanding WR, i.e. when
//! SQ entries + unpolled CQEs would exceed the CQ depth. An HCA never waits
//! for room in a CQ: an overrun is an error (`IBV_EVENT_CQ_ERR`,
//! `ibv_get_async_event(3)`), so correct applications budget like this.

use super::*;
use crate::text::plural;

impl RdmaQp {
    pub(super) fn post_send(&mut self, wr: WorkRequest) -> Outcome {
        LEN.admit(wr.len)?;
        if !matches!(self.qp, QpState::Rts | QpState::Err) {
            return Err(Refusal::new(format!(
                "ibv_post_send fails (EINVAL): the QP is in {}, and sends need RTS.",
                self.qp.label()
            )));
        }
        let depth = self.config.sq_depth;
        if self.sq.len() >= depth {
            let silent = self.silent_done();
            let hint = if silent > 0 {
                format!(" {silent} of them completed unsignaled: the app gets those slots back only with a later signaled completion. Post a signaled WR.")
            } else {
                " Let the NIC complete some first.".to_string()
            };
            return Err(Refusal::new(format!(
                "The SQ is full ({depth} of {depth} WQEs): ibv_post_send returns ENOMEM.{hint}"
            )));
        }
        let cq_depth = self.config.cq_depth;
        if self.sq.len() + self.cq.len() >= cq_depth {
            return Err(Refusal::new(format!(
                "Posting now could overrun the CQ, which is an error, not a wait: it holds {cq_depth}, with {} completion{} unpolled and {} WR{} outstanding. Poll the CQ first.",
                self.cq.len(),
                plural(self.cq.len()),
                self.sq.len(),
                plural(self.sq.len())
            )));
        }
        let wr_id = self.next_wr_id;
        self.next_wr_id += 1;
        self.sq.push_back(Wqe {
            wr_id,
            wr,
            stage: Stage::Posted,
        });
        self.counters.posted += 1;
        self.counters.doorbells += 1;
        self.counters.data_syscalls += POST_SEND_SYSCALLS;
        let what = match wr.op {
            Op::Send => format!("a Send of {} bytes at {:#x}", wr.len, wr.addr),
            Op::Write => format!(
                "an RDMA WRITE of {} bytes from {:#x} to the peer's {:#x} (rkey {:#x})",
                wr.len, wr.addr, wr.remote_addr, wr.rkey
            ),
            Op::Read => format!(
                "an RDMA READ of {} bytes from the peer's {:#x} (rkey {:#x}) into {:#x}",
                wr.len, wr.remote_addr, wr.rkey, wr.addr
            ),
        };
        let signal = if wr.signaled {
            "signaled"
        } else {
            "unsignaled: no CQE on success"
        };
        let mut events = vec![Event::info(format!(
            "ibv_post_send: WR #{wr_id}, {what}, {signal}. The WQE goes into the SQ, then one MMIO write to the doorbell. No system call: the kernel never sees it."
        ))
        .at("sq")
        .at("doorbell")];
        if self.qp == QpState::Err {
            events.push(
                Event::warn(format!(
                    "The QP is in ERR: WR #{wr_id} is accepted but will be flushed with an error, not sent."
                ))
                .at("qp-state"),
            );
        }
        Ok(events)
    }

    pub(super) fn poll_cq(&mut self) -> Outcome {
        if self.cq.is_empty() {
            return Err(Refusal::new(
                "The CQ is empty, so ibv_poll_cq would return 0. Step the NIC until it writes a completion.",
            ));
        }
        let got: Vec<Cqe> = self.cq.drain(..).collect();
        self.counters.polled += got.len() as u64;
        self.counters.data_syscalls += POLL_CQ_SYSCALLS;
        let list = got
            .iter()
            .map(|c| format!("#{} {}", c.wr_id, c.status.label()))
            .collect::<Vec<_>>()
            .join(", ");
        let errors = got.iter().any(|c| c.status != WcStatus::Success);
        self.polled.extend(got.iter().copied());
        let excess = self.polled.len().saturating_sub(POLLED_KEPT);
        self.polled.drain(..excess);
        let mut text = format!(
            "ibv_poll_cq returned {}: {list}. It read them straight from CQ memory, again without a system call.",
            got.len()
        );
        if errors {
            text.push_str(" An error completion carries no valid opcode: the app maps it back to what it posted through wr_id.");
        }
        Ok(vec![if errors {
            Event::warn(text)
        } else {
            Event::done(text)
        }
        .at("cq")])
    }

    pub(super) fn peer_post_recv(&mut self) -> Outcome {
        if self.peer_rq >= RQ_DEPTH {
            return Err(Refusal::new(format!(
                "The peer's RQ is full ({RQ_DEPTH} receives posted): it must consume some first."
            )));
        }
        self.peer_rq += 1;
        Ok(vec![Event::info(format!(
            "The peer's app posts a receive WQE (ibv_post_recv): {} of {RQ_DEPTH} waiting for incoming Sends. RDMA WRITE and READ never use them.",
            self.peer_rq
        ))
        .at("peer-rq")])
    }

    pub(super) fn socket_send(&mut self, len: u32) -> Outcome {
        LEN.admit(len)?;
        self.counters.sock_sends += 1;
        self.counters.sock_syscalls += SOCKET_SEND_SYSCALLS;
        self.counters.sock_copies += SOCKET_SEND_COPIES;
        self.counters.sock_bytes_copied += u64::from(len);
        Ok(vec![Event::info(format!(
            "Sockets: send() traps into the kernel (system call {}), which copies the {len} bytes into a kernel buffer (an skb) and runs them through TCP/IP and the driver before the NIC sees them.",
            self.counters.sock_syscalls
        ))
        .at("sockets")])
    }

    pub(super) fn reset_qp(&mut self) -> Outcome {
        if self.qp != QpState::Err {
            return Err(Refusal::new(format!(
                "The QP is in {} and healthy: there is nothing to recover.",
                self.qp.label()
            )));
        }
        let waiting = self.sq.len() - self.silent_done();
        if waiting > 0 {
            return Err(Refusal::new(format!(
                "{waiting} WR{} still wait{} to be flushed. Step the NIC until each has its completion: moving to RESET now would drop them with none.",
                plural(waiting),
                if waiting == 1 { "s" } else { "" }
            )));
        }
        self.counters.retired += self.sq.len() as u64;
        self.sq.clear();
        self.counters.control_syscalls += RESET_MODIFY_CALLS;
        let path = [QpState::Reset, QpState::Init, QpState::Rtr, QpState::Rts];
        self.qp = QpState::Rts;
        Ok(vec![Event::done(format!(
            "ibv_modify_qp ×{RESET_MODIFY_CALLS}: ERR → {}. The QP can send again. Those were control-path calls, and each one entered the kernel.",
            path.map(QpState::label).join(" → ")
        ))
        .at("qp-state")])
    }
}
