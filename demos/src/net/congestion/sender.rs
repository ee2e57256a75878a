//! One TCP sender's congestion control, driven ACK by ACK.
//!
//! Windows are in bytes, sequence numbers count whole segments (every
//! segment carries one SMSS of a bulk transfer). Rules and their sources:
//! - slow start, congestion avoidance, ssthresh: RFC 5681 §3.1;
//! - fast retransmit / fast recovery on the third duplicate ACK: RFC 5681 §3.2;
//! - NewReno's `recover`, partial and full ACKs: RFC 6582 §3.2; only the
//!   first partial ACK of a recovery restarts the timer (§3.2 step 3);
//! - a repeated timeout for the same segment holds ssthresh: RFC 5681 §3.1;
//! - CUBIC's growth and β = 0.7 reduction: RFC 9438 §4 (see [`super::cubic`]);
//! - DCTCP's α and window cut on ECN echoes: RFC 8257 §3.3;
//! - RTT estimate and retransmission timer: RFC 6298 §2 and §5; samples come
//!   from the timestamp each ACK echoes (RFC 7323 §4, on by default in Linux),
//!   so retransmissions need no Karn exclusion.
//!
//! The machine is Linux: where Linux departs from the RFCs' defaults, the
//! sender follows Linux, with its source beside the constant — the initial
//! window of 10 segments (RFC 6928), the RTO floor that is added to SRTT
//! rather than clamped under it, and the 120 s RTO ceiling.

use super::cubic::Cubic;
use serde::{Deserialize, Serialize};

/// SMSS: a 1500-byte Ethernet MTU less 20 bytes of IPv4 and 20 of TCP header
/// (RFC 6691 §2; no options).
pub const MSS: u64 = 1460;
/// IW: Linux's `TCP_INIT_CWND` = 10 segments (include/net/tcp.h), the
/// initial window RFC 6928 allows, not RFC 5681 §3.1's 3 for this SMSS.
pub const IW_SEGMENTS: u64 = 10;
pub const IW: u64 = IW_SEGMENTS * MSS;
/// ssthresh before any loss: "arbitrarily high" (RFC 5681 §3.1).
pub const NO_LIMIT: u64 = u64::MAX;
/// The first RTO, before any RTT sample: 1 s (RFC 6298 §2.1).
pub const RTO_INITIAL_NS: u64 = 1_000_000_000;
/// Linux's floor on the RTO: `TCP_RTO_MIN` = HZ/5 = 200 ms (include/net/tcp.h).
pub const RTO_MIN_LINUX_NS: u64 = 200_000_000;
/// Linux's ceiling on the backed-off RTO: `TCP_RTO_MAX` = 120 s (include/net/tcp.h).
pub const RTO_MAX_NS: u64 = 120_000_000_000;
/// WCDelAckT, the worst-case delayed-ACK timer a tail loss probe waits out
/// when only one segment is in flight: 200 ms (RFC 8985 §7.2, RECOMMENDED).
pub const WORST_CASE_DELAYED_ACK_NS: u64 = 200_000_000;
/// DCTCP's α is kept in 1/1024ths, as Linux does (`DCTCP_MAX_ALPHA`, net/ipv4/tcp_dctcp.c).
pub const ALPHA_ONE: u64 = 1024;
/// DCTCP's gain g = 1/2⁴ = 1/16 (Linux `dctcp_shift_g` = 4, net/ipv4/tcp_dctcp.c).
pub const G_SHIFT: u32 = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Algorithm {
    /// RFC 5681 alone: the first new ACK ends fast recovery.
    Reno,
    /// RFC 6582: partial ACKs keep fast recovery going until `recover`.
    NewReno,
    /// RFC 9438 growth and reduction, on NewReno's loss recovery.
    Cubic,
}

impl Algorithm {
    pub fn label(self) -> &'static str {
        match self {
            Algorithm::Reno => "Reno",
            Algorithm::NewReno => "NewReno",
            Algorithm::Cubic => "CUBIC",
        }
    }
}

/// DCTCP sender state (RFC 8257 §3.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dctcp {
    /// DCTCP.Alpha in 1/1024ths: the estimated fraction of marked bytes.
    pub alpha: u64,
    bytes_acked: u64,
    bytes_marked: u64,
    window_end: u64,
    /// No second cut before this segment is acknowledged (once per window).
    cwr_end: u64,
}

impl Default for Dctcp {
    fn default() -> Self {
        // "DCTCP.Alpha ... is initialized to 1" (RFC 8257 §3.3).
        Dctcp {
            alpha: ALPHA_ONE,
            bytes_acked: 0,
            bytes_marked: 0,
            window_end: 0,
            cwr_end: 0,
        }
    }
}

