//! The driver's side: post, barrier, doorbell, reap — plus the wire's arrivals
//! and the break-it switch.

use super::*;

impl DescriptorRing {
    pub(super) fn post(&mut self) -> Outcome {
        if self.free_to_post() == 0 {
            return Err(Refusal::new(format!(
                "The ring is full: {} of {RING_SIZE} descriptors are in use and the last free one must stay empty, or TAIL would catch up with the reap pointer and a full ring would look empty. Reap completions first.",
                RING_SIZE - 1
            )));
        }
        let slot = self.tail;
        let addr = Self::buffer_of(self.next_buffer);
        self.next_buffer += 1;
        let (len, frame) = match self.config.direction {
            Direction::Rx => (BUFFER_BYTES, None),
            Direction::Tx => {
                let frame = self.new_frame();
                (frame.len, Some(frame))
            }
        };
        let intended = Descriptor {
            addr,
            len,
            own: true,
            dd: false,
        };
        // Three separate stores, in program order: address, length, then the
        // flags word that hands the descriptor over (OWN set, stale DD cleared).
        for (field, value) in [
            (Field::Addr, addr),
            (Field::Len, u64::from(len)),
            (Field::Flags, 1),
        ] {
            self.store_buffer.push(PendingStore { slot, field, value });
        }
        self.slots[slot] = Slot {
            state: SlotState::Owned,
            intended,
            frame,
            post_seq: self.counters.posted,
        };
        self.counters.posted += 1;
        self.tail = Self::next(slot);
        let content = match frame {
            Some(f) => format!("frame #{} ({} B)", f.id, f.len),
            None => format!("an empty {BUFFER_BYTES} B buffer"),
        };
        Ok(vec![
            Event::info(format!(
                "Driver wrote descriptor {slot}: {content} at {}, OWN set; TAIL moves to {}. The three stores are not yet guaranteed visible to the device.",
                hex(addr),
                self.tail
            ))
            .at(format!("desc-{slot}"))
            .at("store-buffer"),
        ])
    }

    pub(super) fn barrier(&mut self) -> Vec<Event> {
        self.counters.barriers += 1;
        if self.store_buffer.is_empty() {
            return vec![Event::info(
                "wmb(): no stores were pending, so this barrier ordered nothing — a few wasted cycles.",
            )
            .at("store-buffer")];
        }
        let stores = std::mem::take(&mut self.store_buffer);
        let mut slots: Vec<usize> = stores.iter().map(|s| s.slot).collect();
        slots.dedup();
        for store in &stores {
            apply_store(&mut self.memory[store.slot], store);
        }
        let mut event = Event::done(format!(
            "wmb(): {} stores for descriptor{} {} are now visible in host memory, before any later write — including the doorbell.",
            stores.len(),
            if slots.len() == 1 { "" } else { "s" },
            list(&slots)
        ))
        .at("store-buffer");
        for slot in slots {
            event = event.at(format!("desc-{slot}"));
        }
        vec![event]
    }

    pub(super) fn ring_doorbell(&mut self) -> Outcome {
        if self.tail == self.doorbell {
            return Err(Refusal::new(format!(
                "Nothing new to publish: the NIC already holds TAIL = {}. Post a descriptor first.",
                self.tail
            )));
        }
        let pending: Vec<usize> = {
            let mut s: Vec<usize> = self.store_buffer.iter().map(|p| p.slot).collect();
            s.dedup();
            s
        };
        if !pending.is_empty() && !self.skip_barrier {
            return Err(Refusal::new(format!(
                "The writes to descriptor{} {} may not be visible yet. Issue wmb() first: otherwise the doorbell can overtake them and the NIC reads a half-written descriptor.",
                if pending.len() == 1 { "" } else { "s" },
                list(&pending)
            )));
        }
        let first = self.doorbell;
        self.doorbell = self.tail;
        self.counters.doorbells += 1;
        let published = format!(
            "descriptors {first}..{} are now the NIC's",
            (self.doorbell + RING_SIZE - 1) % RING_SIZE
        );
        if pending.is_empty() {
            Ok(vec![Event::info(format!(
                "Doorbell: a posted MMIO write of TAIL = {} to the NIC; {published}. The core moved on without waiting.",
                self.doorbell
            ))
            .at("doorbell")])
        } else {
            Ok(vec![Event::warn(format!(
                "Doorbell rung with {} store{} still pending: the MMIO write of TAIL = {} can reach the NIC before them. {published}, half-written or not.",
                self.store_buffer.len(),
                if self.store_buffer.len() == 1 { "" } else { "s" },
                self.doorbell
            ))
            .at("doorbell")
            .at("store-buffer")])
        }
    }

