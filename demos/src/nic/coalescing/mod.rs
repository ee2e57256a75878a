//! Interrupt moderation on a time axis: packets arrive at a chosen rate,
//! the NIC holds its interrupt back by `rx-usecs` and `rx-frames`, and the
//! CPU pays per interrupt and per packet.
//!
//! Rules and sources:
//! - `include/uapi/linux/ethtool.h`, `struct ethtool_coalesce`: interrupts
//!   are coalesced until `(usecs > 0 && time_since_first_completion >=
//!   usecs) || (max_frames > 0 && completed_frames >= max_frames)`;
//!   `rx-usecs 0, rx-frames 1` disables coalescing (`ethtool -C`,
//!   ethtool(8)). The header calls both zero illegal, since no interrupt
//!   would ever fire, and leaves the check to each driver's `set_coalesce`.
//!   This NIC refuses it, as `nfp_net_set_coalesce()` does (-EINVAL,
//!   `drivers/net/ethernet/netronome/nfp/nfp_net_ethtool.c`).
//! - The interrupt starts a NAPI poll that keeps polling while packets keep
//!   coming and re-arms the interrupt only when the ring is empty
//!   (`Documentation/networking/napi.rst`), so packets arriving during a
//!   poll raise nothing.
//! - Dynamic moderation here is ixgbe's dynamic ITR. ixgbe has no
//!   `adaptive-rx` switch and no `rx-frames` (its ethtool ops declare
//!   `ETHTOOL_COALESCE_USECS` only): `ethtool -C rx-usecs 1` selects dynamic
//!   mode, starting at 20,000 interrupts/s (`ixgbe_set_coalesce()`,
//!   `drivers/net/ethernet/intel/ixgbe/ixgbe_ethtool.c`). The per-interrupt
//!   rule is Linux 3.x `ixgbe_update_itr()` ("simple throttlerate
//!   management"): bytes per microsecond of the last interval pick lowest
//!   latency (100,000 interrupts/s, 10 µs), low latency (20,000, 50 µs) or
//!   bulk (8,000, 125 µs), moving one class per interrupt: lowest → low
//!   above 10 bytes/µs; low → bulk above 20, → lowest at 10 or less; bulk →
//!   low at 20 or less. Today's ixgbe steps more finely. `adaptive-rx` is
//!   the switch of other drivers (ice, i40e, mlx5), with rules of their own
//!   (the generic `net_dim` in `lib/dim/` for ice and mlx5) that this demo
//!   does not model.
//! - An interrupt is counted by the one rule the busy-poll demo uses
//!   ([`Interrupt`]): MSI-X delivery and the hard IRQ delay the poll, and
//!   only the handler is CPU time. The poll's cost per packet is the
//!   busy-poll demo's too. Both are this model's assumptions.

mod report;
mod sim;
#[cfg(test)]
mod tests;

pub use sim::{IrqRecord, Summary};

use crate::bound::Bound;
use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::nic::interrupt::{Interrupt, NAPI_POLL_NS};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Offered packet rates (packets per second).
pub const RATES: &[u32] = &[10_000, 20_000, 50_000, 100_000, 200_000, 500_000];
/// `ethtool -C rx-usecs` and `rx-frames`, as this demo offers them.
pub const USECS: Bound<u32> = Bound::new("rx-usecs setting", " µs", 0, 250);
pub const FRAMES: Bound<u32> = Bound::new("rx-frames setting", " packets", 0, 64);
/// Frame sizes offered: minimum-size frames, and full ones.
pub const FRAME_SIZES: [u32; 2] = [64, 1514];
/// The device interrupt, counted by the busy-poll demo's rule: the poll
/// starts `IRQ.delay_ns()` after the interrupt fires, and a core spends
/// `IRQ.cpu_ns()` on it.
pub const IRQ: Interrupt = Interrupt::DEFAULT;
/// CPU time per packet in the poll.
pub const PACKET_NS: u64 = NAPI_POLL_NS as u64;
/// One Step of the clock, and the end of the run.
pub const STEP_NS: u64 = 50_000;
pub const HORIZON_NS: u64 = 2_000_000;
/// How much of the past the picture keeps.
pub const WINDOW_NS: u64 = 250_000;
/// A packet still waiting after this long is stranded.
pub const STRANDED_NS: u64 = 1_000_000;
/// ixgbe's dynamic ITR classes: interval in µs and interrupts per second.
pub const CLASSES: [(&str, u32, u32); 3] = [
    ("lowest latency", 10, 100_000),
    ("low latency", 50, 20_000),
    ("bulk", 125, 8_000),
];

