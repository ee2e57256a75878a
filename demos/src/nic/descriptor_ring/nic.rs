//! The NIC's side: fetch the descriptor at HEAD, DMA, write DD back.
//! The NIC only ever touches descriptors in [HEAD, doorbell TAIL).

use super::*;

impl DescriptorRing {
    /// Why the NIC cannot start on a descriptor now, if it cannot.
    pub(super) fn fetch_blocker(&self) -> Option<Refusal> {
        if self.nic != NicPhase::Idle {
            return Some(Refusal::new("The NIC is still working on a descriptor."));
        }
        if self.head == self.doorbell {
            let hint = if self.unpublished() > 0 {
                format!(
                    "{} posted descriptor{} wait{} for the doorbell",
                    self.unpublished(),
                    if self.unpublished() == 1 { "" } else { "s" },
                    if self.unpublished() == 1 { "s" } else { "" }
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
        if late.is_empty() {
            let seen = self.memory[slot];
            self.nic = NicPhase::Fetched { slot, seen };
            return Ok(vec![Event::info(format!(
                "NIC read descriptor {slot} from host memory over PCIe: buffer {}, {} B, OWN set.",
                hex(seen.addr),
                seen.len
            ))
            .at(format!("desc-{slot}"))
            .at("nic")]);
        }
        // The doorbell overtook this descriptor's stores. Some of them (a seeded
        // choice, never all) reach memory before the NIC's read; the rest land after.
        let landed = self.rng.range(0, late.len() as u64 - 1) as usize;
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
        let first = if uses_same_fields(seen, meant) {
            Event::warn(format!(
                "NIC read descriptor {slot} before all of the CPU's writes arrived. Address and length happened to be right already — luck, not correctness."
            ))
        } else {
            Event::fault(format!(
                "NIC read descriptor {slot} before the CPU's writes arrived: it saw {} / {} B, but the driver wrote {} / {} B.",
                hex(seen.addr),
                seen.len,
                hex(meant.addr),
                meant.len
            ))
        };
        Ok(vec![
            first.at(format!("desc-{slot}")).at("nic"),
            Event::warn(format!(
                "The {} late store{} now land in memory — too late: the NIC acts on the copy it read.",
                late.len() - landed,
                if late.len() - landed == 1 { "" } else { "s" }
            ))
            .at("store-buffer"),
        ])
    }

    pub(super) fn nic_dma(&mut self) -> Outcome {
        let NicPhase::Fetched { slot, seen } = self.nic else {
            return Err(Refusal::new(
                "The NIC has not fetched a descriptor, so it has nowhere to DMA.",
            ));
        };
        let meant = self.slots[slot].intended;
        let intact = uses_same_fields(seen, meant);
        let (bytes, mut events) = match self.config.direction {
            Direction::Rx => {
                let Some(frame) = self.rx_fifo.pop_front() else {
                    return Err(Refusal::new("No frame is waiting on the NIC."));
                };
                let bytes = frame.len.min(seen.len);
                if intact {
                    self.slots[slot].frame = Some(frame);
                    (
                        bytes,
                        vec![Event::info(format!(
                            "NIC DMA'd frame #{} ({} B) from the wire into buffer {}.",
                            frame.id,
                            frame.len,
                            hex(seen.addr)
                        ))],
                    )
                } else {
                    let summary = self.damage_summary(slot, seen, frame.len, bytes);
                    self.record_damage(slot, meant, seen, &summary);
                    (bytes, vec![Event::fault(summary)])
                }
            }
            Direction::Tx => {
                if intact {
                    let frame = self.slots[slot].frame.unwrap_or(Frame {
                        id: 0,
                        len: seen.len,
                    });
                    self.delivered.push(frame);
                    (
                        seen.len,
                        vec![Event::info(format!(
                            "NIC DMA'd {} B from buffer {} and sent frame #{} onto the wire.",
                            seen.len,
                            hex(seen.addr),
                            frame.id
                        ))],
                    )
                } else {
                    let summary = self.damage_summary(slot, seen, meant.len, seen.len);
                    self.record_damage(slot, meant, seen, &summary);
                    (seen.len, vec![Event::fault(summary)])
                }
            }
        };
        for event in &mut events {
            event.focus.push(format!("desc-{slot}"));
            event.focus.push("wire".into());
        }
        self.nic = NicPhase::Moved { slot, seen, bytes };
        Ok(events)
    }

    pub(super) fn nic_write_back(&mut self) -> Outcome {
        let NicPhase::Moved { slot, bytes, .. } = self.nic else {
            return Err(Refusal::new("The NIC has no finished transfer to report."));
        };
        let d = &mut self.memory[slot];
        d.dd = true;
        d.own = false;
        d.len = bytes;
        self.slots[slot].state = SlotState::Done;
        self.head = Self::next(slot);
        self.nic = NicPhase::Idle;
        self.counters.completed += 1;
        Ok(vec![Event::done(format!(
            "NIC wrote DD and the length ({bytes} B) into descriptor {slot} in host memory and advanced HEAD to {}.",
            self.head
        ))
        .at(format!("desc-{slot}"))
        .at("head")])
    }

    fn damage_summary(&self, slot: usize, seen: Descriptor, frame_len: u16, bytes: u16) -> String {
        let meant = self.slots[slot].intended;
        let verb = match self.config.direction {
            Direction::Rx => "wrote",
            Direction::Tx => "read",
        };
        if seen.len == 0 {
            return format!(
                "Corrupted DMA on descriptor {slot}: the length field still read 0, so the NIC {verb} 0 of {frame_len} bytes — the frame is lost."
            );
        }
        let place = if seen.addr == meant.addr {
            format!(
                "the right buffer {} but with the stale length {} B instead of {} B",
                hex(seen.addr),
                seen.len,
                meant.len
            )
        } else if seen.addr == 0 {
            format!("address {} — no buffer at all: low host memory", hex(0))
        } else {
            format!(
                "{} — an old buffer the driver already reaped, which may belong to someone else now",
                hex(seen.addr)
            )
        };
        format!("Corrupted DMA on descriptor {slot}: the NIC {verb} {bytes} B at {place}.")
    }

    fn record_damage(&mut self, slot: usize, meant: Descriptor, used: Descriptor, summary: &str) {
        self.damage.push(Damage {
            slot,
            meant,
            used,
            summary: summary.to_string(),
        });
    }
}

/// The NIC's DMA uses only the address and length; the flags matter to the driver.
fn uses_same_fields(a: Descriptor, b: Descriptor) -> bool {
    a.addr == b.addr && a.len == b.len
}
