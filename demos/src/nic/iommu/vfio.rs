//! Mapping and unmapping pages, as a VFIO user does.
//!
//! Rules from `drivers/vfio/vfio_iommu_type1.c` (`vfio_dma_do_map()`,
//! `vfio_dma_do_unmap()`): IOVA, address and size must be page-aligned and a
//! permission must be given, else EINVAL; a map overlapping an existing one
//! fails with EEXIST; the pages come from the caller's own memory (it passes
//! a user virtual address, which the kernel pins), so a process can never
//! point its device at kernel memory or another process's pages.

use super::*;

impl Iommu {
    pub(super) fn map(&mut self, iova: &str, pa: &str, read: bool, write: bool) -> Outcome {
        let iova = parse_addr(iova).map_err(|e| Refusal::new(format!("IOVA: {e}")))?;
        let pa = parse_addr(pa).map_err(|e| Refusal::new(format!("Physical address: {e}")))?;
        if !read && !write {
            return Err(Refusal::new(
                "Give the mapping READ, WRITE or both: VFIO refuses a map with neither flag (EINVAL).",
            ));
        }
        for (name, addr) in [("IOVA", iova), ("Physical address", pa)] {
            if !addr.is_multiple_of(PAGE) {
                return Err(Refusal::new(format!(
                    "{name} {} is not page-aligned: VFIO maps whole 4 KiB pages, so it must end in 000 (EINVAL).",
                    hex(addr)
                )));
            }
        }
        if iova >= SPACE {
            return Err(Refusal::new(format!(
                "IOVA {} is outside the device's IOVA window, 0x0000 to {:#x}.",
                hex(iova),
                SPACE - 1
            )));
        }
        let Some((_, region)) = region_at(pa) else {
            return Err(Refusal::new(format!(
                "Physical address {} is beyond the modelled host memory, 0x0000 to {:#x}.",
                hex(pa),
                SPACE - 1
            )));
        };
        if region.owner != Owner::App {
            return Err(Refusal::new(format!(
                "PA {} is {} ({}). VFIO only pins pages of the caller's own memory, so a process cannot give its device that page.",
                hex(pa),
                region.name,
                region.owner.label()
            )));
        }
        if let Some(m) = self.mapping(iova) {
            return Err(Refusal::new(format!(
                "IOVA {} is already mapped (to PA {}): unmap it first. VFIO refuses an overlapping map (EEXIST).",
                hex(iova),
                hex(m.pa)
            )));
        }
        let entry = Mapping {
            iova,
            pa,
            read,
            write,
        };
        let at = self.mappings.partition_point(|m| m.iova < iova);
        self.mappings.insert(at, entry);
        let mut events = vec![Event::done(format!(
            "VFIO_IOMMU_MAP_DMA: IOVA {} now maps to PA {} ({}) with {}. The page is pinned so it cannot move while the device uses it.",
            hex(iova),
            hex(pa),
            region.name,
            entry.perms()
        ))
        .at(format!("pte-{iova:x}"))
        .at(format!("region-{}", region.key))];
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
            "VFIO_IOMMU_UNMAP_DMA: the entry IOVA {} → PA {} is gone and its IOTLB entry invalidated; the page is unpinned. A DMA to {} now faults.",
            hex(gone.iova),
            hex(gone.pa),
            hex(gone.iova)
        ))
        .at("page-table")])
    }
}
