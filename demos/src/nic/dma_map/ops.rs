//! The driver's and the device's moves, and the IOMMU's answers.

use super::*;
use crate::text::plural;

fn hex(a: u64) -> String {
    format!("{a:#x}")
}

impl DmaMap {
    pub(super) fn map(&mut self) -> Outcome {
        let slot = self.next_map;
        if self.slots[slot] != SlotState::Free {
            return Err(Refusal::new(
                "Every RX slot holds a mapped buffer: let the NIC fill one and unmap it first.",
            ));
        }
        let Some(pi) = (0..POOL.len())
            .map(|k| (self.next_page + k) % POOL.len())
            .find(|&i| !matches!(self.pages[i], PageUse::Buffer(_)))
        else {
            return Err(Refusal::new("No free page for a buffer."));
        };
        let pa = POOL[pi];
        let iova = match self.free_iovas.pop() {
            Some(iova) => iova,
            None => {
                let iova = self.next_iova;
                self.next_iova += PAGE;
                iova
            }
        };
        self.next_page = (pi + 1) % POOL.len();
        self.pages[pi] = PageUse::Buffer(slot);
        self.page_table.push((iova, pa));
        self.slots[slot] = SlotState::Mapped { iova, pa };
        self.next_map = (slot + 1) % SLOTS;
        self.counters.maps += 1;
        let call = if self.recycle {
            "page_pool maps a page on first use"
        } else {
            "dma_map_single()"
        };
        Ok(vec![Event::info(format!(
            "{call}: a fresh page at PA {} gets IOVA {}, and the IOMMU's page table gains that entry. The driver writes the IOVA into RX descriptor {slot}.",
            hex(pa),
            hex(iova)
        ))
        .at(format!("slot-{slot}"))
        .at("page-table")])
    }

    /// One device access through the IOMMU: IOTLB, else a page walk.
    fn translate(&mut self, iova: u64) -> Access {
        if let Some(i) = self.iotlb.iter().position(|e| e.iova == iova) {
            let entry = self.iotlb.remove(i);
            self.iotlb.push(entry);
            if entry.live {
                self.counters.hits += 1;
                return Access {
                    iova,
                    pa: Some(entry.pa),
                    fate: Fate::Hit,
                };
            }
            return Access {
                iova,
                pa: Some(entry.pa),
                fate: Fate::StaleHit,
            };
        }
        self.counters.walk_ns += WALK_NS;
        let Some(pa) = self.pte(iova) else {
            return Access {
                iova,
                pa: None,
                fate: Fate::Fault,
            };
        };
        self.counters.misses += 1;
        if self.iotlb.len() >= IOTLB_ENTRIES {
            self.iotlb.remove(0);
        }
        self.iotlb.push(TlbEntry {
            iova,
            pa,
            live: true,
        });
        Access {
            iova,
            pa: Some(pa),
            fate: Fate::Miss,
        }
    }

    pub(super) fn device_write(&mut self) -> Outcome {
        let slot = self.next_write;
        let SlotState::Mapped { iova, pa } = self.slots[slot] else {
            return Err(Refusal::new(
                "The next RX descriptor holds no mapped buffer, so the NIC has nowhere to write: map one first.",
            ));
        };
        self.next_write = (slot + 1) % SLOTS;
        let ring = self.translate(RING_IOVA);
        let data = self.translate(iova);
        self.last = Some(data);
        self.counters.frames += 1;
        let frame = self.counters.frames;
        self.slots[slot] = SlotState::Written { iova, pa, frame };
        let word = |a: Access| match a.fate {
            Fate::Hit => "an IOTLB hit".to_string(),
            _ => format!("an IOTLB miss and a {WALK_NS} ns page walk"),
        };
        Ok(vec![Event::info(format!(
            "The NIC reads descriptor {slot} through the long-lived ring mapping ({}), then writes frame {frame} to IOVA {} ({}), which lands at PA {}.",
            word(ring),
            hex(iova),
            word(data),
            hex(pa)
        ))
        .at(format!("slot-{slot}"))
        .at("iotlb")])
    }

    pub(super) fn unmap(&mut self) -> Outcome {
        let slot = self.next_unmap;
        let SlotState::Written { iova, pa, frame } = self.slots[slot] else {
            return Err(Refusal::new(
                "No buffer holds a received frame yet: nothing to unmap.",
            ));
        };
        self.next_unmap = (slot + 1) % SLOTS;
        self.page_table.retain(|(i, _)| *i != iova);
        self.slots[slot] = SlotState::Free;
        if let Some(pi) = Self::pool_index(pa) {
            self.pages[pi] = PageUse::Reused;
        }
        self.last_unmapped = Some((iova, pa));
        self.counters.unmaps += 1;
        let after = format!(
            "Frame {frame} goes up the stack; its page is freed and handed to another task."
        );
        let call = if self.recycle {
            format!(
                "The page leaves the pool for good, so page_pool unmaps it: dma_unmap_page({})",
                hex(iova)
            )
        } else {
            format!("dma_unmap_single({})", hex(iova))
        };
        if self.strict {
            self.iotlb.retain(|e| e.iova != iova);
            self.free_iovas.push(iova);
            self.counters.invalidations += 1;
            self.counters.invalidation_ns += INVALIDATE_NS;
            return Ok(vec![Event::info(format!(
                "{call}: the entry is cleared and, strict, the IOTLB is invalidated before the call returns: {} of CPU waiting. {after}",
                crate::text::ns(INVALIDATE_NS as i64)
            ))
            .at(format!("slot-{slot}"))
            .at("iotlb")]);
        }
        if let Some(e) = self.iotlb.iter_mut().find(|e| e.iova == iova) {
            e.live = false;
        }
        self.flush_queue.push((iova, pa));
        let mut events = vec![Event::warn(format!(
            "{call}: the entry is cleared but, lazy, the IOTLB is not invalidated: the IOVA joins the flush queue ({} waiting). {after} Until the flush, the IOTLB may still translate {} to it.",
            self.flush_queue.len(),
            hex(iova)
        ))
        .at(format!("slot-{slot}"))
        .at("flush-queue")];
        if self.flush_queue.len() >= FQ_SIZE {
            events.extend(self.flush("The flush queue is full"));
        }
        Ok(events)
    }

