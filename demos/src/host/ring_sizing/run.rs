//! One run: a line at full rate into a receive ring whose core stops for a
//! while, a microsecond at a time.
//!
//! The rules, one tick (1 µs) at a time:
//! - Frames arrive back to back at line rate; RSS gives this queue every
//!   `queues`-th frame. The count is exact: the frames whose last bit has
//!   landed by the tick's end.
//! - While stalled the core reads nothing. Otherwise it reads one frame per
//!   `core_ns`, of the frames there or arriving in the tick; time it could
//!   not use for want of frames is lost, time left over from a busy tick is
//!   carried to the next.
//! - Frames that would leave more in the ring than it holds are dropped:
//!   the NIC finds no free descriptor (the newest frames go).
//! - DDIO: while the rings' footprint fits the DDIO ways, every buffer the
//!   NIC writes is still in cache and nothing is evicted. When it does not,
//!   the NIC comes back to each buffer after its lines have left, every
//!   write allocates, and the ways hold only the newest writes: a frame is
//!   gone to DRAM once the DDIO ways' worth of bytes has been written after
//!   it (the ways as one least-recently-used pool). The other queues' cores
//!   keep up, so all their frames are written too.

use super::wire::frames_by;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// One tick, ns.
pub const TICK_NS: u64 = 1_000;
/// Ticks of each Step.
pub const STEP_TICKS: u64 = 10;
/// When the stall begins, µs: a steady start to compare with.
pub const STALL_AT_US: u64 = 20;
/// How long after the stall a run may go on without the ring emptying.
pub const RECOVERY_LIMIT_US: u64 = 3_000;

/// What a run reads every tick, fixed for the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    pub payload: u32,
    pub rate_gbps: u32,
    pub queues: u64,
    /// Frames the ring holds.
    pub holds: u64,
    pub core_ns: u64,
    pub stall_us: u64,
    /// Bytes DMA writes to the cache for each frame.
    pub written: u64,
    /// Bytes the DDIO ways hold.
    pub ddio_bytes: u64,
    /// Whether the rings' footprint exceeds the DDIO ways.
    pub leaky: bool,
}

impl Params {
    pub fn stall_ends_us(&self) -> u64 {
        STALL_AT_US + self.stall_us
    }

    /// Frames this queue receives while the core is stalled.
    pub fn stall_arrivals(&self) -> u64 {
        self.arrivals_by(self.stall_ends_us()).1 - self.arrivals_by(STALL_AT_US).1
    }

    pub fn stalled(&self, tick: u64) -> bool {
        (STALL_AT_US..self.stall_ends_us()).contains(&tick)
    }

    /// Frames of the whole link, and of this queue, by `t_us`.
    pub fn arrivals_by(&self, t_us: u64) -> (u64, u64) {
        let all = frames_by(t_us * TICK_NS, self.payload, self.rate_gbps);
        (all, all / self.queues.max(1))
    }
}

/// Frames that arrived in one tick and wait in the ring, with the DMA
/// bytes written in all by the end of that tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Batch {
    pub frames: u64,
    pub written_by: u64,
}

/// The ring at the end of a Step, for the picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sample {
    pub at_us: u64,
    /// The most the ring held at any tick's end during the Step.
    pub peak: u64,
    pub dropped: u64,
    pub from_dram: u64,
}

/// What one Step did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepReport {
    pub arrived: u64,
    pub read: u64,
    pub dropped: u64,
    pub from_dram: u64,
    pub stalled_ticks: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Run {
    pub now_us: u64,
    /// Frames in the ring.
    pub held: u64,
    pub batches: VecDeque<Batch>,
    /// Core time carried into the next tick, ns.
    pub carry_ns: u64,
    /// DMA bytes written by all queues since the start.
    pub written: u64,
    pub arrived: u64,
    pub read: u64,
    pub dropped: u64,
    /// Frames the core read after DDIO had evicted them.
    pub from_dram: u64,
    pub peak: u64,
    pub history: Vec<Sample>,
}

impl Run {
    /// Whether the run is over: the stall is past and the ring is empty
    /// again, or the recovery has gone on as long as a run may.
    pub fn finished(&self, p: &Params) -> bool {
        let end = p.stall_ends_us();
        (self.now_us >= end + STEP_TICKS && self.held == 0)
            || self.now_us >= end + RECOVERY_LIMIT_US
    }

    /// Ten ticks.
    pub fn step(&mut self, p: &Params) -> StepReport {
        let mut report = StepReport::default();
        let mut peak = 0;
        for _ in 0..STEP_TICKS {
            self.tick(p, &mut report);
            peak = peak.max(self.held);
        }
        self.history.push(Sample {
            at_us: self.now_us,
            peak,
            dropped: self.dropped,
            from_dram: self.from_dram,
        });
        report
    }

    fn tick(&mut self, p: &Params, report: &mut StepReport) {
        let t = self.now_us;
        let (all_before, mine_before) = p.arrivals_by(t);
        let (all_after, mine_after) = p.arrivals_by(t + 1);
        let arrived = mine_after - mine_before;
        let others = (all_after - all_before) - arrived;
        let read = if p.stalled(t) {
            report.stalled_ticks += 1;
            self.carry_ns = 0;
            0
        } else {
            let time = TICK_NS + self.carry_ns;
            let budget = time / p.core_ns.max(1);
            let read = budget.min(self.held + arrived);
            self.carry_ns = if read == budget {
                time - budget * p.core_ns
            } else {
                0
            };
            read
        };
        let from_ring = read.min(self.held);
        let from_dram = self.take(from_ring, p);
        let fresh_read = read - from_ring;
        let left = self.held - from_ring + (arrived - fresh_read);
        let dropped = left.saturating_sub(p.holds);
        let kept = arrived - fresh_read - dropped;
        self.written = self
            .written
            .saturating_add((arrived - dropped + others).saturating_mul(p.written));
        if kept > 0 {
            self.batches.push_back(Batch {
                frames: kept,
                written_by: self.written,
            });
        }
        self.held = left - dropped;
        self.now_us = t + 1;
        self.arrived += arrived;
        self.read += read;
        self.dropped += dropped;
        self.from_dram += from_dram;
        self.peak = self.peak.max(self.held);
        report.arrived += arrived;
        report.read += read;
        report.dropped += dropped;
        report.from_dram += from_dram;
    }

    /// Takes `n` frames from the front of the ring, oldest first; returns
    /// how many of them DDIO had already evicted.
    fn take(&mut self, mut n: u64, p: &Params) -> u64 {
        let mut evicted = 0;
        while n > 0 {
            let Some(front) = self.batches.front_mut() else {
                break;
            };
            let taken = n.min(front.frames);
            if p.leaky && self.written - front.written_by >= p.ddio_bytes {
                evicted += taken;
            }
            front.frames -= taken;
            n -= taken;
            if front.frames == 0 {
                self.batches.pop_front();
            }
        }
        evicted
    }
}

/// The most a ring would ever hold in this run were it endless: the
/// smallest ring that drops nothing must hold that many.
pub fn peak_unbounded(p: &Params) -> u64 {
    let endless = Params {
        holds: u64::MAX,
        leaky: false,
        ..*p
    };
    let mut run = Run::default();
    while !run.finished(&endless) {
        run.step(&endless);
    }
    run.peak
}
