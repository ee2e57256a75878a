//! The walk down the stack: socket buffer → TCP → IP → Ethernet → wire.

use super::{Encapsulation, Segment, Sent, Stage, HISTORY};
use crate::model::{Event, Outcome, Refusal};
use crate::net::wire::ethernet::{self, mac_text};
use crate::net::wire::ipv4::{Ipv4, HEADER_LEN as IP_LEN};
use crate::net::wire::tcp::{flag_names, TcpHeader, FIN, HEADER_LEN as TCP_LEN, PSH, SYN};
use crate::text::plural;

impl Encapsulation {
    pub(super) fn step(&mut self) -> Outcome {
        match self.stage {
            Stage::SocketBuffer => Ok(self.cut(0, None)),
            Stage::Tcp => Ok(self.wrap_in_ip()),
            Stage::Refused => Ok(self.lower_mss()),
            Stage::Ip => Ok(self.frame_it()),
            Stage::Ethernet => Ok(self.transmit()),
            Stage::Wire => Ok(self.receive()),
            Stage::Received => Ok(self.after_receive()),
            Stage::Done => Err(Refusal::new(
                "Every byte has been delivered: change the payload, MSS or flags and start again.",
            )),
        }
    }

    /// Flags of the segment carrying bytes `offset..offset + len`: SYN only
    /// on the first, FIN only on the last (it follows the last data byte,
    /// RFC 9293 §3.4), PSH only on the last, as a sender that cannot mark
    /// pushes per call must (RFC 9293 §3.9.1, MUST-61).
    fn flags_for(&self, offset: usize, len: usize) -> u8 {
        let mut flags = self.config.flags;
        if offset > 0 {
            flags &= !SYN;
        }
        if offset + len < self.payload.len() {
            flags &= !(FIN | PSH);
        }
        flags
    }

    /// The sequence number of a segment starting at payload byte `offset`:
    /// a SYN occupies the first number, so data starts one later (RFC 9293
    /// §3.4); all arithmetic is modulo 2³².
    fn seq_for(&self, offset: usize) -> u32 {
        if offset == 0 {
            return self.config.seq;
        }
        let syn = u32::from(self.config.flags & SYN != 0);
        self.config
            .seq
            .wrapping_add(syn)
            .wrapping_add(offset as u32)
    }

    fn ip(&self) -> Ipv4 {
        Ipv4 {
            src: self.config.src_ip,
            dst: self.config.dst_ip,
            id: self.next_id,
            ttl: self.config.ttl,
            df: self.config.df,
        }
    }

    /// TCP cuts at most one MSS from `offset` and prefixes its header: a new
    /// segment, or `again` the one it is sending once more.
    pub(super) fn cut(&mut self, offset: usize, again: Option<Segment>) -> Vec<Event> {
        let len = self.mss.min(self.payload.len() - offset);
        let (number, attempt) = match again {
            Some(old) => (old.number, old.attempt + 1),
            None => {
                self.counters.segments += 1;
                (self.counters.segments as usize, 0)
            }
        };
        let seg = Segment {
            number,
            offset,
            len,
            seq: self.seq_for(offset),
            flags: self.flags_for(offset, len),
            attempt,
        };
        let header = TcpHeader {
            src_port: self.config.src_port,
            dst_port: self.config.dst_port,
            seq: seg.seq,
            ack: self.config.ack,
            flags: seg.flags,
            window: self.config.window,
        };
        let c = &self.config;
        self.tcp = header.segment(c.src_ip, c.dst_ip, &self.payload[offset..offset + len]);
        self.segment = Some(seg);
        self.packets.clear();
        self.frames.clear();
        self.wire.clear();
        self.flips.clear();
        self.verdict = None;
        self.stage = Stage::Tcp;
        let what = if len == 0 {
            "no data".to_string()
        } else {
            format!(
                "bytes {}–{} of {}",
                offset + 1,
                offset + len,
                self.payload.len()
            )
        };
        let again_text = if attempt > 0 { " again" } else { "" };
        vec![
            Event::info(format!(
                "TCP takes {what}{again_text} and prefixes a 20-byte header: SEQ {}, ACK {}, flags {}, window {}.",
                seg.seq,
                self.config.ack,
                flag_names(seg.flags),
                self.config.window
            ))
            .at("layer-tcp")
            .at("tcp-seq")
            .at("tcp-flags"),
            Event::info(format!(
                "The TCP checksum 0x{:04x} covers a pseudo-header (both IP addresses, protocol 6, length {}), the header and the data: {} byte{} in all.",
                u16::from_be_bytes([self.tcp[16], self.tcp[17]]),
                self.tcp.len(),
                self.tcp.len(),
                plural(self.tcp.len())
            ))
            .at("tcp-checksum"),
        ]
    }

