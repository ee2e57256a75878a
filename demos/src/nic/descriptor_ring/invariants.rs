//! The ring's invariants, checked after every step by the property tests.

use super::*;

impl DescriptorRing {
    pub(super) fn check_invariants(&self) -> Result<(), String> {
        // Ownership is unambiguous and agrees with the indices: walking from
        // the reap pointer we meet DD slots up to HEAD, OWN slots up to TAIL,
        // and FREE slots back round to the reap pointer.
        let done_len = (self.head + RING_SIZE - self.next_to_clean) % RING_SIZE;
        let owned_len = (self.tail + RING_SIZE - self.head) % RING_SIZE;
        for (i, slot) in self.slots.iter().enumerate() {
            let offset = (i + RING_SIZE - self.next_to_clean) % RING_SIZE;
            let expected = if offset < done_len {
                SlotState::Done
            } else if offset < done_len + owned_len {
                SlotState::Owned
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
        let (free, owned, done) = (
            self.count(SlotState::Free),
            self.count(SlotState::Owned),
            self.count(SlotState::Done),
        );
        if free + owned + done != RING_SIZE {
            return Err("a buffer was lost: FREE + OWN + DD != ring size".into());
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
            .find(|s| self.slots[s.slot].state != SlotState::Owned)
        {
            return Err(format!(
                "a pending store targets non-OWN slot {}",
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
        // With the barrier always in place, no DMA ever uses a half-written descriptor.
        if !self.damage.is_empty() && !self.barrier_ever_skipped {
            return Err(
                "a DMA used a half-written descriptor although the barrier was never skipped"
                    .into(),
            );
        }
        if self.rx_fifo.len() > RX_FIFO_FRAMES {
            return Err("the NIC FIFO holds more frames than it can".into());
        }
        Ok(())
    }
}
