//! Narration and "why" for the congestion demo, built from live numbers.

use super::cubic::Region;
use super::path::{Admission, Happening, Path};
use super::sender::{Algorithm, Note, Sender, MSS};
use super::{packets, segments_tenths, Congestion};
use crate::model::Event;
use crate::text::{duration, fixed, plural};

fn segs(bytes: u64) -> String {
    fixed(segments_tenths(bytes) as i64, 1)
}

fn flow_key(f: usize) -> String {
    format!("flow-{}", f + 1)
}

/// What happened during one round trip, for a short summary.
#[derive(Default)]
pub struct Tally {
    acks: u64,
    drops: [u64; 2],
    /// (flow, segment, ssthresh, cwnd) at each fast retransmit.
    fast: Vec<(usize, u64, u64, u64)>,
    /// (flow, segment, ssthresh, ssthresh held) at each timeout.
    timeouts: Vec<(usize, u64, u64, bool)>,
    /// (flow, cwnd) when fast recovery ended.
    recovered: Vec<(usize, u64)>,
    partial: u64,
}

impl Tally {
    pub fn add(&mut self, path: &Path, h: Happening) {
        match h {
            Happening::Arrived {
                flow,
                admission: Admission::Overflow | Admission::Injected,
                ..
            } => self.drops[flow] += 1,
            Happening::Acked { flow, note, .. } => {
                self.acks += 1;
                let s = &path.flows[flow].sender;
                match note {
                    Note::FastRetransmit { seq } => self.fast.push((flow, seq, s.ssthresh, s.cwnd)),
                    Note::Recovered => self.recovered.push((flow, s.cwnd)),
                    Note::Partial { .. } => self.partial += 1,
                    _ => {}
                }
            }
            Happening::TimedOut { flow, seq, .. } => {
                let s = &path.flows[flow].sender;
                self.timeouts.push((flow, seq, s.ssthresh, held(s)))
            }
            _ => {}
        }
    }
}

/// The last timeout resent a segment the timer had already resent, so
/// ssthresh was held (RFC 5681 §3.1).
fn held(s: &Sender) -> bool {
    s.timeouts_in_a_row > 1
}

fn phase(s: &Sender) -> &'static str {
    if s.in_recovery {
        "fast recovery"
    } else if s.in_slow_start() {
        "slow start"
    } else if s.algorithm == Algorithm::Cubic {
        match s.cubic.region {
            Region::RenoFriendly => "CUBIC, Reno-friendly",
            Region::Concave => "CUBIC, concave",
            Region::Convex => "CUBIC, convex",
        }
    } else {
        "congestion avoidance"
    }
}

/// The narration of one round trip.
pub fn summary(m: &Congestion, from: u64, before: &[u64], t: &Tally) -> Vec<Event> {
    let p = &m.path;
    let mut out = Vec::new();
    for (f, flow) in m.active() {
        let s = &flow.sender;
        out.push(
            Event::info(format!(
                "{} → {}: flow {} cwnd {} → {} segments ({}); queue {}/{}.",
                duration(from),
                duration(p.now),
                f + 1,
                segs(before[f]),
                segs(s.cwnd),
                phase(s),
                p.queue.len(),
                p.buffer
            ))
            .at(flow_key(f))
            .at("queue"),
        );
    }
    let drops = t.drops[0] + t.drops[1];
    if drops > 0 {
        out.push(
            Event::fault(format!(
                "{} lost at the port ({} from flow 1, {} from flow 2).",
                packets(drops),
                t.drops[0],
                t.drops[1]
            ))
            .at("queue"),
        );
    }
    for &(f, seq, ss, cwnd) in &t.fast {
        out.push(
            Event::warn(format!(
                "Flow {}: third duplicate ACK for segment {seq}. ssthresh = {} segments, cwnd = ssthresh + 3 = {}, segment {seq} resent.",
                f + 1,
                segs(ss),
                segs(cwnd)
            ))
            .at(flow_key(f)),
        );
    }
    if t.partial > 0 {
        out.push(Event::info(format!(
            "{} partial ACK{}: NewReno resends the next hole at once and stays in recovery.",
            t.partial,
            plural(t.partial as usize)
        )));
    }
    for &(f, seq, ss, held) in &t.timeouts {
        out.push(
            Event::fault(format!(
                "Flow {}'s retransmission timer fired: cwnd = 1 segment, ssthresh {} {}, segment {seq} resent.",
                f + 1,
                if held { "stays" } else { "=" },
                segs(ss)
            ))
            .at(flow_key(f)),
        );
    }
    for &(f, cwnd) in &t.recovered {
        out.push(
            Event::done(format!(
                "Flow {} left fast recovery: cwnd deflated to ssthresh = {} segments.",
                f + 1,
                segs(cwnd)
            ))
            .at(flow_key(f)),
        );
    }
    if t.acks == 0 && t.timeouts.is_empty() {
        out.push(Event::info("No ACK arrived in this round trip."));
    }
    out
}

