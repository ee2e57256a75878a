//! Mapping and unmapping pages, as a VFIO user does.
//!
//! Rules from `drivers/vfio/vfio_iommu_type1.c` (`vfio_dma_do_map()`,
//! `vfio_dma_do_unmap()`): IOVA, vaddr and size must be page-aligned and a
//! permission must be given, else EINVAL; a map overlapping an existing one
//! fails with EEXIST; an IOVA outside the ranges `vfio_iommu_iova_dma_valid()`
//! accepts fails with EINVAL; the pages come from the caller's own memory
//! (`struct vfio_iommu_type1_dma_map.vaddr`, pinned by
//! `vfio_pin_pages_remote()`; an address with no page behind it fails to
//! pin, EFAULT), so a process can never point its device at kernel memory
//! or another process's pages.

use super::*;

impl Iommu {
    pub(super) fn map(&mut self, iova: &str, vaddr: &str, read: bool, write: bool) -> Outcome {
        let iova = parse_addr(iova).map_err(|e| Refusal::new(format!("IOVA: {e}")))?;
        let vaddr = parse_addr(vaddr).map_err(|e| Refusal::new(format!("vaddr: {e}")))?;
        if !read && !write {
            return Err(Refusal::new(
                "Give the mapping READ, WRITE or both: VFIO refuses a map with neither flag (EINVAL).",
            ));
        }
        for (name, addr) in [("IOVA", iova), ("vaddr", vaddr)] {
            if !addr.is_multiple_of(PAGE) {
                return Err(Refusal::new(format!(
                    "{name} {} is not page-aligned: VFIO maps whole 4 KiB pages, so it must end in 000 (EINVAL).",
                    hex(addr)
                )));
            }
        }
        let (msi_lo, msi_hi) = MSI_WINDOW;
        if iova >> MGAW_BITS != 0 || (msi_lo..=msi_hi).contains(&iova) {
            return Err(Refusal::new(format!(
                "IOVA {} is outside the IOVA ranges this IOMMU reports as usable (beyond its {MGAW_BITS}-bit width, or the MSI window {:#x}-{:#x}): VFIO refuses it at map time (EINVAL).",
                hex(iova),
                msi_lo,
                msi_hi
            )));
        }
        if iova >= SPACE {
            return Err(Refusal::new(format!(
                "VFIO would accept IOVA {}, but this demo draws only the first {PAGES} IOVA pages, 0x0000 to {:#x}: pick one of those.",
                hex(iova),
                SPACE - 1
            )));
        }
        let Some(pa) = Self::page_behind(vaddr) else {
            return Err(Refusal::new(format!(
                "vaddr {} is not a page of this process, so the kernel cannot pin it (EFAULT). Its pages are {:#x} to {:#x}; a process can only offer its own memory, never a physical address.",
                hex(vaddr),
                PROCESS_PAGES[0].0,
                PROCESS_PAGES[PROCESS_PAGES.len() - 1].0 + PAGE - 1
            )));
        };
        if let Some(m) = self.mapping(iova) {
            return Err(Refusal::new(format!(
                "IOVA {} is already mapped (to vaddr {:#x}): unmap it first. VFIO refuses an overlapping map (EEXIST).",
                hex(iova),
                m.vaddr
            )));
        }
        let entry = Mapping {
            iova,
            vaddr,
            pa,
            read,
            write,
        };
        let region = region_at(pa).map_or("memory", |(_, r)| r.name);
        let key = region_at(pa).map_or("", |(_, r)| r.key);
        let at = self.mappings.partition_point(|m| m.iova < iova);
        self.mappings.insert(at, entry);
        let mut events = vec![Event::done(format!(
            "VFIO_IOMMU_MAP_DMA: the kernel pinned the page behind vaddr {vaddr:#x}, found it at PA {} ({region}), and mapped IOVA {} to it with {}.",
            hex(pa),
            hex(iova),
            entry.perms()
        ))
        .at(format!("pte-{iova:x}"))
        .at(format!("region-{key}"))];
        if !self.translating {
            events.push(Event::warn(
                "The IOMMU is in passthrough, so the table is not consulted until translation is turned back on.",
            ));
        }
        Ok(events)
    }

    pub(super) fn unmap(&mut self, iova: u64) -> Outcome {
        if !iova.is_multiple_of(PAGE) {
            return Err(Refusal::new(format!(
                "IOVA {} is not page-aligned: unmapping, too, works in whole pages.",
                hex(iova)
            )));
        }
        let Some(at) = self.mappings.iter().position(|m| m.iova == iova) else {
            return Err(Refusal::new(format!(
                "Nothing is mapped at IOVA {}.",
                hex(iova)
            )));
        };
        let gone = self.mappings.remove(at);
        Ok(vec![Event::info(format!(
            "VFIO_IOMMU_UNMAP_DMA: the entry IOVA {} → PA {} is gone, the IOTLB is invalidated before the call returns, and the page is unpinned. A DMA to {} now faults.",
            hex(gone.iova),
            hex(gone.pa),
            hex(gone.iova)
        ))
        .at("page-table")])
    }
}
