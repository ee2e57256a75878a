//! IOMMU / IOVA: a device's DMA addresses, translated and checked, or not.
//!
//! The device never sees physical memory directly: it issues DMA to I/O
//! virtual addresses (IOVAs) that the IOMMU translates through a per-device
//! page table, keeping the offset within the 4 KiB page. An address with no
//! entry, or without the permission the access needs, is blocked and
//! reported as a DMA-remapping fault. In passthrough (identity) mode there is
//! no check at all: the device's address is the physical address.
//!
//! Sources: Intel Virtualization Technology for Directed I/O (VT-d)
//! Architecture Specification, ch. 3 (DMA remapping: second-level
//! translation, R/W permission bits) and ch. 7 (fault reporting, fault reason
//! codes; the fault recording register keeps only the page address,
//! bits 63:12); Linux `drivers/iommu/intel/dmar.c` (`dmar_fault_do_one()`,
//! the `DMAR: [DMA Write NO_PASID] Request device [..] fault addr ..` log
//! line, `dma_frcd_page_addr()`, and the `dma_remap_fault_reasons` table);
//! `Documentation/driver-api/vfio.rst` and `include/uapi/linux/vfio.h`
//! (`struct vfio_iommu_type1_dma_map`: the caller passes a process virtual
//! address, `vaddr`, never a physical one); `drivers/vfio/vfio_iommu_type1.c`
//! (`vfio_dma_do_map()`: page alignment and a permission or EINVAL, EEXIST
//! on overlap, EINVAL outside the IOMMU's valid IOVA ranges from
//! `vfio_iommu_iova_dma_valid()`, then the pages behind `vaddr` are pinned);
//! PCI Express Base Specification §2.2.7 (no request crosses a 4 KiB
//! boundary), §2.3.1 (an unsupported request: a non-posted one gets a
//! Completion with UR status, a posted write gets none and is reported as an
//! error) and §6.2 (error reporting, AER).

pub mod addr;
mod dma;
pub mod memory;
mod report;
mod vfio;

#[cfg(test)]
mod tests;

use crate::model::{Event, Figure, Model, Outcome, Refusal};
pub use addr::{hex, parse_addr, AddrError};
pub use memory::{region_at, Owner, Region, PAGE, PAGES, REGIONS, SPACE};
use serde::{Deserialize, Serialize};

/// Bytes one DMA moves: one 64-byte TLP payload, cut at the page end.
pub const DMA_BYTES: u64 = 64;
/// Ordinary DMAs the NIC makes under Step/Play: 16 frames received, 16 sent.
pub const TRAFFIC_MAX: u32 = 32;
/// Fault lines kept for the log panel.
pub const FAULT_LOG: usize = 6;
/// The driver's buffers: IOVA and physical page of the RX and TX buffers.
pub const RX_IOVA: u64 = 0x1000;
pub const RX_PA: u64 = 0x4000;
pub const TX_IOVA: u64 = 0x2000;
pub const TX_PA: u64 = 0x8000;
/// The device's PCI address, as the fault line prints it.
pub const DEVICE_BDF: &str = "03:00.0";
/// Address width the IOMMU translates (a 4-level second-level table): an
/// IOVA at or above 2^48 is "Access beyond MGAW" (fault reason 0x04).
pub const MGAW_BITS: u32 = 48;
/// The interrupt (MSI) window x86 reserves in every IOVA space: VFIO
/// reports it as not valid for DMA mappings.
pub const MSI_WINDOW: (u64, u64) = (0xfee0_0000, 0xfeef_ffff);
/// The VFIO user's own pages: virtual address → the physical page behind
/// it. Virtually contiguous, physically not, as process memory usually is.
pub const PROCESS_PAGES: &[(u64, u64)] = &[
    (0x7fa0_0000, RX_PA),
    (0x7fa0_1000, TX_PA),
    (0x7fa0_2000, 0x6000),
    (0x7fa0_3000, 0x5000),
    (0x7fa0_4000, 0x7000),
];

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IommuConfig {}

/// The direction of a DMA, named as the VT-d fault record names it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Access {
    /// The device reads host memory (e.g. a frame to transmit).
    Read,
    /// The device writes host memory (e.g. a received frame): the first DMA
    /// a NIC makes of a received frame, so the one a learner starts with.
    #[default]
    Write,
}

impl Access {
    pub fn label(self) -> &'static str {
        match self {
            Access::Read => "DMA Read",
            Access::Write => "DMA Write",
        }
    }
}

/// One IOMMU page-table entry: an IOVA page mapped onto a physical page,
/// made from a page of the process's memory (`vaddr`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mapping {
    pub iova: u64,
    pub vaddr: u64,
    pub pa: u64,
    pub read: bool,
    pub write: bool,
}

