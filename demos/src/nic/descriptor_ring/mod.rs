//! Descriptor ring (RX/TX): the driver/NIC handshake over an 8-entry ring,
//! in the Intel convention (82599 / ixgbe, e1000).
//!
//! There is no OWN bit: ownership is implied by the indices. The NIC owns
//! the descriptors from HEAD up to the TAIL it was last told through the
//! doorbell; everything else is the driver's. The driver writes a
//! descriptor, then rings the doorbell: an MMIO write of TAIL. The NIC
//! fetches the descriptor at HEAD, moves the data, writes status back (DD)
//! into host memory and advances HEAD. The driver learns of completions by
//! reading DD in host memory, never by reading a NIC register.
//!
//! Sources: Intel 82599 10GbE Controller Datasheet §7.1 (receive: the
//! advanced RX descriptor's read format holds only buffer addresses, the
//! buffer size is per queue in SRRCTL.BSIZEPACKET, and the write-back
//! format overwrites it with status, DD and PKT_LEN; HEAD/TAIL with one
//! descriptor kept unused) and §7.2 (transmit: the driver writes address,
//! DTALEN and DCMD; the NIC writes DD back only for descriptors with
//! DCMD.RS set); Linux `drivers/net/ethernet/intel/ixgbe/ixgbe_main.c`
//! (`ixgbe_alloc_rx_buffers()` rewrites `pkt_addr` every round because
//! write-back erases it, then `wmb()` + `writel(tail)`). The read side is
//! the DD convention: the refill clears the whole write-back word
//! (`rx_desc->read.hdr_addr = 0` in ixgbe's and igb's older refill, which
//! zeroes status and PKT_LEN together), the clean loop tests DD, then
//! `dma_rmb()` before loading the length, as e1000e's
//! `e1000_clean_rx_irq()` still does ("read descriptor and rx_buffer_info
//! after status DD"). Today's ixgbe and igb clear only `wb.upper.length`
//! and take a non-zero length as "done"; their `dma_rmb()` then guards
//! status, EOP and the RSS hash instead of the length: the same hazard on
//! other fields. `Documentation/memory-barriers.txt` ("KERNEL I/O BARRIER
//! EFFECTS": a `writeX()` first waits for the completion of all prior
//! writes to memory; the `_relaxed()` accessors give no such ordering, and
//! mappings with non-default attributes such as `ioremap_wc()` lose the
//! guarantees; `dma_rmb()`/`dma_wmb()`).

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
/// Size of every receive buffer: one value for the whole queue, as
/// the 82599's SRRCTL.BSIZEPACKET register field sets it, never a descriptor.
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
/// TX report-status choices: RS on every descriptor (ixgbe sets it on the
/// last descriptor of every packet) or on every fourth (DPDK's ixgbe PMD
/// sets it every `tx_rs_thresh` descriptors, 32 by default).
pub const RS_EVERY: [u8; 2] = [1, 4];
/// Odds (1 in this many) that the NIC's descriptor read overtakes stores a
/// relaxed doorbell left in flight, or that an early load overtakes the DD
/// load: our choice, so that the race shows up within a few tries but most
/// attempts still work, which is how such bugs survive testing.
pub const RACE_ODDS: u64 = 4;

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
    /// TX: the driver sets RS on every `rs_every`-th descriptor (1 or 4).
    pub rs_every: u8,
}

