//! CUBIC's window arithmetic (RFC 9438 §4), in segments and seconds.
//!
//! This is the only place in the congestion demos that uses floating point:
//! the cubic function and its cube root. Everything shown is rounded to
//! integers by the caller.

use serde::{Deserialize, Serialize};

/// C, the aggressiveness constant, in segments per second³ (RFC 9438 §5.1:
/// "C SHOULD be set to 0.4").
pub const C: f64 = 0.4;
/// β_cubic, the multiplicative decrease factor (RFC 9438 §4.6: "SHOULD be
/// set to 0.7").
pub const BETA: f64 = 0.7;
/// α_cubic = 3(1 − β)/(1 + β), the Reno-friendly additive increase (RFC 9438
/// §4.3), about 0.53 segments per RTT.
pub const ALPHA: f64 = 3.0 * (1.0 - BETA) / (1.0 + BETA);

/// K: the seconds the cubic takes to climb from `cwnd_epoch` back to `w_max`
/// (RFC 9438 §4.2, Figure 2). Zero when there is nothing to climb.
pub fn k(w_max: f64, cwnd_epoch: f64) -> f64 {
    ((w_max - cwnd_epoch).max(0.0) / C).cbrt()
}

/// W_cubic(t) = C(t − K)³ + W_max (RFC 9438 §4.2, Figure 1).
pub fn w_cubic(t: f64, k: f64, w_max: f64) -> f64 {
    C * (t - k).powi(3) + w_max
}

/// Where the window is on the cubic curve (RFC 9438 §4.3–§4.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Region {
    /// W_est (a Reno estimate) is ahead of the cubic: follow Reno.
    RenoFriendly,
    /// Below W_max: the fast-then-flattening climb back to the last peak.
    Concave,
    /// At or past W_max: the slow-then-accelerating probe for a new peak.
    Convex,
}

/// CUBIC's per-connection state (RFC 9438 §4.1.2), windows in segments.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cubic {
    /// W_max: the window just before the last reduction (after fast
    /// convergence, possibly less).
    pub w_max: f64,
    /// K in seconds for the current congestion-avoidance stage.
    pub k: f64,
    /// t_epoch in ns: when the current congestion-avoidance stage began.
    pub epoch: Option<u64>,
    /// cwnd at t_epoch.
    pub cwnd_epoch: f64,
    /// W_est: the window Reno would have by now (RFC 9438 §4.3).
    pub w_est: f64,
    /// cwnd_prior: the window when ssthresh was last set.
    pub cwnd_prior: f64,
    /// The last reduction was a timeout (RFC 9438 §4.8 sets K = 0 then).
    pub after_timeout: bool,
    /// Fast convergence (RFC 9438 §4.7): SHOULD be on when flows compete,
    /// SHOULD be off for a lone flow.
    pub fast_convergence: bool,
    /// The region of the last update.
    pub region: Region,
}

impl Cubic {
    pub fn new(fast_convergence: bool) -> Self {
        Cubic {
            w_max: 0.0,
            k: 0.0,
            epoch: None,
            cwnd_epoch: 0.0,
            w_est: 0.0,
            cwnd_prior: 0.0,
            after_timeout: false,
            fast_convergence,
            region: Region::Concave,
        }
    }

    /// A congestion event at window `cwnd` (segments): remember the peak
    /// (RFC 9438 §4.7 fast convergence, §4.6 cwnd_prior) and end the epoch.
    pub fn on_congestion(&mut self, cwnd: f64, timeout: bool) {
        self.w_max = if self.fast_convergence && cwnd < self.w_max {
            cwnd * (1.0 + BETA) / 2.0
        } else {
            cwnd
        };
        self.cwnd_prior = cwnd;
        self.epoch = None;
        self.after_timeout = timeout;
    }

