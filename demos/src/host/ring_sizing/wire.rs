//! What one frame costs on the wire, and how often frames arrive.
//!
//! A packet of `payload` bytes travels inside an Ethernet frame (14-byte
//! header, 4-byte FCS: the constants of `net::wire::ethernet`), and the line
//! also carries, for every frame, its preamble and start-of-frame delimiter
//! before it and the inter-frame gap after it. So a full-size 1,500-byte
//! packet occupies 1,538 bytes of line time, which is why 1,024 of them take
//! about 126 µs at 100 Gb/s rather than the 123 µs of 1,024 × 1,500 bytes.

use crate::bound::Bound;
use crate::net::wire::ethernet::{FCS_LEN, HEADER_LEN, MAX_BASIC_FRAME, MIN_FRAME};

/// The preamble (7 bytes) and the start frame delimiter (1 byte) that go
/// before every frame (IEEE 802.3, §3.2.1 and §3.2.2, "Preamble field" and
/// "Start Frame Delimiter (SFD) field").
pub const PREAMBLE_SFD_BYTES: u64 = 8;

/// The least gap between two frames: interFrameGap is 96 bit times (IEEE
/// 802.3, §4.4.2, "Allowable implementations"), 12 byte times.
pub const INTERFRAME_GAP_BYTES: u64 = 12;

/// Ethernet header and FCS, as `u64` for the arithmetic here.
pub const HEADER_BYTES: u64 = HEADER_LEN as u64;
pub const FCS_BYTES: u64 = FCS_LEN as u64;

/// The packet a frame carries (the Ethernet payload): 46 bytes fill the
/// minimum 64-byte frame, 1,500 the maximum basic frame (IEEE 802.3 §4.4.2:
/// minFrameSize 512 bits, maxBasicFrameSize 1518 bytes, FCS included).
pub const PAYLOAD: Bound<u32> = Bound::new(
    "packet size",
    " bytes",
    (MIN_FRAME - HEADER_LEN) as u32,
    (MAX_BASIC_FRAME - HEADER_LEN) as u32,
);

/// The line rates the demo offers, Gb/s. Each divides 1,000, so a frame's
/// time in picoseconds (bits × 1,000 / rate) is a whole number.
pub const RATES: [u32; 4] = [10, 25, 50, 100];

/// Bytes of the frame itself: header, packet, FCS.
pub fn frame_bytes(payload: u32) -> u64 {
    HEADER_BYTES + u64::from(payload) + FCS_BYTES
}

/// Bytes of line time a frame takes: preamble and SFD, the frame, the gap.
pub fn wire_bytes(payload: u32) -> u64 {
    PREAMBLE_SFD_BYTES + frame_bytes(payload) + INTERFRAME_GAP_BYTES
}

/// Picoseconds one frame takes on the wire at `rate_gbps` (bits × 1,000 /
/// Gb/s: exact for the rates in [`RATES`]).
pub fn frame_ps(payload: u32, rate_gbps: u32) -> u64 {
    wire_bytes(payload) * 8 * 1_000 / u64::from(rate_gbps.max(1))
}

/// Frames that have finished arriving on the link by `t_ns`, counting from
/// an idle line at 0 and back-to-back frames: the bits sent by then over
/// the bits a frame takes.
pub fn frames_by(t_ns: u64, payload: u32, rate_gbps: u32) -> u64 {
    t_ns.saturating_mul(u64::from(rate_gbps)) / (wire_bytes(payload) * 8)
}
