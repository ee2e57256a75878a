//! The IPv4 header with no options (RFC 791 §3.1), and fragmentation
//! (RFC 791 §2.3).

use super::checksum::checksum;
use serde::{Deserialize, Serialize};

/// IHL 5: twenty bytes, no options.
pub const HEADER_LEN: usize = 20;
/// Protocol number of TCP (RFC 791 §3.1, "Protocol"; IANA).
pub const PROTOCOL_TCP: u8 = 6;
/// Flags bit 1, "Don't Fragment" (RFC 791 §3.1, "Flags").
pub const DF: u16 = 0x4000;
/// Flags bit 2, "More Fragments".
pub const MF: u16 = 0x2000;
/// "Every internet module must be able to forward a datagram of 68 octets
/// without further fragmentation" (RFC 791 §3.2): the smallest legal MTU.
pub const MIN_MTU: usize = 68;

/// What IP puts in the header of every datagram it sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ipv4 {
    pub src: [u8; 4],
    pub dst: [u8; 4],
    pub id: u16,
    pub ttl: u8,
    pub df: bool,
}

impl Ipv4 {
    /// The header of a datagram, or a fragment, carrying `payload_len` bytes
    /// at `offset_units` × 8 bytes into the original data.
    pub fn header(&self, payload_len: usize, more: bool, offset_units: u16) -> [u8; HEADER_LEN] {
        let total = u16::try_from(HEADER_LEN + payload_len).unwrap_or(u16::MAX);
        let mut flags = offset_units & 0x1fff;
        if self.df {
            flags |= DF;
        }
        if more {
            flags |= MF;
        }
        let mut h = [0u8; HEADER_LEN];
        h[0] = 0x45; // version 4, IHL 5 (RFC 791 §3.1)
        h[1] = 0; // DSCP 0 (RFC 2474 §3), ECN 0 "Not-ECT" (RFC 3168 §5)
        h[2..4].copy_from_slice(&total.to_be_bytes());
        h[4..6].copy_from_slice(&self.id.to_be_bytes());
        h[6..8].copy_from_slice(&flags.to_be_bytes());
        h[8] = self.ttl;
        h[9] = PROTOCOL_TCP;
        h[12..16].copy_from_slice(&self.src);
        h[16..20].copy_from_slice(&self.dst);
        // Computed with the field zero, over the header only (RFC 791 §3.1).
        let sum = checksum(&h);
        h[10..12].copy_from_slice(&sum.to_be_bytes());
        h
    }

    /// One unfragmented datagram.
    pub fn packet(&self, payload: &[u8]) -> Vec<u8> {
        [&self.header(payload.len(), false, 0)[..], payload].concat()
    }

    /// The datagrams that carry `payload` over a link of `mtu` bytes: one if
    /// it fits, else fragments (RFC 791 §2.3): every fragment but the last
    /// carries a multiple of 8 data bytes and has MF set; the offset counts
    /// 8-byte units; all share the identification. The caller refuses a
    /// DF datagram that does not fit instead of calling this.
    pub fn fragments(&self, payload: &[u8], mtu: usize) -> Vec<Vec<u8>> {
        if HEADER_LEN + payload.len() <= mtu {
            return vec![self.packet(payload)];
        }
        let per = (mtu.max(MIN_MTU) - HEADER_LEN) / 8 * 8;
        payload
            .chunks(per)
            .enumerate()
            .map(|(i, chunk)| {
                let more = (i + 1) * per < payload.len();
                let units = u16::try_from(i * per / 8).unwrap_or(0x1fff);
                [&self.header(chunk.len(), more, units)[..], chunk].concat()
            })
            .collect()
    }
}

/// `10.0.0.1`.
pub fn addr_text(addr: &[u8; 4]) -> String {
    format!("{}.{}.{}.{}", addr[0], addr[1], addr[2], addr[3])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::wire::checksum::{add, verifies};

    fn ip(df: bool) -> Ipv4 {
        Ipv4 {
            src: [10, 0, 0, 1],
            dst: [10, 0, 0, 2],
            id: 1,
            ttl: 64,
            df,
        }
    }

    #[test]
    fn header_fields_sit_at_their_offsets() {
        let h = ip(true).header(20, false, 0);
        assert_eq!(h[0], 0x45);
        assert_eq!(u16::from_be_bytes([h[2], h[3]]), 40);
        assert_eq!(u16::from_be_bytes([h[6], h[7]]), DF);
        assert_eq!((h[8], h[9]), (64, 6));
        assert!(verifies(add(0, &h)));
    }

    /// A 40-byte SYN from 10.0.0.1 to 10.0.0.2, id 1, TTL 64, no DF, by
    /// hand: 4500 + 0028 + 0001 + 0000 + 4006 + 0a00 + 0001 + 0a00 + 0002
    /// = 9932, no carry; its complement 66cd is the checksum.
    #[test]
    fn header_checksum_of_the_example_syn() {
        let h = ip(false).header(20, false, 0);
        assert_eq!(u16::from_be_bytes([h[10], h[11]]), 0x66cd);
    }

    #[test]
    fn fragments_split_on_8_byte_boundaries_with_mf_on_all_but_the_last() {
        let data = [7u8; 100];
        let frags = ip(false).fragments(&data, 68);
        // 48 data bytes per fragment: 48 + 48 + 4.
        assert_eq!(frags.len(), 3);
        let flags: Vec<u16> = frags
            .iter()
            .map(|f| u16::from_be_bytes([f[6], f[7]]))
            .collect();
        assert_eq!(flags, vec![MF, MF | 6, 12]);
        assert_eq!(frags[2].len(), 24);
        assert!(frags.iter().all(|f| verifies(add(0, &f[..20]))));
        assert_eq!(ip(false).fragments(&data, 1500).len(), 1);
    }
}