/// The narration of a single event.
pub fn happening(m: &Congestion, h: Happening) -> Event {
    let p = &m.path;
    match h {
        Happening::Arrived {
            flow,
            seq,
            admission,
        } => {
            let who = format!("Segment {seq} of flow {}", flow + 1);
            match admission {
                Admission::Queued => Event::info(format!(
                    "{who} joins the buffer ({}/{}).",
                    p.queue.len(),
                    p.buffer
                )),
                Admission::Marked => Event::warn(format!(
                    "{who} joins the buffer marked CE: more than K packets were waiting."
                )),
                Admission::Overflow => Event::fault(format!(
                    "{who} finds all {} places taken and is dropped.",
                    p.buffer
                )),
                Admission::Injected => Event::fault(format!("{who} is lost, as you asked.")),
            }
            .at("queue")
        }
        Happening::Departed { flow, seq } => Event::info(format!(
            "Segment {seq} leaves the port; receiver {} now acknowledges up to {}.",
            flow + 1,
            p.flows[flow].rcv_nxt
        ))
        .at("link")
        .at(format!("receiver-{}", flow + 1)),
        Happening::Acked { flow, ack, note } => ack_line(p, flow, ack, note).at(flow_key(flow)),
        Happening::TimedOut {
            flow,
            seq,
            spurious,
        } => Event::fault(format!(
            "Flow {}'s timer fired after {}: segment {seq} resent, cwnd = 1 segment, ssthresh {}{}.",
            flow + 1,
            duration(p.flows[flow].sender.rto / 2),
            if held(&p.flows[flow].sender) {
                format!(
                    "stays {}, as segment {seq} was already resent by the timer (RFC 5681 §3.1)",
                    segs(p.flows[flow].sender.ssthresh)
                )
            } else {
                format!("= {}", segs(p.flows[flow].sender.ssthresh))
            },
            crate::net::incast::spurious_note(spurious)
        ))
        .at(flow_key(flow)),
    }
}

fn ack_line(p: &Path, f: usize, ack: u64, note: Note) -> Event {
    let s = &p.flows[f].sender;
    let cwnd = segs(s.cwnd);
    match note {
        Note::Grew { slow_start: true } => Event::info(format!(
            "ACK {ack}: slow start adds one segment per ACK, cwnd = {cwnd}."
        )),
        Note::Grew { slow_start: false } if s.algorithm == Algorithm::Cubic => Event::info(format!(
            "ACK {ack}: {} growth toward W_max = {}, cwnd = {cwnd}.",
            phase(s),
            fixed((s.cubic.w_max * 10.0) as i64, 1)
        )),
        Note::Grew { slow_start: false } => Event::info(format!(
            "ACK {ack}: congestion avoidance adds SMSS·SMSS/cwnd = {} bytes, cwnd = {cwnd}.",
            (MSS * MSS / s.cwnd).max(1)
        )),
        Note::Duplicate(n) => Event::warn(format!(
            "Duplicate ACK {n} for segment {ack}: something before it is missing."
        )),
        Note::FastRetransmit { seq } => Event::warn(format!(
            "Third duplicate ACK: segment {seq} resent without waiting for the timer; ssthresh = {}, cwnd = ssthresh + 3 = {cwnd}.",
            segs(s.ssthresh)
        )),
        Note::Guarded => Event::info(format!(
            "A third duplicate ACK, but below recover = {}: echoes of data resent after the timeout, so no new halving.",
            s.recover
        )),
        Note::Inflated => Event::info(format!(
            "Another duplicate: one more segment has left the network, cwnd = {cwnd}."
        )),
        Note::Partial { seq } => Event::warn(format!(
            "Partial ACK {ack}: segment {seq} is missing too and goes at once; still in recovery, cwnd = {cwnd}."
        )),
        Note::Recovered => Event::done(format!(
            "ACK {ack} covers the loss: fast recovery ends, cwnd = ssthresh = {cwnd}."
        )),
        Note::EcnCut => Event::warn(format!("ACK {ack} echoes a mark: cwnd cut to {cwnd}.")),
        Note::Timeout { seq } => Event::fault(format!("Segment {seq} timed out.")),
        Note::Stale => Event::info(format!("ACK {ack} acknowledges nothing new.")),
    }
}

