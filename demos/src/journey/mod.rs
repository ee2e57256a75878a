//! One message, end to end: a message of a chosen size from one
//! application to another across one switch, every stage timed and counted
//! by the model of the demo that explains it.
//!
//! The journey holds no rule or cost of its own for a stage. It builds each
//! stage's demo model in the journey's configuration and asks it:
//! - the send path's stages (`send()`, the kernel stack, the qdisc's wait,
//!   descriptor, doorbell, the NIC's fetch and DMA, CTPIO's PIO write, the
//!   SerDes and PHY) and which technique removes which, with their
//!   requirements (CTPIO needs kernel bypass): [`crate::nic::send_path`];
//! - the frames, byte for byte (segments cut at the MSS, headers, pad, FCS):
//!   the encapsulation demo's model run to the end, [`crate::net::encapsulation`];
//! - the PCIe transactions and the bytes their TLPs take on the link: the
//!   simple NIC of [`crate::host::pcie::nic`] on the link of a [`Pcie`] model;
//! - a frame's time on the wire, preamble and inter-frame gap included:
//!   [`crate::host::ring_sizing::wire::frame_ps`];
//! - the switch's store-and-forward or cut-through delay: the chunk plan of
//!   [`crate::nic::cut_through`], run with both links at the line rate; the
//!   queue ahead of the message when the switch is loaded: the deepest
//!   queue of one incast request, [`crate::net::incast`], each packet ahead
//!   at [`crate::net::congestion::path::serialise_ns`];
//! - CTPIO's time to the first bit on the wire: the cut-through model's plan;
//! - the receive side (DMA, MSI-X, hard IRQ, NAPI poll, wakeup, `recvmsg()`,
//!   a poll-mode application's poll) and which of busy polling or a
//!   poll-mode driver takes what away: [`crate::nic::busy_poll`];
//! - the interrupt's hold-back under moderation: the `ethtool_coalesce` rule
//!   of [`crate::nic::coalescing::burst_wait_ns`];
//! - what zero-copy receive leaves to copy: [`crate::host::zero_copy`];
//! - the retransmission timer after a drop: Linux's `TCP_RTO_MIN` or the
//!   1 ms floor, [`crate::net::congestion::sender::RTO_MIN_LINUX_NS`] and
//!   [`crate::net::incast::RTO_MIN_FINE_NS`]. A lost last frame has no
//!   later segment to raise duplicate ACKs, so fast retransmit cannot start
//!   (RFC 5681 §3.2) and the timer fires (RFC 6298 §5); the tail loss probe
//!   Linux sends first (RFC 8985 §7) is left out, as the incast demo leaves
//!   it out;
//! - what RDMA WRITE leaves: no system call to post it
//!   ([`crate::nic::rdma_qp::POST_SEND_SYSCALLS`]) and no receiving CPU (the
//!   peer's NIC checks the rkey and moves the data, as the rdma-qp demo's
//!   notes say), so the send path with kernel bypass and the receive path
//!   of a poll-mode application, which polls memory for the bytes.
//!
//! What the journey adds is the composition, and it is simple on purpose:
//! the stages run one after the other (as in the stage pipeline the send
//! path and busy-poll demos share, "serial, with no overlap"), a stage done
//! once per frame is charged once per frame, and the total is the plain sum.
//!
//! `path` computes the stages, `setup` builds the demo models, `drill` the
//! share links into each stage's demo, `compare` the table of configurations
//! tried, `walk` the Model.

mod compare;
mod drill;
mod path;
mod setup;
mod stage;
mod walk;

#[cfg(test)]
mod tests;

pub use compare::Tried;
pub use drill::{Drill, STAGE_DEMOS};
pub use path::{Path, Stage};
pub use stage::StageId;

use crate::host::pcie::PcieConfig;
use crate::net::incast::IncastConfig;
use crate::nic::coalescing::CoalescingConfig;
use crate::nic::cut_through::{CtpioMode, CutThroughConfig};
use crate::Bound;
use serde::{Deserialize, Serialize};

/// The message: at least a byte, at most what the encapsulation demo walks
/// byte for byte (its payload bound), so every frame shown is a real one.
pub const MESSAGE: Bound<usize> = Bound::new(
    "message size",
    " bytes",
    1,
    crate::net::encapsulation::PAYLOAD_LEN.max,
);
/// The message sizes the control offers.
pub const MESSAGES: [usize; 4] = [64, 256, 1_024, 1];
/// The MSS values the control offers: Ethernet's (1,500 − 40) and the
/// default when the peer announces none, 536 (RFC 9293 §3.7.1).
pub const MSSES: [u16; 2] = [1_460, 536];