/// What one ACK or timer did, for narration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Note {
    /// A new ACK grew cwnd (in slow start if true).
    Grew { slow_start: bool },
    /// A duplicate ACK, the nth in a row, below the threshold.
    Duplicate(u32),
    /// Third duplicate ACK: `seq` retransmitted, fast recovery entered.
    FastRetransmit { seq: u64 },
    /// Third duplicate ACK refused by NewReno's `recover` guard.
    Guarded,
    /// A duplicate ACK during recovery inflated cwnd by one SMSS.
    Inflated,
    /// NewReno partial ACK: `seq` retransmitted, recovery goes on.
    Partial { seq: u64 },
    /// Recovery over: cwnd deflated to ssthresh.
    Recovered,
    /// DCTCP cut the window on an ECN echo.
    EcnCut,
    /// The retransmission timer fired: `seq` goes again, cwnd is one segment.
    Timeout { seq: u64 },
    /// An ACK below SND.UNA: nothing to do.
    Stale,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sender {
    pub algorithm: Algorithm,
    /// Congestion window, bytes.
    pub cwnd: u64,
    /// Slow-start threshold, bytes ([`NO_LIMIT`] before the first loss).
    pub ssthresh: u64,
    /// Oldest unacknowledged segment.
    pub snd_una: u64,
    /// Next segment to send (moves back to `snd_una` after a timeout).
    pub snd_nxt: u64,
    /// One past the highest segment ever sent.
    pub snd_max: u64,
    /// Segments the application has handed over (sending stops there).
    pub limit: u64,
    pub dupacks: u32,
    pub in_recovery: bool,
    /// NewReno's `recover` (RFC 6582 §3.2), as the segment number one past
    /// the highest sent when recovery began.
    pub recover: u64,
    /// Smoothed RTT and its variation, ns (0 = no sample yet).
    pub srtt: u64,
    pub rttvar: u64,
    /// Latest RTT sample, ns.
    pub last_rtt: u64,
    /// Current RTO, ns, including any backoff.
    pub rto: u64,
    /// The floor under every computed RTO, ns.
    pub rto_min: u64,
    /// When the retransmission timer fires, if running.
    pub rto_at: Option<u64>,
    /// When the last segment (new or resent) went out, ns: a tail loss
    /// probe is scheduled from it (RFC 8985 §7.2).
    pub last_send_at: u64,
    /// Partial ACKs seen in the current fast recovery (NewReno and CUBIC):
    /// only the first one restarts the timer (RFC 6582 §3.2 step 3).
    pub partials: u32,
    /// Timeouts since SND.UNA last moved: above 1, the timer has resent the
    /// same segment again, and ssthresh was left alone (RFC 5681 §3.1).
    pub timeouts_in_a_row: u32,
    /// A retransmission waiting to go out ahead of new data.
    pub retransmit: Option<u64>,
    pub cubic: Cubic,
    /// DCTCP's reaction to ECN echoes, when the flow is ECN-capable.
    pub dctcp: Option<Dctcp>,
    pub retransmits: u64,
    pub fast_retransmits: u32,
    pub timeouts: u32,
    pub ecn_cuts: u32,
}

impl Sender {
    pub fn new(algorithm: Algorithm, rto_min: u64, fast_convergence: bool) -> Self {
        Sender {
            algorithm,
            cwnd: IW,
            ssthresh: NO_LIMIT,
            snd_una: 0,
            snd_nxt: 0,
            snd_max: 0,
            limit: u64::MAX,
            dupacks: 0,
            in_recovery: false,
            // "recover is set to the initial send sequence number" (RFC 6582 §3.2 step 1)
            recover: 0,
            srtt: 0,
            rttvar: 0,
            last_rtt: 0,
            rto: RTO_INITIAL_NS,
            rto_min,
            rto_at: None,
            last_send_at: 0,
            partials: 0,
            timeouts_in_a_row: 0,
            retransmit: None,
            cubic: Cubic::new(fast_convergence),
            dctcp: None,
            retransmits: 0,
            fast_retransmits: 0,
            timeouts: 0,
            ecn_cuts: 0,
        }
    }

    /// Bytes sent and not yet cumulatively acknowledged (RFC 5681 §2 FlightSize).
    pub fn flight(&self) -> u64 {
        (self.snd_max - self.snd_una) * MSS
    }

    /// Slow start while cwnd < ssthresh; at equality RFC 5681 §3.1 lets the
    /// sender choose, and this one chooses congestion avoidance.
    pub fn in_slow_start(&self) -> bool {
        self.cwnd < self.ssthresh
    }

    /// Every segment handed over has been acknowledged.
    pub fn done(&self) -> bool {
        self.snd_una >= self.limit
    }

    /// Seeds the RTT estimate as if measured earlier on this connection.
    pub fn seed_rtt(&mut self, rtt: u64) {
        self.sample_rtt(rtt);
    }

