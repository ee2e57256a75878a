//! The path: every stage's time and bytes, each asked of its own demo's
//! model (see the module notes for which), and their plain sum. `send`
//! holds the sending host's stages, `network` the wire, the switch and a
//! drop's retransmission, `receive` the receiving host's.

mod network;
mod receive;
mod send;

use super::setup::Frames;
use super::{Journey, StageId};
use crate::host::pcie::link::Link;
use crate::host::pcie::nic::{per_packet, transaction_wire, Op, Path as Way, Transaction};
use crate::host::pcie::transfer;
use crate::host::ring_sizing::wire::frame_ps;
use crate::net::congestion::sender::RTO_MIN_LINUX_NS;
use crate::net::incast::{self, RTO_MIN_FINE_NS};
use crate::net::wire::ethernet::{FCS_LEN, HEADER_LEN};
use crate::nic::busy_poll::{self, BusyPoll};
use crate::nic::rdma_qp::{POST_SEND_SYSCALLS, SOCKET_SEND_SYSCALLS};
use crate::nic::send_path::{self, SendPath};
use crate::nic::stages::Spec as StageSpec;

/// One stage as the journey shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stage {
    pub id: StageId,
    /// Its time, ns (what it would take, when off the path).
    pub ns: u64,
    pub on_path: bool,
    /// Why it is off the path, when it is.
    pub off_reason: Option<String>,
    /// Bytes it handles: copied, added, sent, moved over PCIe.
    pub bytes: u64,
    /// PCIe TLPs it takes (0 for a stage with no PCIe traffic).
    pub tlps: u64,
    /// What happens there and why it costs what it costs, from the numbers.
    pub detail: String,
}

/// The whole path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Path {
    /// Every stage, in order, on the path or not.
    pub stages: Vec<Stage>,
    pub total_ns: u64,
    pub frames: Frames,
}

impl Path {
    pub fn stage(&self, id: StageId) -> &Stage {
        self.stages
            .iter()
            .find(|s| s.id == id)
            .expect("every stage is on the list")
    }

    pub fn on_path(&self) -> impl Iterator<Item = &Stage> {
        self.stages.iter().filter(|s| s.on_path)
    }

    /// The message's clock once the first `passed` stages on the path are
    /// done: their times summed, as the stages run one after another.
    pub fn clock_after(&self, passed: usize) -> u64 {
        self.on_path().take(passed).map(|s| s.ns).sum()
    }

    /// Where each stage of [`Path::stages`] starts on the message's clock:
    /// the sum of the stages on the path before it.
    pub fn starts_ns(&self) -> Vec<u64> {
        let mut clock = 0;
        self.stages
            .iter()
            .map(|s| {
                let start = clock;
                if s.on_path {
                    clock += s.ns;
                }
                start
            })
            .collect()
    }

    /// The stage that takes the longest (the first of equals), if any.
    pub fn dominant(&self) -> Option<&Stage> {
        self.on_path()
            .fold(None, |best: Option<&Stage>, s| match best {
                Some(b) if b.ns >= s.ns => Some(b),
                _ => Some(s),
            })
    }

    /// A stage's share of the total, tenths of a percent.
    pub fn share_tenths(&self, id: StageId) -> i64 {
        let s = self.stage(id);
        if !s.on_path {
            return 0;
        }
        crate::text::share_tenths(s.ns as i64, self.total_ns as i64)
    }
}

/// A stage's index in a demo's stage table, found by its stable key.
fn index(spec: &StageSpec, key: &str) -> usize {
    spec.stages
        .iter()
        .position(|s| s.key == key)
        .expect("the demo has this stage")
}

/// The reason, only for a stage off the path.
fn off(on: bool, reason: impl FnOnce() -> Option<String>) -> Option<String> {
    if on {
        None
    } else {
        reason()
    }
}

/// TLPs and link bytes (both directions) of one transaction.
fn pcie_cost(link: &Link, t: &Transaction) -> (u64, u64) {
    let tlps = match t.op {
        Op::Write => transfer::write(link, t.bytes).count,
        Op::Read => {
            let read = transfer::read(link, t.bytes);
            read.requests.count + read.completions.count
        }
    };
    let wire = transaction_wire(link, t);
    (tlps, wire.inbound + wire.outbound)
}

/// The serialisation of a frame of `len` bytes at `gbps`, ns, rounded up:
/// the ring-sizing demo's line time of its Ethernet payload.
pub fn wire_ns(len: usize, gbps: u32) -> u64 {
    let payload = len.saturating_sub(HEADER_LEN + FCS_LEN) as u32;
    frame_ps(payload, gbps).div_ceil(1_000)
}

/// Everything the stages are asked of, built once per path.
struct Ctx<'a> {
    j: &'a Journey,
    frames: Frames,
    send: SendPath,
    receive: BusyPoll,
    link: Link,
}

