//! RDMA queue pair: kernel-bypass sends from a registered memory region.
//!
//! The application registers (and so pins) a memory region once, getting an
//! lkey the NIC checks on every access. To send it writes a work request
//! (WQE) into the send queue, memory shared with the NIC, and rings a
//! doorbell: `ibv_post_send()` makes no system call. The NIC fetches the WQE,
//! checks the lkey and bounds against the region, DMAs the bytes straight
//! to the wire and writes a completion (CQE) into the completion queue,
//! which the application reads with `ibv_poll_cq()`, again without the kernel.
//!
//! A WQE that fails the protection check completes with
//! `IBV_WC_LOC_PROT_ERR` and moves the QP to the error state; every WQE
//! after it is then completed with `IBV_WC_WR_FLUSH_ERR`, until the QP is
//! reset and brought back to RTS (RESET → INIT → RTR → RTS).
//!
//! Sources: InfiniBand Architecture Specification vol. 1, ch. 10.3 (QP state
//! machine; Error state flushes outstanding WRs), ch. 10.6 (memory regions,
//! L_Key checks), ch. 11.4 (work request and completion semantics;
//! completions of one work queue are returned in order); rdma-core man
//! pages `ibv_post_send(3)`, `ibv_poll_cq(3)`, `ibv_modify_qp(3)`,
//! `ibv_reg_mr(3)`, `ibv_create_cq(3)`.

mod app;
mod nic;
mod report;

#[cfg(test)]
mod tests;

use crate::model::{Event, Figure, Model, Outcome, Refusal};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// The registered region: its address in the application's virtual memory,
/// its length and the local key `ibv_reg_mr()` returned.
pub const MR_ADDR: u64 = 0x7f3a_4000;
pub const MR_LEN: u64 = 4096;
pub const LKEY: u32 = 0x2a05;
/// The message the demo sends.
pub const MSG_BYTES: u32 = 1024;
/// Largest send the model takes.
pub const MAX_LEN: u32 = 16 * 1024;
pub const DEPTH_MIN: usize = 1;
pub const DEPTH_MAX: usize = 16;
/// Completions kept in the "polled" history.
pub const POLLED_KEPT: usize = 8;
/// System calls each data-path verb makes: posting and polling are plain
/// loads and stores to queue memory plus an MMIO doorbell.
pub const POST_SEND_SYSCALLS: u64 = 0;
pub const POLL_CQ_SYSCALLS: u64 = 0;
/// `send()` on a socket: one system call, one copy into a kernel buffer.
pub const SOCKET_SEND_SYSCALLS: u64 = 1;
pub const SOCKET_SEND_COPIES: u64 = 1;
/// `ibv_modify_qp()` calls to go from ERR back to RTS.
pub const RESET_MODIFY_CALLS: u64 = 4;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RdmaConfig {
    pub sq_depth: usize,
    pub cq_depth: usize,
}

impl Default for RdmaConfig {
    fn default() -> Self {
        RdmaConfig {
            sq_depth: 4,
            cq_depth: 4,
        }
    }
}

/// The QP states of IBTA vol. 1 §10.3 that this demo passes through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum QpState {
    Reset,
    Init,
    Rtr,
    Rts,
    Err,
}

impl QpState {
    pub fn label(self) -> &'static str {
        match self {
            QpState::Reset => "RESET",
            QpState::Init => "INIT",
            QpState::Rtr => "RTR",
            QpState::Rts => "RTS",
            QpState::Err => "ERR",
        }
    }
}

/// Where a WQE is in the NIC's hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// Written by the app and published by the doorbell.
    Posted,
    /// Read by the NIC; protection check and DMA next.
    Fetched,
    /// Bytes are on the wire; completion next.
    Sent,
    /// Failed the lkey/bounds check; an error completion next.
    Failed,
}

impl Stage {
    pub fn label(self) -> &'static str {
        match self {
            Stage::Posted => "posted",
            Stage::Fetched => "fetched",
            Stage::Sent => "sent",
            Stage::Failed => "failed",
        }
    }
}

/// What a Send work request names: a scatter/gather entry (addr, length, lkey).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkRequest {
    pub addr: u64,
    pub len: u32,
    pub lkey: u32,
}

impl WorkRequest {
    /// The demo's ordinary send: the message at the start of the region.
    pub fn valid() -> Self {
        WorkRequest {
            addr: MR_ADDR,
            len: MSG_BYTES,
            lkey: LKEY,
        }
    }
    /// Break it: a buffer that runs 512 bytes past the end of the region.
    pub fn outside() -> Self {
        WorkRequest {
            addr: MR_ADDR + MR_LEN - 512,
            len: MSG_BYTES,
            lkey: LKEY,
        }
    }
    /// Break it: the right buffer with a key no region has.
    pub fn wrong_key() -> Self {
        WorkRequest {
            lkey: LKEY ^ 0x0100,
            ..Self::valid()
        }
    }

