//! Time: the next event, the retransmission timer (RFC 6298), the RTT
//! estimate behind it, and TIME-WAIT (RFC 9293 §3.10.8).

use super::seq::{le, lt};
use super::user::notation;
use super::{
    Ending, Endpoint, Fate, Handshake, Side, TcpState, R2_MS, R2_SYN_MS, RTO_MAX_MS, RTO_MIN_MS,
    SYN,
};
use crate::model::{Event, Outcome, Refusal};

/// What happens next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    Arrival(u32),
    Retransmit(Side),
    TimeWaitEnds(Side),
}

impl Handshake {
    /// The earliest pending event. At equal times, arrivals come first (in
    /// the order sent), then timers, the client's before the server's.
    pub fn next_event(&self) -> Option<(u64, Next)> {
        let arrivals = self
            .segments
            .iter()
            .filter(|s| s.fate == Fate::InFlight)
            .map(|s| ((s.arrives_ms, 0, s.id), Next::Arrival(s.id)));
        let timers = [Side::Client, Side::Server].into_iter().flat_map(|side| {
            let ep = self.endpoint(side);
            let rank = side as u32;
            let rtx = ep
                .rtx_timer_ms
                .map(|t| ((t, 1, rank), Next::Retransmit(side)));
            let tw = ep
                .time_wait_until_ms
                .map(|t| ((t, 2, rank), Next::TimeWaitEnds(side)));
            rtx.into_iter().chain(tw)
        });
        arrivals
            .chain(timers)
            .min_by_key(|(key, _)| *key)
            .map(|((t, _, _), next)| (t, next))
    }

    pub(super) fn advance(&mut self) -> Outcome {
        let Some((t, next)) = self.next_event() else {
            return Err(Refusal::new(
                "Nothing is in flight and no timer is running: there is no next event to wait for.",
            ));
        };
        self.now_ms = t;
        Ok(match next {
            Next::Arrival(id) => self.deliver(id),
            Next::Retransmit(side) => self.retransmit(side),
            Next::TimeWaitEnds(side) => {
                self.ep(side).delete_tcb(TcpState::Closed, Ending::Closed);
                vec![Event::done(format!(
                    "At {t} ms TIME-WAIT ends: 2·MSL has passed with no retransmitted FIN, so the {} deletes its TCB and is CLOSED (RFC 9293 §3.10.8). Only now can the same pair of ports be reused without risk from old duplicates.",
                    side.name()
                ))
                .at(side.name())
                .at(format!("timer-{}", side.name()))]
            }
        })
    }

    /// The retransmission timer expired (RFC 6298 5.4–5.6; RFC 9293 §3.10.8):
    /// resend the oldest unacknowledged segment, double RTO, restart the
    /// timer; or give up once R2 is reached (RFC 9293 §3.8.3).
    fn retransmit(&mut self, side: Side) -> Vec<Event> {
        let now = self.now_ms;
        let ack = self.ack_field(side);
        let ep = self.ep(side);
        let Some(head) = ep.rtx.first().copied() else {
            ep.rtx_timer_ms = None;
            return Vec::new();
        };
        let r2 = if head.flags & SYN != 0 {
            R2_SYN_MS
        } else {
            R2_MS
        };
        let who = side.name();
        if now - head.first_sent_ms >= r2 {
            let to = if ep.state == TcpState::SynReceived && ep.passive {
                TcpState::Listen
            } else {
                TcpState::Closed
            };
            ep.delete_tcb(to, Ending::TimedOut);
            self.counters.timeouts += 1;
            return vec![Event::fault(format!(
                "At {now} ms the {who} has retransmitted for {} s with no answer: it gives up on the connection (RFC 9293 §3.8.3, threshold R2) and is {}.",
                (now - head.first_sent_ms) / 1000,
                to.label()
            ))
            .at(who)];
        }
        let old_rto = ep.rto_ms;
        ep.rto_ms = (ep.rto_ms * 2).min(RTO_MAX_MS);
        ep.rtx_timer_ms = Some(now + ep.rto_ms);
        // Karn: a retransmitted segment gives no RTT sample (RFC 6298 §3).
        ep.rtt_probe = None;
        ep.rtx[0].retransmitted = true;
        if head.flags & SYN != 0 {
            ep.syn_timed_out = true;
        }
        let rto = ep.rto_ms;
        self.counters.retransmissions += 1;
        let id = self.emit(side, head.seq, ack, head.flags, head.len, true);
        vec![Event::warn(format!(
            "At {now} ms the {who}'s retransmission timer ({old_rto} ms) expires with SEQ {} unacknowledged: it resends it as segment {id} {} and doubles its RTO to {rto} ms (RFC 6298, rules 5.4–5.6).",
            head.seq,
            notation(head.seq, ack, head.flags, head.len)
        ))
        .at(format!("timer-{who}"))
        .at(format!("seg-{id}"))]
    }

    /// Takes an acceptable ACK (SND.UNA < SEG.ACK =< SND.NXT): advances
    /// SND.UNA, drops what it covers from the retransmission queue (RFC
    /// 9293 §3.10.7.4), takes an RTT sample, and stops or restarts the
    /// timer (RFC 6298 5.2, 5.3). False when it acknowledges nothing new.
    pub(super) fn take_ack(&mut self, side: Side, ack: u32) -> bool {
        let now = self.now_ms;
        let ep = self.ep(side);
        if !(lt(ep.snd_una, ack) && le(ack, ep.snd_nxt)) {
            return false;
        }
        ep.snd_una = ack;
        ep.rtx.retain(|o| !le(o.seq.wrapping_add(o.seq_len()), ack));
        if let Some((end, sent)) = ep.rtt_probe {
            if le(end, ack) {
                sample_rtt(ep, now - sent);
                ep.rtt_probe = None;
            }
        }
        ep.rtx_timer_ms = if ep.rtx.is_empty() {
            None
        } else {
            Some(now + ep.rto_ms)
        };
        true
    }

    /// Enters TIME-WAIT, or restarts it: 2·MSL from now, no other timer.
    pub(super) fn start_time_wait(&mut self, side: Side) {
        let until = self.now_ms + 2 * u64::from(self.config.msl_ms);
        let ep = self.ep(side);
        ep.state = TcpState::TimeWait;
        ep.time_wait_until_ms = Some(until);
        ep.rtx_timer_ms = None;
    }
}

/// RFC 6298 §2: the first sample R sets SRTT = R, RTTVAR = R/2; later ones
/// RTTVAR = 3/4·RTTVAR + 1/4·|SRTT − R|, SRTT = 7/8·SRTT + 1/8·R; then
/// RTO = SRTT + max(G, 4·RTTVAR) with G = 1 ms (this model's clock), at
/// least 1 s (2.4) and at most 60 s (2.5).
fn sample_rtt(ep: &mut Endpoint, r: u64) {
    match ep.srtt_ms {
        None => {
            ep.srtt_ms = Some(r);
            ep.rttvar_ms = r / 2;
        }
        Some(srtt) => {
            ep.rttvar_ms = (3 * ep.rttvar_ms + srtt.abs_diff(r)) / 4;
            ep.srtt_ms = Some((7 * srtt + r) / 8);
        }
    }
    let srtt = ep.srtt_ms.unwrap_or(r);
    ep.rto_ms = (srtt + (4 * ep.rttvar_ms).max(1)).clamp(RTO_MIN_MS, RTO_MAX_MS);
}
