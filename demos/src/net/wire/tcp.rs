//! The TCP header with no options (RFC 9293 §3.1, Figure 1) and its
//! checksum over the IPv4 pseudo-header.

use super::checksum::{add, fold, pseudo_header};
use super::ipv4::PROTOCOL_TCP;
use serde::{Deserialize, Serialize};

/// Data offset 5: twenty bytes, no options.
pub const HEADER_LEN: usize = 20;

/// The control bits, in the header's order from the least significant
/// (RFC 9293 §3.1: CWR ECE URG ACK PSH RST SYN FIN, high to low).
pub const FIN: u8 = 0x01;
pub const SYN: u8 = 0x02;
pub const RST: u8 = 0x04;
pub const PSH: u8 = 0x08;
pub const ACK: u8 = 0x10;
pub const URG: u8 = 0x20;
pub const ECE: u8 = 0x40;
pub const CWR: u8 = 0x80;

/// Each flag's bit, letter and name, lowest bit first. The letters are the
/// ones scapy uses (`FSRPAUEC`); the order is the one Wireshark prints.
pub const FLAGS: [(u8, char, &str); 8] = [
    (FIN, 'F', "FIN"),
    (SYN, 'S', "SYN"),
    (RST, 'R', "RST"),
    (PSH, 'P', "PSH"),
    (ACK, 'A', "ACK"),
    (URG, 'U', "URG"),
    (ECE, 'E', "ECE"),
    (CWR, 'C', "CWR"),
];

/// What TCP writes into the header of a segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TcpHeader {
    pub src_port: u16,
    pub dst_port: u16,
    pub seq: u32,
    pub ack: u32,
    pub flags: u8,
    pub window: u16,
}

impl TcpHeader {
    /// Header and data with the checksum filled in. The checksum covers the
    /// pseudo-header (source, destination, zero, protocol 6, TCP length),
    /// the header with its checksum field zero, and the data, an odd last
    /// byte padded with a zero that is not sent (RFC 9293 §3.1).
    pub fn segment(&self, src: [u8; 4], dst: [u8; 4], payload: &[u8]) -> Vec<u8> {
        let mut s = Vec::with_capacity(HEADER_LEN + payload.len());
        s.extend_from_slice(&self.src_port.to_be_bytes());
        s.extend_from_slice(&self.dst_port.to_be_bytes());
        s.extend_from_slice(&self.seq.to_be_bytes());
        s.extend_from_slice(&self.ack.to_be_bytes());
        // Data offset 5 in the high nibble, the 4 reserved bits zero (RFC 9293 §3.1).
        s.push(5 << 4);
        s.push(self.flags);
        s.extend_from_slice(&self.window.to_be_bytes());
        s.extend_from_slice(&[0, 0]); // checksum, filled in below
        s.extend_from_slice(&[0, 0]); // urgent pointer: no urgent data is sent here
        s.extend_from_slice(payload);
        let len = u16::try_from(s.len()).unwrap_or(u16::MAX);
        let sum = !fold(add(pseudo_header(src, dst, PROTOCOL_TCP, len), &s));
        s[16..18].copy_from_slice(&sum.to_be_bytes());
        s
    }
}

/// True when a segment (header + data, checksum field included) checks out
/// against the pseudo-header built from these addresses.
pub fn checksum_ok(src: [u8; 4], dst: [u8; 4], segment: &[u8]) -> bool {
    let len = u16::try_from(segment.len()).unwrap_or(u16::MAX);
    fold(add(pseudo_header(src, dst, PROTOCOL_TCP, len), segment)) == 0xffff
}

/// Flags as names, lowest bit first: `SYN ACK`, or `none`.
pub fn flag_names(flags: u8) -> String {
    let names: Vec<&str> = FLAGS
        .iter()
        .filter(|(bit, _, _)| flags & bit != 0)
        .map(|(_, _, name)| *name)
        .collect();
    if names.is_empty() {
        "none".into()
    } else {
        names.join(" ")
    }
}

/// Reads flags written as letters from `FSRPAUEC`, in any order; the empty
/// text means no flag. A letter given twice is the same flag.
pub fn parse_flags(text: &str) -> Result<u8, String> {
    text.chars().try_fold(0u8, |acc, c| {
        FLAGS
            .iter()
            .find(|(_, letter, _)| *letter == c)
            .map(|(bit, _, _)| acc | bit)
            .ok_or_else(|| {
                format!(
                    "'{}' is not a TCP flag: use letters from FSRPAUEC (F=FIN S=SYN R=RST P=PSH A=ACK U=URG E=ECE C=CWR).",
                    c.escape_default()
                )
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_read_and_print() {
        assert_eq!(parse_flags("S"), Ok(SYN));
        assert_eq!(parse_flags("AS"), Ok(SYN | ACK));
        assert_eq!(parse_flags(""), Ok(0));
        assert_eq!(parse_flags("FSRPAUEC"), Ok(0xff));
        assert!(parse_flags("s").is_err());
        assert!(parse_flags("N").is_err());
        assert_eq!(flag_names(SYN | ACK), "SYN ACK");
        assert_eq!(flag_names(FIN | PSH | ACK), "FIN PSH ACK");
        assert_eq!(flag_names(0), "none");
    }

    #[test]
    fn header_layout_and_checksum() {
        let h = TcpHeader {
            src_port: 40000,
            dst_port: 80,
            seq: 1000,
            ack: 0,
            flags: SYN,
            window: 64240,
        };
        let s = h.segment([10, 0, 0, 1], [10, 0, 0, 2], b"");
        assert_eq!(s.len(), 20);
        assert_eq!(&s[..4], &[0x9c, 0x40, 0x00, 0x50]);
        assert_eq!(&s[4..8], &1000u32.to_be_bytes());
        assert_eq!((s[12], s[13]), (0x50, 0x02));
        assert_eq!(&s[14..16], &64240u16.to_be_bytes());
        assert!(checksum_ok([10, 0, 0, 1], [10, 0, 0, 2], &s));
        // The pseudo-header binds the segment to its addresses.
        assert!(!checksum_ok([10, 0, 0, 1], [10, 0, 0, 3], &s));
    }
}
