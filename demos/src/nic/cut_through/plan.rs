//! When each chunk arrives over PCIe and when the wire sends it, for a given
//! start threshold. Store-and-forward is the threshold equal to the frame.
//!
//! Time is counted in exact integer units of 512 / (P·W) ns, where P and W are
//! the PCIe and wire rates in Gb/s: a 64-byte (512-bit) chunk then takes W
//! units to cross PCIe and P units to leave on the wire, with no rounding.
//!
//! Rules:
//! - chunks arrive back to back at the PCIe rate (one per tick), except
//!   that the CPU may stall before one chunk for a few ticks (an interrupt,
//!   a cache or TLB miss): every later chunk arrives that much later;
//! - the NIC starts the wire once `threshold` chunks have arrived (ef_vi
//!   `ef_vi_transmit_ctpio()`'s `ct_threshold`: bytes buffered before the
//!   adapter starts to emit; a threshold of the whole frame is store-and-forward);
//! - once started, the wire sends chunk after chunk at the wire rate and
//!   cannot pause: Ethernet has no way to stall a frame mid-transmission;
//! - if the next chunk has not arrived when the wire needs it, the frame has
//!   underrun: the NIC ends it at once with a deliberately bad FCS (AMD Onload
//!   User Guide UG1586, CTPIO statistics `ctpio_underflow_fail`: "truncated
//!   and transmitted as a poisoned packet"), and the receiver discards it for
//!   the failed frame check (IEEE 802.3 §3.2.9, Frame Check Sequence).

use super::CutThrough;
use serde::{Deserialize, Serialize};

/// Bytes in one chunk: one 64-byte write-combined PCIe write.
pub const CHUNK_BYTES: u64 = 64;
const CHUNK_BITS: u64 = CHUNK_BYTES * 8;

/// What a chunk is doing at an instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChunkState {
    NotArrived,
    Arrived,
    OnWire,
    Sent,
    /// Arrived too late: the frame was already cut and poisoned.
    CutOff,
}

impl ChunkState {
    pub fn label(self) -> &'static str {
        match self {
            ChunkState::NotArrived => "not yet arrived",
            ChunkState::Arrived => "arrived over PCIe",
            ChunkState::OnWire => "transmitting on the wire",
            ChunkState::Sent => "sent",
            ChunkState::CutOff => "cut off",
        }
    }
    pub const ALL: [ChunkState; 5] = [
        ChunkState::NotArrived,
        ChunkState::Arrived,
        ChunkState::OnWire,
        ChunkState::Sent,
        ChunkState::CutOff,
    ];
}

/// One frame's transmission under one threshold, in time units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub chunks: usize,
    pub threshold: usize,
    /// Units for one chunk to cross PCIe.
    pub pcie_unit: u64,
    /// Units for one chunk to leave on the wire.
    pub wire_unit: u64,
    /// First bit on the wire.
    pub start: u64,
    /// The chunk the wire needed but did not have, if the frame underran.
    pub underrun: Option<usize>,
    /// Last bit on the wire (the poisoned end, after an underrun).
    pub end: u64,
    /// A CPU stall: before chunk `.0`, `.1` ticks with nothing written.
    pub stall: Option<(usize, u64)>,
}

impl Plan {
    pub fn new(
        chunks: usize,
        threshold: usize,
        (pcie_gbps, wire_gbps): (u32, u32),
        stall: Option<(usize, u64)>,
    ) -> Plan {
        let pcie_unit = u64::from(wire_gbps);
        let wire_unit = u64::from(pcie_gbps);
        let mut plan = Plan {
            chunks,
            threshold,
            pcie_unit,
            wire_unit,
            start: 0,
            underrun: None,
            end: 0,
            stall,
        };
        // The wire starts once `threshold` chunks are in, stall included.
        plan.start = plan.arrival(threshold.max(1) - 1);
        plan.end = plan.start + chunks as u64 * wire_unit;
        plan.underrun = (0..chunks).find(|&k| plan.arrival(k) > plan.wire_start(k));
        if let Some(k) = plan.underrun {
            plan.end = plan.wire_start(k);
        }
        plan
    }