impl Ctx<'_> {
    /// Frames on the wire (at least one, for the per-frame stages).
    fn n(&self) -> u64 {
        self.frames.lens.len().max(1) as u64
    }

    fn total_len(&self) -> usize {
        self.frames.lens.iter().sum()
    }

    fn last_len(&self) -> usize {
        self.frames.lens.last().copied().unwrap_or(0)
    }

    fn bytes(&self) -> u64 {
        self.j.message_bytes as u64
    }

    fn line(&self) -> u32 {
        self.j.config.line_gbps
    }

    /// A send-path stage's cost, by its key.
    fn sc(&self, key: &str) -> u64 {
        u64::from(self.send.pipe.costs[index(&send_path::SPEC, key)])
    }

    /// Whether the send-path model has that stage on its path.
    fn sent(&self, key: &str) -> bool {
        self.send
            .pipe
            .is_active(&send_path::SPEC, index(&send_path::SPEC, key))
    }

    /// Why a send-path stage is off: the model's words, or under RDMA the
    /// verbs' (the stage models still say "kernel bypass" there).
    fn send_off(&self, key: &str) -> Option<String> {
        if self.j.setup.rdma {
            Some(format!(
                "system calls: ibv_post_send() {POST_SEND_SYSCALLS}, send() {SOCKET_SEND_SYSCALLS}"
            ))
        } else {
            self.send
                .pipe
                .off_reason(&send_path::SPEC, index(&send_path::SPEC, key))
        }
    }

    fn rc(&self, key: &str) -> u64 {
        u64::from(self.receive.pipe.costs[index(&busy_poll::SPEC, key)])
    }

    fn received(&self, key: &str) -> bool {
        self.receive
            .pipe
            .is_active(&busy_poll::SPEC, index(&busy_poll::SPEC, key))
    }

    fn recv_off(&self, key: &str) -> Option<String> {
        if self.j.setup.rdma {
            Some("an RDMA WRITE needs no CPU at the receiver".into())
        } else {
            self.receive
                .pipe
                .off_reason(&busy_poll::SPEC, index(&busy_poll::SPEC, key))
        }
    }

    /// The PCIe cost of the named transactions of one packet of `bytes`.
    fn pcie(&self, way: Way, bytes: usize, names: &[&str]) -> (u64, u64) {
        per_packet(way, bytes as u64)
            .iter()
            .filter(|t| names.contains(&t.what))
            .map(|t| pcie_cost(&self.link, t))
            .fold((0, 0), |(a, b), (c, d)| (a + c, b + d))
    }

    /// The same, summed over every frame.
    fn pcie_frames(&self, way: Way, names: &[&str]) -> (u64, u64) {
        self.frames
            .lens
            .iter()
            .map(|&len| self.pcie(way, len, names))
            .fold((0, 0), |(a, b), (c, d)| (a + c, b + d))
    }
}

impl Journey {
    /// The switch's own delay for a frame of `len`, from its last bit in to
    /// its last bit out: store-and-forward sends the whole frame again,
    /// cut-through only what follows its head start.
    pub fn switch_ns(&self, len: usize) -> u64 {
        let model = self.switch_model(len);
        let plan = model.sent();
        let last_in = plan.arrival(plan.chunks - 1);
        model.ns(plan.end.saturating_sub(last_in)).round() as u64
    }

    /// Packets queued ahead of the message in a loaded switch: the deepest
    /// queue of one incast request.
    pub fn queue_ahead(&self) -> u64 {
        incast::run(&self.config.incast).path.max_queue as u64
    }

    /// CTPIO's time from the first chunk written to the first bit on the
    /// wire, for a frame of `len`.
    pub fn ctpio_ns(&self, len: usize) -> u64 {
        let model = self.ctpio_model(len);
        model.ns(model.sent().start).round() as u64
    }

    /// The retransmission timer: Linux's floor, or the 1 ms one if the
    /// incast configuration has the fine-grained RTO fix.
    pub fn rto_ns(&self) -> u64 {
        if self.config.incast.fixes.fine_rto {
            RTO_MIN_FINE_NS
        } else {
            RTO_MIN_LINUX_NS
        }
    }

    /// Every stage, asked of its own model, and their sum.
    pub fn path(&self) -> Path {
        let ctx = Ctx {
            j: self,
            frames: self.frames(),
            send: self.send_model(),
            receive: self.receive_model(),
            link: self.config.pcie_model().link(),
        };
        let mut stages = send::stages(&ctx);
        stages.extend(network::stages(&ctx));
        stages.extend(receive::stages(&ctx));
        let total_ns = stages.iter().filter(|s| s.on_path).map(|s| s.ns).sum();
        Path {
            stages,
            total_ns,
            frames: ctx.frames,
        }
    }
}
