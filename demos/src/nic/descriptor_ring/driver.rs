//! The driver's side: post, barrier, doorbell, reap — plus the wire's arrivals
//! and the two break-it switches.

use super::*;
use crate::text::plural;

impl DescriptorRing {
    pub(super) fn post(&mut self) -> Outcome {
        if self.free_to_post() == 0 {
            return Err(Refusal::new(format!(
                "The ring is full: {} of {RING_SIZE} descriptors are in use and the last free one must stay empty, or TAIL would catch up with the reap pointer and a full ring would look empty. Reap completions first.",
                RING_SIZE - 1
            )));
        }
        let slot = self.tail;
        let seq = self.counters.posted;
        let addr = Self::buffer_of(self.next_buffer);
        self.next_buffer += 1;
        let rs = self.wants_rs(seq);
        // The stores ixgbe makes, in program order. RX: the buffer address
        // (rewritten every round, since write-back erased it), then the
        // cleared status word. TX: address, cmd_type_len (length, EOP, RS),
        // then olinfo_status.
        let (intended, frame, stores) = match self.config.direction {
            Direction::Rx => (
                Descriptor {
                    addr,
                    ..Descriptor::default()
                },
                None,
                vec![(Field::Addr, addr), (Field::Status, 0)],
            ),
            Direction::Tx => {
                let frame = self.new_frame();
                let cmd = u64::from(frame.len) | u64::from(rs) << 16;
                (
                    Descriptor {
                        addr,
                        len: frame.len,
                        rs,
                        dd: false,
                    },
                    Some(frame),
                    vec![
                        (Field::Addr, addr),
                        (Field::CmdLen, cmd),
                        (Field::Status, 1),
                    ],
                )
            }
        };
        for (field, value) in stores {
            self.store_buffer.push(PendingStore { slot, field, value });
        }
        self.slots[slot] = Slot {
            state: SlotState::Posted,
            intended,
            frame,
            post_seq: seq,
        };
        self.counters.posted += 1;
        self.tail = Self::next(slot);
        let content = match frame {
            Some(f) => format!(
                "frame #{} ({} B){}",
                f.id,
                f.len,
                if rs { ", RS set" } else { ", no RS" }
            ),
            None => format!(
                "an empty buffer (its {BUFFER_BYTES} B size is the queue's, not the descriptor's)"
            ),
        };
        Ok(vec![Event::info(format!(
            "Driver wrote descriptor {slot}: {content} at {}; TAIL moves to {}. The NIC cannot see it until the doorbell.",
            hex(addr),
            self.tail
        ))
        .at(format!("desc-{slot}"))
        .at("store-buffer")])
    }

    /// Makes every pending store visible in host memory, oldest first.
    fn drain(&mut self) -> usize {
        let stores = std::mem::take(&mut self.store_buffer);
        for store in &stores {
            apply_store(&mut self.memory[store.slot], store);
        }
        stores.len()
    }

    pub(super) fn barrier(&mut self) -> Vec<Event> {
        self.counters.barriers += 1;
        let n = self.drain();
        if n == 0 {
            return vec![Event::info(
                "wmb(): no stores were pending, so this barrier ordered nothing — a few wasted cycles.",
            )
            .at("store-buffer")];
        }
        vec![Event::done(format!(
            "wmb(): the {n} pending store{} are now visible in host memory, ahead of any later write, the doorbell included.",
            plural(n)
        ))
        .at("store-buffer")]
    }

    pub(super) fn ring_doorbell(&mut self) -> Outcome {
        if self.tail == self.doorbell {
            return Err(Refusal::new(format!(
                "Nothing new to publish: the NIC already holds TAIL = {}. Post a descriptor first.",
                self.tail
            )));
        }
        let first = self.doorbell;
        self.doorbell = self.tail;
        self.counters.doorbells += 1;
        let published = format!(
            "descriptors {first} to {} are now the NIC's",
            (self.doorbell + RING_SIZE - 1) % RING_SIZE
        );
        let pending = self.store_buffer.len();
        if !self.relaxed_doorbell {
            // memory-barriers.txt, KERNEL I/O BARRIER EFFECTS: writeX() waits
            // for all prior writes to memory before the MMIO write.
            self.drain();
            let ordered = if pending > 0 {
                format!(
                    "writel() first made the {pending} pending store{} visible, then wrote",
                    plural(pending)
                )
            } else {
                "writel() wrote".into()
            };
            return Ok(vec![Event::info(format!(
                "Doorbell: {ordered} TAIL = {} to the NIC; {published}. The write is posted: the core moves on without waiting.",
                self.doorbell
            ))
            .at("doorbell")
            .at("store-buffer")]);
        }
        if pending == 0 {
            return Ok(vec![Event::info(format!(
                "Doorbell: writel_relaxed() of TAIL = {}; {published}. No store was in flight, so nothing could be overtaken.",
                self.doorbell
            ))
            .at("doorbell")]);
        }
        Ok(vec![Event::warn(format!(
            "Doorbell: writel_relaxed() of TAIL = {} with {pending} descriptor store{} still in flight. Nothing orders them before it: {published}, finished or not.",
            self.doorbell,
            plural(pending)
        ))
        .at("doorbell")
        .at("store-buffer")])
    }