    /// When chunk `k` (from 0) is fully in the NIC.
    pub fn arrival(&self, k: usize) -> u64 {
        let stalled = match self.stall {
            Some((at, ticks)) if k >= at => ticks,
            _ => 0,
        };
        (k as u64 + 1 + stalled) * self.pcie_unit
    }

    /// When the wire starts chunk `k`, had nothing gone wrong.
    pub fn wire_start(&self, k: usize) -> u64 {
        self.start + k as u64 * self.wire_unit
    }

    /// Chunks that went out whole.
    pub fn sent_whole(&self) -> usize {
        self.underrun.unwrap_or(self.chunks)
    }

    pub fn state(&self, k: usize, t: u64) -> ChunkState {
        if let Some(cut) = self.underrun {
            if k >= cut && t >= self.end {
                return ChunkState::CutOff;
            }
        }
        let on_wire = self.wire_start(k);
        if k < self.sent_whole() && t >= on_wire + self.wire_unit {
            ChunkState::Sent
        } else if k < self.sent_whole() && t >= on_wire {
            ChunkState::OnWire
        } else if t >= self.arrival(k) {
            ChunkState::Arrived
        } else {
            ChunkState::NotArrived
        }
    }

    pub fn count(&self, state: ChunkState, t: u64) -> usize {
        (0..self.chunks)
            .filter(|&k| self.state(k, t) == state)
            .count()
    }
}

/// The smallest threshold that cannot run dry. The wire needs chunk k at
/// `T·p + k·w` and it arrives at `(k+1)·p`; the gap is worst for the last
/// chunk when the wire is faster (w < p), so T ≥ F − ⌊(F−1)·w/p⌋.
pub fn min_safe_threshold(chunks: usize, pcie_gbps: u32, wire_gbps: u32) -> usize {
    let (p, w) = (u64::from(wire_gbps), u64::from(pcie_gbps));
    let slack = (chunks as u64 - 1) * w / p;
    (chunks as u64).saturating_sub(slack).max(1) as usize
}

impl CutThrough {
    /// Nanoseconds in one time unit, as a float for display.
    pub fn unit_ns(&self) -> f64 {
        CHUNK_BITS as f64 / (f64::from(self.pcie_gbps) * f64::from(self.wire_gbps))
    }

    pub fn ns(&self, units: u64) -> f64 {
        units as f64 * self.unit_ns()
    }

    fn plan(&self, threshold: usize) -> Plan {
        Plan::new(
            self.chunks,
            threshold,
            (self.pcie_gbps, self.wire_gbps),
            self.stall,
        )
    }

    /// Store-and-forward: the whole frame first.
    pub fn store_and_forward(&self) -> Plan {
        self.plan(self.chunks)
    }

    /// Cut-through at the learner's threshold.
    pub fn cut_through(&self) -> Plan {
        self.plan(self.threshold)
    }

    /// The smallest threshold that cannot run dry: the closed form without a
    /// stall; with one, the first threshold whose plan does not underrun
    /// (safety only grows with the threshold, so the search is exact).
    pub fn safe_threshold(&self) -> usize {
        match self.stall {
            None => min_safe_threshold(self.chunks, self.pcie_gbps, self.wire_gbps),
            Some(_) => (1..=self.chunks)
                .find(|&t| self.plan(t).underrun.is_none())
                .unwrap_or(self.chunks),
        }
    }

    /// Units in one tick: one chunk delivered over PCIe.
    pub fn tick_units(&self) -> u64 {
        u64::from(self.wire_gbps)
    }

    pub fn now_units(&self) -> u64 {
        self.tick * self.tick_units()
    }

    /// Ticks until both frames are done and every chunk has arrived.
    pub fn last_tick(&self) -> u64 {
        let sf = self.store_and_forward();
        let end = sf
            .end
            .max(self.cut_through().end)
            .max(sf.arrival(self.chunks - 1));
        end.div_ceil(self.tick_units())
    }

    /// Wire nanoseconds per chunk and PCIe nanoseconds per chunk.
    pub fn chunk_ns(&self) -> (f64, f64) {
        (
            CHUNK_BITS as f64 / f64::from(self.wire_gbps),
            CHUNK_BITS as f64 / f64::from(self.pcie_gbps),
        )
    }
}