    /// The NIC's check (IBTA vol. 1 §10.6): a valid key, and the whole
    /// buffer inside the region that key names.
    pub fn protection_error(&self) -> Option<String> {
        if self.lkey != LKEY {
            return Some(format!(
                "lkey {:#x} names no registered region (the region's key is {LKEY:#x})",
                self.lkey
            ));
        }
        let end = self.addr.saturating_add(u64::from(self.len));
        if self.addr < MR_ADDR || end > MR_ADDR + MR_LEN {
            return Some(format!(
                "the buffer {:#x}..{end:#x} is not inside the region {MR_ADDR:#x}..{:#x}",
                self.addr,
                MR_ADDR + MR_LEN
            ));
        }
        None
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wqe {
    pub wr_id: u64,
    pub wr: WorkRequest,
    pub stage: Stage,
}

/// `enum ibv_wc_status`, the three this demo produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WcStatus {
    Success,
    LocProtErr,
    WrFlushErr,
}

impl WcStatus {
    pub fn label(self) -> &'static str {
        match self {
            WcStatus::Success => "IBV_WC_SUCCESS",
            WcStatus::LocProtErr => "IBV_WC_LOC_PROT_ERR",
            WcStatus::WrFlushErr => "IBV_WC_WR_FLUSH_ERR",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cqe {
    pub wr_id: u64,
    pub status: WcStatus,
    pub byte_len: u32,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counters {
    pub posted: u64,
    pub doorbells: u64,
    /// CQEs the NIC has written.
    pub completed: u64,
    pub polled: u64,
    pub success: u64,
    pub prot_errors: u64,
    pub flushed: u64,
    /// System calls made by ibv_post_send / ibv_poll_cq, counted per call.
    pub data_syscalls: u64,
    /// Copies of payload made by the CPU on the RDMA path, and their bytes.
    pub copies: u64,
    pub bytes_copied: u64,
    pub bytes_sent: u64,
    /// ibv_modify_qp calls made to recover (control path: each a syscall).
    pub control_syscalls: u64,
    pub sock_sends: u64,
    pub sock_syscalls: u64,
    pub sock_copies: u64,
    pub sock_bytes_copied: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RdmaQp {
    pub config: RdmaConfig,
    pub qp: QpState,
    /// Outstanding WQEs, oldest first.
    pub sq: VecDeque<Wqe>,
    /// Completions written and not yet polled, oldest first.
    pub cq: VecDeque<Cqe>,
    /// The latest completions the app has polled, newest last.
    pub polled: Vec<Cqe>,
    /// The last WQE whose bytes went onto the wire.
    pub on_wire: Option<(u64, u32)>,
    pub next_wr_id: u64,
    pub counters: Counters,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RdmaAction {
    /// App: ibv_post_send() of one Send WR, doorbell included.
    PostSend(WorkRequest),
    /// NIC: its next step (fetch, DMA, completion, or flush).
    NicStep,
    /// App: ibv_poll_cq() for every completion waiting.
    PollCq,
    /// Contrast: send() the same bytes through a socket.
    SocketSend(u32),
    /// Recover: ibv_modify_qp ERR → RESET → INIT → RTR → RTS.
    ResetQp,
}

impl RdmaQp {
    /// WQEs the NIC has fetched and not yet completed.
    pub fn in_flight(&self) -> usize {
        self.sq.iter().filter(|w| w.stage != Stage::Posted).count()
    }
}

impl Model for RdmaQp {
    type Config = RdmaConfig;
    type Action = RdmaAction;

    fn validate(config: &RdmaConfig) -> Result<(), String> {
        for (name, depth) in [("SQ", config.sq_depth), ("CQ", config.cq_depth)] {
            if !(DEPTH_MIN..=DEPTH_MAX).contains(&depth) {
                return Err(format!("{name} depth must be {DEPTH_MIN} to {DEPTH_MAX}"));
            }
        }
        Ok(())
    }

    fn new(config: &RdmaConfig) -> Self {
        RdmaQp {
            config: config.clone(),
            qp: QpState::Rts,
            sq: VecDeque::new(),
            cq: VecDeque::new(),
            polled: Vec::new(),
            on_wire: None,
            next_wr_id: 1,
            counters: Counters::default(),
        }
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "Set-up is done (those calls did enter the kernel): a {MR_LEN}-byte region at {MR_ADDR:#x} is registered and pinned with lkey {LKEY:#x}, and the QP is in RTS. Post a Send: from here on the data path makes no system call."
        ))
    }

    fn apply(&mut self, action: &RdmaAction) -> Outcome {
        match *action {
            RdmaAction::PostSend(wr) => self.post_send(wr),
            RdmaAction::NicStep => self.nic_step(),
            RdmaAction::PollCq => self.poll_cq(),
            RdmaAction::SocketSend(len) => self.socket_send(len),
            RdmaAction::ResetQp => self.reset_qp(),
        }
    }

    fn next_auto(&self) -> Result<RdmaAction, Refusal> {
        self.nic_ready().map(|()| RdmaAction::NicStep)
    }

    fn check(&self) -> Result<(), String> {
        self.check_invariants()
    }

    fn status(&self) -> Vec<Figure> {
        self.figures()
    }

    fn why(&self) -> Vec<String> {
        self.sentences()
    }

    fn leaves_out() -> &'static str {
        "Leaves out: the receive queue and the peer, RDMA Write/Read, memory windows and rkeys, the NIC's translation cache, inline data, selective signalling, CQ events, and the reliable transport's acks and retries."
    }
}
