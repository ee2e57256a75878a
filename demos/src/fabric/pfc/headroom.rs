//! The headroom a lossless priority needs: the bytes that still arrive
//! after an ingress counter crosses XOFF.
//!
//! The sum follows the worst case of chapter 7 of Cisco's "Congestion
//! Management in Ethernet Storage Networks" (its Figure 7-2, as reprinted in
//! "How to Compute Headroom for Lossless Ethernet Links (Part 2)",
//! besthub.dev), in bit times (BT; 0.01 ns at 100 GbE):
//! - the receiver may have just begun a maximum-size frame, and a pause
//!   frame does not pre-empt it (D-Max-Frame-Len: the frame, 96 BT of
//!   inter-frame gap and 64 BT of preamble and SFD);
//! - the pause frame itself: 64 bytes, 512 BT, plus 160 BT (D-Pause);
//! - the interface latency IEEE 802.3 bounds, 122 880 BT at 100 GbE, and
//!   the cable, about 5 ns a metre (D-Intf, D-Cable), once for the pause on
//!   its way and once more for the bytes already on the wire towards us;
//! - the sender's response once the pause has arrived, bounded at
//!   201 728 BT at 100 GbE (D-Resp);
//! - and the frame of the lossless class the sender may have begun
//!   (D-Max-No-Drop-Frame-Len), here a full MTU.
//!
//! Cisco's white paper "Priority Flow Control: Build Reliable Layer 2
//! Infrastructure" (c11-542809) lists the same parts: the receiver's MTU,
//! the wire's speed (476 ns per 100 m of copper, 513 ns of single-mode
//! fibre, counted both ways), the transceivers, the sender's response time
//! and the sender's MTU.

use super::config::{LINK_GBPS, TICK_BYTES, TICK_NS};

/// Inter-frame gap plus preamble and SFD, in bit times.
pub const FRAME_OVERHEAD_BT: u64 = 96 + 64;
/// A pause frame on the wire: 512 BT of frame plus the overhead.
pub const PAUSE_BT: u64 = 512 + FRAME_OVERHEAD_BT;
/// D-Intf at 100 GbE.
pub const INTERFACE_BT: u64 = 122_880;
/// D-Resp at 100 GbE.
pub const RESPONSE_BT: u64 = 201_728;
/// Propagation, ns a metre (light at about two thirds of c).
pub const NS_PER_METRE: u64 = 5;
/// Bit times in a nanosecond at the link's speed.
pub const BT_PER_NS: u64 = LINK_GBPS;

/// The parts of the worst case, each in bit times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Headroom {
    pub receiver_frame: u64,
    pub pause: u64,
    /// One way: the interface and the cable.
    pub one_way: u64,
    pub response: u64,
    pub sender_frame: u64,
}

fn frame_bt(mtu: u32) -> u64 {
    u64::from(mtu) * 8 + FRAME_OVERHEAD_BT
}

fn ticks(bt: u64) -> u32 {
    u32::try_from(bt.div_ceil(TICK_NS * BT_PER_NS)).unwrap_or(u32::MAX)
}

impl Headroom {
    pub fn new(cable_m: u32, mtu: u32) -> Self {
        Headroom {
            receiver_frame: frame_bt(mtu),
            pause: PAUSE_BT,
            one_way: INTERFACE_BT + u64::from(cable_m) * NS_PER_METRE * BT_PER_NS,
            response: RESPONSE_BT,
            sender_frame: frame_bt(mtu),
        }
    }

    /// The whole worst case in bit times: the pause's way there and the
    /// bytes' way back make the one-way delay count twice.
    pub fn total_bt(&self) -> u64 {
        self.receiver_frame + self.pause + 2 * self.one_way + self.response + self.sender_frame
    }

    /// The textbook headroom in bytes: every bit time is a bit still coming.
    pub fn bytes(&self) -> u64 {
        self.total_bt().div_ceil(8)
    }

    /// Whole ticks a byte spends on a link: the interface and the cable.
    pub fn link_ticks(&self) -> u32 {
        ticks(self.one_way).max(1)
    }

    /// Whole ticks from the moment a switch decides to pause until the
    /// sender stops: its own frame, the pause frame, the way there, the
    /// sender's response and the sender's last frame.
    pub fn pause_ticks(&self) -> u32 {
        ticks(self.receiver_frame + self.pause + self.one_way + self.response + self.sender_frame)
            .max(1)
    }

    /// What the model itself needs, in whole ticks: the bytes on the wire
    /// and those sent before the pause bites, plus one tick of arrivals
    /// before the switch checks its counter. It rounds the textbook sum up.
    pub fn model_bytes(&self) -> u64 {
        (u64::from(self.link_ticks()) + u64::from(self.pause_ticks()) + 1) * TICK_BYTES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 100 m at 100 GbE with a 4 096-byte MTU: 4 116 + 84 + 2 × (15 360 +
    /// 6 250) + 25 216 + 4 116 bytes = 76 752 bytes.
    #[test]
    fn hundred_metres_at_100g() {
        let h = Headroom::new(100, 4_096);
        assert_eq!(h.bytes(), 76_752);
        // 1 728.8 ns one way: 18 ticks; the pause bites after 4 411.36 ns: 45.
        assert_eq!(h.link_ticks(), 18);
        assert_eq!(h.pause_ticks(), 45);
        assert_eq!(h.model_bytes(), 80_000);
        assert!(h.model_bytes() >= h.bytes());
    }

    /// Each extra metre costs the round trip: 2 × 5 ns × 12.5 bytes/ns.
    #[test]
    fn a_metre_costs_125_bytes() {
        let a = Headroom::new(100, 1_500).bytes();
        let b = Headroom::new(200, 1_500).bytes();
        assert_eq!(b - a, 12_500);
    }

    /// The pause frame takes 672 BT; a quantum is 512 BT.
    #[test]
    fn pause_frame_size() {
        assert_eq!(PAUSE_BT, 672);
    }
}
