//! Descriptor ring (RX/TX): the driver/NIC handshake over an 8-entry ring.
//!
//! The driver owns TAIL (where it posts), the NIC owns HEAD (where it
//! consumes). The driver writes a descriptor, issues a write barrier, then
//! rings the doorbell: a posted MMIO write of TAIL. The NIC fetches the
//! descriptor at HEAD, DMAs the frame, writes DD back into host memory and
//! advances HEAD. The driver learns of completions by reading DD in host
//! memory, never by reading a NIC register.
//!
//! Sources: Intel 82599 10GbE Controller Datasheet §7.1 (receive descriptor
//! ring, HEAD/TAIL, "one descriptor kept unused" full/empty rule) and §7.2
//! (transmit); Linux `drivers/net/ethernet/intel/ixgbe/ixgbe_main.c`
//! (`ixgbe_alloc_rx_buffers`: `wmb()` before `writel(tail)`; clearing the
//! status before reuse); `Documentation/memory-barriers.txt` ("DEVICE I/O
//! BARRIERS" and `dma_wmb()`).

mod driver;
mod invariants;
mod nic;
mod report;

use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::rng::Rng;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Descriptors in the ring.
pub const RING_SIZE: usize = 8;
/// Size of each receive buffer.
pub const BUFFER_BYTES: u16 = 2048;
/// Frames the NIC can hold on chip while it has no buffer to DMA into.
pub const RX_FIFO_FRAMES: usize = 2;
/// The driver's buffer pool: 16 buffers of 2 KiB from this address. Each post
/// takes the next buffer, so a slot holds a different buffer each time round.
pub const POOL_BASE: u64 = 0x0010_0000;
pub const POOL_BUFFERS: u64 = 16;
/// Smallest and largest Ethernet frame without FCS (IEEE 802.3 §3.2.8).
pub const MIN_FRAME: u64 = 60;
pub const MAX_FRAME: u64 = 1514;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Direction {
    /// The driver posts empty buffers; the NIC fills them from the wire.
    #[default]
    Rx,
    /// The driver posts filled buffers; the NIC sends them onto the wire.
    Tx,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RingConfig {
    pub direction: Direction,
    pub seed: u64,
}

impl Default for RingConfig {
    fn default() -> Self {
        RingConfig {
            direction: Direction::Rx,
            seed: 0x5EED_0006,
        }
    }
}

/// An Ethernet frame, by number and length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Frame {
    pub id: u32,
    pub len: u16,
}

/// A descriptor as its bytes sit in host memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Descriptor {
    pub addr: u64,
    pub len: u16,
    /// Set by the driver: the descriptor is handed to the NIC.
    pub own: bool,
    /// Set by the NIC on write-back: descriptor done.
    pub dd: bool,
}

/// Who may touch a slot, from the protocol's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum SlotState {
    /// Driver-owned and empty: may be posted.
    #[default]
    Free,
    /// Posted with OWN: the NIC's, once the doorbell publishes it.
    Owned,
    /// Written back with DD: done, awaiting reap by the driver.
    Done,
}

impl SlotState {
    pub fn label(self) -> &'static str {
        match self {
            SlotState::Free => "FREE",
            SlotState::Owned => "OWN",
            SlotState::Done => "DD",
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slot {
    pub state: SlotState,
    /// The descriptor the driver meant to write at its last post.
    pub intended: Descriptor,
    /// The frame in this slot's buffer (TX: to send; RX: received).
    pub frame: Option<Frame>,
    /// Sequence number of the post that filled this slot.
    pub post_seq: u32,
}

/// One descriptor field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Field {
    Addr,
    Len,
    /// The flags word: OWN set and DD cleared in one store.
    Flags,
}

/// A CPU store not yet guaranteed visible to the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingStore {
    pub slot: usize,
    pub field: Field,
    pub value: u64,
}

