//! The demo's settings and the constants every part reads. Every bound is
//! declared once here; validation, refusals and sliders read them.

use crate::bound::Bound;
use serde::{Deserialize, Serialize};

/// Every link runs at 100 Gb/s.
pub const LINK_GBPS: u64 = 100;
/// One tick is 100 ns: 1 250 bytes at 100 Gb/s, about a third of a
/// 4 096-byte frame. Fine enough to resolve a 100 m cable (500 ns, five
/// ticks) and the pause's way back; coarse enough that DCQCN's 55 µs timer
/// (550 ticks) and a 2 ms run fit in a page's step.
pub const TICK_NS: u64 = 100;
/// Bytes one link carries in a tick.
pub const TICK_BYTES: u64 = LINK_GBPS * TICK_NS / 8;
/// Ticks in a run: 2 ms.
pub const HORIZON: u32 = 20_000;
/// Ticks between two samples of the history the charts draw (1 µs).
pub const SAMPLE_TICKS: u32 = 10;

/// The ingress counter, per port, at which a switch sends XOFF upstream.
/// Ours, a labelled parameter.
pub const XOFF_BYTES: u64 = 40_000;
/// The counter at which it sends XON (pause time 0) again.
pub const XON_BYTES: u64 = 30_000;
/// IP's usual initial TTL: a looping packet dies after this many switches.
pub const TTL: u8 = 64;

pub const CABLE: Bound<u32> = Bound::new("cable length", " m", 1, 1_000);
pub const HEADROOM_KB: Bound<u32> = Bound::new("headroom", " KB", 0, 300);
/// Headroom the Break-it button sets: far below what a cable needs.
pub const SMALL_HEADROOM_KB: u32 = 10;
/// The MTUs offered: Ethernet's standard, RoCE's usual and a jumbo frame.
pub const MTUS: [u32; 3] = [1_500, 4_096, 9_216];

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PfcConfig {
    /// Length of every cable in the fabric, metres.
    pub cable_m: u32,
    /// The largest frame, bytes (one of `MTUS`).
    pub mtu: u32,
    /// Buffer above XOFF each ingress port keeps for bytes still arriving.
    pub headroom_kb: u32,
    /// ECN marking at the switches and DCQCN at the hosts.
    pub dcqcn: bool,
    /// The routing error that sends the victim's traffic round a loop.
    pub loop_route: bool,
    /// The PFC watchdog: a queue paused too long is flushed.
    pub watchdog: bool,
}

impl Default for PfcConfig {
    /// 100 m cables, RoCE's 4 096-byte MTU and 100 KB of headroom (more
    /// than the 80 KB this cable needs in whole ticks); PFC alone.
    fn default() -> Self {
        PfcConfig {
            cable_m: 100,
            mtu: 4_096,
            headroom_kb: 100,
            dcqcn: false,
            loop_route: false,
            watchdog: false,
        }
    }
}

impl PfcConfig {
    pub fn validate(&self) -> Result<(), String> {
        CABLE.check(self.cable_m)?;
        HEADROOM_KB.check(self.headroom_kb)?;
        if !MTUS.contains(&self.mtu) {
            return Err(format!(
                "The MTU is 1500, 4096 or 9216 bytes; {} is not offered.",
                self.mtu
            ));
        }
        Ok(())
    }

    pub fn headroom_bytes(&self) -> u64 {
        u64::from(self.headroom_kb) * 1_000
    }

    /// The most an ingress port holds: XOFF plus the headroom.
    pub fn limit_bytes(&self) -> u64 {
        XOFF_BYTES + self.headroom_bytes()
    }
}
