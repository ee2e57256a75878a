//! Encapsulation: one `send()` walked down the stack, byte for byte.
//!
//! The payload waits in the socket buffer; TCP cuts a segment of at most
//! one MSS and prefixes its 20-byte header (RFC 9293 §3.1, §3.7); IP
//! prefixes 20 bytes (RFC 791 §3.1), or fragments the datagram if it
//! exceeds the MTU and DF is clear (RFC 791 §2.3), or drops it if DF is
//! set, which ICMP reports back so TCP can lower its MSS (RFC 1191); the
//! driver prefixes the Ethernet header, the NIC pads to 60 bytes and
//! appends the FCS (IEEE 802.3 §3.2.8, §3.2.9); the bits cross the wire;
//! the receiver checks FCS, IP header checksum and TCP checksum in the
//! order Linux does (see [`crate::net::wire::receive`]).
//!
//! Break it: flip any bit on the wire and see which check catches it; let
//! a store-and-forward middlebox recompute the FCS after the damage (as a
//! switch that corrupts a frame in its memory does; a cut-through switch
//! cannot, it forwards the FCS it received) and the end-to-end checksums
//! are all that is left; or set an MSS too large for the MTU with DF set.

mod damage;
mod report;
mod walk;

use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::net::wire::ethernet::Mac;
use crate::net::wire::ipv4::MIN_MTU;
use crate::net::wire::receive::Check;
use crate::net::wire::tcp::{ACK, PSH};
use crate::Bound;
use serde::{Deserialize, Serialize};

/// The payload's length: at most 1,024 bytes keep the hex dump readable and
/// a share link short.
pub const PAYLOAD_LEN: Bound<usize> = Bound::new("payload", " bytes", 0, 1024);
/// MSS: 8 lets a short payload split into many segments; 9,000 is beyond
/// any jumbo MTU, so an MSS too large for the MTU can be chosen.
pub const MSS: Bound<u16> = Bound::new("MSS", " bytes", 8, 9000);
/// MTU: IPv4's minimum (RFC 791 §3.2) to a 9,000-byte jumbo frame.
pub const MTU: Bound<u16> = Bound::new("MTU", " bytes", MIN_MTU as u16, 9000);
/// TTL: RFC 1122 §3.2.1.7, a host MUST NOT send a datagram with TTL 0.
pub const TTL: Bound<u8> = Bound::new("TTL", "", 1, 255);
/// Segments remembered for the history strip.
pub const HISTORY: usize = 32;

/// Everything the learner can edit. The default is a small HTTP request on
/// a connection already set up by a handshake with ISNs 1000 and 5000.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EncapConfig {
    pub src_mac: Mac,
    pub dst_mac: Mac,
    pub src_ip: [u8; 4],
    pub dst_ip: [u8; 4],
    pub src_port: u16,
    pub dst_port: u16,
    /// Sequence number of the first byte (or of the SYN, if SYN is set).
    pub seq: u32,
    pub ack: u32,
    /// TCP flags as header bits (see [`crate::net::wire::tcp::FLAGS`]).
    /// SYN goes on the first segment only; FIN and PSH on the last only.
    pub flags: u8,
    pub window: u16,
    pub ttl: u8,
    /// Identification of the first datagram; each later one takes the next.
    pub id: u16,
    pub payload: String,
    pub mss: u16,
    pub mtu: u16,
    pub df: bool,
}

impl Default for EncapConfig {
    fn default() -> Self {
        EncapConfig {
            // Locally administered unicast addresses (bit 1 of the first octet).
            src_mac: [0x02, 0, 0, 0, 0, 0x01],
            dst_mac: [0x02, 0, 0, 0, 0, 0x02],
            src_ip: [10, 0, 0, 1],
            dst_ip: [10, 0, 0, 2],
            src_port: 40000,
            dst_port: 80,
            seq: 1001,
            ack: 5001,
            flags: PSH | ACK,
            // The example window: 44 segments of 1,460 bytes.
            window: 64240,
            // Linux's default TTL (net.ipv4.ip_default_ttl = 64).
            ttl: 64,
            id: 1,
            payload: "GET / HTTP/1.1\r\nHost: 10.0.0.2\r\n\r\n".into(),
            // 1500 − 20 − 20: the MSS an Ethernet host announces (RFC 9293 §3.7.1).
            mss: 1460,
            // Ethernet's MTU (RFC 894).
            mtu: 1500,
            // Linux sets DF on TCP to discover the path MTU (RFC 1191).
            df: true,
        }
    }
}

/// Where the current segment is on its way down (and up) the stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// `send()` has copied the bytes into the socket buffer.
    SocketBuffer,
    /// TCP has built a segment.
    Tcp,
    /// IP has built the datagram, or its fragments.
    Ip,
    /// IP dropped the datagram: larger than the MTU with DF set.
    Refused,
    /// The driver and NIC have built the frame(s), pad and FCS included.
    Ethernet,
    /// The bits are on the wire: the learner may flip some.
    Wire,
    /// The receiver has checked the frame(s).
    Received,
    /// Every byte has been delivered.
    Done,
}

impl Stage {
    pub fn label(self) -> &'static str {
        match self {
            Stage::SocketBuffer => "socket buffer",
            Stage::Tcp => "TCP segment",
            Stage::Ip => "IPv4 datagram",
            Stage::Refused => "dropped by IP",
            Stage::Ethernet => "Ethernet frame",
            Stage::Wire => "on the wire",
            Stage::Received => "received",
            Stage::Done => "all delivered",
        }
    }
}

