//! Every header field with its offset, width, name and value, so a picture
//! can label and highlight each field of a hex dump.

use super::ethernet::{mac_text, ETHERTYPE_IPV4, FCS_LEN, HEADER_LEN as ETH_LEN};
use super::ipv4::{addr_text, HEADER_LEN as IP_LEN, PROTOCOL_TCP};
use super::tcp::{flag_names, HEADER_LEN as TCP_LEN};

/// One field of a buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// Stable focus key: `eth-dst`, `ip-ttl`, `tcp-seq`, `payload`, `eth-fcs`…
    pub key: &'static str,
    /// The field's name in its standard (RFC 791, RFC 9293, IEEE 802.3).
    pub name: &'static str,
    /// Offset of the field's first byte in the buffer.
    pub offset: usize,
    /// First bit inside that byte, counted from the most significant (0–7),
    /// as the RFC diagrams number them; 0 for whole-byte fields.
    pub bit: u8,
    /// Width in bits.
    pub bits: usize,
    /// The value as read from the bytes: `10.0.0.1`, `SYN ACK`, `0x66cd`.
    pub value: String,
}

impl Field {
    /// The first bit of the buffer this field covers, and one past its last.
    pub fn bit_range(&self) -> (usize, usize) {
        let start = self.offset * 8 + usize::from(self.bit);
        (start, start + self.bits)
    }
}

/// Which headers a buffer starts with, and what follows the TCP data. The
/// model knows this from how it built the buffer, so a flipped bit changes
/// a value shown, never the layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub ethernet: bool,
    pub ipv4: bool,
    /// False for the second and later fragments of a datagram.
    pub tcp: bool,
    /// Bytes of TCP data (or of fragment data).
    pub data: usize,
    /// Zero bytes appended to reach the minimum frame.
    pub pad: usize,
    pub fcs: bool,
}

/// The fields of `bytes`, laid out by `shape`, in order of offset. Fields
/// that would run past the end of `bytes` are left out.
pub fn describe(bytes: &[u8], shape: Shape) -> Vec<Field> {
    let mut out = Vec::new();
    let mut at = 0;
    if shape.ethernet {
        ethernet(bytes, &mut out);
        at += ETH_LEN;
    }
    if shape.ipv4 {
        ipv4(bytes, at, &mut out);
        at += IP_LEN;
    }
    if shape.tcp {
        tcp(bytes, at, &mut out);
        at += TCP_LEN;
    }
    let tail = [
        (
            "payload",
            "Data",
            shape.data,
            format!("{} bytes", shape.data),
        ),
        (
            "eth-pad",
            "Pad",
            shape.pad,
            format!("{} zero bytes", shape.pad),
        ),
    ];
    for (key, name, len, value) in tail {
        if len > 0 {
            out.push(whole(key, name, at, len, value));
            at += len;
        }
    }
    if shape.fcs {
        if let Some(b) = bytes.get(at..at + FCS_LEN) {
            let fcs = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            out.push(whole(
                "eth-fcs",
                "Frame Check Sequence",
                at,
                FCS_LEN,
                format!("0x{fcs:08x}"),
            ));
        }
    }
    out.retain(|f| f.bit_range().1 <= bytes.len() * 8);
    out
}

/// The field that holds bit `bit` of the buffer.
pub fn field_at(fields: &[Field], bit: usize) -> Option<&Field> {
    fields.iter().find(|f| {
        let (start, end) = f.bit_range();
        (start..end).contains(&bit)
    })
}

fn whole(key: &'static str, name: &'static str, offset: usize, len: usize, value: String) -> Field {
    Field {
        key,
        name,
        offset,
        bit: 0,
        bits: len * 8,
        value,
    }
}

fn part(
    key: &'static str,
    name: &'static str,
    offset: usize,
    bit: u8,
    bits: usize,
    value: u32,
) -> Field {
    Field {
        key,
        name,
        offset,
        bit,
        bits,
        value: value.to_string(),
    }
}

fn be16(b: &[u8], at: usize) -> u16 {
    match b.get(at..at + 2) {
        Some(w) => u16::from_be_bytes([w[0], w[1]]),
        None => 0,
    }
}

fn be32(b: &[u8], at: usize) -> u32 {
    u32::from(be16(b, at)) << 16 | u32::from(be16(b, at + 2))
}

fn byte(b: &[u8], at: usize) -> u8 {
    b.get(at).copied().unwrap_or(0)
}

fn bytes<const N: usize>(b: &[u8], at: usize) -> [u8; N] {
    let mut out = [0; N];
    if let Some(s) = b.get(at..at + N) {
        out.copy_from_slice(s);
    }
    out
}

/// IEEE 802.3 §3.1.1 (Ethernet II: the Length/Type field holds a type, RFC 894).
fn ethernet(b: &[u8], out: &mut Vec<Field>) {
    let ethertype = be16(b, 12);
    let type_text = if ethertype == ETHERTYPE_IPV4 {
        "0x0800 IPv4".to_string()
    } else {
        format!("0x{ethertype:04x}")
    };
    out.push(whole(
        "eth-dst",
        "Destination Address",
        0,
        6,
        mac_text(&bytes(b, 0)),
    ));
    out.push(whole(
        "eth-src",
        "Source Address",
        6,
        6,
        mac_text(&bytes(b, 6)),
    ));
    out.push(whole("eth-type", "EtherType", 12, 2, type_text));
}

