//! What the learner reads: the intro, the status figures, "why it
//! matters", the buffers a hex dump shows, and the model's invariants.

use super::{Encapsulation, Stage, Verdict, HISTORY};
use crate::model::{Event, Figure};
use crate::net::wire::checksum::{add, verifies};
use crate::net::wire::crc32::{crc32, RESIDUE};
use crate::net::wire::ethernet::{FCS_LEN, HEADER_LEN as ETH_LEN, MIN_FRAME};
use crate::net::wire::ipv4::{addr_text, HEADER_LEN as IP_LEN};
use crate::net::wire::layout::{describe, Field, Shape};
use crate::net::wire::tcp::{checksum_ok, HEADER_LEN as TCP_LEN};
use crate::text::{plural, share_tenths, tenths};

impl Encapsulation {
    pub(super) fn intro_event(&self) -> Event {
        let n = self.payload.len();
        Event::info(format!(
            "send() has copied {n} byte{} into the socket buffer of {}:{}, bound for {}:{}. Step to watch each layer add its header.",
            plural(n),
            addr_text(&self.config.src_ip),
            self.config.src_port,
            addr_text(&self.config.dst_ip),
            self.config.dst_port
        ))
        .at("layer-app")
    }

    /// The buffers the hex dump shows at this stage: the payload, the
    /// segment, the datagram(s), or the frame(s) (FCS included; on the wire
    /// and after, with the learner's flips).
    pub fn buffers(&self) -> Vec<&[u8]> {
        match self.stage {
            Stage::SocketBuffer | Stage::Done => vec![&self.payload[..]],
            Stage::Tcp => vec![&self.tcp[..]],
            Stage::Ip | Stage::Refused => self.packets.iter().map(Vec::as_slice).collect(),
            Stage::Ethernet => self.frames.iter().map(Vec::as_slice).collect(),
            Stage::Wire | Stage::Received => self.wire.iter().map(Vec::as_slice).collect(),
        }
    }

    /// The labelled fields of `buffers()[k]`.
    pub fn fields(&self, k: usize) -> Vec<Field> {
        let seg_data = self.segment.map_or(0, |s| s.len);
        let shape = match self.stage {
            Stage::SocketBuffer | Stage::Done => Shape {
                ethernet: false,
                ipv4: false,
                tcp: false,
                data: self.payload.len(),
                pad: 0,
                fcs: false,
            },
            Stage::Tcp => Shape {
                ethernet: false,
                ipv4: false,
                tcp: true,
                data: seg_data,
                pad: 0,
                fcs: false,
            },
            Stage::Ip | Stage::Refused => Shape {
                ethernet: false,
                pad: 0,
                fcs: false,
                ..self.frame_shape(k)
            },
            Stage::Ethernet | Stage::Wire | Stage::Received => self.frame_shape(k),
        };
        self.buffers()
            .get(k)
            .map_or_else(Vec::new, |b| describe(b, shape))
    }

    /// Figures with stable keys; a value not computed yet shows as "—".
    pub(super) fn figures(&self) -> Vec<Figure> {
        let shown: usize = self.buffers().iter().map(|b| b.len()).sum();
        let verdict = match self.verdict {
            None => "—".to_string(),
            Some(Verdict::Delivered { damaged: false }) => "delivered".into(),
            Some(Verdict::Delivered { damaged: true }) => "delivered damaged".into(),
            Some(Verdict::Caught { check, .. }) => format!("caught by {}", check.label()),
        };
        let dash = || "—".to_string();
        let ip = self
            .packets
            .first()
            .map_or_else(dash, |p| format!("0x{:02x}{:02x}", p[10], p[11]));
        let tcp = if self.tcp.len() >= TCP_LEN {
            format!("0x{:02x}{:02x}", self.tcp[16], self.tcp[17])
        } else {
            dash()
        };
        let fcs = self.wire.first().map_or_else(dash, |f| {
            let n = f.len();
            let fcs = u32::from_le_bytes([f[n - 4], f[n - 3], f[n - 2], f[n - 1]]);
            format!("0x{fcs:08x}")
        });
        vec![
            Figure::new("stage", "stage", self.stage.label()),
            Figure::new(
                "segment",
                "segment",
                self.segment.map_or_else(dash, |s| s.number.to_string()),
            ),
            Figure::new(
                "delivered",
                "bytes delivered",
                format!("{}/{}", self.delivered, self.payload.len()),
            ),
            Figure::new("bytes", "bytes shown", shown),
            Figure::new("mss", "MSS", self.mss),
            Figure::new("ip-checksum", "IP checksum", ip),
            Figure::new("tcp-checksum", "TCP checksum", tcp),
            Figure::new("fcs", "FCS", fcs),
            Figure::new("verdict", "receiver", verdict),
            Figure::new(
                "retransmissions",
                "retransmissions",
                self.counters.retransmissions,
            ),
        ]
    }