/// The configuration: the message, the link, and each stage's own demo
/// configuration, which the drill-down links carry as they are. The MSS
/// and the line rate are settings the learner changes as the journey runs
/// (the state's copy is the one in force).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JourneyConfig {
    pub message_bytes: usize,
    /// TCP's MSS (the encapsulation demo's bound).
    pub mss: u16,
    /// The Ethernet line rate, Gb/s: one of the cut-through demo's rates.
    pub line_gbps: u32,
    /// The PCIe link of both hosts (the `/host/pcie` demo's settings).
    pub pcie: PcieConfig,
    /// The receiving NIC's `ethtool -C` setting while moderation is on.
    pub coalescing: CoalescingConfig,
    /// CTPIO: the PCIe write rate, the cut-through threshold and the mode.
    /// The frame's chunks and the wire rate come from the journey.
    pub ctpio: CutThroughConfig,
    /// A cut-through switch starts forwarding after this many 64-byte chunks.
    pub switch_threshold: usize,
    /// The load that fills the switch's queue: one incast request.
    pub incast: IncastConfig,
}

impl Default for JourneyConfig {
    fn default() -> Self {
        JourneyConfig {
            message_bytes: 64,
            mss: 1_460,
            line_gbps: 10,
            pcie: PcieConfig::default(),
            coalescing: CoalescingConfig::default(),
            ctpio: CutThroughConfig {
                mode: CtpioMode::Ct,
                ..CutThroughConfig::default()
            },
            switch_threshold: 1,
            incast: IncastConfig {
                requests: 1,
                ..IncastConfig::default()
            },
        }
    }
}

/// What the learner switches: the techniques and the ways to break it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    pub busy_poll: bool,
    pub bypass: bool,
    pub ctpio: bool,
    pub moderation: bool,
    pub zero_copy: bool,
    pub rdma: bool,
    pub loaded_switch: bool,
    pub cut_through_switch: bool,
    /// Break it: the TX ring is full, so the driver has stopped the queue.
    pub full_ring: bool,
    /// Break it: the qdisc is busy on another CPU.
    pub busy_qdisc: bool,
    /// Break it: the switch drops the message's last frame.
    pub drop: bool,
}

/// A technique the learner can switch on or off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Technique {
    BusyPoll,
    Bypass,
    Ctpio,
    Moderation,
    ZeroCopy,
    Rdma,
    LoadedSwitch,
    CutThroughSwitch,
}

impl Technique {
    pub const ALL: [Technique; 8] = [
        Technique::Moderation,
        Technique::BusyPoll,
        Technique::Bypass,
        Technique::Ctpio,
        Technique::ZeroCopy,
        Technique::Rdma,
        Technique::CutThroughSwitch,
        Technique::LoadedSwitch,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Technique::BusyPoll => "busy polling",
            Technique::Bypass => "kernel bypass (poll-mode driver)",
            Technique::Ctpio => "CTPIO",
            Technique::Moderation => "interrupt moderation",
            Technique::ZeroCopy => "zero-copy receive",
            Technique::Rdma => "RDMA WRITE instead of TCP",
            Technique::LoadedSwitch => "a loaded switch queue",
            Technique::CutThroughSwitch => "a cut-through switch",
        }
    }

    /// The demo that explains it (`section/slug`).
    pub fn demo(self) -> &'static str {
        match self {
            Technique::BusyPoll => "nic/busy-poll",
            Technique::Bypass => "nic/send-path",
            Technique::Ctpio => "nic/cut-through",
            Technique::Moderation => "nic/coalescing",
            Technique::ZeroCopy => "host/zero-copy",
            Technique::Rdma => "nic/rdma-qp",
            Technique::LoadedSwitch => "net/incast",
            Technique::CutThroughSwitch => "nic/cut-through",
        }
    }
}

/// A way to break the path (the "Break it" zone).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fault {
    FullRing,
    BusyQdisc,
    Drop,
}

impl Fault {
    pub const ALL: [Fault; 3] = [Fault::FullRing, Fault::BusyQdisc, Fault::Drop];

    pub fn name(self) -> &'static str {
        match self {
            Fault::FullRing => "a full TX ring stops the queue",
            Fault::BusyQdisc => "the qdisc is busy on another CPU",
            Fault::Drop => "the switch drops the last frame",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum JourneyAction {
    /// Move the message through the next stage on the path (Step).
    Step,
    /// Put the message back at the start to walk the path again.
    Again,
    Use(Technique, bool),
    Break(Fault, bool),
    SetMessage(usize),
    /// TCP's MSS, in bytes.
    SetMss(u16),
    /// The Ethernet line rate, Gb/s.
    SetLine(u32),
}

/// The journey's state: its configuration, what is switched on, how far
/// the message has gone, and the configurations tried so far.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Journey {
    pub config: JourneyConfig,
    pub message_bytes: usize,
    pub setup: Setup,
    /// Stages on the path the message has passed (0: at the start).
    pub passed: usize,
    /// The configurations tried, oldest first (at most [`TRIED_KEPT`]).
    pub tried: Vec<Tried>,
}

/// How many tried configurations the comparison keeps.
pub const TRIED_KEPT: usize = 8;