/// What the NIC's DMA engine is doing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum NicPhase {
    #[default]
    Idle,
    /// The descriptor at `slot` has been read into the NIC; `seen` is what it read.
    Fetched { slot: usize, seen: Descriptor },
    /// The data has moved; write-back of DD is next.
    Moved {
        slot: usize,
        seen: Descriptor,
        bytes: u16,
    },
}

/// A DMA that used a half-written descriptor.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Damage {
    pub slot: usize,
    pub meant: Descriptor,
    pub used: Descriptor,
    pub summary: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counters {
    pub posted: u32,
    pub barriers: u32,
    pub doorbells: u32,
    pub fetched: u32,
    pub completed: u32,
    pub reaped: u32,
    pub frames_from_wire: u32,
    pub rx_missed: u32,
    pub nic_register_reads: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DescriptorRing {
    pub config: RingConfig,
    pub slots: [Slot; RING_SIZE],
    /// The descriptors as host memory holds them: what the NIC reads.
    pub memory: [Descriptor; RING_SIZE],
    /// The CPU's stores not yet guaranteed visible, in program order.
    pub store_buffer: Vec<PendingStore>,
    /// Hardware-owned: the next descriptor the NIC will consume.
    pub head: usize,
    /// Driver-owned: the next descriptor the driver will post.
    pub tail: usize,
    /// The TAIL value the NIC last received through the doorbell.
    pub doorbell: usize,
    /// Driver-owned: the next descriptor the driver will reap.
    pub next_to_clean: usize,
    pub nic: NicPhase,
    /// Break-it switch: allow the doorbell without a write barrier.
    pub skip_barrier: bool,
    pub barrier_ever_skipped: bool,
    /// RX: frames waiting on the NIC for a buffer.
    pub rx_fifo: VecDeque<Frame>,
    /// RX: frames handed to the stack. TX: frames sent on the wire. Newest last.
    pub delivered: Vec<Frame>,
    pub damage: Vec<Damage>,
    pub counters: Counters,
    pub last_reaped_seq: Option<u32>,
    pub next_frame_id: u32,
    pub next_buffer: u64,
    pub rng: Rng,
}

/// What the learner (or the clock) can do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RingAction {
    /// Driver: write the descriptor at TAIL and advance TAIL.
    Post,
    /// Driver: wmb(): make every earlier store visible before later ones.
    Barrier,
    /// Driver: posted MMIO write of TAIL to the NIC's register.
    Doorbell,
    /// Driver: reap completed descriptors in order, by their DD bits.
    Reap,
    /// Wire (RX): a frame arrives at the NIC.
    FrameArrives,
    /// Break it: allow (or forbid again) the doorbell without a barrier.
    SetSkipBarrier(bool),
    /// NIC: read the descriptor at HEAD.
    NicFetch,
    /// NIC: move the data between the wire and the buffer.
    NicDma,
    /// NIC: write DD and status back, advance HEAD.
    NicWriteBack,
}

impl DescriptorRing {
    /// The ring index after `i`.
    pub fn next(i: usize) -> usize {
        (i + 1) % RING_SIZE
    }

    pub fn count(&self, state: SlotState) -> usize {
        self.slots.iter().filter(|s| s.state == state).count()
    }

    /// Posts allowed before the ring is full. One slot always stays empty, so
    /// that TAIL never catches up with the reap pointer: equal indices then
    /// always mean "empty", never "full".
    pub fn free_to_post(&self) -> usize {
        self.count(SlotState::Free).saturating_sub(1)
    }

    /// Descriptors published by the doorbell and not yet consumed by the NIC.
    pub fn published_pending(&self) -> usize {
        (self.doorbell + RING_SIZE - self.head) % RING_SIZE
    }

    /// Posted since the last doorbell: invisible to the NIC.
    pub fn unpublished(&self) -> usize {
        (self.tail + RING_SIZE - self.doorbell) % RING_SIZE
    }