    fn wrap_in_ip(&mut self) -> Vec<Event> {
        let ip = self.ip();
        self.next_id = self.next_id.wrapping_add(1);
        self.counters.datagrams += 1;
        let total = IP_LEN + self.tcp.len();
        let mtu = usize::from(self.config.mtu);
        if total > mtu && ip.df {
            self.packets = vec![ip.packet(&self.tcp)];
            self.stage = Stage::Refused;
            self.counters.df_drops += 1;
            self.record(None);
            return vec![Event::fault(format!(
                "The datagram would be {total} bytes, over the {mtu}-byte MTU, and DF is set: IP may not fragment it, so it is dropped (RFC 791 §2.3). ICMP \"fragmentation needed\" (type 3, code 4) reports the MTU of {mtu}; a router on the path sends the same message back to the sender (RFC 1191 §4).",
            ))
            .at("layer-ip")
            .at("ip-flags")];
        }
        self.packets = ip.fragments(&self.tcp, mtu);
        self.stage = Stage::Ip;
        let k = self.packets.len();
        if k > 1 {
            let per = self.packets[0].len() - IP_LEN;
            return vec![Event::warn(format!(
                "The datagram would be {total} bytes, over the {mtu}-byte MTU, and DF is clear: IP cuts it into {k} fragments of at most {per} data bytes (a multiple of 8), each with its own header, identification {}, offsets in 8-byte units and MF set on all but the last (RFC 791 §2.3).",
                ip.id
            ))
            .at("layer-ip")
            .at("ip-frag-offset")
            .at("ip-flags")];
        }
        let p = &self.packets[0];
        vec![Event::info(format!(
            "IP prefixes 20 bytes: version 4, header length 5 words, total length {total}, identification {}, DF {}, TTL {}, protocol 6. Its checksum 0x{:04x} covers these 20 bytes only.",
            ip.id,
            if ip.df { "set" } else { "clear" },
            ip.ttl,
            u16::from_be_bytes([p[10], p[11]])
        ))
        .at("layer-ip")
        .at("ip-checksum")]
    }

    /// ICMP told TCP the MTU: it lowers its MSS and cuts the bytes again
    /// (RFC 1191 §6.4: TCP must not send datagrams larger than the PMTU).
    fn lower_mss(&mut self) -> Vec<Event> {
        let old = self.mss;
        self.mss = usize::from(self.config.mtu) - IP_LEN - TCP_LEN;
        let seg = self.segment.expect("a refused datagram has a segment");
        self.counters.retransmissions += 1;
        let mut events = vec![Event::warn(format!(
            "TCP hears of the {}-byte MTU and lowers its MSS from {old} to {} (MTU − 40), then resends at once.",
            self.config.mtu, self.mss
        ))
        .at("layer-tcp")];
        events.extend(self.cut(seg.offset, Some(seg)));
        events
    }

    fn frame_it(&mut self) -> Vec<Event> {
        let c = &self.config;
        self.frames = self
            .packets
            .iter()
            .map(|p| ethernet::with_fcs(&ethernet::frame(c.dst_mac, c.src_mac, p)))
            .collect();
        self.wire = self.frames.clone();
        self.stage = Stage::Ethernet;
        let first = &self.frames[0];
        let fcs = u32::from_le_bytes([
            first[first.len() - 4],
            first[first.len() - 3],
            first[first.len() - 2],
            first[first.len() - 1],
        ]);
        let pad = ethernet::pad_len(self.packets[0].len());
        let pad_text = if pad > 0 {
            format!("pads {pad} zero bytes up to the 60-byte minimum and ")
        } else {
            String::new()
        };
        let mut text = format!(
            "The driver prefixes 14 bytes: destination {}, source {}, EtherType 0x0800 (IPv4). The NIC {pad_text}appends the FCS 0x{fcs:08x}, a CRC-32 over all {} bytes before it.",
            mac_text(&c.dst_mac),
            mac_text(&c.src_mac),
            first.len() - 4
        );
        if self.frames.len() > 1 {
            text.push_str(&format!(
                " Each of the {} fragments travels in its own frame with its own FCS.",
                self.frames.len()
            ));
        }
        vec![Event::info(text)
            .at("layer-eth")
            .at("eth-dst")
            .at("eth-fcs")]
    }

    fn transmit(&mut self) -> Vec<Event> {
        self.stage = Stage::Wire;
        let bytes: usize = self.wire.iter().map(Vec::len).sum();
        self.counters.frames += self.wire.len() as u32;
        self.counters.wire_bytes += bytes as u64;
        vec![Event::info(format!(
            "{bytes} bytes, {} bits, leave the NIC; each byte goes least significant bit first, and the FCS least significant byte first. Flip a bit now to damage it in flight.",
            bytes * 8
        ))
        .at("wire")]
    }

    /// After the receiver's verdict: the next segment, a retransmission, or done.
    fn after_receive(&mut self) -> Vec<Event> {
        let seg = self.segment.expect("a received frame has a segment");
        match self.verdict {
            Some(super::Verdict::Delivered { .. }) => {
                let next = seg.offset + seg.len;
                if next >= self.payload.len() {
                    self.stage = Stage::Done;
                    let sent = self.history.len();
                    return vec![Event::done(format!(
                        "All {} byte{} of the payload reached the receiving socket, in {sent} transmission{}.",
                        self.payload.len(),
                        plural(self.payload.len()),
                        plural(sent)
                    ))
                    .at("layer-app")];
                }
                self.cut(next, None)
            }
            _ => {
                self.counters.retransmissions += 1;
                let mut events = vec![Event::warn(format!(
                    "The receiver never acknowledges segment {}: when the sender's retransmission timer expires, TCP sends the same bytes again with the same SEQ {} (RFC 6298, rule 5.4), in a datagram with a new identification.",
                    seg.number, seg.seq
                ))
                .at("layer-tcp")];
                events.extend(self.cut(seg.offset, Some(seg)));
                events
            }
        }
    }

    pub(super) fn record(&mut self, verdict: Option<super::Verdict>) {
        if let Some(segment) = self.segment {
            self.history.push(Sent {
                segment,
                frames: self.packets.len(),
                verdict,
            });
            if self.history.len() > HISTORY {
                self.history.remove(0);
            }
        }
    }
}
