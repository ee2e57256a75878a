//! The NIC's side: fetch the descriptor at HEAD, DMA, write status back.
//! The NIC only ever touches descriptors in [HEAD, doorbell TAIL).

use super::*;
use crate::text::plural;

impl DescriptorRing {
    /// Why the NIC cannot start on a descriptor now, if it cannot.
    pub(super) fn fetch_blocker(&self) -> Option<Refusal> {
        if self.nic != NicPhase::Idle {
            return Some(Refusal::new("The NIC is still working on a descriptor."));
        }
        if self.head == self.doorbell {
            let n = self.unpublished();
            let hint = if n > 0 {
                format!(
                    "{n} posted descriptor{} wait{} for the doorbell",
                    plural(n),
                    if n == 1 { "s" } else { "" }
                )
            } else {
                "post a buffer, then ring the doorbell".to_string()
            };
            return Some(Refusal::new(format!(
                "The NIC is idle: HEAD = {} equals the TAIL it was last told, so nothing is published ({hint}).",
                self.head
            )));
        }
        if self.config.direction == Direction::Rx && self.rx_fifo.is_empty() {
            return Some(Refusal::new(
                "The NIC has buffers but no frame to put in them: make a frame arrive from the wire.",
            ));
        }
        None
    }

    /// The fields the NIC acts on: RX only the address (the buffer size is
    /// the queue's), TX the address and the length.
    fn same_use(&self, a: Descriptor, b: Descriptor) -> bool {
        a.addr == b.addr && (self.config.direction == Direction::Rx || a.len == b.len)
    }

    pub(super) fn nic_fetch(&mut self) -> Outcome {
        if let Some(refusal) = self.fetch_blocker() {
            return Err(refusal);
        }
        let slot = self.head;
        let late: Vec<PendingStore> = self
            .store_buffer
            .iter()
            .filter(|s| s.slot == slot)
            .copied()
            .collect();
        self.counters.fetched += 1;
        let direction = self.config.direction;
        let what = move |d: Descriptor| match direction {
            Direction::Rx => format!("buffer {}", hex(d.addr)),
            Direction::Tx => format!("buffer {}, {} B", hex(d.addr), d.len),
        };
        if late.is_empty() {
            let seen = self.memory[slot];
            self.nic = NicPhase::Fetched { slot, seen };
            return Ok(vec![Event::info(format!(
                "NIC read descriptor {slot} from host memory over PCIe: {}.",
                what(seen)
            ))
            .at(format!("desc-{slot}"))
            .at("nic")]);
        }
        // A relaxed doorbell left this descriptor's stores in flight. Usually
        // they land before the NIC's read arrives; 1 time in RACE_ODDS the
        // read wins, and only some of them (a seeded count) are in memory.
        self.counters.racy_fetches += 1;
        let landed = if self.race_lost() {
            self.counters.torn_fetches += 1;
            self.rng.range(0, late.len() as u64 - 1) as usize
        } else {
            late.len()
        };
        for store in &late[..landed] {
            apply_store(&mut self.memory[slot], store);
        }
        let seen = self.memory[slot];
        for store in &late[landed..] {
            apply_store(&mut self.memory[slot], store);
        }
        self.store_buffer.retain(|s| s.slot != slot);
        self.nic = NicPhase::Fetched { slot, seen };
        let meant = self.slots[slot].intended;
        let tally = format!(
            "{} of {} racy fetch{} torn so far",
            self.counters.torn_fetches,
            self.counters.racy_fetches,
            if self.counters.racy_fetches == 1 {
                ""
            } else {
                "es"
            }
        );
        let event = if landed == late.len() {
            Event::info(format!(
                "NIC read descriptor {slot}: the stores the relaxed doorbell overtook had landed just in time ({tally}). Luck, not ordering."
            ))
        } else if self.same_use(seen, meant) {
            Event::warn(format!(
                "NIC read descriptor {slot} before all of the CPU's stores landed; the fields it uses happened to be right already ({tally})."
            ))
        } else {
            Event::fault(format!(
                "NIC read descriptor {slot} before the CPU's stores landed: it saw {}, the driver wrote {} ({tally}).",
                what(seen),
                what(meant)
            ))
        };
        Ok(vec![event
            .at(format!("desc-{slot}"))
            .at("nic")
            .at("store-buffer")])
    }