    /// The next segment the window allows at `now`, if any: a pending
    /// retransmission first, then new data while (outstanding + 1)·SMSS ≤ cwnd.
    pub fn next_send(&mut self, now: u64) -> Option<u64> {
        let seq = match self.retransmit.take() {
            Some(seq) => seq,
            None => {
                let outstanding = self.snd_nxt - self.snd_una;
                if (outstanding + 1) * MSS > self.cwnd || self.snd_nxt >= self.limit {
                    return None;
                }
                self.snd_nxt += 1;
                self.snd_nxt - 1
            }
        };
        if seq < self.snd_max {
            self.retransmits += 1;
        } else {
            self.snd_max = seq + 1;
        }
        self.last_send_at = now;
        // RFC 6298 §5.1: start the timer if it is not running.
        if self.rto_at.is_none() {
            self.rto_at = Some(now + self.rto);
        }
        Some(seq)
    }

    /// Handles a cumulative ACK for everything below `ack` (a segment
    /// number), `ece` if it echoes a congestion mark, `echo` the send time of
    /// the segment that moved the receiver on (its timestamp, RFC 7323 §4.3).
    pub fn on_ack(&mut self, now: u64, ack: u64, ece: bool, echo: u64) -> Note {
        if ack < self.snd_una {
            return Note::Stale;
        }
        if ack == self.snd_una {
            return self.on_duplicate(ack);
        }
        let newly = ack - self.snd_una;
        // RFC 7323 §4.1: an ACK of new data yields an RTT sample from its echo.
        self.sample_rtt(now.saturating_sub(echo));
        let marked = self.dctcp_account(ack, newly, ece);
        self.snd_una = ack;
        // SND.UNA moved: the next timeout is for a segment the timer has not resent.
        self.timeouts_in_a_row = 0;
        self.snd_max = self.snd_max.max(ack);
        self.snd_nxt = self.snd_nxt.max(ack);
        let partial = self.in_recovery && self.algorithm != Algorithm::Reno && ack < self.recover;
        if self.snd_una >= self.snd_max {
            // RFC 6298 §5.2: "When all outstanding data has been
            // acknowledged, turn off the retransmission timer."
            self.rto_at = None;
        } else if !partial || self.partials == 0 {
            // RFC 6298 §5.3: "When an ACK is received that acknowledges new
            // data, restart the retransmission timer so that it will expire
            // after RTO seconds". In NewReno's fast recovery only the first
            // partial ACK does: "For the first partial ACK that arrives
            // during fast recovery, also reset the retransmit timer"
            // (RFC 6582 §3.2 step 3). Later partial ACKs leave it running,
            // so that when many segments of one window are lost the timer
            // fires and slow start resends them, rather than fast recovery
            // resending one per RTT. This is the "Impatient" variant;
            // restarting on every partial ACK is "Slow-but-Steady", which
            // the specification does not choose.
            self.rto_at = Some(now + self.rto);
        }

        if self.in_recovery {
            if !partial {
                // RFC 5681 §3.2 step 6 (Reno: any new ACK), RFC 6582 §3.2 step 3
                // full ACK, option (2): cwnd = ssthresh. Exit fast recovery.
                self.cwnd = self.ssthresh;
                self.in_recovery = false;
                self.dupacks = 0;
                Note::Recovered
            } else {
                // RFC 6582 §3.2 step 3, partial ACK: retransmit the first
                // unacknowledged segment, deflate by the newly acknowledged
                // bytes, add one SMSS back, stay in fast recovery.
                self.retransmit = Some(self.snd_una);
                self.cwnd = self.cwnd.saturating_sub(newly * MSS) + MSS;
                self.partials += 1;
                Note::Partial { seq: self.snd_una }
            }
        } else if marked {
            self.dupacks = 0;
            self.ecn_cut();
            Note::EcnCut
        } else {
            self.dupacks = 0;
            self.grow(now, newly)
        }
    }

    fn on_duplicate(&mut self, ack: u64) -> Note {
        if self.snd_max == self.snd_una {
            // Not a duplicate: nothing is outstanding (RFC 5681 §2, condition (a)).
            return Note::Stale;
        }
        self.dupacks += 1;
        if self.in_recovery {
            // RFC 5681 §3.2 step 4: each further duplicate inflates cwnd by SMSS.
            self.cwnd += MSS;
            return Note::Inflated;
        }
        if self.dupacks != 3 {
            return Note::Duplicate(self.dupacks);
        }
        // RFC 6582 §3.2 step 2: only if the ACK covers more than `recover`.
        if self.algorithm != Algorithm::Reno && ack < self.recover {
            return Note::Guarded;
        }
        self.recover = self.snd_max;
        self.set_ssthresh(false);
        // RFC 5681 §3.2 step 3: retransmit SND.UNA, cwnd = ssthresh + 3·SMSS.
        self.retransmit = Some(self.snd_una);
        self.cwnd = self.ssthresh + 3 * MSS;
        self.in_recovery = true;
        // A new recovery: its first partial ACK restarts the timer again.
        self.partials = 0;
        self.fast_retransmits += 1;
        Note::FastRetransmit { seq: self.snd_una }
    }