    pub(super) fn reap(&mut self) -> Outcome {
        if let Some(outcome) = self.reap_during_write_back() {
            return outcome;
        }
        let mut reaped = Vec::new();
        let mut events = Vec::new();
        while let Some(upto) = self.next_reapable() {
            loop {
                let slot = self.next_to_clean;
                self.last_reaped_seq = Some(self.slots[slot].post_seq);
                if self.config.direction == Direction::Rx {
                    let seen = self.driver_view(slot);
                    match self.slots[slot].frame {
                        Some(frame) => self.delivered.push(Frame {
                            id: frame.id,
                            len: seen.len,
                        }),
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
                if slot == upto {
                    break;
                }
            }
        }
        if reaped.is_empty() {
            return Err(self.nothing_to_reap());
        }
        let what = match self.config.direction {
            Direction::Rx => "dma_rmb(), then their lengths; the frames go up the stack",
            Direction::Tx => "their sent buffers are freed",
        };
        let mut event = Event::done(format!(
            "Driver reaped descriptor{} {} in order, by reading DD in host memory; {what}. FREE again.",
            plural(reaped.len()),
            list(&reaped)
        ));
        for slot in &reaped {
            event = event.at(format!("desc-{slot}"));
        }
        events.insert(0, event);
        Ok(events)
    }

    /// The last slot the next reap may take, if any: RX needs DD on the slot
    /// itself; TX frees everything up to the next descriptor with RS whose DD
    /// is set (without RS the NIC writes no DD back).
    fn next_reapable(&self) -> Option<usize> {
        let mut slot = self.next_to_clean;
        while self.slots[slot].state == SlotState::Done {
            let d = self.driver_view(slot);
            if d.dd {
                return Some(slot);
            }
            if self.config.direction == Direction::Rx || self.slots[slot].intended.rs {
                return None;
            }
            slot = Self::next(slot);
        }
        None
    }

    fn nothing_to_reap(&self) -> Refusal {
        let slot = self.next_to_clean;
        if self.slots[slot].state == SlotState::Done {
            return Refusal::new(format!(
                "Descriptor {slot} is sent but carried no RS bit, so the NIC wrote no DD for it. Its buffer can be freed only once a later descriptor with RS reports done."
            ));
        }
        Refusal::new(format!(
            "Nothing to reap: descriptor {slot} has no DD bit in host memory yet. (The driver looks in memory; it never reads a NIC register to find out.)"
        ))
    }

    /// RX without `dma_rmb()`, reaping the very descriptor the NIC is writing
    /// back: the CPU may load the length before DD. Seeded: usually the loads
    /// happen in order and nothing is reaped; sometimes the length load runs
    /// first, sees the cleared 0, the write-back lands, and DD reads as set.
    fn reap_during_write_back(&mut self) -> Option<Outcome> {
        let NicPhase::Moved { slot, .. } = self.nic else {
            return None;
        };
        if !self.skip_rmb || slot != self.next_to_clean || self.driver_view(slot).dd {
            return None;
        }
        self.counters.read_races += 1;
        if !self.race_lost() {
            return Some(Ok(vec![Event::info(format!(
                "No dma_rmb(): the driver read descriptor {slot} while the NIC was writing it back. This time the loads ran in order: DD still 0, nothing reaped ({} race{} so far, {} torn).",
                self.counters.read_races,
                plural(self.counters.read_races as usize),
                self.counters.torn_reads
            ))
            .at(format!("desc-{slot}"))]));
        }
        let stale = self.driver_view(slot).len;
        let mut events = match self.nic_write_back() {
            Ok(events) => events,
            Err(refusal) => return Some(Err(refusal)),
        };
        self.counters.torn_reads += 1;
        let real = self.memory[slot].len;
        let summary = format!(
            "Torn read of descriptor {slot}: the length load ran before the DD load and saw {stale} B; the write-back landed in between, so DD read 1. The stack gets a {stale}-byte frame instead of {real} B."
        );
        self.damage.push(Damage {
            slot,
            read_side: true,
            summary: summary.clone(),
        });
        self.memory[slot].len = stale;
        let outcome = self.reap();
        self.memory[slot].len = real;
        events.insert(0, Event::fault(summary).at(format!("desc-{slot}")));
        match outcome {
            Ok(more) => events.extend(more),
            Err(refusal) => return Some(Err(refusal)),
        }
        Some(Ok(events))
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

    pub(super) fn set_relaxed(&mut self, on: bool) -> Outcome {
        if self.relaxed_doorbell == on {
            return Err(Refusal::new(if on {
                "The doorbell already uses writel_relaxed()."
            } else {
                "The doorbell already uses writel()."
            }));
        }
        self.relaxed_doorbell = on;
        if on {
            self.relaxed_ever = true;
            Ok(vec![Event::warn(
                "Break it: the doorbell is now writel_relaxed() on a weakly ordered CPU, with no barrier. Unless you press wmb() first, the MMIO write can reach the NIC before the descriptor stores.",
            )
            .at("doorbell")])
        } else {
            Ok(vec![Event::info(
                "The doorbell is writel() again: it waits for every earlier store to memory before the MMIO write.",
            )
            .at("doorbell")])
        }
    }

    pub(super) fn set_skip_rmb(&mut self, on: bool) -> Outcome {
        if self.config.direction == Direction::Tx {
            return Err(Refusal::new(
                "The read-side barrier guards the RX length the NIC writes back; a TX write-back carries only DD. Switch to RX.",
            ));
        }
        if self.skip_rmb == on {
            return Err(Refusal::new(if on {
                "dma_rmb() is already left out."
            } else {
                "The reap loop already has its dma_rmb()."
            }));
        }
        self.skip_rmb = on;
        if on {
            self.skip_rmb_ever = true;
            Ok(vec![Event::warn(
                "Break it: the reap loop no longer has dma_rmb() between the DD test and the length load, so the CPU may load the length first. Try reaping while the NIC is writing back.",
            )])
        } else {
            Ok(vec![Event::info(
                "dma_rmb() is back: no field is read before DD says the write-back is complete.",
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
