//! A kernel driver behind the IOMMU, in one of two ways. Per frame: every RX
//! buffer is mapped with `dma_map_single()` before the NIC may write it and
//! unmapped with `dma_unmap_single()` after, the DMA API's simplest use.
//! Recycling, what real RX paths do: a page is mapped once, stays mapped
//! while it goes round the ring, and is unmapped only when it leaves for
//! good. The IOMMU caches translations in its IOTLB; unmapping must also
//! invalidate the IOTLB, at once (strict) or in batches (lazy), and lazy
//! mode leaves stale translations open meanwhile.
//!
//! Rules and sources:
//! - Recycling: ixgbe's `ixgbe_reuse_rx_page()`
//!   (`drivers/net/ethernet/intel/ixgbe/ixgbe_main.c`) moves a cleaned
//!   page, with its `dma` address, to the next slot to refill; the page is
//!   only synced (`dma_sync_single_range_for_cpu()` before the CPU reads,
//!   `..._for_device()` before the NIC writes again), never unmapped. A
//!   `page_pool` created with `PP_FLAG_DMA_MAP` does the same for any
//!   driver: it maps a page when it first allocates it, keeps the mapping
//!   while the page is recycled (`page_pool_get_dma_addr()`), and unmaps it
//!   only when the page leaves the pool (`net/core/page_pool.c`;
//!   `Documentation/networking/page_pool.rst`). So map and unmap, and with
//!   them IOTLB invalidations, happen only at a page's first use and final
//!   release.
//! - `Documentation/core-api/dma-api-howto.rst`: a streaming mapping is
//!   made per buffer (`dma_map_single()` returns the bus address, here an
//!   IOVA, that the device is given) and undone with `dma_unmap_single()`
//!   before the CPU uses the buffer again.
//! - `drivers/iommu/dma-iommu.c`: mapping allocates an IOVA and writes the
//!   page-table entry; unmapping clears it, then either invalidates the
//!   IOTLB at once and frees the IOVA (strict), or puts the IOVA on a
//!   per-CPU flush queue (`queue_iova()`) flushed when it holds
//!   `IOVA_DEFAULT_FQ_SIZE` (256) entries or after `IOVA_DEFAULT_FQ_TIMEOUT`
//!   (10 ms); the IOVA is reused only after that flush.
//! - `Documentation/admin-guide/kernel-parameters.txt`, `iommu.strict`: lazy
//!   mode is "deferred invalidation of hardware TLBs, for increased
//!   throughput at the cost of reduced device isolation"; strict mode
//!   invalidates synchronously. The Intel and AMD drivers expect lazy
//!   mode by default (Linux commit 8cc633190b52, "iommu: Clarify default
//!   domain Kconfig"). "The lazy IOTLB flushing setup leaves a time window, in which
//!   the device can still access some system memory, which has already been
//!   unmapped by the device driver" (commit 82c3cef, "iommu: Don't use
//!   lazy flush for untrusted device").
//! - VT-d: an IOTLB miss walks the second-level page table, four levels for
//!   a 48-bit address width; a missing entry is fault reason 0x05/0x06.
//! - Costs are this model's assumptions: a walk is four dependent memory
//!   reads of 100 ns (real IOMMUs cache upper levels), and an IOTLB
//!   invalidation with its wait descriptor keeps the CPU 1 µs.

mod ops;
mod report;
#[cfg(test)]
mod tests;

use crate::model::{Event, Figure, Model, Outcome, Refusal};
use serde::{Deserialize, Serialize};

