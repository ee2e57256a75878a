//! RDMA queue pair: kernel-bypass sends, and one-sided RDMA WRITE and READ,
//! from a registered memory region to a peer.
//!
//! The application registers (and so pins) a memory region once, getting an
//! lkey the NIC checks on every access. To send it writes a work request
//! (WQE) into the send queue, memory shared with the NIC, and rings a
//! doorbell: `ibv_post_send()` makes no system call. The NIC fetches the
//! WQE, checks the lkey and bounds, and moves the bytes:
//! - a Send consumes a receive WQE the peer posted to its receive queue; if
//!   the peer has none, the responder answers RNR NAK and the requester
//!   retries after the RNR timer, `rnr_retry` times (7 = for ever), then
//!   fails with `IBV_WC_RNR_RETRY_EXC_ERR`;
//! - an RDMA WRITE or READ names a remote address and the peer's rkey; the
//!   peer's NIC checks the rkey, bounds and access rights and moves the
//!   data without the peer's CPU; a bad rkey is NAKed and completes with
//!   `IBV_WC_REM_ACCESS_ERR`.
//!
//! A WR posted without `IBV_SEND_SIGNALED` (on a QP created with
//! `sq_sig_all = 0`) writes no completion when it succeeds: the application
//! learns it is done, and gets its SQ slot back, only from a later signaled
//! completion. Errors always complete. Any error moves the QP to ERR, and
//! in ERR the QP state machine completes every outstanding WR with
//! `IBV_WC_WR_FLUSH_ERR` (for every QP type, UD included) until the QP is
//! reset and brought back to RTS (RESET → INIT → RTR → RTS).
//!
//! Sources: InfiniBand Architecture Specification vol. 1, ch. 9.7 (the
//! reliable transport: RNR NAK and its retry count, R_Key checks), ch. 10.6
//! (L_Key and R_Key, remote access rights), ch. 10.3 (QP state machine; the
//! Error state flushes outstanding WRs), ch. 11.4 (work request and
//! completion semantics; completions of one work queue are returned in
//! order); rdma-core man pages `ibv_post_send(3)` (`IBV_WR_RDMA_WRITE`,
//! `IBV_WR_RDMA_READ`, `IBV_SEND_SIGNALED`), `ibv_create_qp(3)`
//! (`sq_sig_all`), `ibv_poll_cq(3)` (when the status is not
//! `IBV_WC_SUCCESS`, only `wr_id`, `status`, `qp_num` and `vendor_err` are
//! valid: an error completion has no opcode the application may read, so it
//! maps the completion back to its request through `wr_id`),
//! `ibv_modify_qp(3)` (`rnr_retry`), `ibv_reg_mr(3)` (`IBV_ACCESS_LOCAL_WRITE`,
//! `IBV_ACCESS_REMOTE_WRITE` / `_READ`; local read access is always
//! granted, local write is not, and an RDMA READ writes what it reads into
//! the local region, so that region needs `IBV_ACCESS_LOCAL_WRITE`),
//! rdma-core `providers/mlx5/cq.c` `handle_good_req()` (the provider, not
//! the man page, fills `byte_len` on the send side: for an RDMA READ with
//! the bytes the CQE counts, for atomics with 8, for a Send or WRITE not
//! at all),
//! `ibv_create_cq(3)` and `ibv_get_async_event(3)` (a CQ overrun is an
//! error, `IBV_EVENT_CQ_ERR`: the HCA does not wait for room).

mod app;
mod nic;
mod report;

#[cfg(test)]
mod tests;