    /// The descriptor as the driver's own core reads it: host memory with the
    /// core's pending stores forwarded on top (store-to-load forwarding).
    pub fn driver_view(&self, slot: usize) -> Descriptor {
        let mut d = self.memory[slot];
        for store in self.store_buffer.iter().filter(|s| s.slot == slot) {
            apply_store(&mut d, store);
        }
        d
    }

    /// Whether `slot` lies in the window the doorbell has published to the NIC.
    pub fn is_published(&self, slot: usize) -> bool {
        (slot + RING_SIZE - self.head) % RING_SIZE < self.published_pending()
    }

    pub fn buffer_of(index: u64) -> u64 {
        POOL_BASE + (index % POOL_BUFFERS) * u64::from(BUFFER_BYTES)
    }
}

pub(crate) fn apply_store(d: &mut Descriptor, store: &PendingStore) {
    match store.field {
        Field::Addr => d.addr = store.value,
        Field::Len => d.len = store.value as u16,
        Field::Flags => {
            d.own = store.value & 1 == 1;
            d.dd = false;
        }
    }
}

/// `0x0010_1800`-style hex for addresses.
pub fn hex(addr: u64) -> String {
    format!("0x{:04x}_{:04x}", addr >> 16, addr & 0xffff)
}

impl Model for DescriptorRing {
    type Config = RingConfig;
    type Action = RingAction;

    fn validate(_config: &RingConfig) -> Result<(), String> {
        Ok(())
    }

    fn new(config: &RingConfig) -> Self {
        DescriptorRing {
            config: config.clone(),
            slots: Default::default(),
            memory: Default::default(),
            store_buffer: Vec::new(),
            head: 0,
            tail: 0,
            doorbell: 0,
            next_to_clean: 0,
            nic: NicPhase::Idle,
            skip_barrier: false,
            barrier_ever_skipped: false,
            rx_fifo: VecDeque::new(),
            delivered: Vec::new(),
            damage: Vec::new(),
            counters: Counters::default(),
            last_reaped_seq: None,
            next_frame_id: 1,
            next_buffer: 0,
            rng: Rng::new(config.seed),
        }
    }

    fn intro(&self) -> Event {
        let what = match self.config.direction {
            Direction::Rx => "empty buffers for the NIC to fill from the wire",
            Direction::Tx => "filled buffers for the NIC to send",
        };
        Event::info(format!(
            "An {RING_SIZE}-descriptor ring, every slot FREE; HEAD = TAIL = 0. In this mode the driver posts {what}."
        ))
    }

    fn apply(&mut self, action: &RingAction) -> Outcome {
        match *action {
            RingAction::Post => self.post(),
            RingAction::Barrier => Ok(self.barrier()),
            RingAction::Doorbell => self.ring_doorbell(),
            RingAction::Reap => self.reap(),
            RingAction::FrameArrives => self.frame_arrives(),
            RingAction::SetSkipBarrier(on) => self.set_skip_barrier(on),
            RingAction::NicFetch => self.nic_fetch(),
            RingAction::NicDma => self.nic_dma(),
            RingAction::NicWriteBack => self.nic_write_back(),
        }
    }

    fn next_auto(&self) -> Result<RingAction, Refusal> {
        match self.nic {
            NicPhase::Fetched { .. } => Ok(RingAction::NicDma),
            NicPhase::Moved { .. } => Ok(RingAction::NicWriteBack),
            NicPhase::Idle => self.fetch_blocker().map_or(Ok(RingAction::NicFetch), Err),
        }
    }

    fn check(&self) -> Result<(), String> {
        self.check_invariants()
    }

    fn status(&self) -> Vec<Figure> {
        self.figures()
    }

    fn why(&self) -> Vec<String> {
        self.why_sentences()
    }

    fn leaves_out() -> &'static str {
        "Leaves out: real 16-byte descriptor layouts, descriptor prefetch and batched write-back, PCIe timing, and interrupts (see NAPI). On x86 ordinary stores already become visible in order, so the missing barrier bites hardest on Arm and POWER."
    }
}

#[cfg(test)]
mod tests;