/// RX buffers in the driver's ring.
pub const SLOTS: usize = 4;
/// IOTLB entries: a small cache, so that misses show, but room for the
/// ring and its four recycled pages, so that recycling can hit.
pub const IOTLB_ENTRIES: usize = 5;
/// Physical pages the driver's buffers come from, round robin.
pub const POOL: &[u64] = &[
    0x3a01_0000,
    0x3a02_0000,
    0x3a03_0000,
    0x3a04_0000,
    0x3a05_0000,
    0x3a06_0000,
];
/// The descriptor ring: mapped once at load time (dma_alloc_coherent).
pub const RING_IOVA: u64 = 0xffff_f000;
pub const RING_PA: u64 = 0x3a00_0000;
/// Buffer IOVAs are handed out from here upwards.
pub const IOVA_BASE: u64 = 0xfff0_0000;
pub const PAGE: u64 = 0x1000;
pub const WALK_NS: u64 = 4 * 100;
pub const INVALIDATE_NS: u64 = 1_000;
pub const FQ_SIZE: usize = 256;
/// Frames the run receives before Step stops.
pub const MAX_FRAMES: u32 = 24;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DmaMapConfig {
    /// `iommu.strict=1`: invalidate the IOTLB inside every unmap.
    pub strict: bool,
    /// Keep RX pages mapped and recycle them (page_pool, ixgbe), rather
    /// than map and unmap a buffer per frame.
    pub recycle: bool,
}

/// An RX buffer slot of the driver's ring.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum SlotState {
    #[default]
    Free,
    /// Mapped and handed to the NIC: `iova` → `pa`.
    Mapped { iova: u64, pa: u64 },
    /// The NIC has written frame `frame` into it; unmap is next.
    Written { iova: u64, pa: u64, frame: u32 },
}

/// A cached translation. `live` is false once the driver has unmapped the
/// IOVA but the entry has not been invalidated yet (lazy mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TlbEntry {
    pub iova: u64,
    pub pa: u64,
    pub live: bool,
}

/// Who a physical page belongs to now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PageUse {
    Free,
    /// An RX buffer in this slot.
    Buffer(usize),
    /// Freed after its frame went up the stack, and reused by someone else.
    Reused,
}

