//! The ring's invariants, checked after every step by the property tests.

use super::*;

impl DescriptorRing {
    pub(super) fn check_invariants(&self) -> Result<(), String> {
        // Ownership is unambiguous and agrees with the indices (there is no
        // OWN bit): walking from the reap pointer we meet done slots up to
        // HEAD, posted slots up to TAIL, and FREE slots back round.
        let done_len = (self.head + RING_SIZE - self.next_to_clean) % RING_SIZE;
        let owned_len = (self.tail + RING_SIZE - self.head) % RING_SIZE;
        for (i, slot) in self.slots.iter().enumerate() {
            let offset = (i + RING_SIZE - self.next_to_clean) % RING_SIZE;
            let expected = if offset < done_len {
                SlotState::Done
            } else if offset < done_len + owned_len {
                SlotState::Posted
            } else {
                SlotState::Free
            };
            if slot.state != expected {
                return Err(format!(
                    "slot {i} is {:?} but the indices say {expected:?}",
                    slot.state
                ));
            }
        }
        let (free, posted, done) = (
            self.count(SlotState::Free),
            self.count(SlotState::Posted),
            self.count(SlotState::Done),
        );
        if free + posted + done != RING_SIZE {
            return Err("a buffer was lost: FREE + posted + done != ring size".into());
        }
        if free == 0 {
            return Err("no FREE slot: a full ring would look empty".into());
        }
        let window = (self.tail + RING_SIZE - self.head) % RING_SIZE;
        if (self.doorbell + RING_SIZE - self.head) % RING_SIZE > window {
            return Err("the doorbell TAIL lies outside [HEAD, TAIL]".into());
        }
        // The NIC touches only descriptors between HEAD and the published TAIL.
        match self.nic {
            NicPhase::Idle => {}
            NicPhase::Fetched { slot, .. } | NicPhase::Moved { slot, .. } => {
                if slot != self.head || !self.is_published(slot) {
                    return Err(format!("the NIC works on unpublished slot {slot}"));
                }
            }
        }
        if let Some(store) = self
            .store_buffer
            .iter()
            .find(|s| self.slots[s.slot].state != SlotState::Posted)
        {
            return Err(format!(
                "a pending store targets slot {}, which is not posted",
                store.slot
            ));
        }
        // Completions are reaped in order: the k-th reap is the k-th post.
        let expected_reaped = self.last_reaped_seq.map_or(0, |s| s + 1);
        if self.counters.reaped != expected_reaped {
            return Err("completions were reaped out of order".into());
        }
        let c = &self.counters;
        if !(c.reaped <= c.completed && c.completed <= c.fetched && c.fetched <= c.posted) {
            return Err("counters out of order: reaped ≤ completed ≤ fetched ≤ posted".into());
        }
        // With writel() and dma_rmb() always in place, nothing is ever torn.
        if self.damage.iter().any(|d| !d.read_side) && !self.relaxed_ever {
            return Err("a DMA used a half-written descriptor although writel() ordered it".into());
        }
        if self.damage.iter().any(|d| d.read_side) && !self.skip_rmb_ever {
            return Err("a field was read before DD although dma_rmb() was in place".into());
        }
        if c.torn_fetches > c.racy_fetches || c.torn_reads > c.read_races {
            return Err("more torn accesses than races".into());
        }
        if self.damage.len() > (c.torn_fetches + c.torn_reads) as usize {
            return Err("damage without a torn access".into());
        }
        // TX: DD is written back only for descriptors that asked for it (RS)
        // (unless a torn fetch made the NIC act on a stale RS bit).
        if let Some(i) = (0..RING_SIZE).find(|&i| {
            let d = self.memory[i];
            d.dd && self.config.direction == Direction::Tx && !d.rs && c.torn_fetches == 0
        }) {
            return Err(format!("descriptor {i} has DD without RS"));
        }
        if self.rx_fifo.len() > RX_FIFO_FRAMES {
            return Err("the NIC FIFO holds more frames than it can".into());
        }
        Ok(())
    }
}
