//! One DMA: translate and check (or, in passthrough, don't), then touch memory.

use super::*;
use crate::text::plural;

impl Iommu {
    pub(super) fn dma(&mut self, access: Access, iova: u64) -> Vec<Event> {
        // One TLP never crosses a 4 KiB boundary (PCIe Base Spec §2.2.7), so
        // a single translation covers the whole request.
        let bytes = DMA_BYTES.min(PAGE - (iova & (PAGE - 1)));
        let verdict = if self.translating {
            self.translate(access, iova)
        } else if iova < SPACE {
            Verdict::Unchecked { pa: iova }
        } else {
            Verdict::NoMemory
        };
        self.counters.dmas += 1;
        let record = DmaRecord {
            seq: self.counters.dmas,
            access,
            iova,
            bytes,
            verdict,
        };
        self.last = Some(record);
        let verb = match access {
            Access::Read => "read",
            Access::Write => "write",
        };
        match verdict {
            Verdict::Allowed { pa } => {
                self.counters.allowed += 1;
                let region = self.touch(access, pa, bytes);
                vec![Event::done(format!(
                    "{}: IOVA {} is page {} + offset {:#05x}; the entry maps it to {}, so PA = {}. Allowed: {bytes} bytes {verb} in the {}.",
                    access.label(),
                    hex(iova),
                    hex(iova & !(PAGE - 1)),
                    iova & (PAGE - 1),
                    hex(pa & !(PAGE - 1)),
                    hex(pa),
                    region.map_or("memory", |r| r.name)
                ))
                .at(format!("pte-{:x}", iova & !(PAGE - 1)))
                .at(region.map_or("none".to_string(), |r| format!("region-{}", r.key)))]
            }
            Verdict::Blocked(reason) => {
                self.counters.blocked += 1;
                self.faults.push(record);
                if self.faults.len() > FAULT_LOG {
                    self.faults.remove(0);
                }
                let why = match reason {
                    FaultReason::BeyondWidth => format!(
                        "{} is wider than the IOMMU's {MGAW_BITS}-bit address width, so no table walk is even tried.",
                        hex(iova)
                    ),
                    _ => match self.mapping(iova) {
                        Some(m) => format!(
                            "the entry for page {} allows only {}, not a {verb}.",
                            hex(m.iova),
                            m.perms()
                        ),
                        None => format!(
                            "page {} has no entry in this device's table.",
                            hex(iova & !(PAGE - 1))
                        ),
                    },
                };
                let answer = match access {
                    Access::Write => {
                        "A write is posted, so no answer goes back: the IOMMU drops it"
                    }
                    Access::Read => "The read gets a completion with Unsupported Request status",
                };
                vec![
                    Event::fault(record.dmar_line().unwrap_or_default()).at("fault-log"),
                    Event::fault(format!(
                        "Blocked: {why} {answer}, nothing reaches memory, and the fault record above keeps only the page address."
                    ))
                    .at("fault-log")
                    .at("iommu"),
                ]
            }
            Verdict::Unchecked { pa } => {
                self.counters.unchecked += 1;
                let region = self.touch(access, pa, bytes);
                match region {
                    Some(r) if r.owner != Owner::App => {
                        let what = match access {
                            Access::Write => format!("overwrote {bytes} byte{} of", plural(bytes as usize)),
                            Access::Read => format!("read {bytes} byte{} out of", plural(bytes as usize)),
                        };
                        let harm = match access {
                            Access::Write => r.harm,
                            Access::Read => "whatever it held is now in the device's hands, a leak",
                        };
                        vec![Event::fault(format!(
                            "Passthrough: nothing translated {}, so the device {what} {} at PA {}. Harm: {harm}.",
                            hex(iova),
                            r.name,
                            hex(pa),
                        ))
                        .at(format!("region-{}", r.key))]
                    }
                    _ => vec![Event::warn(format!(
                        "Passthrough: {} went straight to PA {} in the {} ({bytes} bytes {verb}). Harmless this time, but only because the address happened to be right: nothing checked it.",
                        hex(iova),
                        hex(pa),
                        region.map_or("memory", |r| r.name)
                    ))
                    .at(region.map_or("none".to_string(), |r| format!("region-{}", r.key)))],
                }
            }
            Verdict::NoMemory => {
                self.counters.lost += 1;
                let what = match access {
                    Access::Write => "The write is posted, so there is no completion to carry an error: the root complex drops it and may report an Unsupported Request through AER",
                    Access::Read => "The read comes back as a completion with Unsupported Request status",
                };
                vec![Event::warn(format!(
                    "Passthrough: no memory answers at {}. {what}.",
                    hex(iova)
                ))]
            }
        }
    }

    /// The IOMMU's decision for a DMA while translating.
    fn translate(&self, access: Access, iova: u64) -> Verdict {
        let missing = match access {
            Access::Read => FaultReason::NoRead,
            Access::Write => FaultReason::NoWrite,
        };
        // VT-d: beyond the address width the walk is not tried (reason 4);
        // anything narrower with no entry reads as R = W = 0 (reason 5 or 6).
        if iova >> MGAW_BITS != 0 {
            return Verdict::Blocked(FaultReason::BeyondWidth);
        }
        match self.mapping(iova) {
            Some(m) if m.allows(access) => Verdict::Allowed {
                pa: m.pa + (iova & (PAGE - 1)),
            },
            _ => Verdict::Blocked(missing),
        }
    }

    /// Counts the bytes against the region holding `pa`.
    fn touch(&mut self, access: Access, pa: u64, bytes: u64) -> Option<&'static Region> {
        let (index, region) = region_at(pa)?;
        let t = &mut self.touched[index];
        match access {
            Access::Read => t.read += bytes,
            Access::Write => t.written += bytes,
        }
        self.counters.bytes_moved += bytes;
        Some(region)
    }
}
