//! Break it: flipped bits, a middlebox that hides them from the FCS, and
//! the receiver that has to catch them.

use super::{Encapsulation, Flip, Stage, Verdict};
use crate::model::{Event, Outcome, Refusal};
use crate::net::wire::ethernet::{self, FCS_LEN};
use crate::net::wire::ipv4::HEADER_LEN as IP_LEN;
use crate::net::wire::layout::{describe, field_at, Field, Shape};
use crate::net::wire::receive::{self, Check, Host};
use crate::net::wire::tcp::HEADER_LEN as TCP_LEN;
use crate::text::plural;

impl Encapsulation {
    /// How frame `k` is laid out, from the datagram IP built: only the first
    /// fragment (offset 0) carries the TCP header.
    pub fn frame_shape(&self, k: usize) -> Shape {
        let p = &self.packets[k];
        let first = u16::from_be_bytes([p[6], p[7]]) & 0x1fff == 0;
        let data = p.len() - IP_LEN - if first { TCP_LEN } else { 0 };
        Shape {
            ethernet: true,
            ipv4: true,
            tcp: first,
            data,
            pad: ethernet::pad_len(p.len()),
            fcs: true,
        }
    }

    /// The field of frame `k` that holds bit `bit`, values as on the wire.
    pub fn field_of_bit(&self, k: usize, bit: usize) -> Option<Field> {
        let fields = describe(&self.wire[k], self.frame_shape(k));
        field_at(&fields, bit).cloned()
    }

    pub(super) fn flip(&mut self, frame: usize, bit: usize) -> Outcome {
        if self.stage != Stage::Wire {
            return Err(Refusal::new(
                "Bits can be flipped only while the frame is on the wire: step until it leaves the NIC.",
            ));
        }
        let Some(bytes) = self.wire.get(frame) else {
            return Err(Refusal::new(format!(
                "There {} {} frame{} on the wire; frame {} does not exist.",
                if self.wire.len() == 1 { "is" } else { "are" },
                self.wire.len(),
                plural(self.wire.len()),
                frame + 1
            )));
        };
        if bit >= bytes.len() * 8 {
            return Err(Refusal::new(format!(
                "Frame {} has {} bits, numbered 0 to {}; bit {bit} is beyond its end.",
                frame + 1,
                bytes.len() * 8,
                bytes.len() * 8 - 1
            )));
        }
        let before = self.field_of_bit(frame, bit);
        self.wire[frame][bit / 8] ^= 0x80 >> (bit % 8);
        let after = self.field_of_bit(frame, bit);
        let flip = Flip { frame, bit };
        let undone = if let Some(i) = self.flips.iter().position(|f| *f == flip) {
            self.flips.remove(i);
            true
        } else {
            self.flips.push(flip);
            false
        };
        let (name, key, was, now) = match (before, after) {
            (Some(b), Some(a)) => (b.name, b.key, b.value, a.value),
            _ => ("frame", "wire", String::new(), String::new()),
        };
        let text = if undone {
            format!("Bit {bit} flipped back: {name} is {now} again.")
        } else if was == now {
            format!(
                "Bit {bit} (byte {}) of frame {} flipped, inside {name}.",
                bit / 8,
                frame + 1
            )
        } else {
            format!(
                "Bit {bit} (byte {}) of frame {} flipped: {name} reads {now} instead of {was}.",
                bit / 8,
                frame + 1
            )
        };
        Ok(vec![Event::fault(text).at("wire").at(key)])
    }

    pub(super) fn set_middlebox(&mut self, on: bool) -> Outcome {
        if on == self.middlebox {
            return Err(Refusal::new(if on {
                "The FCS-recomputing middlebox is already on the path."
            } else {
                "There is no middlebox on the path to remove."
            }));
        }
        if matches!(self.stage, Stage::Received | Stage::Done) {
            return Err(Refusal::new(
                "This frame has already arrived: change the path before the next one leaves the NIC.",
            ));
        }
        self.middlebox = on;
        let text = if on {
            "A store-and-forward middlebox joins the path. It checks each frame's FCS on the way in and computes a new one on the way out, so a bit that flips inside it, in its memory, leaves with a valid FCS."
        } else {
            "The middlebox leaves the path: frames reach the receiving NIC with the FCS their sender computed."
        };
        Ok(vec![Event::info(text).at("middlebox")])
    }

    /// The frames arrive: the middlebox (if any) rewrites their FCS, then the
    /// receiver checks each frame, reassembles, and checks the segment.
    pub(super) fn receive(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        let damaged = self.damaged();
        if self.middlebox {
            for f in &mut self.wire {
                let n = f.len() - FCS_LEN;
                let fcs = ethernet::fcs(&f[..n]);
                f[n..].copy_from_slice(&fcs.to_le_bytes());
            }
            if damaged {
                events.push(
                    Event::warn(
                        "The damage happened inside the middlebox, after its own FCS check; it computed a fresh FCS over the damaged bytes, so the frame looks intact to the receiving NIC.",
                    )
                    .at("middlebox")
                    .at("eth-fcs"),
                );
            }
        }
        self.stage = Stage::Received;
        let verdict = self.check_arrival();
        self.verdict = Some(verdict);
        self.record(Some(verdict));
        events.push(self.narrate(verdict, damaged));
        events
    }

