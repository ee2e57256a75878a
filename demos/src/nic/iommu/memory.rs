//! The host's physical memory, as a handful of labelled regions.
//!
//! 64 KiB in 4 KiB pages is enough to show the point: a DMA address either
//! lands in the device's own buffers or in someone else's memory.

use serde::{Deserialize, Serialize};

/// Page size of the IOMMU's page table (Intel VT-d second-level tables use
/// 4 KiB leaf pages; VT-d spec §3.6 / §9.8).
pub const PAGE: u64 = 0x1000;
/// Modelled host memory and the device's IOVA window: 0x0000-0xffff.
pub const SPACE: u64 = 0x1_0000;
pub const PAGES: u64 = SPACE / PAGE;

/// Who owns a region.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Owner {
    /// The VFIO user (the driver process): the only pages it may map.
    App,
    Kernel,
    OtherProcess,
}

impl Owner {
    pub fn label(self) -> &'static str {
        match self {
            Owner::App => "device owner's",
            Owner::Kernel => "kernel",
            Owner::OtherProcess => "other process",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// Stable key for the view (`region-<key>`).
    pub key: &'static str,
    pub name: &'static str,
    pub start: u64,
    /// One past the last byte.
    pub end: u64,
    pub owner: Owner,
    /// What an unchecked DMA write here would do.
    pub harm: &'static str,
}

impl Region {
    pub fn contains(&self, pa: u64) -> bool {
        (self.start..self.end).contains(&pa)
    }
}

/// The memory map, lowest address first; it covers 0..SPACE without gaps.
pub const REGIONS: &[Region] = &[
    Region {
        key: "ktext",
        name: "kernel text",
        start: 0x0000,
        end: 0x3000,
        owner: Owner::Kernel,
        harm: "kernel code is overwritten: the next call into it runs the device's bytes",
    },
    Region {
        key: "cred",
        name: "credentials (cred)",
        start: 0x3000,
        end: 0x4000,
        owner: Owner::Kernel,
        harm: "a process's uid can be set to 0: privilege escalation",
    },
    Region {
        key: "rx",
        name: "RX ring buffer",
        start: 0x4000,
        end: 0x5000,
        owner: Owner::App,
        harm: "",
    },
    Region {
        key: "spare",
        name: "spare DMA memory",
        start: 0x5000,
        end: 0x8000,
        owner: Owner::App,
        harm: "",
    },
    Region {
        key: "tx",
        name: "TX ring buffer",
        start: 0x8000,
        end: 0x9000,
        owner: Owner::App,
        harm: "",
    },
    Region {
        key: "other",
        name: "another process's memory",
        start: 0x9000,
        end: 0xc000,
        owner: Owner::OtherProcess,
        harm: "another program's data is changed under it (or, on a read, leaked)",
    },
    Region {
        key: "heap",
        name: "kernel heap (slab)",
        start: 0xc000,
        end: 0xf000,
        owner: Owner::Kernel,
        harm: "kernel objects are corrupted: a crash, or a pointer the device chose",
    },
    Region {
        key: "ptables",
        name: "page tables",
        start: 0xf000,
        end: 0x1_0000,
        owner: Owner::Kernel,
        harm: "page-table entries are rewritten: any memory can be remapped",
    },
];

/// The region holding physical address `pa`, if host memory reaches it.
pub fn region_at(pa: u64) -> Option<(usize, &'static Region)> {
    REGIONS.iter().enumerate().find(|(_, r)| r.contains(pa))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_tile_the_space_in_whole_pages() {
        let mut next = 0;
        for r in REGIONS {
            assert_eq!(r.start, next, "{}", r.name);
            assert_eq!(r.start % PAGE, 0);
            assert_eq!(r.end % PAGE, 0);
            assert!(r.end > r.start);
            assert_eq!(r.owner == Owner::App, r.harm.is_empty(), "{}", r.name);
            next = r.end;
        }
        assert_eq!(next, SPACE);
        assert!(region_at(SPACE).is_none());
        assert_eq!(region_at(0x4abc).map(|(_, r)| r.key), Some("rx"));
    }
}
