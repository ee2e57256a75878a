//! What the learner reads: the status line, "why it matters", the invariants.

use super::*;
use crate::text::plural;

impl Iommu {
    pub(super) fn figures(&self) -> Vec<Figure> {
        let c = &self.counters;
        vec![
            Figure::new(
                "mode",
                "IOMMU",
                if self.translating {
                    "TRANSLATING"
                } else {
                    "PASSTHROUGH"
                },
            ),
            Figure::new("entries", "page-table entries", self.mappings.len()),
            Figure::new("dmas", "DMAs", c.dmas),
            Figure::new("allowed", "allowed", c.allowed),
            Figure::new("blocked", "blocked (faults)", c.blocked),
            Figure::new("unchecked", "unchecked", c.unchecked),
            Figure::new("harmed", "regions harmed", self.harmed().count()),
        ]
    }

    pub(super) fn sentences(&self) -> Vec<String> {
        let c = &self.counters;
        let mut out = vec![format!(
            "Each device sees only its own IOVA space: {} page{} mapped here, out of {PAGES}. Every other address faults instead of reaching memory, so a buggy or hostile device cannot read or write the rest of the host.",
            self.mappings.len(),
            plural(self.mappings.len())
        )];
        if c.blocked > 0 {
            out.push(format!(
                "{} DMA{} blocked so far; each left a fault record naming the device and the address, which is how a driver bug shows up in the kernel log instead of as silent corruption.",
                c.blocked,
                if c.blocked == 1 { " was" } else { "s were" }
            ));
        }
        let harmed: Vec<&str> = self.harmed().map(|(r, _)| r.name).collect();
        if !harmed.is_empty() {
            out.push(format!(
                "In passthrough, unchecked DMA harmed: {}. The device needed no bug in the CPU's code to do it, which is why assigning a device to a VM or to userspace (VFIO) requires translation.",
                harmed.join(", ")
            ));
        } else if !self.translating {
            out.push(
                "Passthrough is faster (no translation), and safe only if the device and its driver never emit a wrong address.".into(),
            );
        }
        out
    }

    pub(super) fn check_invariants(&self) -> Result<(), String> {
        for pair in self.mappings.windows(2) {
            if pair[0].iova >= pair[1].iova {
                return Err("page table not sorted, or an IOVA mapped twice".into());
            }
        }
        for m in &self.mappings {
            if !m.iova.is_multiple_of(PAGE) || !m.pa.is_multiple_of(PAGE) || m.iova >= SPACE {
                return Err(format!(
                    "entry {} is unaligned or out of range",
                    hex(m.iova)
                ));
            }
            if Self::page_behind(m.vaddr) != Some(m.pa) || !m.vaddr.is_multiple_of(PAGE) {
                return Err(format!(
                    "entry {} does not map the page behind its vaddr",
                    hex(m.iova)
                ));
            }
            if region_at(m.pa).map(|(_, r)| r.owner) != Some(Owner::App) {
                return Err(format!(
                    "entry {} maps a page the owner does not own",
                    hex(m.iova)
                ));
            }
            if !m.read && !m.write {
                return Err(format!("entry {} has no permission", hex(m.iova)));
            }
        }
        let c = &self.counters;
        if self.traffic > TRAFFIC_MAX || self.traffic > c.dmas {
            return Err("more ordinary traffic than allowed, or than DMAs".into());
        }
        if c.dmas != c.allowed + c.blocked + c.unchecked + c.lost {
            return Err("a DMA was neither allowed, blocked, unchecked nor lost".into());
        }
        if self.faults.len() > FAULT_LOG || self.faults.len() > c.blocked as usize {
            return Err("more fault lines than blocked DMAs".into());
        }
        if self.last.map_or(0, |r| r.seq) != c.dmas {
            return Err("the last DMA record is not the latest DMA".into());
        }
        if self.touched.len() != REGIONS.len() {
            return Err("one touch record per region".into());
        }
        let total: u64 = self.touched.iter().map(|t| t.read + t.written).sum();
        if total != c.bytes_moved {
            return Err("bytes moved do not add up over the regions".into());
        }
        // Translation only ever reaches pages the owner mapped: harm needs passthrough.
        if c.unchecked == 0 && self.harmed().count() > 0 {
            return Err("memory outside the owner's pages was touched with translation on".into());
        }
        Ok(())
    }
}