    /// The retransmission timer fired at `now`.
    pub fn on_timeout(&mut self, now: u64) -> Note {
        // RFC 5681 §3.1: ssthresh = max(FlightSize/2, 2·SMSS) (equation 4)
        // applies when the timer detects a loss and "the given segment has
        // not yet been resent by way of the retransmission timer"; "when a
        // TCP sender detects segment loss using the retransmission timer and
        // the given segment has already been retransmitted by way of the
        // retransmission timer at least once, the value of ssthresh is held
        // constant." Without this a backed-off timeout would cut again what
        // the first one already cut. RFC 9438 §4.8 has CUBIC reduce cwnd on
        // a timeout as Reno does and set ssthresh with β_cubic as in §4.6;
        // this model reads Reno's rule as holding, with ssthresh, the W_max
        // and cwnd_prior recorded alongside it, so a retry of the same
        // timeout is not a second congestion event.
        if self.timeouts_in_a_row == 0 {
            self.set_ssthresh(true);
        }
        self.timeouts_in_a_row += 1;
        // RFC 5681 §3.1: "cwnd MUST be set to no more than the loss window,
        // LW, which equals 1 full-sized segment", on every timeout.
        self.cwnd = MSS;
        // RFC 6582 §3.2 step 4: record the highest sent in `recover`, leave recovery.
        self.recover = self.snd_max;
        self.in_recovery = false;
        self.dupacks = 0;
        // Without SACK the sender goes back to SND.UNA and resends from there.
        self.snd_nxt = self.snd_una;
        self.retransmit = None;
        // RFC 6298 §5.5: back the timer off; §5.6: restart it with the new value.
        self.rto = (self.rto * 2).min(RTO_MAX_NS);
        self.rto_at = Some(now + self.rto);
        self.timeouts += 1;
        Note::Timeout { seq: self.snd_una }
    }

    /// ssthresh on a congestion event.
    fn set_ssthresh(&mut self, timeout: bool) {
        let flight = self.flight();
        self.ssthresh = if self.algorithm == Algorithm::Cubic {
            // RFC 9438 §4.6 (and §4.8 for timeouts): flight_size·β_cubic, at least 2 segments.
            // β = 0.7 = 7/10, in integers.
            self.cubic
                .on_congestion(self.cwnd as f64 / MSS as f64, timeout);
            (flight * 7 / 10).max(2 * MSS)
        } else {
            // RFC 5681 §3.1 equation (4): max(FlightSize/2, 2·SMSS).
            (flight / 2).max(2 * MSS)
        };
    }

    fn grow(&mut self, now: u64, newly: u64) -> Note {
        if self.in_slow_start() {
            // RFC 5681 §3.1 equation (2): cwnd += min(N, SMSS).
            self.cwnd += (newly * MSS).min(MSS);
            return Note::Grew { slow_start: true };
        }
        self.cwnd = if self.algorithm == Algorithm::Cubic {
            let cwnd = self.cwnd as f64 / MSS as f64;
            let next = self.cubic.on_ack(cwnd, newly as f64, now, self.srtt);
            ((next * MSS as f64) as u64).max(self.cwnd)
        } else {
            // RFC 5681 §3.1 equation (3): cwnd += SMSS·SMSS/cwnd, at least 1 byte.
            self.cwnd + (MSS * MSS / self.cwnd).max(1)
        };
        Note::Grew { slow_start: false }
    }

    /// RFC 8257 §3.3 steps 1–8; returns whether this ACK calls for a cut.
    fn dctcp_account(&mut self, ack: u64, newly: u64, ece: bool) -> bool {
        let snd_nxt = self.snd_nxt;
        let Some(d) = self.dctcp.as_mut() else {
            return false;
        };
        let bytes = newly * MSS;
        d.bytes_acked += bytes;
        if ece {
            d.bytes_marked += bytes;
        }
        if ack > d.window_end {
            // End of an observation window: α ← α·(1 − g) + g·M, M = marked/acked.
            let m = d.bytes_marked * ALPHA_ONE / d.bytes_acked.max(1);
            d.alpha = d.alpha - (d.alpha >> G_SHIFT) + (m >> G_SHIFT);
            d.window_end = snd_nxt;
            d.bytes_acked = 0;
            d.bytes_marked = 0;
        }
        // React at most once per window of data (RFC 8257 §3.3, after RFC 3168).
        ece && !self.in_recovery && ack > d.cwr_end
    }