/// Why this NIC refuses rx-usecs 0 with rx-frames 0 (see the module notes).
pub const BOTH_ZERO: &str = "rx-usecs 0 with rx-frames 0 would never fire an interrupt. Whether that is refused is each driver's choice, not ethtool's; this one refuses it, as nfp does.";

/// The frame half of the `ethtool_coalesce` rule (see the module notes):
/// `rx-frames` fires the interrupt once that many completions wait; 0 turns
/// the count off.
pub fn frames_fire(rx_frames: u32, completed: u32) -> bool {
    rx_frames > 0 && completed >= rx_frames
}

/// How long the NIC holds its interrupt after the first completion of a
/// burst of `burst` frames that lands at once on an armed line, with
/// nothing after it: at once if the count is met, else when `rx-usecs` runs
/// out, or never (`None`) with `rx-usecs` 0. The simulation's arrivals and
/// timer apply the same rule one completion at a time.
pub fn burst_wait_ns(rx_usecs: u32, rx_frames: u32, burst: u32) -> Option<u64> {
    if frames_fire(rx_frames, burst) {
        Some(0)
    } else if rx_usecs > 0 {
        Some(u64::from(rx_usecs) * 1_000)
    } else {
        None
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoalescingConfig {
    pub rate_pps: u32,
    pub rx_usecs: u32,
    pub rx_frames: u32,
    pub adaptive: bool,
    pub frame_bytes: u32,
}

impl Default for CoalescingConfig {
    fn default() -> Self {
        CoalescingConfig {
            rate_pps: 100_000,
            rx_usecs: 30,
            rx_frames: 32,
            adaptive: false,
            frame_bytes: 64,
        }
    }
}

/// The device interrupt, as NAPI leaves it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Line {
    /// Armed: the next completion starts the coalescing timer.
    Armed,
    /// Masked: a poll is running and will find new packets itself.
    Masked,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Totals {
    pub arrived: u64,
    pub done: u64,
    pub irqs: u64,
    pub latency_sum_ns: u64,
    pub latency_max_ns: u64,
    pub busy_ns: u64,
    pub by_frames: u64,
    pub by_timer: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Coalescing {
    pub rate_pps: u32,
    pub rx_usecs: u32,
    pub rx_frames: u32,
    /// ixgbe's dynamic ITR (`rx-usecs 1` on ixgbe), not `adaptive-rx`.
    pub adaptive: bool,
    pub frame_bytes: u32,
    /// Dynamic mode only: the class index into [`CLASSES`].
    pub class: usize,
    /// The clock, ns.
    pub now: u64,
    pub next_arrival: u64,
    /// Arrival times of the packets in the ring, oldest first.
    pub pending: VecDeque<u64>,
    pub line: Line,
    /// Completions since the interrupt was re-armed, and the first one's time.
    pub coalesced: u32,
    pub timer_start: u64,
    /// When the packet the poll is working on is done (while polling).
    pub poll_next_done: Option<u64>,
    /// Packets the running poll has finished.
    pub batch: u32,
    /// Arrivals and interrupts inside the picture's window, oldest first.
    pub recent_arrivals: VecDeque<u64>,
    pub recent_irqs: VecDeque<IrqRecord>,
    pub totals: Totals,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CoalescingAction {
    /// Move the clock on by [`STEP_NS`] (what Step does).
    Advance,
    /// Run to the end of the horizon.
    RunToEnd,
    SetRate(u32),
    /// `ethtool -C rx-usecs`.
    SetUsecs(u32),
    /// `ethtool -C rx-frames`.
    SetFrames(u32),
    /// ixgbe's dynamic ITR on or off (`ethtool -C rx-usecs 1` on ixgbe).
    SetAdaptive(bool),
    SetFrameBytes(u32),
    /// Break it: count packets only (rx-usecs 0, rx-frames 32) at 10 k pkt/s.
    FramesOnly,
}

impl Coalescing {
    /// The rx-usecs in force: the dynamic class's, or the learner's.
    pub fn usecs_now(&self) -> u32 {
        if self.adaptive {
            CLASSES[self.class].1
        } else {
            self.rx_usecs
        }
    }

    /// The rx-frames in force (ixgbe's dynamic mode counts no frames).
    pub fn frames_now(&self) -> u32 {
        if self.adaptive {
            0
        } else {
            self.rx_frames
        }
    }

    /// [`burst_wait_ns`] at the setting in force now.
    pub fn burst_wait_ns(&self, burst: u32) -> Option<u64> {
        burst_wait_ns(self.usecs_now(), self.frames_now(), burst)
    }

    pub fn interval_ns(&self) -> u64 {
        1_000_000_000 / u64::from(self.rate_pps.max(1))
    }

    fn config_of(&self) -> CoalescingConfig {
        CoalescingConfig {
            rate_pps: self.rate_pps,
            rx_usecs: self.rx_usecs,
            rx_frames: self.rx_frames,
            adaptive: self.adaptive,
            frame_bytes: self.frame_bytes,
        }
    }
}

impl Model for Coalescing {
    type Config = CoalescingConfig;
    type Action = CoalescingAction;

    fn validate(c: &CoalescingConfig) -> Result<(), String> {
        if !RATES.contains(&c.rate_pps) {
            return Err("the packet rate is one of the offered rates".into());
        }
        USECS.check(c.rx_usecs)?;
        FRAMES.check(c.rx_frames)?;
        if c.rx_usecs == 0 && c.rx_frames == 0 {
            return Err(BOTH_ZERO.into());
        }
        if !FRAME_SIZES.contains(&c.frame_bytes) {
            return Err("frames are 64 or 1514 bytes".into());
        }
        Ok(())
    }

    fn new(c: &CoalescingConfig) -> Self {
        Coalescing {
            rate_pps: c.rate_pps,
            rx_usecs: c.rx_usecs,
            rx_frames: c.rx_frames,
            adaptive: c.adaptive,
            frame_bytes: c.frame_bytes,
            class: 1,
            now: 0,
            next_arrival: 0,
            pending: VecDeque::new(),
            line: Line::Armed,
            coalesced: 0,
            timer_start: 0,
            poll_next_done: None,
            batch: 0,
            recent_arrivals: VecDeque::new(),
            recent_irqs: VecDeque::new(),
            totals: Totals::default(),
        }
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "Packets will arrive every {} ns. The NIC holds its interrupt until rx-usecs = {} µs have passed since the first waiting packet, or rx-frames = {} have arrived. Step moves the clock 50 µs.",
            crate::text::grouped(self.interval_ns() as i64),
            self.rx_usecs,
            self.rx_frames
        ))
    }

    fn apply(&mut self, action: &CoalescingAction) -> Outcome {
        match *action {
            CoalescingAction::Advance => self.advance(STEP_NS),
            CoalescingAction::RunToEnd => self.advance(HORIZON_NS),
            CoalescingAction::SetRate(r) => self.set_rate(r),
            CoalescingAction::SetUsecs(u) => self.set_usecs(u),
            CoalescingAction::SetFrames(f) => self.set_frames(f),
            CoalescingAction::SetAdaptive(on) => self.set_adaptive(on),
            CoalescingAction::SetFrameBytes(b) => self.set_frame_bytes(b),
            CoalescingAction::FramesOnly => self.frames_only(),
        }
    }

    fn next_auto(&self) -> Result<CoalescingAction, Refusal> {
        if self.now >= HORIZON_NS {
            Err(Refusal::new(
                "The run is over (2 ms). Change a setting and press Reset to run it again.",
            ))
        } else {
            Ok(CoalescingAction::Advance)
        }
    }

    fn check(&self) -> Result<(), String> {
        Self::validate(&self.config_of())?;
        self.check_invariants()
    }

    fn status(&self) -> Vec<Figure> {
        self.figures()
    }

    fn why(&self) -> Vec<String> {
        self.sentences()
    }

    fn leaves_out() -> &'static str {
        "Leaves out: packet loss when the ring fills, the NAPI budget, interrupt throttling as ixgbe's EITR does it (a minimum gap between interrupts rather than a wait after the first packet), the finer steps of today's ixgbe dynamic mode, adaptive-rx as ice, i40e and mlx5 do it (net_dim and i40e's own rule), TX completions, and any jitter in arrivals."
    }
}