    /// The window after a new ACK in congestion avoidance, given the current
    /// window `cwnd` (segments), `acked` segments, the time `now` and the
    /// smoothed RTT (both ns). RFC 9438 §4.2–§4.5.
    pub fn on_ack(&mut self, cwnd: f64, acked: f64, now: u64, srtt: u64) -> f64 {
        let epoch = match self.epoch {
            Some(epoch) => epoch,
            None => {
                // A new congestion-avoidance stage (§4.2). After a timeout, or
                // when no loss has set a peak, K = 0 and W_max = cwnd (§4.8, §4.10).
                self.epoch = Some(now);
                self.cwnd_epoch = cwnd;
                self.w_est = cwnd;
                if self.after_timeout || self.w_max <= cwnd {
                    self.w_max = cwnd;
                    self.k = 0.0;
                } else {
                    self.k = k(self.w_max, cwnd);
                }
                now
            }
        };
        let t = (now - epoch) as f64 / 1e9;
        let rtt = srtt as f64 / 1e9;
        // §4.2: the target one RTT ahead, kept between cwnd and 1.5·cwnd.
        let target = crate::float::clamped(w_cubic(t + rtt, self.k, self.w_max), cwnd, 1.5 * cwnd);
        // §4.3: W_est grows like Reno; α becomes 1 once W_est reaches cwnd_prior.
        let alpha = if self.w_est >= self.cwnd_prior {
            1.0
        } else {
            ALPHA
        };
        self.w_est += alpha * acked / cwnd;
        if w_cubic(t, self.k, self.w_max) < self.w_est {
            self.region = Region::RenoFriendly;
            // "choose the higher of the two values" (§4.2)
            self.w_est.max(cwnd)
        } else {
            // §4.4/§4.5: cwnd += (target − cwnd)/cwnd per new ACK.
            self.region = if cwnd < self.w_max {
                Region::Concave
            } else {
                Region::Convex
            };
            cwnd + (target - cwnd) / cwnd * acked
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k_is_the_climb_time_back_to_w_max() {
        // W_max = 100, after a loss cwnd = β·W_max = 70: K = cbrt(30 / 0.4) = cbrt(75).
        let k = k(100.0, 70.0);
        assert!((k - 4.2172).abs() < 1e-3, "K = {k}");
        assert!((w_cubic(0.0, k, 100.0) - 70.0).abs() < 1e-9);
        assert!((w_cubic(k, k, 100.0) - 100.0).abs() < 1e-12);
        // One second past K: C·1³ = 0.4 segments above the plateau.
        assert!((w_cubic(k + 1.0, k, 100.0) - 100.4).abs() < 1e-9);
        // K = cbrt(W_max·(1 − β)/C) when the epoch starts at β·W_max.
        assert!((k - (100.0 * (1.0 - BETA) / C).cbrt()).abs() < 1e-12);
    }

    #[test]
    fn alpha_is_reno_friendly() {
        assert!((ALPHA - 0.9 / 1.7).abs() < 1e-12);
    }

    #[test]
    fn fast_convergence_lowers_a_falling_peak() {
        let mut c = Cubic::new(true);
        c.on_congestion(100.0, false);
        assert_eq!(c.w_max, 100.0);
        c.on_congestion(80.0, false);
        assert!((c.w_max - 80.0 * 0.85).abs() < 1e-9);
        let mut lone = Cubic::new(false);
        lone.on_congestion(100.0, false);
        lone.on_congestion(80.0, false);
        assert_eq!(lone.w_max, 80.0);
    }

    #[test]
    fn the_window_climbs_concave_then_convex() {
        // A large window on a long path, where the cubic outruns Reno's estimate.
        let mut c = Cubic::new(false);
        c.on_congestion(1000.0, false);
        let rtt = 200_000_000; // 200 ms
        let mut cwnd = 700.0;
        let mut now = 0;
        let mut seen_concave = false;
        for _ in 0..100 {
            // one RTT of ACKs
            for _ in 0..cwnd as usize {
                cwnd = c.on_ack(cwnd, 1.0, now, rtt);
            }
            now += rtt;
            seen_concave |= c.region == Region::Concave;
            if now as f64 / 1e9 > c.k + 2.0 {
                break;
            }
        }
        assert!(seen_concave);
        assert_eq!(c.region, Region::Convex);
        assert!(cwnd > 1000.0);
    }
}