/// What became of a device access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fate {
    Hit,
    Miss,
    /// Hit a stale (unmapped, not yet invalidated) entry: reached `pa`.
    StaleHit,
    /// No entry and no PTE: blocked, logged.
    Fault,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Access {
    pub iova: u64,
    pub pa: Option<u64>,
    pub fate: Fate,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counters {
    pub maps: u32,
    pub unmaps: u32,
    pub frames: u32,
    pub hits: u32,
    pub misses: u32,
    pub walk_ns: u64,
    pub invalidations: u32,
    pub invalidation_ns: u64,
    pub stale_dmas: u32,
    pub corrupted: u32,
    pub faults: u32,
    /// Pages put back into the ring still mapped.
    pub recycled: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DmaMap {
    pub strict: bool,
    pub recycle: bool,
    pub slots: [SlotState; SLOTS],
    /// The IOMMU page table: present entries (IOVA page → PA page).
    pub page_table: Vec<(u64, u64)>,
    /// Oldest first (least recently used first).
    pub iotlb: Vec<TlbEntry>,
    /// Lazy: unmapped IOVAs (with their old PA) waiting for the flush.
    pub flush_queue: Vec<(u64, u64)>,
    /// IOVAs free for reuse, last freed last.
    pub free_iovas: Vec<u64>,
    pub next_iova: u64,
    pub pages: Vec<PageUse>,
    pub next_page: usize,
    /// Ring indices: the next slot to map, to receive into, to unmap.
    pub next_map: usize,
    pub next_write: usize,
    pub next_unmap: usize,
    /// The last IOVA the driver unmapped, and the page it pointed to.
    pub last_unmapped: Option<(u64, u64)>,
    pub last: Option<Access>,
    /// DMAR fault lines, newest last.
    pub fault_log: Vec<String>,
    pub counters: Counters,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DmaMapAction {
    /// Driver: dma_map_single() a fresh page into the next free slot.
    Map,
    /// NIC: receive a frame into the oldest mapped buffer.
    DeviceWrite,
    /// Driver: dma_unmap_single() the oldest written buffer, pass it up
    /// (recycling: the page leaves the pool for good).
    Unmap,
    /// Recycling: pass the oldest written buffer's frame up and put its
    /// page back into the ring, still mapped.
    Recycle,
    /// Lazy: the 10 ms flush-queue timer fires.
    FlushTimer,
    /// Break it: the device writes once more to the last unmapped IOVA.
    StaleDma,
}

impl DmaMap {
    /// The translation the IOMMU would use: IOTLB first, then the table.
    pub fn pte(&self, iova: u64) -> Option<u64> {
        self.page_table
            .iter()
            .find(|(i, _)| *i == iova)
            .map(|(_, pa)| *pa)
    }

    /// IOTLB entries that still translate an unmapped IOVA.
    pub fn stale_entries(&self) -> usize {
        self.iotlb.iter().filter(|e| !e.live).count()
    }

    pub fn pool_index(pa: u64) -> Option<usize> {
        POOL.iter().position(|&p| p == pa)
    }
}

impl Model for DmaMap {
    type Config = DmaMapConfig;
    type Action = DmaMapAction;

    fn validate(_config: &DmaMapConfig) -> Result<(), String> {
        Ok(())
    }

    fn new(config: &DmaMapConfig) -> Self {
        DmaMap {
            strict: config.strict,
            recycle: config.recycle,
            slots: [SlotState::Free; SLOTS],
            page_table: vec![(RING_IOVA, RING_PA)],
            iotlb: Vec::new(),
            flush_queue: Vec::new(),
            free_iovas: Vec::new(),
            next_iova: IOVA_BASE,
            pages: vec![PageUse::Free; POOL.len()],
            next_page: 0,
            next_map: 0,
            next_write: 0,
            next_unmap: 0,
            last_unmapped: None,
            last: None,
            fault_log: Vec::new(),
            counters: Counters::default(),
        }
    }

    fn intro(&self) -> Event {
        let buffers = if self.recycle {
            "each RX page will be mapped once and recycled, still mapped, as page_pool and ixgbe do"
        } else {
            "every RX buffer will be mapped before the NIC writes it and unmapped after. That is the DMA API's simplest use, not what RX paths do: they keep pages mapped and recycle them (switch recycling on)"
        };
        Event::info(format!(
            "A NIC driver behind the IOMMU, {} mode. The descriptor ring is mapped once; {buffers}. Step runs the driver and the NIC.",
            if self.strict { "strict" } else { "lazy" }
        ))
    }

    fn apply(&mut self, action: &DmaMapAction) -> Outcome {
        match action {
            DmaMapAction::Map => self.map(),
            DmaMapAction::DeviceWrite => self.device_write(),
            DmaMapAction::Unmap => self.unmap(),
            DmaMapAction::Recycle => self.recycle_page(),
            DmaMapAction::FlushTimer => self.flush_timer(),
            DmaMapAction::StaleDma => self.stale_dma(),
        }
    }

    fn next_auto(&self) -> Result<DmaMapAction, Refusal> {
        let written = matches!(self.slots[self.next_unmap], SlotState::Written { .. });
        let mapped = matches!(self.slots[self.next_write], SlotState::Mapped { .. });
        let free = self.slots[self.next_map] == SlotState::Free;
        let more = self.counters.frames < MAX_FRAMES;
        if written && self.recycle {
            Ok(DmaMapAction::Recycle)
        } else if written {
            Ok(DmaMapAction::Unmap)
        } else if free && self.counters.maps < MAX_FRAMES {
            Ok(DmaMapAction::Map)
        } else if mapped && more {
            Ok(DmaMapAction::DeviceWrite)
        } else {
            Err(Refusal::new(format!(
                "The run's {MAX_FRAMES} frames are done. Press Reset to run again."
            )))
        }
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
        "Leaves out: the page walk caches and huge pages, IOVA allocator caching, per-CPU flush queues and their 256-entry trigger (a single driver here never fills one), scatter-gather mappings, swiotlb bounce buffers, and ATS device TLBs. Recycling here puts a page back as soon as its frame is passed up; ixgbe splits a page in two halves and flips between them, page_pool waits until the stack frees the page, and a page the stack still holds is released rather than reused."
    }
}
