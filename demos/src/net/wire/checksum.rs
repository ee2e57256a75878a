//! The Internet checksum (RFC 1071): the 16-bit ones' complement of the
//! ones' complement sum of the data read as big-endian 16-bit words. IPv4
//! uses it over its header (RFC 791 §3.1, "Header Checksum"); TCP over a
//! pseudo-header, its header and its data (RFC 9293 §3.1, "Checksum").

/// Adds `data` to a running sum, as big-endian 16-bit words. An odd last
/// byte is padded on the right with a zero byte that is never sent
/// (RFC 9293 §3.1). The carries are kept in the high bits and folded back
/// by [`fold`] ("deferred carries", RFC 1071 §2 (D)).
pub fn add(sum: u64, data: &[u8]) -> u64 {
    let mut words = data.chunks_exact(2);
    let mut sum = words.by_ref().fold(sum, |acc, w| {
        acc + u64::from(u16::from_be_bytes([w[0], w[1]]))
    });
    if let [last] = words.remainder() {
        sum += u64::from(*last) << 8;
    }
    sum
}

/// Folds the carries into the low 16 bits: the ones' complement sum
/// (RFC 1071 §1 (1)).
pub fn fold(mut sum: u64) -> u16 {
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    sum as u16
}

/// The checksum to write into a header whose checksum field is zero.
pub fn checksum(data: &[u8]) -> u16 {
    !fold(add(0, data))
}

/// True when data that includes its checksum field sums to all ones, the
/// receiver's test (RFC 1071 §1 (3)).
pub fn verifies(sum: u64) -> bool {
    fold(sum) == 0xffff
}

/// The sum of TCP's IPv4 pseudo-header (RFC 9293 §3.1, Figure 2): source
/// and destination address, a zero byte, the protocol number, and the TCP
/// length (header plus data, not counting the pseudo-header).
pub fn pseudo_header(src: [u8; 4], dst: [u8; 4], protocol: u8, tcp_len: u16) -> u64 {
    let len = tcp_len.to_be_bytes();
    add(0, &[src, dst, [0, protocol, len[0], len[1]]].concat())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 1071 §3, "Numerical Examples": the bytes 00 01 f2 03 f4 f5 f6 f7
    /// sum to 2ddf0, which folds to ddf2; the checksum is its complement.
    #[test]
    fn rfc1071_worked_example() {
        let data = [0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7];
        assert_eq!(add(0, &data), 0x2_ddf0);
        assert_eq!(fold(add(0, &data)), 0xddf2);
        assert_eq!(checksum(&data), 0x220d);
        // Written back into the data, the checksum makes the sum all ones.
        assert!(verifies(add(0, &[&data[..], &[0x22, 0x0d]].concat())));
    }

    /// An odd length is summed as if a zero byte followed.
    #[test]
    fn odd_byte_is_padded_on_the_right() {
        assert_eq!(checksum(&[0xab]), checksum(&[0xab, 0x00]));
        assert_ne!(checksum(&[0xab]), checksum(&[0x00, 0xab]));
    }

    /// Byte order independence (RFC 1071 §2 (B)): swapping the bytes of
    /// every word swaps the bytes of the sum.
    #[test]
    fn byte_swapped_data_gives_byte_swapped_sum() {
        let data = [0x12, 0x34, 0xfe, 0xdc, 0x80, 0x01];
        let swapped = [0x34, 0x12, 0xdc, 0xfe, 0x01, 0x80];
        assert_eq!(fold(add(0, &data)).swap_bytes(), fold(add(0, &swapped)));
    }
}