/// RFC 791 §3.1, Figure 4; the TOS byte as DSCP (RFC 2474) and ECN (RFC 3168).
fn ipv4(b: &[u8], at: usize, out: &mut Vec<Field>) {
    let v = byte(b, at);
    let tos = byte(b, at + 1);
    let flags = be16(b, at + 6);
    let flag_text = match (
        flags & 0x8000 != 0,
        flags & 0x4000 != 0,
        flags & 0x2000 != 0,
    ) {
        (false, false, false) => "none".to_string(),
        (evil, df, mf) => [(evil, "reserved"), (df, "DF"), (mf, "MF")]
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, name)| *name)
            .collect::<Vec<_>>()
            .join(" "),
    };
    let protocol = byte(b, at + 9);
    let protocol_text = if protocol == PROTOCOL_TCP {
        "6 TCP".to_string()
    } else {
        protocol.to_string()
    };
    out.extend([
        part("ip-version", "Version", at, 0, 4, u32::from(v >> 4)),
        part("ip-ihl", "IHL", at, 4, 4, u32::from(v & 0xf)),
        part("ip-dscp", "DSCP", at + 1, 0, 6, u32::from(tos >> 2)),
        part("ip-ecn", "ECN", at + 1, 6, 2, u32::from(tos & 3)),
        whole(
            "ip-length",
            "Total Length",
            at + 2,
            2,
            be16(b, at + 2).to_string(),
        ),
        whole(
            "ip-id",
            "Identification",
            at + 4,
            2,
            be16(b, at + 4).to_string(),
        ),
        Field {
            value: flag_text,
            ..part("ip-flags", "Flags", at + 6, 0, 3, 0)
        },
        part(
            "ip-frag-offset",
            "Fragment Offset",
            at + 6,
            3,
            13,
            u32::from(flags & 0x1fff),
        ),
        whole(
            "ip-ttl",
            "Time to Live",
            at + 8,
            1,
            byte(b, at + 8).to_string(),
        ),
        whole("ip-protocol", "Protocol", at + 9, 1, protocol_text),
        whole(
            "ip-checksum",
            "Header Checksum",
            at + 10,
            2,
            format!("0x{:04x}", be16(b, at + 10)),
        ),
        whole(
            "ip-src",
            "Source Address",
            at + 12,
            4,
            addr_text(&bytes(b, at + 12)),
        ),
        whole(
            "ip-dst",
            "Destination Address",
            at + 16,
            4,
            addr_text(&bytes(b, at + 16)),
        ),
    ]);
}

/// RFC 9293 §3.1, Figure 1.
fn tcp(b: &[u8], at: usize, out: &mut Vec<Field>) {
    let offset = byte(b, at + 12);
    out.extend([
        whole("tcp-sport", "Source Port", at, 2, be16(b, at).to_string()),
        whole(
            "tcp-dport",
            "Destination Port",
            at + 2,
            2,
            be16(b, at + 2).to_string(),
        ),
        whole(
            "tcp-seq",
            "Sequence Number",
            at + 4,
            4,
            be32(b, at + 4).to_string(),
        ),
        whole(
            "tcp-ack",
            "Acknowledgment Number",
            at + 8,
            4,
            be32(b, at + 8).to_string(),
        ),
        part(
            "tcp-offset",
            "Data Offset",
            at + 12,
            0,
            4,
            u32::from(offset >> 4),
        ),
        part(
            "tcp-reserved",
            "Reserved",
            at + 12,
            4,
            4,
            u32::from(offset & 0xf),
        ),
        whole(
            "tcp-flags",
            "Control Bits",
            at + 13,
            1,
            flag_names(byte(b, at + 13)),
        ),
        whole(
            "tcp-window",
            "Window",
            at + 14,
            2,
            be16(b, at + 14).to_string(),
        ),
        whole(
            "tcp-checksum",
            "Checksum",
            at + 16,
            2,
            format!("0x{:04x}", be16(b, at + 16)),
        ),
        whole(
            "tcp-urgent",
            "Urgent Pointer",
            at + 18,
            2,
            be16(b, at + 18).to_string(),
        ),
    ]);
}

#[cfg(test)]
mod tests {
    use super::*;

    const FRAME: Shape = Shape {
        ethernet: true,
        ipv4: true,
        tcp: true,
        data: 0,
        pad: 6,
        fcs: true,
    };

    #[test]
    fn fields_tile_the_frame_without_gaps_or_overlaps() {
        let bytes = [0u8; 64];
        let fields = describe(&bytes, FRAME);
        let mut next = 0;
        for f in &fields {
            assert_eq!(
                f.bit_range().0,
                next,
                "{} starts at a gap or overlap",
                f.key
            );
            next = f.bit_range().1;
        }
        assert_eq!(next, 64 * 8);
        assert_eq!(fields.len(), 3 + 13 + 10 + 2);
    }

    #[test]
    fn a_bit_finds_its_field() {
        let fields = describe(&[0u8; 64], FRAME);
        assert_eq!(field_at(&fields, 0).map(|f| f.key), Some("eth-dst"));
        // Byte 22 is the TTL: 14 bytes of Ethernet + 8 into the IPv4 header.
        assert_eq!(field_at(&fields, 22 * 8 + 3).map(|f| f.key), Some("ip-ttl"));
        // Bit 1 of byte 20 is DF; bit 3 starts the fragment offset.
        assert_eq!(
            field_at(&fields, 20 * 8 + 1).map(|f| f.key),
            Some("ip-flags")
        );
        assert_eq!(
            field_at(&fields, 20 * 8 + 3).map(|f| f.key),
            Some("ip-frag-offset")
        );
        assert_eq!(field_at(&fields, 62 * 8).map(|f| f.key), Some("eth-fcs"));
        assert_eq!(field_at(&fields, 64 * 8), None);
    }
}
