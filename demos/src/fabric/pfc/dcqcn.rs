//! DCQCN (Zhu et al., "Congestion Control for Large-Scale RDMA
//! Deployments", SIGCOMM 2015): the switch marks ECN on its egress queue
//! (the congestion point, CP), the receiver turns marks into CNPs (the
//! notification point, NP) and the sender's NIC sets its rate (the reaction
//! point, RP). NVIDIA's "DCQCN CC Algorithm" page (DOCA) describes the three
//! roles and the CP's marking: none below Kmin, a probability rising
//! linearly to Pmax at Kmax. The RP's rules and constants below are those of
//! the htsim simulator's `dcqcn.cpp` (UCL's htsim, DCQCN source and sink),
//! which we read; its rate steps R_AI and R_HAI are a 20th and a 10th of the
//! link.

use super::config::{LINK_GBPS, TICK_NS};
use serde::{Deserialize, Serialize};

/// htsim: `_g = 1/256`, the gain of α's moving average.
pub const G: f64 = 1.0 / 256.0;
/// htsim: the RP's timer, `_cc_update_period = 55 µs`, in ticks.
pub const TIMER_TICKS: u32 = (55_000 / TICK_NS) as u32;
/// htsim: the NP sends at most one CNP a flow in `_cnp_interval = 50 µs`.
pub const CNP_TICKS: u32 = (50_000 / TICK_NS) as u32;
/// htsim: `_B = 10 000 000` bytes between byte-counter events.
pub const BYTE_COUNTER: u64 = 10_000_000;
/// htsim: `_F = 5` timer or byte-counter events of fast recovery.
pub const F: u32 = 5;
/// htsim: R_AI is the link's rate / 20, R_HAI / 10 (Gb/s).
pub const R_AI: f64 = LINK_GBPS as f64 / 20.0;
pub const R_HAI: f64 = LINK_GBPS as f64 / 10.0;
/// htsim's floor under a throttled rate: 100 Mb/s.
pub const MIN_RATE: f64 = 0.1;

/// The CP's marking curve. Our numbers, labelled parameters, scaled to this
/// fabric's 40 KB XOFF so that marking starts well before a pause.
pub const KMIN_BYTES: u64 = 5_000;
pub const KMAX_BYTES: u64 = 30_000;
/// Pmax in per cent.
pub const PMAX_PERCENT: u32 = 10;

/// The probability of marking a packet when the egress queue holds `q`
/// bytes.
pub fn mark_probability(q: u64) -> f64 {
    if q <= KMIN_BYTES {
        0.0
    } else if q >= KMAX_BYTES {
        // DCQCN's CP marks every packet above Kmax.
        1.0
    } else {
        (q - KMIN_BYTES) as f64 / (KMAX_BYTES - KMIN_BYTES) as f64 * f64::from(PMAX_PERCENT) / 100.0
    }
}

/// Which increase rule the last rate increase used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Stage {
    /// No CNP yet: line rate.
    #[default]
    Line,
    /// Just cut by a CNP.
    Cut,
    FastRecovery,
    AdditiveIncrease,
    HyperIncrease,
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::Line => "line rate",
            Stage::Cut => "cut",
            Stage::FastRecovery => "fast recovery",
            Stage::AdditiveIncrease => "additive increase",
            Stage::HyperIncrease => "hyper increase",
        }
    }
}

/// One sender's reaction point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reaction {
    /// Current rate RC and target rate RT, Gb/s.
    pub rc: f64,
    pub rt: f64,
    pub alpha: f64,
    /// Timer and byte-counter events since the last CNP.
    pub t: u32,
    pub bc: u32,
    pub bytes: u64,
    /// Ticks since the timer last fired (or the last CNP).
    pub since_timer: u32,
    pub stage: Stage,
    pub cnps: u32,
}

impl Default for Reaction {
    /// htsim starts a flow at line rate with α = 1.
    fn default() -> Self {
        Reaction {
            rc: LINK_GBPS as f64,
            rt: LINK_GBPS as f64,
            alpha: 1.0,
            t: 0,
            bc: 0,
            bytes: 0,
            since_timer: 0,
            stage: Stage::Line,
            cnps: 0,
        }
    }
}

impl Reaction {
    /// A CNP: remember the rate as the target, cut by α/2, raise α.
    pub fn on_cnp(&mut self) {
        self.rt = self.rc;
        self.rc = (self.rc * (1.0 - self.alpha / 2.0)).max(MIN_RATE);
        self.alpha = (1.0 - G) * self.alpha + G;
        self.t = 0;
        self.bc = 0;
        self.bytes = 0;
        self.since_timer = 0;
        self.stage = Stage::Cut;
        self.cnps += 1;
    }

    /// One tick in which the sender sent `sent` bytes.
    pub fn tick(&mut self, sent: u64) {
        self.bytes += sent;
        if self.bytes >= BYTE_COUNTER {
            self.bytes -= BYTE_COUNTER;
            self.bc += 1;
            self.increase();
        }
        self.since_timer += 1;
        if self.since_timer >= TIMER_TICKS {
            self.since_timer = 0;
            // α decays when a whole period passes without a CNP.
            self.alpha *= 1.0 - G;
            self.t += 1;
            self.increase();
        }
    }

    fn increase(&mut self) {
        let line = LINK_GBPS as f64;
        if self.rc >= line {
            return;
        }
        if self.t.max(self.bc) <= F {
            self.stage = Stage::FastRecovery;
        } else if self.t.min(self.bc) > F {
            self.rt += f64::from(self.t.min(self.bc) - F) * R_HAI;
            self.stage = Stage::HyperIncrease;
        } else {
            self.rt += R_AI;
            self.stage = Stage::AdditiveIncrease;
        }
        self.rt = self.rt.min(line);
        self.rc = ((self.rt + self.rc) / 2.0).min(line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first CNP, with α = 1, halves the rate and remembers the old one.
    #[test]
    fn first_cnp_halves() {
        let mut r = Reaction::default();
        r.on_cnp();
        assert_eq!(r.rc, 50.0);
        assert_eq!(r.rt, 100.0);
        assert_eq!(r.alpha, 1.0);
    }

    /// Five timer periods of fast recovery halve the gap to the target each
    /// time; the sixth is additive increase.
    #[test]
    fn fast_recovery_then_additive() {
        let mut r = Reaction::default();
        r.on_cnp();
        for _ in 0..5 * TIMER_TICKS {
            r.tick(0);
        }
        assert_eq!(r.stage, Stage::FastRecovery);
        assert!((r.rc - (100.0 - 50.0 / 32.0)).abs() < 1e-9);
        for _ in 0..TIMER_TICKS {
            r.tick(0);
        }
        assert_eq!(r.stage, Stage::AdditiveIncrease);
    }

    #[test]
    fn marking_curve() {
        assert_eq!(mark_probability(KMIN_BYTES), 0.0);
        assert_eq!(mark_probability(KMAX_BYTES), 1.0);
        let mid = mark_probability((KMIN_BYTES + KMAX_BYTES) / 2);
        assert!((mid - 0.05).abs() < 1e-9);
    }
}