use crate::bound::Bound;
use crate::model::{Event, Figure, Model, Outcome, Refusal};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// The registered region: its address in the application's virtual memory,
/// its length and the local key `ibv_reg_mr()` returned. It is registered
/// with [`MR_ACCESS`].
pub const MR_ADDR: u64 = 0x7f3a_4000;
pub const MR_LEN: u64 = 4096;
pub const LKEY: u32 = 0x2a05;
/// The peer's region, registered with remote write and read access, and
/// the rkey it sent us out of band.
pub const PEER_MR_ADDR: u64 = 0x5a10_0000;
pub const PEER_MR_LEN: u64 = 4096;
pub const RKEY: u32 = 0x71c3;
/// The access flags of our region: local write, because an RDMA READ's
/// data lands in it (`ibv_reg_mr(3)`: only local read is implied).
pub const MR_ACCESS: &str = "IBV_ACCESS_LOCAL_WRITE";
/// The message the demo moves.
pub const MSG_BYTES: u32 = 1024;
/// The bytes one transfer may move in this model.
pub const LEN: Bound<u32> = Bound::new("transfer length", " bytes", 1, 16 * 1024);
pub const SQ_DEPTH: Bound<usize> = Bound::new("SQ depth", " WQEs", 1, 16);
pub const CQ_DEPTH: Bound<usize> = Bound::new("CQ depth", " CQEs", 1, 16);
/// The peer's receive queue, and the receives it has posted at the start.
pub const RQ_DEPTH: usize = 4;
pub const RQ_PREPOSTED: usize = 2;
/// `rnr_retry` is a 3-bit field; 7 means retry for ever (`ibv_modify_qp(3)`).
pub const RNR_RETRY: Bound<u8> = Bound::new("rnr_retry", "", 0, 7);
pub const RNR_RETRY_MAX: u8 = RNR_RETRY.max;
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
    /// RNR retries before `IBV_WC_RNR_RETRY_EXC_ERR`; 7 retries for ever.
    pub rnr_retry: u8,
}

impl Default for RdmaConfig {
    fn default() -> Self {
        RdmaConfig {
            sq_depth: 4,
            cq_depth: 4,
            rnr_retry: 2,
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

/// What a work request asks for (`ibv_wr_opcode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    Send,
    Write,
    Read,
}

impl Op {
    /// The completion's opcode, as `ibv_wc.opcode` names it.
    pub fn wc_label(self) -> &'static str {
        match self {
            Op::Send => "IBV_WC_SEND",
            Op::Write => "IBV_WC_RDMA_WRITE",
            Op::Read => "IBV_WC_RDMA_READ",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Op::Send => "Send",
            Op::Write => "RDMA WRITE",
            Op::Read => "RDMA READ",
        }
    }
}

/// `enum ibv_wc_status`, the five this demo produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WcStatus {
    Success,
    LocProtErr,
    RemAccessErr,
    RnrRetryExcErr,
    WrFlushErr,
}

impl WcStatus {
    pub fn label(self) -> &'static str {
        match self {
            WcStatus::Success => "IBV_WC_SUCCESS",
            WcStatus::LocProtErr => "IBV_WC_LOC_PROT_ERR",
            WcStatus::RemAccessErr => "IBV_WC_REM_ACCESS_ERR",
            WcStatus::RnrRetryExcErr => "IBV_WC_RNR_RETRY_EXC_ERR",
            WcStatus::WrFlushErr => "IBV_WC_WR_FLUSH_ERR",
        }
    }
}

/// Where a WQE is in the NIC's hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// Written by the app and published by the doorbell.
    Posted,
    /// Read by the NIC; local check and transfer next.
    Fetched,
    /// The peer NAKed a Send for want of a receive WQE, this many times.
    RnrWait(u8),
    /// The peer accepted it (ACK, or the READ response came back).
    Acked,
    /// Completed without a completion entry (unsignaled): it holds its SQ
    /// slot until a later signaled completion retires it.
    Done,
    /// Failed; an error completion is next.
    Failed(WcStatus),
}

impl Stage {
    pub fn label(self) -> &'static str {
        match self {
            Stage::Posted => "posted",
            Stage::Fetched => "fetched",
            Stage::RnrWait(_) => "RNR wait",
            Stage::Acked => "acked",
            Stage::Done => "done, no CQE",
            Stage::Failed(_) => "failed",
        }
    }
}

/// A work request: one scatter/gather entry (addr, length, lkey), and for
/// RDMA WRITE/READ the remote address and rkey.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkRequest {
    pub op: Op,
    pub addr: u64,
    pub len: u32,
    pub lkey: u32,
    pub remote_addr: u64,
    pub rkey: u32,
    /// `IBV_SEND_SIGNALED`: write a completion even on success.
    pub signaled: bool,
}