impl Mapping {
    pub fn allows(&self, access: Access) -> bool {
        match access {
            Access::Read => self.read,
            Access::Write => self.write,
        }
    }

    pub fn perms(&self) -> &'static str {
        match (self.read, self.write) {
            (true, true) => "READ|WRITE",
            (true, false) => "READ",
            (false, true) => "WRITE",
            (false, false) => "none",
        }
    }
}

/// Why the IOMMU blocked a DMA: the VT-d fault reason code and its text, as
/// `dma_remap_fault_reasons[]` in `dmar.c` prints them. A not-present
/// second-level entry has R = W = 0, so it reports as a missing permission.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FaultReason {
    BeyondWidth,
    NoWrite,
    NoRead,
}

impl FaultReason {
    pub fn code(self) -> u8 {
        match self {
            FaultReason::BeyondWidth => 0x04,
            FaultReason::NoWrite => 0x05,
            FaultReason::NoRead => 0x06,
        }
    }

    pub fn text(self) -> &'static str {
        match self {
            FaultReason::BeyondWidth => "Access beyond MGAW",
            FaultReason::NoWrite => "PTE Write access is not set",
            FaultReason::NoRead => "PTE Read access is not set",
        }
    }
}

/// What became of a DMA.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    /// Translated and permitted: it reached `pa`.
    Allowed { pa: u64 },
    /// Stopped by the IOMMU; nothing reached memory.
    Blocked(FaultReason),
    /// Passthrough: nothing checked it, it reached `pa`.
    Unchecked { pa: u64 },
    /// Passthrough to an address with no memory behind it.
    NoMemory,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DmaRecord {
    pub seq: u32,
    pub access: Access,
    pub iova: u64,
    pub bytes: u64,
    pub verdict: Verdict,
}

impl DmaRecord {
    /// The kernel's log line for a blocked DMA, in `dmar_fault_do_one()`'s
    /// shape: the fault record holds the page address, not the offset.
    pub fn dmar_line(&self) -> Option<String> {
        match self.verdict {
            Verdict::Blocked(reason) => Some(format!(
                "DMAR: [{} NO_PASID] Request device [{DEVICE_BDF}] fault addr {:#x} [fault reason {:#04x}] {}",
                self.access.label(),
                self.iova & !(PAGE - 1),
                reason.code(),
                reason.text()
            )),
            _ => None,
        }
    }
}

