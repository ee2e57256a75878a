//! The Ethernet frame check sequence: CRC-32 (IEEE 802.3 §3.2.9).
//!
//! 802.3 defines it bit by bit: the generator polynomial x³² + x²⁶ + … + 1,
//! the first 32 bits of the frame complemented, the remainder complemented,
//! every octet sent least significant bit first. Done on whole bytes with
//! the bit order reversed ("reflected", polynomial 0xEDB88320) this is the
//! value zlib's `crc32()` returns, and its four bytes go on the wire least
//! significant byte first.

/// The generator polynomial with its bit order reversed.
const POLY_REFLECTED: u32 = 0xEDB8_8320;

/// What [`crc32`] returns over any frame followed by its own FCS: the
/// receiver's test needs no comparison, only this constant.
pub const RESIDUE: u32 = 0x2144_DF1C;

/// CRC-32 of `data`, as zlib's `crc32(0, data, len)` returns it. Bitwise,
/// not table-driven: frames are short, and a table costs a kilobyte of wasm.
pub fn crc32(data: &[u8]) -> u32 {
    !data.iter().fold(!0u32, |mut crc, &byte| {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            let mask = (crc & 1).wrapping_neg();
            crc = (crc >> 1) ^ (POLY_REFLECTED & mask);
        }
        crc
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The catalogue check value of CRC-32/ISO-HDLC, the CRC Ethernet uses
    /// (Greg Cook's "Catalogue of parametrised CRC algorithms"; zlib agrees).
    #[test]
    fn check_value_of_123456789() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    /// A frame followed by its FCS, least significant byte first, always
    /// leaves the same residue: that is how a NIC checks without comparing.
    #[test]
    fn frame_plus_fcs_leaves_the_residue() {
        for frame in [&b"123456789"[..], &[0u8; 60], b"any bytes at all"] {
            let fcs = crc32(frame).to_le_bytes();
            assert_eq!(crc32(&[frame, &fcs[..]].concat()), RESIDUE);
        }
    }
}
