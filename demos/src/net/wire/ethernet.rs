//! Ethernet II framing: destination MAC, source MAC, EtherType, the packet,
//! the pad, then the FCS (IEEE 802.3 §3.1.1, Figure 3-1; EtherType 0x0800
//! for IPv4, RFC 894).

use super::crc32::crc32;

/// Destination + source address + EtherType.
pub const HEADER_LEN: usize = 14;
/// The FCS is four bytes (IEEE 802.3 §3.2.9).
pub const FCS_LEN: usize = 4;
/// The shortest frame without its FCS: minFrameSize is 512 bits, 64 bytes
/// with the FCS (IEEE 802.3 §4.4.2); Linux calls the 60 `ETH_ZLEN`, "min.
/// octets in frame sans FCS" (`include/uapi/linux/if_ether.h`).
pub const MIN_FRAME: usize = 60;
/// The longest basic frame without its FCS: maxBasicFrameSize is 1518 bytes
/// with it (IEEE 802.3 §4.4.2), which leaves an IP MTU of 1500 (RFC 894).
pub const MAX_BASIC_FRAME: usize = 1514;
/// EtherType of IPv4 (RFC 894).
pub const ETHERTYPE_IPV4: u16 = 0x0800;

/// A 48-bit MAC address.
pub type Mac = [u8; 6];

/// The frame as it is handed to the wire, without its FCS: header, packet,
/// and zero bytes up to [`MIN_FRAME`]. The pad is part of the frame: it is
/// appended "prior to calculating and appending the FCS field" (IEEE 802.3
/// §3.2.8), and the FCS covers it (§3.2.9).
pub fn frame(dst: Mac, src: Mac, packet: &[u8]) -> Vec<u8> {
    let mut out = bare(dst, src, packet);
    out.resize(out.len().max(MIN_FRAME), 0);
    out
}

/// Header and packet, no pad: the frame as a host builds it.
pub fn bare(dst: Mac, src: Mac, packet: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity((HEADER_LEN + packet.len()).max(MIN_FRAME) + FCS_LEN);
    out.extend_from_slice(&dst);
    out.extend_from_slice(&src);
    out.extend_from_slice(&ETHERTYPE_IPV4.to_be_bytes());
    out.extend_from_slice(packet);
    out
}

/// The pad a packet of `packet_len` bytes needs (IEEE 802.3 §3.2.8).
pub fn pad_len(packet_len: usize) -> usize {
    MIN_FRAME.saturating_sub(HEADER_LEN + packet_len)
}

/// The FCS of a frame (without FCS), as zlib's `crc32()` returns it.
pub fn fcs(frame: &[u8]) -> u32 {
    crc32(frame)
}

/// The frame followed by its FCS, in wire order: the FCS's least
/// significant byte first (the bit order of IEEE 802.3 §3.2.9 read as bytes).
pub fn with_fcs(frame: &[u8]) -> Vec<u8> {
    [frame, &fcs(frame).to_le_bytes()[..]].concat()
}

/// `02:00:00:00:00:01`.
pub fn mac_text(mac: &Mac) -> String {
    let parts: Vec<String> = mac.iter().map(|b| format!("{b:02x}")).collect();
    parts.join(":")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_frames_are_padded_to_60_bytes_and_long_ones_are_not() {
        let small = frame([2, 0, 0, 0, 0, 2], [2, 0, 0, 0, 0, 1], &[0x45; 40]);
        assert_eq!(small.len(), 60);
        assert_eq!(&small[54..], &[0; 6]);
        assert_eq!(pad_len(40), 6);
        let big = frame([0; 6], [0; 6], &[1; 100]);
        assert_eq!(big.len(), 114);
        assert_eq!(pad_len(100), 0);
    }

    #[test]
    fn header_layout() {
        let f = frame([2, 0, 0, 0, 0, 2], [2, 0, 0, 0, 0, 1], &[]);
        assert_eq!(&f[..14], &[2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00]);
        assert_eq!(mac_text(&[2, 0, 0, 0, 0, 0xab]), "02:00:00:00:00:ab");
    }

    #[test]
    fn fcs_goes_least_significant_byte_first() {
        let f = frame([0xff; 6], [0; 6], &[]);
        let wire = with_fcs(&f);
        let sum = fcs(&f);
        assert_eq!(wire[60], sum as u8);
        assert_eq!(wire[63], (sum >> 24) as u8);
    }
}