    pub(super) fn reap(&mut self) -> Outcome {
        let mut reaped = Vec::new();
        let mut events = Vec::new();
        // Only slots the driver itself posted are candidates (ixgbe keeps
        // `next_to_watch` for this): a FREE slot may still carry the DD bit
        // of its previous round in memory.
        while self.slots[self.next_to_clean].state != SlotState::Free
            && self.driver_view(self.next_to_clean).dd
        {
            let slot = self.next_to_clean;
            let seq = self.slots[slot].post_seq;
            self.last_reaped_seq = Some(seq);
            if self.config.direction == Direction::Rx {
                match self.slots[slot].frame {
                    Some(frame) => self.delivered.push(frame),
                    None => events.push(
                        Event::fault(format!(
                            "Descriptor {slot} says done, but its buffer {} is empty: the frame was written somewhere else.",
                            hex(self.slots[slot].intended.addr)
                        ))
                        .at(format!("desc-{slot}")),
                    ),
                }
            }
            self.slots[slot].state = SlotState::Free;
            self.slots[slot].frame = None;
            self.counters.reaped += 1;
            reaped.push(slot);
            self.next_to_clean = Self::next(slot);
        }
        if reaped.is_empty() {
            return Err(Refusal::new(format!(
                "Nothing to reap: descriptor {} has no DD bit in host memory yet. (The driver looks in memory; it never reads a NIC register to find out.)",
                self.next_to_clean
            )));
        }
        let what = match self.config.direction {
            Direction::Rx => "their frames go up the stack",
            Direction::Tx => "their sent buffers are freed",
        };
        let mut event = Event::done(format!(
            "Driver reaped descriptor{} {} in order, by reading DD in host memory; {what}. Slots FREE again.",
            if reaped.len() == 1 { "" } else { "s" },
            list(&reaped)
        ));
        for slot in &reaped {
            event = event.at(format!("desc-{slot}"));
        }
        events.insert(0, event);
        Ok(events)
    }

    pub(super) fn frame_arrives(&mut self) -> Outcome {
        if self.config.direction == Direction::Tx {
            return Err(Refusal::new(
                "In TX the frames come from the host, not the wire. Switch to RX to receive.",
            ));
        }
        let frame = self.new_frame();
        self.counters.frames_from_wire += 1;
        if self.rx_fifo.len() >= RX_FIFO_FRAMES {
            self.counters.rx_missed += 1;
            return Ok(vec![Event::fault(format!(
                "Frame #{} ({} B) dropped: the NIC's {RX_FIFO_FRAMES}-frame FIFO is full because it has no published buffer to DMA into (rx_missed = {}).",
                frame.id, frame.len, self.counters.rx_missed
            ))
            .at("wire")]);
        }
        self.rx_fifo.push_back(frame);
        Ok(vec![Event::info(format!(
            "Frame #{} ({} B) arrived from the wire and waits in the NIC's on-chip FIFO.",
            frame.id, frame.len
        ))
        .at("wire")])
    }

    pub(super) fn set_skip_barrier(&mut self, on: bool) -> Outcome {
        if self.skip_barrier == on {
            return Err(Refusal::new(if on {
                "The barrier is already being skipped."
            } else {
                "The barrier is already required."
            }));
        }
        self.skip_barrier = on;
        if on {
            self.barrier_ever_skipped = true;
            Ok(vec![Event::warn(
                "Break it: the doorbell may now be rung without wmb(), as on a weakly ordered CPU with a buggy driver.",
            )])
        } else {
            Ok(vec![Event::info(
                "The doorbell again requires wmb() after the descriptor writes.",
            )])
        }
    }

    pub(super) fn new_frame(&mut self) -> Frame {
        let frame = Frame {
            id: self.next_frame_id,
            len: self.rng.range(MIN_FRAME, MAX_FRAME) as u16,
        };
        self.next_frame_id += 1;
        frame
    }
}

/// "3", "3 and 4", "3, 4 and 5".
pub(super) fn list(items: &[usize]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!(
            "{} and {last}",
            init.iter()
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}