impl Default for RingConfig {
    fn default() -> Self {
        RingConfig {
            direction: Direction::Rx,
            seed: 0x5EED_0007,
            rs_every: 1,
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
    /// RX read format: the buffer address. After an RX write-back the same
    /// bytes hold the RSS hash and packet type instead (82599 §7.1.6).
    /// TX: the buffer address.
    pub addr: u64,
    /// TX: DTALEN, written by the driver. RX: PKT_LEN, written by the NIC at
    /// write-back (the driver only clears it).
    pub len: u16,
    /// TX: DCMD.RS, report status: the driver asks for a DD write-back.
    pub rs: bool,
    /// Written back by the NIC: descriptor done.
    pub dd: bool,
}

/// Who may touch a slot, from the protocol's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum SlotState {
    /// Driver's and empty: may be posted.
    #[default]
    Free,
    /// Written by the driver; the NIC's once a doorbell publishes it.
    Posted,
    /// Consumed by the NIC (HEAD has passed it), awaiting the driver's reap.
    Done,
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

/// One store the driver makes to a descriptor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Field {
    /// RX `pkt_addr` / TX `buffer_addr`.
    Addr,
    /// TX `cmd_type_len`: DTALEN plus DCMD (EOP, and RS when asked).
    CmdLen,
    /// RX: clear the write-back word (DD and PKT_LEN). TX: `olinfo_status`,
    /// whose bits the DD write-back shares, so it clears an old DD.
    Status,
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
    /// The data has moved; write-back is next.
    Moved {
        slot: usize,
        seen: Descriptor,
        bytes: u16,
    },
}

/// A transfer that went wrong because of a missing barrier.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Damage {
    pub slot: usize,
    /// True for the read side (a field read before DD), false for a DMA
    /// that used a half-written descriptor.
    pub read_side: bool,
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
    /// NIC fetches that found the driver's stores still in flight.
    pub racy_fetches: u32,
    /// Of those, fetches that read the descriptor before all stores landed.
    pub torn_fetches: u32,
    /// Reaps without `dma_rmb()` that ran into the NIC's write-back.
    pub read_races: u32,
    /// Of those, reaps whose early field load saw the old value.
    pub torn_reads: u32,
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
    /// Driver-owned: the next descriptor the driver will post (next_to_use).
    pub tail: usize,
    /// The TAIL value the NIC last received through the doorbell.
    pub doorbell: usize,
    /// Driver-owned: the next descriptor the driver will reap.
    pub next_to_clean: usize,
    pub nic: NicPhase,
    /// Break it (write side): ring the doorbell with `writel_relaxed()` on a
    /// weakly ordered CPU, so nothing orders the descriptor stores before it.
    pub relaxed_doorbell: bool,
    pub relaxed_ever: bool,
    /// Break it (read side, RX): reap without `dma_rmb()` after the DD test.
    pub skip_rmb: bool,
    pub skip_rmb_ever: bool,
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
    /// Driver: MMIO write of TAIL to the NIC's register.
    Doorbell,
    /// Driver: reap completed descriptors in order, by their DD bits.
    Reap,
    /// Wire (RX): a frame arrives at the NIC.
    FrameArrives,
    /// Break it: doorbell with `writel_relaxed()`, no barrier (or back to `writel()`).
    SetRelaxedDoorbell(bool),
    /// Break it (RX): reap without `dma_rmb()` (or with it again).
    SetSkipRmb(bool),
    /// NIC: read the descriptor at HEAD.
    NicFetch,
    /// NIC: move the data between the wire and the buffer.
    NicDma,
    /// NIC: write status back, advance HEAD.
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
    /// always mean "empty", never "full" (82599 datasheet §7.1).
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

    /// Whether the post numbered `seq` asks for a status write-back.
    pub fn wants_rs(&self, seq: u32) -> bool {
        match self.config.direction {
            Direction::Rx => false,
            Direction::Tx => {
                let every = u32::from(self.config.rs_every.max(1));
                seq % every == every - 1
            }
        }
    }

    pub fn buffer_of(index: u64) -> u64 {
        POOL_BASE + (index % POOL_BUFFERS) * u64::from(BUFFER_BYTES)
    }

    /// One race roll: true (1 in [`RACE_ODDS`]) when the late access wins.
    fn race_lost(&mut self) -> bool {
        self.rng.range(1, RACE_ODDS) == 1
    }
}

pub(crate) fn apply_store(d: &mut Descriptor, store: &PendingStore) {
    match store.field {
        Field::Addr => d.addr = store.value,
        Field::CmdLen => {
            d.len = store.value as u16;
            d.rs = store.value >> 16 & 1 == 1;
        }
        // RX stores 0 (DD and PKT_LEN cleared); TX stores 1 (olinfo_status
        // written: the old DD goes, the length stays).
        Field::Status => {
            d.dd = false;
            if store.value == 0 {
                d.len = 0;
            }
        }
    }
}

/// `0x0010_1800`-style hex for addresses.
pub fn hex(addr: u64) -> String {
    format!("0x{:04x}_{:04x}", addr >> 16 & 0xffff, addr & 0xffff)
}

impl Model for DescriptorRing {
    type Config = RingConfig;
    type Action = RingAction;

    fn validate(config: &RingConfig) -> Result<(), String> {
        if !RS_EVERY.contains(&config.rs_every) {
            return Err("RS is set on every descriptor or on every fourth".into());
        }
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
            relaxed_doorbell: false,
            relaxed_ever: false,
            skip_rmb: false,
            skip_rmb_ever: false,
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
            "An {RING_SIZE}-descriptor ring, every slot FREE; HEAD = TAIL = 0. The driver posts {what}; the NIC owns only what lies between HEAD and the TAIL it was told."
        ))
    }

    fn apply(&mut self, action: &RingAction) -> Outcome {
        match *action {
            RingAction::Post => self.post(),
            RingAction::Barrier => Ok(self.barrier()),
            RingAction::Doorbell => self.ring_doorbell(),
            RingAction::Reap => self.reap(),
            RingAction::FrameArrives => self.frame_arrives(),
            RingAction::SetRelaxedDoorbell(on) => self.set_relaxed(on),
            RingAction::SetSkipRmb(on) => self.set_skip_rmb(on),
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

    // x86: stores are not reordered with other stores, but a load may pass
    // an older store to another address (Intel SDM vol. 3A, "Memory Ordering
    // in P6 and More Recent Processor Families"). This ring's race is store
    // against store, so on x86 only a write-combined doorbell can lose it.
    fn leaves_out() -> &'static str {
        "Leaves out: the real 16-byte layouts, header buffers, today's ixgbe test of a non-zero length in place of DD (this ring tests DD, as e1000e does), descriptor prefetch and batched write-back, PCIe timing, and interrupts (see NAPI). The CPU here is weakly ordered like arm64; on x86 stores stay in program order with each other (a load may still pass an earlier store), so only a write-combined doorbell can race there."
    }
}

#[cfg(test)]
mod tests;
