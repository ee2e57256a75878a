//! Real bytes on the wire: an Ethernet II frame carrying an IPv4 datagram
//! carrying a TCP segment, built byte for byte with every checksum exact.
//!
//! One concept per file: the Internet checksum ([`checksum`], RFC 1071),
//! the FCS ([`crc32`], IEEE 802.3 §3.2.9), the three headers ([`ethernet`],
//! [`ipv4`], [`tcp`]), the labelled fields a picture shows ([`layout`]),
//! the receiver's checks ([`receive`]) and what a learner types ([`parse`]).

pub mod checksum;
pub mod cli;
pub mod crc32;
pub mod ethernet;
pub mod ipv4;
pub mod layout;
pub mod parse;
pub mod receive;
pub mod tcp;

use ethernet::Mac;
use ipv4::Ipv4;
use serde::{Deserialize, Serialize};
use tcp::TcpHeader;

/// Everything that goes into the headers of one frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrameSpec {
    pub dst_mac: Mac,
    pub src_mac: Mac,
    pub ip: Ipv4,
    pub tcp: TcpHeader,
}

impl FrameSpec {
    /// The TCP segment: header and data, checksum filled in.
    pub fn segment(&self, payload: &[u8]) -> Vec<u8> {
        self.tcp.segment(self.ip.src, self.ip.dst, payload)
    }

    /// The whole frame without its FCS, padded to 60 bytes if shorter, for
    /// a segment sent in one datagram: what a MAC puts on the wire.
    pub fn frame(&self, payload: &[u8]) -> Vec<u8> {
        let packet = self.ip.packet(&self.segment(payload));
        ethernet::frame(self.dst_mac, self.src_mac, &packet)
    }

    /// The same frame without the pad: what a host hands its NIC, and what
    /// packet libraries build.
    pub fn bare_frame(&self, payload: &[u8]) -> Vec<u8> {
        let packet = self.ip.packet(&self.segment(payload));
        ethernet::bare(self.dst_mac, self.src_mac, &packet)
    }
}

#[cfg(test)]
mod tests;