impl WorkRequest {
    /// The demo's ordinary Send: the message at the start of the region.
    pub fn valid() -> Self {
        WorkRequest {
            op: Op::Send,
            addr: MR_ADDR,
            len: MSG_BYTES,
            lkey: LKEY,
            remote_addr: 0,
            rkey: 0,
            signaled: true,
        }
    }
    /// RDMA WRITE of the message into the start of the peer's region.
    pub fn write() -> Self {
        WorkRequest {
            op: Op::Write,
            remote_addr: PEER_MR_ADDR,
            rkey: RKEY,
            ..Self::valid()
        }
    }
    /// RDMA READ of the peer's first KiB into the second half of our region.
    pub fn read() -> Self {
        WorkRequest {
            op: Op::Read,
            addr: MR_ADDR + MR_LEN / 2,
            remote_addr: PEER_MR_ADDR,
            rkey: RKEY,
            ..Self::valid()
        }
    }
    /// Break it: a buffer that runs 512 bytes past the end of the region.
    pub fn outside() -> Self {
        WorkRequest {
            addr: MR_ADDR + MR_LEN - 512,
            ..Self::valid()
        }
    }
    /// Break it: the right buffer with a key no region has.
    pub fn wrong_key() -> Self {
        WorkRequest {
            lkey: LKEY ^ 0x0100,
            ..Self::valid()
        }
    }
    /// Break it: an RDMA WRITE with an rkey the peer never handed out.
    pub fn wrong_rkey() -> Self {
        WorkRequest {
            rkey: RKEY ^ 0x0100,
            ..Self::write()
        }
    }
    /// The same request without `IBV_SEND_SIGNALED`.
    pub fn unsignaled(self) -> Self {
        WorkRequest {
            signaled: false,
            ..self
        }
    }

    /// The local check (IBTA vol. 1 §10.6): a valid lkey, and the whole
    /// buffer inside the region it names.
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