    /// cwnd ← cwnd·(1 − α/2), at least 2 segments (Linux `dctcp_ssthresh`),
    /// and ssthresh with it, as for any congestion signal (RFC 3168 §6.1.2).
    fn ecn_cut(&mut self) {
        let snd_nxt = self.snd_nxt;
        let Some(d) = self.dctcp.as_mut() else {
            return;
        };
        let cut = self.cwnd * d.alpha / (2 * ALPHA_ONE);
        self.cwnd = (self.cwnd - cut).max(2 * MSS);
        self.ssthresh = self.cwnd;
        d.cwr_end = snd_nxt;
        self.ecn_cuts += 1;
    }

    /// RFC 6298 §2.2–§2.4 (clock granularity G taken as 0).
    fn sample_rtt(&mut self, r: u64) {
        self.last_rtt = r;
        if self.srtt == 0 {
            self.srtt = r.max(1);
            self.rttvar = r / 2;
        } else {
            let diff = self.srtt.abs_diff(r);
            self.rttvar = (3 * self.rttvar + diff) / 4;
            self.srtt = (7 * self.srtt + r) / 8;
        }
        self.set_rto();
    }

    /// RTO = SRTT + max(4·RTTVAR, rto_min), at most `TCP_RTO_MAX`. Linux
    /// floors the variance term, not the sum: `tcp_rtt_estimator` keeps
    /// `rttvar_us` (its 4·RTTVAR) at least `tcp_rto_min_us`, and
    /// `__tcp_set_rto` returns `srtt + rttvar_us` (net/ipv4/tcp_input.c,
    /// include/net/tcp.h), so the RTO is at least SRTT + 200 ms, where
    /// RFC 6298 §2.4 would round a smaller sum up to its floor.
    fn set_rto(&mut self) {
        self.rto = self.base_rto();
    }

    /// The RTO the estimator gives now, before any backoff doubles it.
    pub fn base_rto(&self) -> u64 {
        let variance = (4 * self.rttvar).max(self.rto_min);
        (self.srtt + variance).min(RTO_MAX_NS)
    }

    /// When a tail loss probe would go out, had this sender SACK and TLP
    /// (Linux's defaults; this sender has neither): PTO = 2·SRTT after the
    /// later of the last send and the last timer restart, plus WCDelAckT if
    /// only one segment is in flight, and never after the RTO would fire
    /// (RFC 8985 §7.2). `None` when no timer runs.
    pub fn probe_at(&self) -> Option<u64> {
        let rto_at = self.rto_at?;
        let armed = rto_at.saturating_sub(self.rto).max(self.last_send_at);
        let mut pto = 2 * self.srtt;
        if self.snd_max - self.snd_una == 1 {
            pto += WORST_CASE_DELAYED_ACK_NS;
        }
        Some((armed + pto).min(rto_at))
    }