/// Bytes DMA'd into and out of one region.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegionTouch {
    pub written: u64,
    pub read: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counters {
    pub dmas: u32,
    pub allowed: u32,
    pub blocked: u32,
    pub unchecked: u32,
    pub lost: u32,
    pub bytes_moved: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Iommu {
    /// True: translating (DMA remapping on). False: passthrough / identity.
    pub translating: bool,
    /// The device's page table, sorted by IOVA.
    pub mappings: Vec<Mapping>,
    pub last: Option<DmaRecord>,
    /// Newest last; at most [`FAULT_LOG`].
    pub faults: Vec<DmaRecord>,
    /// Per region of [`REGIONS`], in the same order.
    pub touched: Vec<RegionTouch>,
    pub counters: Counters,
    /// Ordinary DMAs made so far by Step/Play.
    pub traffic: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum IommuAction {
    /// The NIC's next ordinary DMA (what Step does): alternately a received
    /// frame written into the RX buffer and a frame read from the TX buffer.
    Traffic,
    /// The device DMAs to the address typed (or picked) by the learner.
    Dma { access: Access, addr: String },
    /// VFIO_IOMMU_MAP_DMA: map an IOVA page onto a page of the process's
    /// memory, named by its virtual address.
    Map {
        iova: String,
        vaddr: String,
        read: bool,
        write: bool,
    },
    /// VFIO_IOMMU_UNMAP_DMA: remove the entry for an IOVA page.
    Unmap { iova: u64 },
    /// Break it: true translates, false is passthrough (identity).
    SetTranslation(bool),
}

impl Iommu {
    /// The physical page behind one of the process's virtual pages.
    pub fn page_behind(vaddr: u64) -> Option<u64> {
        PROCESS_PAGES
            .iter()
            .find(|(va, _)| *va == vaddr & !(PAGE - 1))
            .map(|(_, pa)| *pa)
    }

    pub fn mapping(&self, iova: u64) -> Option<&Mapping> {
        let page = iova & !(PAGE - 1);
        self.mappings.iter().find(|m| m.iova == page)
    }

    /// Where the driver told the device to DMA ordinary traffic: the IOVA it
    /// got from mapping the buffer, or, in passthrough, the physical address
    /// itself (`dma_map_*()` is then the identity).
    pub fn traffic_addr(&self, access: Access) -> u64 {
        match (self.translating, access) {
            (true, Access::Write) => RX_IOVA,
            (true, Access::Read) => TX_IOVA,
            (false, Access::Write) => RX_PA,
            (false, Access::Read) => TX_PA,
        }
    }

    /// Regions a DMA has harmed: written (or read) by a device that does not own them.
    pub fn harmed(&self) -> impl Iterator<Item = (&'static Region, RegionTouch)> + '_ {
        REGIONS
            .iter()
            .zip(self.touched.iter().copied())
            .filter(|(r, t)| r.owner != Owner::App && (t.written > 0 || t.read > 0))
    }

    /// Ordinary traffic: a received frame written into the RX buffer, then a
    /// frame read from the TX buffer, each a cache line further on.
    fn traffic(&mut self) -> Outcome {
        self.next_auto()?;
        let n = u64::from(self.traffic);
        let access = if n.is_multiple_of(2) {
            Access::Write
        } else {
            Access::Read
        };
        let addr = self.traffic_addr(access) + n / 2 * DMA_BYTES;
        self.traffic += 1;
        let what = match access {
            Access::Write => "receives a frame into the RX buffer",
            Access::Read => "fetches a frame to send from the TX buffer",
        };
        let mut events = vec![Event::info(format!(
            "Ordinary traffic: the NIC {what}, at the address its driver gave it, {}.",
            hex(addr)
        ))];
        events.extend(self.dma(access, addr));
        Ok(events)
    }

    fn set_translation(&mut self, on: bool) -> Outcome {
        if on == self.translating {
            return Err(Refusal::new(if on {
                "The IOMMU is already translating."
            } else {
                "The IOMMU is already in passthrough."
            }));
        }
        self.translating = on;
        Ok(vec![if on {
            Event::done(
                "DMA remapping back on: every device address goes through the page table again.",
            )
            .at("iommu")
        } else {
            Event::warn(
                "Break it: the IOMMU is now in passthrough (identity). The device's address is used as the physical address, and nothing checks it. Try a stray address such as 0xf000.",
            )
            .at("iommu")
        }])
    }
}

impl Model for Iommu {
    type Config = IommuConfig;
    type Action = IommuAction;

    fn validate(_config: &IommuConfig) -> Result<(), String> {
        Ok(())
    }

    fn new(_config: &IommuConfig) -> Self {
        Iommu {
            translating: true,
            mappings: vec![
                // RX buffer: the device writes received frames into it.
                Mapping {
                    iova: RX_IOVA,
                    vaddr: PROCESS_PAGES[0].0,
                    pa: RX_PA,
                    read: false,
                    write: true,
                },
                // TX buffer: the device reads frames to send from it.
                Mapping {
                    iova: TX_IOVA,
                    vaddr: PROCESS_PAGES[1].0,
                    pa: TX_PA,
                    read: true,
                    write: false,
                },
            ],
            last: None,
            faults: Vec::new(),
            touched: vec![RegionTouch::default(); REGIONS.len()],
            counters: Counters::default(),
            traffic: 0,
        }
    }

    fn intro(&self) -> Event {
        Event::info(
            "The NIC may DMA to two IOVA pages: 0x1000 (the RX buffer, write) and 0x2000 (the TX buffer, read). Pick an address and make the device DMA to it, or press Step for ordinary traffic.",
        )
    }

    fn apply(&mut self, action: &IommuAction) -> Outcome {
        match action {
            IommuAction::Dma { access, addr } => {
                let iova =
                    parse_addr(addr).map_err(|e| Refusal::new(format!("Not an address: {e}")))?;
                Ok(self.dma(*access, iova))
            }
            IommuAction::Map {
                iova,
                vaddr,
                read,
                write,
            } => self.map(iova, vaddr, *read, *write),
            IommuAction::Unmap { iova } => self.unmap(*iova),
            IommuAction::Traffic => self.traffic(),
            IommuAction::SetTranslation(on) => self.set_translation(*on),
        }
    }

    fn next_auto(&self) -> Result<IommuAction, Refusal> {
        if self.traffic >= TRAFFIC_MAX {
            return Err(Refusal::new(format!(
                "The NIC's ordinary traffic is done ({TRAFFIC_MAX} DMAs). Aim a DMA at an address yourself, or Reset."
            )));
        }
        Ok(IommuAction::Traffic)
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
        "Leaves out: the IOTLB (see the DMA-map demo), multi-level page walks, ATS/PRI, interrupt remapping, huge pages, PASIDs, the root/context tables, and pinning limits (RLIMIT_MEMLOCK). Only 16 IOVA pages are drawn."
    }
}