/// How unequal RTTs bear on the shares, true for the algorithms shown.
/// Reno grows one segment per round trip (RFC 5681 §3.1), so the flow with
/// the shorter RTT grows faster. CUBIC's window on its cubic curve is a
/// function of the time since the last reduction, W_cubic(t) (RFC 9438
/// §4.2), whatever the RTT; only its Reno-friendly estimate W_est grows per
/// round trip (§4.3).
fn rtt_share_note(m: &Congestion) -> Option<String> {
    let flows = &m.path.flows;
    if flows[0].base_rtt == flows[1].base_rtt {
        return None;
    }
    let short = if flows[0].base_rtt < flows[1].base_rtt {
        0
    } else {
        1
    };
    let cubic = |f: usize| flows[f].sender.algorithm == Algorithm::Cubic;
    let region = |f: usize| match flows[f].sender.cubic.region {
        Region::RenoFriendly => "Reno-friendly",
        Region::Concave => "concave",
        Region::Convex => "convex",
    };
    Some(match (cubic(0), cubic(1)) {
        (false, false) => {
            "The shorter-RTT flow gets its ACKs sooner and grows faster, so it takes more.".into()
        }
        (true, true) => format!(
            "Both run CUBIC: on its cubic curve a window grows with the time since its last cut, not per round trip, so the shorter RTT alone does not make flow {} grow faster; only in the Reno-friendly region does it. Now flow 1 is in the {} region, flow 2 in the {}.",
            short + 1,
            region(0),
            region(1)
        ),
        (first_is_cubic, _) => {
            let reno = if first_is_cubic { 1 } else { 0 };
            format!(
                "Flow {} ({}) grows one segment per round trip of its own, flow {} (CUBIC) on its cubic curve with elapsed time whatever its RTT: the shares differ by algorithm as well as by RTT.",
                reno + 1,
                flows[reno].sender.algorithm.label(),
                2 - reno
            )
        }
    })
}

/// "Why it matters", from the current numbers.
pub fn why(m: &Congestion) -> Vec<String> {
    let p = &m.path;
    let s = &p.flows[0].sender;
    let bdp = m.bdp_tenths(0);
    let mut out = vec![format!(
        "The pipe holds {} packets ({} Mbit/s × {}); anything beyond that waits in the {}-packet buffer, adding {} of delay per packet queued.",
        fixed(bdp as i64, 1),
        m.link_mbps,
        duration(p.flows[0].base_rtt),
        p.buffer,
        duration(p.serialise_ns),
    )];
    if s.last_rtt > 0 {
        let base = p.flows[0].base_rtt;
        out.push(format!(
            "The last RTT sample was {} against a base of {}: {} of it was queueing.",
            duration(s.last_rtt),
            duration(base),
            duration(s.last_rtt.saturating_sub(base))
        ));
    }
    if p.buffer as u64 * 10 > 4 * bdp {
        out.push(format!(
            "This buffer is {}× the BDP: a loss-based sender only backs off when it is full, so the standing queue makes every packet wait up to {} (bufferbloat).",
            fixed((p.buffer as u64 * 100 / bdp.max(1)) as i64, 1),
            duration(p.buffer as u64 * p.serialise_ns)
        ));
    } else {
        out.push(format!(
            "Each loss halves (Reno) or cuts to 0.7× (CUBIC) the window, and the link stays busy only if the buffer can cover the dip: the link has been busy {} of the time.",
            crate::text::tenths(m.utilisation_tenths())
        ));
    }
    if let Some(j) = m.jain_thousandths() {
        let mut line = format!(
            "Jain's index is {} (1 = equal shares): flow 1 got {} Mbit/s, flow 2 {} Mbit/s.",
            fixed(j as i64, 3),
            fixed(m.goodput_tenths(0) as i64, 1),
            fixed(m.goodput_tenths(1) as i64, 1)
        );
        if let Some(note) = rtt_share_note(m) {
            line.push(' ');
            line.push_str(&note);
        }
        out.push(line);
    }
    out
}
