//! The demo's settings and state: a run of packets delivered one by one to
//! both interfaces over one link.

use super::cpu::{DEFAULT_STALL, STALL};
use super::ethernet::FRAME;
use crate::bound::Bound;
use crate::host::pcie::link::{Generation, Link};
use crate::text::capitalised;
use serde::{Deserialize, Serialize};

/// Packets in a run.
pub const RUN: u32 = 64;
/// Packets that share one Ensō notification: from one (a notification per
/// packet, as if software took each packet as soon as it came) to a whole
/// run.
pub const BATCH: Bound<u32> = Bound::new("batch", " packets", 1, RUN);
/// Packets the picture shows at once: the run goes by in windows of this
/// many, and a window's slots are the picture's keys.
pub const WINDOW: u32 = 8;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamingConfig {
    /// Ethernet frame, FCS included.
    pub frame: u64,
    /// Packets per Ensō notification.
    pub batch: u32,
    pub generation: u32,
    pub lanes: u32,
    /// The classic driver takes an interrupt and reads the head pointer for
    /// every packet (the open model's simple NIC) rather than polling.
    pub interrupts: bool,
    /// Cycles the core loses at each jump in memory (an assumption).
    pub stall: u32,
    /// The application keeps packet 1 of the run: an out-of-order segment
    /// waiting for the one before it.
    pub hold: bool,
}

impl Default for StreamingConfig {
    /// Minimum-size frames, as in Ensō's headline; a batch of 32; a Gen3
    /// ×16 link (the Ensō prototype's PCIe core has 16 lanes,
    /// `hardware/src/pcie/pcie_core.sv`); a classic driver that polls, as
    /// Ensō's software does.
    fn default() -> Self {
        StreamingConfig {
            frame: FRAME.min,
            batch: 32,
            generation: Generation::Gen3.number(),
            lanes: 16,
            interrupts: false,
            stall: DEFAULT_STALL,
            hold: false,
        }
    }
}

impl StreamingConfig {
    /// The link as the PCIe rules read it: the open model's programming
    /// (MPS 256, MRRS 512, 64-bit addresses) at this generation and width.
    pub fn link(&self) -> Link {
        Link {
            generation: Generation::from_number(self.generation).unwrap_or(Generation::Gen3),
            lanes: self.lanes,
            ..Link::default()
        }
    }

    /// Why these settings cannot be, if so.
    pub fn check(&self) -> Result<(), String> {
        FRAME.check(self.frame)?;
        BATCH.check(self.batch)?;
        STALL.check(self.stall)?;
        Generation::from_number(self.generation)
            .ok_or_else(|| format!("The generation is 1 to 5; {} is not.", self.generation))?;
        self.link().check().map_err(|e| capitalised(&e))
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Streaming {
    pub config: StreamingConfig,
    /// Packets of the run delivered so far, to both interfaces.
    pub delivered: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StreamingAction {
    /// Deliver the next packet to both interfaces.
    Deliver,
    /// Deliver packets until Ensō's batch closes.
    DeliverBatch,
    SetFrame(u64),
    SetBatch(u32),
    SetGeneration(u32),
    SetLanes(u32),
    SetInterrupts(bool),
    SetStall(u32),
    SetHold(bool),
}