    /// True when some frame's bytes (FCS aside) differ from what was sent.
    pub fn damaged(&self) -> bool {
        self.wire
            .iter()
            .zip(&self.frames)
            .any(|(w, f)| w[..w.len() - FCS_LEN] != f[..f.len() - FCS_LEN])
    }

    fn host(&self) -> Host {
        Host {
            mac: self.config.dst_mac,
            ip: self.config.dst_ip,
            port: self.config.dst_port,
        }
    }

    /// The receiving host's checks on every frame, then on the segment.
    pub fn check_arrival(&self) -> Verdict {
        let host = self.host();
        let mut pieces = Vec::new();
        for (k, wire) in self.wire.iter().enumerate() {
            let packet = match receive::link(wire, &host) {
                Ok(p) => p,
                Err(check) => return Verdict::Caught { frame: k, check },
            };
            match receive::ip(packet, &host) {
                Ok(d) => pieces.push((d.offset, d.more, d.src, d.dst, d.data.to_vec())),
                Err(check) => return Verdict::Caught { frame: k, check },
            }
        }
        // Reassembly (RFC 791 §2.3): pieces in offset order, no gap, the
        // last one without MF.
        pieces.sort_by_key(|p| p.0);
        let mut segment = Vec::new();
        let complete = pieces.last().is_some_and(|p| !p.1)
            && pieces.iter().all(|(offset, _, _, _, data)| {
                let fits = *offset == segment.len();
                segment.extend_from_slice(data);
                fits
            });
        if !complete {
            return Verdict::Caught {
                frame: 0,
                check: Check::Reassembly,
            };
        }
        let (src, dst) = (pieces[0].2, pieces[0].3);
        match receive::tcp(src, dst, &segment, &host) {
            Ok(()) => Verdict::Delivered {
                damaged: self.damaged(),
            },
            Err(check) => Verdict::Caught { frame: 0, check },
        }
    }

    fn narrate(&mut self, verdict: Verdict, damaged: bool) -> Event {
        let seg = self.segment.expect("an arrival has a segment");
        match verdict {
            Verdict::Caught { frame, check } => {
                match check {
                    Check::Fcs => self.counters.caught_fcs += 1,
                    Check::IpChecksum => self.counters.caught_ip += 1,
                    Check::TcpChecksum => self.counters.caught_tcp += 1,
                    _ => self.counters.caught_other += 1,
                }
                let which = if self.wire.len() > 1 {
                    format!("Frame {} is", frame + 1)
                } else {
                    "The frame is".to_string()
                };
                let mut text = format!(
                    "{which} thrown away by {}; segment {} is lost.",
                    check.describe(),
                    seg.number
                );
                if self.middlebox && check != Check::Fcs && damaged {
                    text.push_str(" Had the bit flipped on a plain link instead, the FCS check at the next NIC would have caught it.");
                }
                Event::fault(text).at(check.key())
            }
            Verdict::Delivered { damaged: false } => {
                self.delivered = seg.offset + seg.len;
                Event::done(format!(
                    "FCS, IPv4 header checksum and TCP checksum all check out: {} byte{} reach the socket at {}:{}.",
                    seg.len,
                    plural(seg.len),
                    crate::net::wire::ipv4::addr_text(&self.config.dst_ip),
                    self.config.dst_port
                ))
                .at("rx-tcp")
                .at("layer-app")
            }
            Verdict::Delivered { damaged: true } => {
                self.delivered = seg.offset + seg.len;
                self.counters.undetected += 1;
                let mut fields: Vec<Field> = Vec::new();
                for f in &self.flips {
                    if let Some(field) = self.field_of_bit(f.frame, f.bit) {
                        // The middlebox rewrote the FCS, flipped bits and all.
                        if field.key != "eth-fcs" && !fields.iter().any(|x| x.key == field.key) {
                            fields.push(field);
                        }
                    }
                }
                let harmless = fields
                    .iter()
                    .all(|f| f.key == "eth-src" || f.key == "eth-pad");
                let names: Vec<&str> = fields.iter().map(|f| f.name).collect();
                let names = names.join(", ");
                // CRC-32 has Hamming distance 4 up to 91,607 bits: it detects
                // every error of three bits or fewer in any Ethernet frame
                // (Koopman, "32-Bit Cyclic Redundancy Codes for Internet
                // Applications", DSN 2002).
                let text = if !self.middlebox {
                    format!("Every check passed, yet the frame was damaged in {names}: these flips happen to leave the CRC-32 and both checksums unchanged.")
                } else if harmless {
                    format!("Every check passed, yet the frame was damaged in {names}: with the FCS recomputed, nothing checks those bytes. IP trims the pad by its total length and TCP never reads the source MAC, so nothing is harmed.")
                } else {
                    format!("Every check passed, yet the frame was damaged in {names}: the flips cancel out in the ones' complement sum, so damaged bytes reach the application. The FCS's CRC-32 would have caught any three or fewer flipped bits.")
                };
                Event::warn(text).at("layer-app")
            }
        }
    }
}