    pub(super) fn why_sentences(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(seg) = self.segment.filter(|_| !self.frames.is_empty()) {
            let wire: usize = self.frames.iter().map(Vec::len).sum();
            let overhead = wire - seg.len;
            out.push(format!(
                "This segment carries {} byte{} of data in {wire} bytes of frame: headers, pad and FCS are {} of them (the preamble and gap add 20 more per frame).",
                seg.len,
                plural(seg.len),
                tenths(share_tenths(overhead as i64, wire as i64))
            ));
        }
        // A cut-through switch starts sending a frame once it has read the
        // destination, before the FCS arrives, so it cannot drop a bad frame
        // or give it a new FCS: it passes the error on, and some mark it
        // ("CRC stomping" on Cisco Nexus cut-through ports) so the next hop
        // can tell it was caught upstream.
        out.push(FCS_SCOPE.into());
        if self.middlebox {
            out.push("A device that damages a frame in its own memory and then computes a fresh FCS hides the damage from every later link: such errors are real, and the end-to-end checksum is what catches them (Stone & Partridge, \"When the CRC and TCP checksum disagree\", SIGCOMM 2000).".into());
        }
        let full = IP_LEN + TCP_LEN + usize::from(self.config.mss);
        if full > usize::from(self.config.mtu) {
            let fate = if self.config.df {
                "with DF set IP drops it and ICMP reports the MTU, so TCP lowers its MSS"
            } else {
                "with DF clear IP fragments it, and losing any fragment loses the whole segment"
            };
            out.push(format!(
                "An MSS of {} makes a full datagram of {full} bytes, more than the {}-byte MTU: {fate}.",
                self.config.mss, self.config.mtu
            ));
        }
        out
    }

    pub(super) fn check_invariants(&self) -> Result<(), String> {
        let total = self.payload.len();
        if self.delivered > total {
            return Err("more bytes delivered than were sent".into());
        }
        if self.stage == Stage::Done && self.delivered != total {
            return Err("done before every byte was delivered".into());
        }
        if self.history.len() > HISTORY {
            return Err("history longer than its cap".into());
        }
        let walking = !matches!(self.stage, Stage::SocketBuffer | Stage::Done);
        if walking != self.segment.is_some() && self.stage != Stage::Done {
            return Err("a segment exists exactly while one is on its way".into());
        }
        if let Some(seg) = self.segment {
            if seg.len > self.mss.max(usize::from(self.config.mss)) || seg.offset + seg.len > total
            {
                return Err(format!(
                    "segment {} is larger than the MSS or the payload",
                    seg.number
                ));
            }
            if self.tcp.len() != TCP_LEN + seg.len {
                return Err("the TCP segment's length is not header + data".into());
            }
            let (src, dst) = (self.config.src_ip, self.config.dst_ip);
            if !checksum_ok(src, dst, &self.tcp) {
                return Err("the segment TCP built fails its own checksum".into());
            }
        }
        for p in &self.packets {
            if !verifies(add(0, &p[..IP_LEN])) {
                return Err("a datagram IP built fails its own header checksum".into());
            }
            if p.len() > usize::from(self.config.mtu) && self.stage != Stage::Refused {
                return Err("a datagram larger than the MTU left IP".into());
            }
        }
        if self.wire.len() != self.frames.len() {
            return Err("frames sent and frames on the wire differ in number".into());
        }
        for (sent, wire) in self.frames.iter().zip(&self.wire) {
            if sent.len() < MIN_FRAME + FCS_LEN || sent.len() < ETH_LEN + IP_LEN + FCS_LEN {
                return Err("a frame left the NIC shorter than 64 bytes".into());
            }
            if crc32(sent) != RESIDUE {
                return Err("a frame left the NIC with a wrong FCS".into());
            }
            if wire.len() != sent.len() {
                return Err("a frame changed length on the wire".into());
            }
        }
        for f in &self.flips {
            if f.frame >= self.wire.len() || f.bit >= self.wire[f.frame].len() * 8 {
                return Err("a flipped bit lies outside every frame".into());
            }
        }
        if self.mss > usize::from(self.config.mss) {
            return Err("TCP raised its MSS above the configured one".into());
        }
        Ok(())
    }
}

/// What each check guards, and who checks or rewrites it on the way.
pub(crate) const FCS_SCOPE: &str = "The FCS guards one link. A store-and-forward switch checks it before forwarding and writes a fresh one; a cut-through switch starts sending before the frame has ended, so it forwards the FCS it received, a bad one is caught downstream, and the switch may stomp it (a deliberately invalid FCS) to mark the frame as already counted. The IPv4 checksum guards only the 20-byte header, recomputed at each router as the TTL drops; only the TCP checksum travels end to end, over the data and both addresses.";