    /// Recycling: the frame goes up, and its page goes back into the slot
    /// the driver refills next with its mapping intact (ixgbe_reuse_rx_page()
    /// copies `dma` across; page_pool keeps it). Nothing is unmapped, so the
    /// IOMMU has nothing to invalidate.
    pub(super) fn recycle_page(&mut self) -> Outcome {
        if !self.recycle {
            return Err(Refusal::new(
                "This driver maps per frame: switch page recycling on to keep pages mapped.",
            ));
        }
        let slot = self.next_unmap;
        let SlotState::Written { iova, pa, frame } = self.slots[slot] else {
            return Err(Refusal::new(
                "No buffer holds a received frame yet: nothing to recycle.",
            ));
        };
        self.next_unmap = (slot + 1) % SLOTS;
        self.slots[slot] = SlotState::Free;
        // The cleaned slot is free now, so the next slot to refill is too:
        // the ring fills and cleans in order.
        let refill = self.next_map;
        self.slots[refill] = SlotState::Mapped { iova, pa };
        self.next_map = (refill + 1) % SLOTS;
        if let Some(pi) = Self::pool_index(pa) {
            self.pages[pi] = PageUse::Buffer(refill);
        }
        self.counters.recycled += 1;
        Ok(vec![Event::done(format!(
            "dma_sync_single_range_for_cpu(), then frame {frame} goes up the stack, and its page returns to RX descriptor {refill} still mapped: IOVA {} keeps its page-table entry and its IOTLB entry. No unmap, so no IOTLB invalidation.",
            hex(iova)
        ))
        .at(format!("slot-{refill}"))
        .at("iotlb")])
    }

    fn flush(&mut self, why: &str) -> Vec<Event> {
        let n = self.flush_queue.len();
        let stale = self.stale_entries();
        self.iotlb.retain(|e| e.live);
        for (iova, _) in std::mem::take(&mut self.flush_queue) {
            self.free_iovas.push(iova);
        }
        self.counters.invalidations += 1;
        self.counters.invalidation_ns += INVALIDATE_NS;
        vec![Event::done(format!(
            "{why}: one IOTLB invalidation covers all {n} queued IOVA{} ({stale} stale entr{} dropped), and they can be reused.",
            plural(n),
            if stale == 1 { "y" } else { "ies" }
        ))
        .at("flush-queue")
        .at("iotlb")]
    }

    pub(super) fn flush_timer(&mut self) -> Outcome {
        if self.strict {
            return Err(Refusal::new(
                "Strict mode has no flush queue: every unmap invalidated the IOTLB itself.",
            ));
        }
        if self.flush_queue.is_empty() {
            return Err(Refusal::new(
                "The flush queue is empty: nothing waits for an invalidation.",
            ));
        }
        Ok(self.flush("10 ms after the first queued unmap, the flush timer fires"))
    }

    pub(super) fn stale_dma(&mut self) -> Outcome {
        let Some((iova, old_pa)) = self.last_unmapped else {
            return Err(Refusal::new(
                "No buffer has been unmapped yet: run the driver until one has.",
            ));
        };
        self.counters.stale_dmas += 1;
        let access = self.translate(iova);
        self.last = Some(access);
        let head = format!(
            "Break it: the device writes again to IOVA {}, a buffer the driver already unmapped.",
            hex(iova)
        );
        Ok(match access.fate {
            Fate::Fault => {
                self.counters.faults += 1;
                self.fault_log.push(format!(
                    "DMAR: [DMA Write NO_PASID] Request device [03:00.0] fault addr {iova:#x} [fault reason 0x05] PTE Write access is not set"
                ));
                if self.fault_log.len() > 4 {
                    self.fault_log.remove(0);
                }
                vec![Event::done(format!(
                    "{head} No IOTLB entry is left and the page table has none: the IOMMU blocks the write and logs a fault."
                ))
                .at("fault-log")]
            }
            Fate::StaleHit => {
                self.counters.corrupted += 1;
                vec![Event::fault(format!(
                    "{head} The IOTLB still holds the old translation, so the write lands at PA {}, a page that now belongs to another task: silent corruption, the window lazy mode leaves open.",
                    hex(old_pa)
                ))
                .at("iotlb")
                .at(format!("page-{}", Self::pool_index(old_pa).unwrap_or(0)))]
            }
            Fate::Hit | Fate::Miss => {
                let pa = access.pa.unwrap_or(0);
                self.counters.corrupted += 1;
                vec![Event::fault(format!(
                    "{head} The IOVA has been reused for a new buffer, so the write lands at PA {} and overwrites another frame's buffer: unmapping cannot protect an IOVA that is already mapped again.",
                    hex(pa)
                ))
                .at("iotlb")]
            }
        })
    }
}
