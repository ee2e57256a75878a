//! What the learner reads: figures, "why it matters", the invariants.

use super::*;
use crate::text::{ns, plural};

impl DmaMap {
    pub(super) fn figures(&self) -> Vec<Figure> {
        let c = &self.counters;
        vec![
            Figure::new(
                "mode",
                "invalidation",
                if self.strict { "strict" } else { "lazy" },
            ),
            Figure::new("frames", "frames received", c.frames),
            Figure::new("maps", "maps", c.maps),
            Figure::new("unmaps", "unmaps", c.unmaps),
            Figure::new("recycled", "pages recycled", c.recycled),
            Figure::new("hits", "IOTLB hits", c.hits),
            Figure::new("misses", "IOTLB misses", c.misses),
            Figure::new("walk", "time walking tables", ns(c.walk_ns as i64)),
            Figure::new("invalidations", "IOTLB invalidations", c.invalidations),
            Figure::new(
                "inval-ns",
                "CPU waiting on them",
                ns(c.invalidation_ns as i64),
            ),
            Figure::new("queued", "flush queue", self.flush_queue.len()),
            Figure::new("stale", "stale IOTLB entries", self.stale_entries()),
            Figure::new("corrupted", "stray writes landed", c.corrupted),
            Figure::new("faults", "blocked (faults)", c.faults),
        ]
    }

    pub(super) fn sentences(&self) -> Vec<String> {
        let c = &self.counters;
        let mut out = Vec::new();
        if c.frames > 0 {
            let lesson = if self.recycle {
                "the ring mapping and every recycled page keep their translations, so after each page's first use the IOTLB hits. Recycling keeps the IOTLB useful."
            } else {
                "the ring mapping, made once, stays cached, while each buffer mapping is new and misses. Per-buffer mapping defeats the IOTLB; RX paths that recycle mapped pages keep it warm."
            };
            out.push(format!(
                "{} frame{} took {} IOTLB miss{} and {} hit{}, {} of page walks in all: {lesson}",
                c.frames,
                plural(c.frames as usize),
                c.misses,
                if c.misses == 1 { "" } else { "es" },
                c.hits,
                plural(c.hits as usize),
                ns(c.walk_ns as i64)
            ));
        }
        if c.recycled > 0 {
            out.push(self.recycling_sentence());
        }
        if c.unmaps > 0 {
            out.push(if self.strict {
                format!(
                    "Strict: each of the {} unmaps waited for its own IOTLB invalidation, {} of CPU so far, and no stale translation ever survives an unmap.",
                    c.unmaps,
                    ns(c.invalidation_ns as i64)
                )
            } else {
                format!(
                    "Lazy: {} unmaps cost {} invalidation{} so far, batched at 256 queued or every 10 ms. Until then {} stale entr{} in the IOTLB still translate{} an unmapped IOVA to a page the kernel has already given away.",
                    c.unmaps,
                    c.invalidations,
                    plural(c.invalidations as usize),
                    self.stale_entries(),
                    if self.stale_entries() == 1 { "y" } else { "ies" },
                    if self.stale_entries() == 1 { "s" } else { "" }
                )
            });
        }
        if c.corrupted > 0 {
            out.push(format!(
                "{} stray write{} reached memory after the driver had unmapped the buffer: the IOMMU protects only what is invalidated, which is why Linux uses strict mode for untrusted devices.",
                c.corrupted,
                plural(c.corrupted as usize)
            ));
        } else if c.faults > 0 {
            out.push(format!(
                "{} stray write{} hit a cleared entry with nothing cached and {} blocked.",
                c.faults,
                plural(c.faults as usize),
                if c.faults == 1 { "was" } else { "were" }
            ));
        }
        out
    }

    /// What recycling saved, against mapping per frame: every recycled page
    /// would have been one more map and one more unmap, and each unmap one
    /// more invalidation (strict) or one more IOVA left stale until a flush
    /// (lazy).
    fn recycling_sentence(&self) -> String {
        let c = &self.counters;
        let saved = match self.strict {
            true => format!(
                "and {} IOTLB invalidation{}, {} of CPU",
                c.recycled,
                plural(c.recycled as usize),
                ns(i64::from(c.recycled) * INVALIDATE_NS as i64)
            ),
            false => format!(
                "and {} IOVA{} left translatable in the IOTLB until a flush",
                c.recycled,
                plural(c.recycled as usize)
            ),
        };
        format!(
            "{} frame{} needed only {} map{} and {} unmap{}: mapping per frame would have cost {} more of each, {saved}. Map and unmap happen only when a page is first used or finally released, which is what makes strict invalidation affordable.",
            c.frames,
            plural(c.frames as usize),
            c.maps,
            plural(c.maps as usize),
            c.unmaps,
            plural(c.unmaps as usize),
            c.recycled
        )
    }

    pub(super) fn check_invariants(&self) -> Result<(), String> {
        let c = &self.counters;
        // Every slot's mapping is in the page table, and nothing else but the ring.
        let mapped: Vec<(u64, u64)> = self
            .slots
            .iter()
            .filter_map(|s| match *s {
                SlotState::Mapped { iova, pa } | SlotState::Written { iova, pa, .. } => {
                    Some((iova, pa))
                }
                SlotState::Free => None,
            })
            .collect();
        if self.page_table.len() != mapped.len() + 1 || self.pte(RING_IOVA) != Some(RING_PA) {
            return Err("the page table holds more or less than the ring and the slots".into());
        }
        if mapped.iter().any(|&(i, p)| self.pte(i) != Some(p)) {
            return Err("a mapped buffer has no page-table entry".into());
        }
        if self.iotlb.len() > IOTLB_ENTRIES {
            return Err("the IOTLB holds more than it can".into());
        }
        for e in &self.iotlb {
            match (e.live, self.pte(e.iova)) {
                (true, Some(pa)) if pa == e.pa => {}
                (false, _) if !self.strict => {}
                _ => {
                    return Err(format!(
                        "IOTLB entry {:#x} disagrees with the table",
                        e.iova
                    ))
                }
            }
        }
        if self.strict && !self.flush_queue.is_empty() {
            return Err("strict mode queued an invalidation".into());
        }
        if self
            .flush_queue
            .iter()
            .any(|(i, _)| self.free_iovas.contains(i) || self.pte(*i).is_some())
        {
            return Err("an IOVA was reused before its flush".into());
        }
        if self.flush_queue.len() >= FQ_SIZE {
            return Err("the flush queue overflowed".into());
        }
        if c.corrupted + c.faults != c.stale_dmas {
            return Err("a stray write neither landed nor faulted".into());
        }
        if c.unmaps + c.recycled > c.frames || c.frames > c.maps + c.recycled || c.unmaps > c.maps {
            return Err("unmaps + recycled ≤ frames ≤ maps + recycled".into());
        }
        if !self.recycle && c.recycled > 0 {
            return Err("a page was recycled by a driver that maps per frame".into());
        }
        if self.strict && self.stale_entries() > 0 {
            return Err("a stale IOTLB entry survived a strict unmap".into());
        }
        Ok(())
    }
}