    /// A new floor for the variance term (incast's fine-grained RTO fix),
    /// with the RTO recomputed from it.
    pub fn set_rto_min(&mut self, rto_min: u64) {
        self.rto_min = rto_min;
        self.set_rto();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sender with `w` segments in flight, as if they had all been sent at 0.
    fn with_flight(algorithm: Algorithm, w: u64) -> Sender {
        let mut s = Sender::new(algorithm, RTO_MIN_LINUX_NS, false);
        s.cwnd = w * MSS;
        s.ssthresh = w * MSS;
        while s.next_send(0).is_some() {}
        assert_eq!(s.snd_nxt, w);
        s
    }

    #[test]
    fn slow_start_doubles_cwnd_each_window() {
        let mut s = Sender::new(Algorithm::Reno, RTO_MIN_LINUX_NS, false);
        let mut t = 0;
        // From Linux's initial window of 10 segments.
        for expected in [20, 40, 80, 160] {
            while s.next_send(t).is_some() {}
            t += 1_000_000;
            let end = s.snd_nxt;
            for ack in s.snd_una + 1..=end {
                s.on_ack(t, ack, false, 0);
            }
            assert_eq!(s.cwnd, expected * MSS);
        }
    }

    #[test]
    fn congestion_avoidance_adds_about_one_segment_per_window() {
        let mut s = with_flight(Algorithm::Reno, 10);
        for ack in 1..=10 {
            s.on_ack(1_000, ack, false, 0);
        }
        let grown = s.cwnd - 10 * MSS;
        assert!(grown > 9 * MSS / 10 && grown <= MSS, "grew {grown} bytes");
    }

    #[test]
    fn third_duplicate_ack_halves_and_inflates() {
        let mut s = with_flight(Algorithm::Reno, 20);
        s.on_ack(1, 1, false, 0);
        // Segment 1 lost: the next three ACKs repeat 1.
        assert_eq!(s.on_ack(2, 1, false, 0), Note::Duplicate(1));
        assert_eq!(s.on_ack(3, 1, false, 0), Note::Duplicate(2));
        let flight = s.flight();
        assert_eq!(s.on_ack(4, 1, false, 0), Note::FastRetransmit { seq: 1 });
        assert_eq!(s.ssthresh, flight / 2);
        assert_eq!(s.cwnd, s.ssthresh + 3 * MSS);
        assert_eq!(s.next_send(4), Some(1), "the hole goes out first");
        assert_eq!(s.on_ack(5, 1, false, 0), Note::Inflated);
        assert_eq!(s.cwnd, s.ssthresh + 4 * MSS);
    }

    #[test]
    fn reno_leaves_recovery_on_a_partial_ack_and_newreno_does_not() {
        for (algorithm, stays) in [(Algorithm::Reno, false), (Algorithm::NewReno, true)] {
            let mut s = with_flight(algorithm, 20);
            for _ in 0..3 {
                s.on_ack(1, 0, false, 0);
            }
            assert!(s.in_recovery);
            // Segments 0 and 5 were lost: the retransmission of 0 brings ACK 5.
            let note = s.on_ack(2, 5, false, 0);
            assert_eq!(s.in_recovery, stays, "{algorithm:?}");
            if stays {
                assert_eq!(note, Note::Partial { seq: 5 });
                assert_eq!(s.retransmit, Some(5));
                s.on_ack(3, 20, false, 0);
                assert!(!s.in_recovery);
            }
            assert_eq!(s.cwnd, s.ssthresh);
        }
    }

    #[test]
    fn newreno_guard_ignores_duplicates_of_old_data_after_a_timeout() {
        let mut s = with_flight(Algorithm::NewReno, 8);
        s.on_timeout(10);
        assert_eq!(s.recover, 8);
        for _ in 0..3 {
            s.next_send(11);
        }
        s.on_ack(12, 2, false, 0);
        s.on_ack(12, 2, false, 0);
        s.on_ack(12, 2, false, 0);
        assert_eq!(s.on_ack(12, 2, false, 0), Note::Guarded);
        assert!(!s.in_recovery);
    }

    #[test]
    fn timeout_drops_to_one_segment() {
        let mut s = with_flight(Algorithm::Reno, 16);
        let rto = s.rto;
        assert_eq!(s.rto_at, Some(rto));
        assert_eq!(s.on_timeout(rto), Note::Timeout { seq: 0 });
        assert_eq!(s.cwnd, MSS);
        assert_eq!(s.ssthresh, 8 * MSS);
        assert_eq!(s.rto, 2 * rto, "backed off");
        assert_eq!(s.next_send(rto), Some(0));
        assert_eq!(s.next_send(rto), None, "one segment of window");
        // A tiny flight still leaves ssthresh at 2·SMSS.
        let mut small = with_flight(Algorithm::Reno, 1);
        small.on_timeout(5);
        assert_eq!(small.ssthresh, 2 * MSS);
    }

    #[test]
    fn cubic_after_a_loss_sits_at_beta_times_w_max() {
        let mut s = with_flight(Algorithm::Cubic, 100);
        for _ in 0..3 {
            s.on_ack(1, 0, false, 0);
        }
        assert_eq!(s.cubic.w_max, 100.0);
        s.on_ack(2, 100, false, 0);
        assert_eq!(s.cwnd, 70 * MSS);
        let beta_w_max = super::super::cubic::BETA * s.cubic.w_max * MSS as f64;
        assert!((s.cwnd as f64 - beta_w_max).abs() < 1.0);
    }

    #[test]
    fn rtt_samples_come_from_the_echoed_timestamp() {
        let mut s = with_flight(Algorithm::Reno, 4);
        s.on_ack(100, 1, false, 0);
        assert_eq!((s.last_rtt, s.srtt, s.rttvar), (100, 100, 50));
        // RFC 6298 §2.3: RTTVAR ← ¾·RTTVAR + ¼·|SRTT − R|, SRTT ← ⅞·SRTT + ⅛·R.
        s.on_ack(400, 2, false, 100);
        assert_eq!((s.last_rtt, s.srtt, s.rttvar), (300, 125, 87));
        // Linux: SRTT + max(4·RTTVAR, 200 ms), the floor under the variance.
        assert_eq!(s.rto, 125 + RTO_MIN_LINUX_NS, "SRTT + the 200 ms floor");
        // A duplicate ACK carries no sample.
        s.on_ack(900, 2, false, 0);
        assert_eq!(s.last_rtt, 300);
    }

    /// Issue 30: Linux adds its RTO floor to SRTT (`rttvar_us` ≥
    /// `tcp_rto_min`, RTO = SRTT + rttvar_us); a clamp of the sum would give
    /// exactly 200 ms for a 40 ms path.
    #[test]
    fn the_rto_floor_is_added_to_srtt_not_a_clamp_of_the_sum() {
        let mut s = Sender::new(Algorithm::Reno, RTO_MIN_LINUX_NS, false);
        s.seed_rtt(40 * MS);
        // First sample: SRTT = 40 ms, 4·RTTVAR = 80 ms < 200 ms.
        assert_eq!(s.rto, 240 * MS);
        // A large variance wins over the floor: SRTT + 4·RTTVAR.
        let mut wide = Sender::new(Algorithm::Reno, RTO_MIN_LINUX_NS, false);
        wide.seed_rtt(400 * MS);
        assert_eq!(wide.rto, 400 * MS + 800 * MS);
        // A new floor recomputes the RTO with the same rule.
        s.set_rto_min(MS);
        assert_eq!(s.rto, 40 * MS + 80 * MS);
    }

    #[test]
    fn a_tail_loss_probe_is_due_two_srtt_after_the_last_send() {
        let mut s = Sender::new(Algorithm::NewReno, RTO_MIN_LINUX_NS, false);
        s.seed_rtt(100_000);
        while s.next_send(1_000).is_some() {}
        // Ten segments out at 1 µs, SRTT 100 µs: probe at 201 µs, long
        // before the RTO (100 µs + 200 ms later).
        assert_eq!(s.probe_at(), Some(201_000));
        assert_eq!(s.rto_at, Some(1_000 + 100_000 + RTO_MIN_LINUX_NS));
        // One segment in flight: the probe also waits out a delayed ACK,
        // but still no later than the RTO.
        s.on_ack(150_000, 9, false, 1_000);
        let rto_at = s.rto_at.unwrap();
        assert_eq!(
            s.probe_at(),
            Some((150_000 + 2 * s.srtt + WORST_CASE_DELAYED_ACK_NS).min(rto_at))
        );
        s.on_ack(160_000, 10, false, 1_000);
        assert_eq!(s.probe_at(), None, "nothing in flight, no timer");
    }

    #[test]
    fn the_initial_window_is_linuxs_ten_segments() {
        let s = Sender::new(Algorithm::Cubic, RTO_MIN_LINUX_NS, false);
        assert_eq!(s.cwnd, 10 * MSS);
    }

    #[test]
    fn dctcp_cuts_by_half_alpha_once_per_window() {
        let mut s = with_flight(Algorithm::NewReno, 20);
        s.dctcp = Some(Dctcp::default());
        // α starts at 1: the first echo halves the window.
        assert_eq!(s.on_ack(1, 1, true, 0), Note::EcnCut);
        let after = s.cwnd;
        assert_eq!(after, 10 * MSS);
        s.on_ack(2, 2, true, 0);
        assert!(s.cwnd >= after, "no second cut in the same window");
        // A window with no marks: α decays by 1/16.
        let mut quiet = with_flight(Algorithm::NewReno, 20);
        quiet.dctcp = Some(Dctcp::default());
        quiet.on_ack(1, 1, false, 0);
        assert_eq!(
            quiet.dctcp.as_ref().unwrap().alpha,
            ALPHA_ONE - ALPHA_ONE / 16
        );
    }

    const MS: u64 = 1_000_000;

    /// RFC 6298 §5.3 outside recovery: every ACK of new data restarts the
    /// timer; §5.2: the ACK of everything stops it.
    #[test]
    fn every_new_ack_restarts_the_timer_outside_recovery() {
        let mut s = with_flight(Algorithm::NewReno, 20);
        // Samples of 10 and 20 ms: 4·RTTVAR stays under the 200 ms floor,
        // so the RTO is SRTT + 200 ms (10 ms, then 10 + 10/8 = 11.25 ms).
        s.on_ack(10 * MS, 5, false, 0);
        assert_eq!(s.rto, 10 * MS + RTO_MIN_LINUX_NS);
        assert_eq!(s.rto_at, Some(10 * MS + s.rto));
        s.on_ack(20 * MS, 10, false, 0);
        assert_eq!(s.rto, 11_250_000 + RTO_MIN_LINUX_NS);
        assert_eq!(s.rto_at, Some(20 * MS + s.rto));
        s.on_ack(30 * MS, 20, false, 0);
        assert_eq!(s.rto_at, None, "all acknowledged");
    }

    /// RFC 6582 §3.2 step 3: "For the first partial ACK that arrives during
    /// fast recovery, also reset the retransmit timer"; later partial ACKs
    /// leave it running (the Impatient variant), so with many holes in one
    /// window the timer fires. Each new recovery has its own first partial.
    #[test]
    fn newreno_restarts_the_timer_on_the_first_partial_ack_only() {
        for algorithm in [Algorithm::NewReno, Algorithm::Cubic] {
            let mut s = with_flight(algorithm, 20);
            assert_eq!(s.rto_at, Some(RTO_INITIAL_NS), "sent at 0, no sample yet");
            // Segments 0, 5 and 10 are lost: ACK 0 comes back three times.
            for t in 1..=3 {
                s.on_ack(t * MS, 0, false, 0);
            }
            assert!(s.in_recovery);
            assert_eq!(s.rto_at, Some(RTO_INITIAL_NS), "duplicates leave the timer");
            // The resent 0 brings ACK 5: the first partial ACK restarts it.
            assert_eq!(s.on_ack(10 * MS, 5, false, 0), Note::Partial { seq: 5 });
            let first = Some(10 * MS + s.rto);
            assert_eq!(s.rto_at, first);
            // The resent 5 brings ACK 10: a second partial ACK does not.
            assert_eq!(s.on_ack(20 * MS, 10, false, 0), Note::Partial { seq: 10 });
            assert_eq!(s.rto_at, first, "{algorithm:?}: only the first partial ACK");
            // The full ACK ends recovery; all is acknowledged, the timer stops.
            assert_eq!(s.on_ack(30 * MS, 20, false, 0), Note::Recovered);
            assert_eq!(s.rto_at, None);

            // A second loss episode: its first partial ACK restarts the timer.
            while s.next_send(30 * MS).is_some() {}
            let end = s.snd_nxt;
            for t in 31..=33 {
                s.on_ack(t * MS, 20, false, 0);
            }
            assert!(s.in_recovery);
            assert_eq!(s.on_ack(40 * MS, 22, false, 0), Note::Partial { seq: 22 });
            assert_eq!(s.rto_at, Some(40 * MS + s.rto), "{algorithm:?}");
            assert!(22 < end);
        }
    }

    /// RFC 5681 §3.1: when the timer fires again for a segment it has
    /// already resent, "the value of ssthresh is held constant"; cwnd still
    /// drops to the loss window. Once SND.UNA moves on, a timeout for the
    /// new segment computes ssthresh afresh.
    ///
    /// To tell holding from recomputing, FlightSize must change between the
    /// two timeouts: late duplicate ACKs of segment 0 (from 1–7, which did
    /// arrive) put Reno, which has no `recover` guard, into fast recovery,
    /// whose inflated window sends segments 8–10.
    #[test]
    fn a_second_timeout_for_the_same_segment_holds_ssthresh() {
        let mut s = with_flight(Algorithm::Reno, 8);
        s.on_timeout(s.rto_at.unwrap());
        // max(FlightSize/2, 2·SMSS) = 4 segments.
        assert_eq!((s.ssthresh, s.cwnd), (4 * MSS, MSS));
        assert_eq!(s.next_send(RTO_INITIAL_NS), Some(0), "the timer resends 0");
        for _ in 1..=7 {
            s.on_ack(RTO_INITIAL_NS + 1, 0, false, 0);
        }
        // ssthresh 4 + 3 + 4 more duplicates = 11 segments of window.
        assert_eq!(s.cwnd, 11 * MSS);
        while s.next_send(RTO_INITIAL_NS + 1).is_some() {}
        assert_eq!(s.snd_max, 11);
        // The backed-off timer fires for segment 0 again. Recomputed,
        // ssthresh would be 11/2 = 5.5 segments; it is held at 4.
        s.on_timeout(s.rto_at.unwrap());
        assert_eq!(s.ssthresh, 4 * MSS, "held constant");
        assert_eq!(s.cwnd, MSS, "cwnd still goes to the loss window");
        assert_eq!(s.timeouts_in_a_row, 2);
        // ACK 1: segment 1 is now the oldest; its timeout is a new loss:
        // FlightSize = 10 segments, ssthresh 5.
        let t = s.rto_at.unwrap() - s.rto; // when the second timeout fired
        assert_eq!(s.next_send(t), Some(0));
        s.on_ack(t + 5 * MS, 1, false, t);
        s.on_timeout(s.rto_at.unwrap());
        assert_eq!(s.ssthresh, 5 * MSS);
        assert_eq!(s.timeouts_in_a_row, 1);
    }

    /// The same for CUBIC: a second timeout for the same segment leaves
    /// ssthresh, W_max and cwnd_prior as the first left them (it is one
    /// congestion event, RFC 5681 §3.1 with RFC 9438 §4.8); cwnd is one
    /// segment after each.
    #[test]
    fn cubic_keeps_w_max_across_repeated_timeouts_of_one_segment() {
        for fast_convergence in [false, true] {
            let mut s = with_flight(Algorithm::Cubic, 100);
            s.cubic.fast_convergence = fast_convergence;
            s.on_timeout(s.rto_at.unwrap());
            // ssthresh = 0.7 × 100 segments of flight; W_max = cwnd = 100.
            assert_eq!(s.ssthresh, 70 * MSS);
            assert_eq!((s.cubic.w_max, s.cubic.cwnd_prior), (100.0, 100.0));
            s.next_send(s.rto_at.unwrap());
            s.on_timeout(s.rto_at.unwrap());
            assert_eq!(s.cwnd, MSS);
            assert_eq!(s.ssthresh, 70 * MSS);
            // Recomputed from cwnd = 1 segment, W_max would be 1 (or 0.85
            // with fast convergence), and the climb back would aim there.
            assert_eq!((s.cubic.w_max, s.cubic.cwnd_prior), (100.0, 100.0));
            assert!(s.cubic.after_timeout);
        }
    }
}