    pub(super) fn nic_dma(&mut self) -> Outcome {
        let NicPhase::Fetched { slot, seen } = self.nic else {
            return Err(Refusal::new(
                "The NIC has not fetched a descriptor, so it has nowhere to DMA.",
            ));
        };
        let meant = self.slots[slot].intended;
        let intact = self.same_use(seen, meant);
        let (bytes, event) = match self.config.direction {
            Direction::Rx => {
                let Some(frame) = self.rx_fifo.pop_front() else {
                    return Err(Refusal::new("No frame is waiting on the NIC."));
                };
                let bytes = frame.len.min(BUFFER_BYTES);
                if intact {
                    self.slots[slot].frame = Some(frame);
                    let text = format!(
                        "NIC DMA'd frame #{} ({} B) from the wire into buffer {}.",
                        frame.id,
                        frame.len,
                        hex(seen.addr)
                    );
                    (bytes, Event::info(text))
                } else {
                    (bytes, self.torn_dma(slot, seen, frame.len, bytes))
                }
            }
            Direction::Tx => {
                if intact {
                    let frame = self.slots[slot].frame.unwrap_or(Frame {
                        id: 0,
                        len: seen.len,
                    });
                    self.delivered.push(frame);
                    let text = format!(
                        "NIC DMA'd {} B from buffer {} and sent frame #{} onto the wire.",
                        seen.len,
                        hex(seen.addr),
                        frame.id
                    );
                    (seen.len, Event::info(text))
                } else {
                    (seen.len, self.torn_dma(slot, seen, meant.len, seen.len))
                }
            }
        };
        self.nic = NicPhase::Moved { slot, seen, bytes };
        Ok(vec![event.at(format!("desc-{slot}")).at("wire")])
    }

    pub(super) fn nic_write_back(&mut self) -> Outcome {
        let NicPhase::Moved { slot, seen, bytes } = self.nic else {
            return Err(Refusal::new("The NIC has no finished transfer to report."));
        };
        self.slots[slot].state = SlotState::Done;
        self.head = Self::next(slot);
        self.nic = NicPhase::Idle;
        self.counters.completed += 1;
        let d = &mut self.memory[slot];
        let text = match self.config.direction {
            Direction::Rx => {
                // The write-back format overwrites the whole descriptor: the
                // address bytes now hold the RSS hash and packet type.
                d.addr = 0x3c00_0000 | ((u64::from(self.next_frame_id) * 0x9e37) & 0xffff);
                d.dd = true;
                d.len = bytes;
                format!(
                    "NIC wrote descriptor {slot} back: DD set, PKT_LEN = {bytes} B, and the RSS hash where the buffer address was. HEAD moves to {}.",
                    self.head
                )
            }
            Direction::Tx if seen.rs => {
                d.dd = true;
                format!(
                    "NIC sent descriptor {slot}, which had RS set, so it wrote DD back. HEAD moves to {}.",
                    self.head
                )
            }
            Direction::Tx => format!(
                "NIC sent descriptor {slot}. It had no RS bit, so the NIC wrote nothing back; HEAD moves to {}.",
                self.head
            ),
        };
        Ok(vec![Event::done(text)
            .at(format!("desc-{slot}"))
            .at("head")])
    }

    /// Narrates and records a DMA that used fields other than the driver's.
    fn torn_dma(&mut self, slot: usize, seen: Descriptor, frame_len: u16, bytes: u16) -> Event {
        let meant = self.slots[slot].intended;
        let summary = if self.config.direction == Direction::Tx && seen.len != meant.len {
            if seen.len == 0 {
                format!("Corrupted send on descriptor {slot}: DTALEN still read 0, a malformed descriptor; frame #{} ({} B) is lost.", self.slots[slot].frame.map_or(0, |f| f.id), meant.len)
            } else {
                format!(
                    "Corrupted send on descriptor {slot}: the NIC sent {} B (a stale length) from {} instead of {} B.",
                    seen.len,
                    hex(seen.addr),
                    meant.len
                )
            }
        } else {
            let place = if seen.addr == 0 {
                format!("{}, no buffer at all", hex(0))
            } else if self.config.direction == Direction::Rx {
                format!(
                    "{}, the RSS hash the last write-back left there",
                    hex(seen.addr)
                )
            } else {
                format!("{}, an old buffer the driver already freed", hex(seen.addr))
            };
            let verb = match self.config.direction {
                Direction::Rx => "wrote",
                Direction::Tx => "read",
            };
            format!(
                "Corrupted DMA on descriptor {slot}: the NIC {verb} {bytes} of {frame_len} B at {place}."
            )
        };
        self.damage.push(Damage {
            slot,
            read_side: false,
            summary: summary.clone(),
        });
        Event::fault(summary)
    }
}
