//! The Ethernet side: how many frames a second a 100 Gb/s port delivers,
//! and how many bytes of each frame the NIC hands to the host.
//!
//! On the wire every frame carries 20 bytes more than itself: a 7-byte
//! preamble and a 1-byte start-of-frame delimiter before it (IEEE 802.3
//! §3.2.1, §3.2.2) and at least a 96-bit inter-frame gap after it (§4.4.2).
//! The open PCIe model counts the same 7 + 1 + 12 (`pcie-bench/pcie-model`,
//! `model/eth.py`: `Pre`, `SOF`, `IFG`). So 64-byte frames come at
//! 100 Gb/s ÷ (84 × 8 bits) = 148.8 million a second: the rate in Ensō's
//! headline (Sadok et al., OSDI 2023, abstract: "saturate a 100 Gbps link
//! with minimum-sized packets (forwarding at 148.8 Mpps) using a single
//! core").

use crate::bound::Bound;
use crate::net::wire::ethernet::{FCS_LEN, MAX_BASIC_FRAME, MIN_FRAME};

/// The port's rate: the 100 Gb/s of the headline.
pub const PORT_GBPS: u64 = 100;
/// Preamble and start-of-frame delimiter, before every frame.
pub const PREAMBLE_BYTES: u64 = 8;
/// The least gap between two frames: 96 bit times.
pub const GAP_BYTES: u64 = 12;

/// Frame sizes, FCS included: 64 to 1,518 bytes (IEEE 802.3 §4.4.2's
/// minFrameSize and maxBasicFrameSize).
pub const FRAME: Bound<u64> = Bound::new(
    "frame size",
    " bytes",
    (MIN_FRAME + FCS_LEN) as u64,
    (MAX_BASIC_FRAME + FCS_LEN) as u64,
);

/// Frames a second the port delivers back to back.
pub fn line_rate(frame: u64) -> f64 {
    let bits = (frame + PREAMBLE_BYTES + GAP_BYTES) * 8;
    PORT_GBPS as f64 * 1e9 / bits as f64
}

/// Bytes the NIC writes to the host for a frame: the frame without its
/// FCS, which NICs strip by default (the open model's note: "subtract 4 to
/// calculate with FCS stripping"; Intel's 82599 strips it unless told
/// otherwise, `model/niantic.py`).
pub fn dma_bytes(frame: u64) -> u64 {
    frame.saturating_sub(FCS_LEN as u64)
}