/// The segment being walked down the stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Segment {
    /// 1 for the first segment of the payload.
    pub number: usize,
    /// Offset of its first data byte in the payload, and its data length.
    pub offset: usize,
    pub len: usize,
    pub seq: u32,
    pub flags: u8,
    /// 0 for the first transmission.
    pub attempt: u32,
}

/// What the receiver made of the frame(s).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    /// Handed to the socket; `damaged` when a flipped bit got through.
    Delivered { damaged: bool },
    /// Thrown away by `check`, in frame `frame` (for a reassembled
    /// datagram the TCP checks report the first frame).
    Caught { frame: usize, check: Check },
}

/// A bit the learner flipped: frame index and bit index within it (bit 0
/// is the most significant bit of byte 0, as the RFC diagrams count).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flip {
    pub frame: usize,
    pub bit: usize,
}

/// One transmission, for the history strip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sent {
    pub segment: Segment,
    pub frames: usize,
    /// `None` when IP dropped it before it left the host.
    pub verdict: Option<Verdict>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counters {
    /// Segments cut from the payload, retransmissions not counted.
    pub segments: u32,
    pub datagrams: u32,
    pub frames: u32,
    /// Frame bytes put on the wire, FCS included (preamble and gap not).
    pub wire_bytes: u64,
    pub retransmissions: u32,
    pub df_drops: u32,
    pub caught_fcs: u32,
    pub caught_ip: u32,
    pub caught_tcp: u32,
    pub caught_other: u32,
    pub undetected: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Encapsulation {
    pub config: EncapConfig,
    /// The bytes `send()` copied into the socket buffer.
    pub payload: Vec<u8>,
    /// The MSS TCP cuts with: the configured one, lowered to MTU − 40 once
    /// ICMP has reported the MTU.
    pub mss: usize,
    /// Payload bytes delivered to the receiving socket, in order.
    pub delivered: usize,
    pub stage: Stage,
    pub segment: Option<Segment>,
    /// The current segment's bytes, header first.
    pub tcp: Vec<u8>,
    /// The datagram, or its fragments.
    pub packets: Vec<Vec<u8>>,
    /// Each frame as the NIC sent it: padded, FCS appended (LSB first).
    pub frames: Vec<Vec<u8>>,
    /// The same frames as they arrive: the learner's flips applied.
    pub wire: Vec<Vec<u8>>,
    pub flips: Vec<Flip>,
    /// Break it: a device on the path recomputes the FCS after the damage.
    pub middlebox: bool,
    pub verdict: Option<Verdict>,
    /// Identification of the next datagram.
    pub next_id: u16,
    pub history: Vec<Sent>,
    pub counters: Counters,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EncapAction {
    /// Move the segment one layer on (what Step and Play do).
    Step,
    /// Break it: flip one bit of a frame on the wire.
    FlipBit { frame: usize, bit: usize },
    /// Break it: a middlebox that recomputes the FCS, on or off.
    SetMiddlebox(bool),
}

impl Model for Encapsulation {
    type Config = EncapConfig;
    type Action = EncapAction;

    fn validate(c: &EncapConfig) -> Result<(), String> {
        PAYLOAD_LEN.check(c.payload.len())?;
        MSS.check(c.mss)?;
        MTU.check(c.mtu)?;
        TTL.check(c.ttl)?;
        Ok(())
    }

    fn new(c: &EncapConfig) -> Self {
        Encapsulation {
            config: c.clone(),
            payload: c.payload.as_bytes().to_vec(),
            mss: usize::from(c.mss),
            delivered: 0,
            stage: Stage::SocketBuffer,
            segment: None,
            tcp: Vec::new(),
            packets: Vec::new(),
            frames: Vec::new(),
            wire: Vec::new(),
            flips: Vec::new(),
            middlebox: false,
            verdict: None,
            next_id: c.id,
            history: Vec::new(),
            counters: Counters::default(),
        }
    }

    fn intro(&self) -> Event {
        self.intro_event()
    }

    fn apply(&mut self, action: &EncapAction) -> Outcome {
        match *action {
            EncapAction::Step => self.step(),
            EncapAction::FlipBit { frame, bit } => self.flip(frame, bit),
            EncapAction::SetMiddlebox(on) => self.set_middlebox(on),
        }
    }

    fn next_auto(&self) -> Result<EncapAction, Refusal> {
        if self.stage == Stage::Done {
            Err(Refusal::new(
                "Every byte has been delivered: change the payload, MSS or flags and start again.",
            ))
        } else {
            Ok(EncapAction::Step)
        }
    }

    fn check(&self) -> Result<(), String> {
        self.check_invariants()
    }

    fn status(&self) -> Vec<Figure> {
        self.figures()
    }

    fn why(&self) -> Vec<String> {
        self.why_sentences()
    }

    fn leaves_out() -> &'static str {
        "Leaves out: IP and TCP options (a real SYN carries MSS, SACK, timestamps), the preamble, SFD and inter-frame gap, checksum and segmentation offload, ARP, and the ACKs and timers behind a retransmission (see the handshake demo)."
    }
}

#[cfg(test)]
mod tests;