    /// The peer NIC's check for RDMA WRITE/READ: a valid rkey, and the remote
    /// range inside the region it names (which allows both remote write and
    /// remote read).
    pub fn remote_error(&self) -> Option<String> {
        if self.op == Op::Send {
            return None;
        }
        if self.rkey != RKEY {
            return Some(format!(
                "rkey {:#x} names no region at the peer (its region's rkey is {RKEY:#x})",
                self.rkey
            ));
        }
        let end = self.remote_addr.saturating_add(u64::from(self.len));
        if self.remote_addr < PEER_MR_ADDR || end > PEER_MR_ADDR + PEER_MR_LEN {
            return Some(format!(
                "the remote range {:#x}..{end:#x} is outside the peer's region",
                self.remote_addr
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

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cqe {
    pub wr_id: u64,
    pub status: WcStatus,
    /// `ibv_wc.opcode`, valid only when the status is success
    /// (`ibv_poll_cq(3)`): an error or flush completion has none to read.
    pub opcode: Option<Op>,
    /// Bytes transferred: set only where mlx5 fills `ibv_wc.byte_len` on
    /// the send side, a successful RDMA READ (`handle_good_req()`).
    pub byte_len: Option<u32>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counters {
    pub posted: u64,
    pub doorbells: u64,
    /// WQEs gone from the SQ (with or without a completion entry).
    pub retired: u64,
    /// CQEs the NIC has written.
    pub completed: u64,
    pub polled: u64,
    pub success: u64,
    pub prot_errors: u64,
    pub rem_errors: u64,
    pub rnr_errors: u64,
    pub flushed: u64,
    /// Successful WRs that wrote no completion (unsignaled).
    pub silent: u64,
    pub rnr_naks: u64,
    /// System calls made by ibv_post_send / ibv_poll_cq, counted per call.
    pub data_syscalls: u64,
    /// Copies of payload made by the CPU on the RDMA path, and their bytes.
    pub copies: u64,
    pub bytes_copied: u64,
    pub bytes_sent: u64,
    /// Bytes placed in the peer's memory by RDMA WRITE, and fetched by READ:
    /// no instruction of the peer's CPU ran for them.
    pub bytes_written_remote: u64,
    pub bytes_read_remote: u64,
    /// Receive completions at the peer: one per Send, none for WRITE/READ.
    pub peer_recvs: u64,
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
    /// Outstanding WQEs, oldest first (completed unsignaled ones included).
    pub sq: VecDeque<Wqe>,
    /// Completions written and not yet polled, oldest first.
    pub cq: VecDeque<Cqe>,
    /// The latest completions the app has polled, newest last.
    pub polled: Vec<Cqe>,
    /// Receive WQEs the peer has posted and not yet consumed.
    pub peer_rq: usize,
    /// The last WQE whose bytes crossed the wire: id, length, what.
    pub on_wire: Option<(u64, u32, Op)>,
    pub next_wr_id: u64,
    pub counters: Counters,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RdmaAction {
    /// App: ibv_post_send() of one WR (Send, RDMA WRITE or READ), doorbell included.
    PostSend(WorkRequest),
    /// NIC: its next step (fetch, transfer, retry, completion, or flush).
    NicStep,
    /// App: ibv_poll_cq() for every completion waiting.
    PollCq,
    /// Peer: ibv_post_recv() of one receive WQE.
    PeerPostRecv,
    /// Contrast: send() the same bytes through a socket.
    SocketSend(u32),
    /// Recover: ibv_modify_qp ERR → RESET → INIT → RTR → RTS.
    ResetQp,
}

impl RdmaQp {
    /// The WQE the NIC works on: the oldest one not yet done.
    pub fn head(&self) -> Option<(usize, Wqe)> {
        self.sq
            .iter()
            .copied()
            .enumerate()
            .find(|(_, w)| w.stage != Stage::Done)
    }

    /// WQEs the NIC has fetched and not yet finished.
    pub fn in_flight(&self) -> usize {
        self.sq
            .iter()
            .filter(|w| !matches!(w.stage, Stage::Posted | Stage::Done))
            .count()
    }

    /// Completed WQEs still holding an SQ slot because they were unsignaled.
    pub fn silent_done(&self) -> usize {
        self.sq.iter().filter(|w| w.stage == Stage::Done).count()
    }
}

impl Model for RdmaQp {
    type Config = RdmaConfig;
    type Action = RdmaAction;

    fn validate(config: &RdmaConfig) -> Result<(), String> {
        SQ_DEPTH.check(config.sq_depth)?;
        CQ_DEPTH.check(config.cq_depth)?;
        RNR_RETRY.check(config.rnr_retry)?;
        Ok(())
    }

    fn new(config: &RdmaConfig) -> Self {
        RdmaQp {
            config: config.clone(),
            qp: QpState::Rts,
            sq: VecDeque::new(),
            cq: VecDeque::new(),
            polled: Vec::new(),
            peer_rq: RQ_PREPOSTED,
            on_wire: None,
            next_wr_id: 1,
            counters: Counters::default(),
        }
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "Set-up is done (those calls did enter the kernel): a {MR_LEN}-byte region at {MR_ADDR:#x} is registered with lkey {LKEY:#x} and {MR_ACCESS}, which an RDMA READ needs: the NIC writes the data it reads into this region; the peer gave us rkey {RKEY:#x} for its region, it has {RQ_PREPOSTED} receives posted, and the QP is in RTS. From here on the data path makes no system call."
        ))
    }

    fn apply(&mut self, action: &RdmaAction) -> Outcome {
        match *action {
            RdmaAction::PostSend(wr) => self.post_send(wr),
            RdmaAction::NicStep => self.nic_step(),
            RdmaAction::PollCq => self.poll_cq(),
            RdmaAction::PeerPostRecv => self.peer_post_recv(),
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
        "Leaves out: the peer's own QP and its completion queue, atomics, memory windows, inline data, CQ events, the NIC's translation cache, and the reliable transport's PSNs, ACK coalescing and timeouts, and providers other than mlx5 (the send side's byte_len is mlx5's choice); one WQE is in flight at a time."
    }
}
