//! TCP incast: N servers answer one request at once through one switch port.
//!
//! A barrier workload (Phanishayee et al., FAST 2008): the client asks N
//! servers for one block; each answers with a burst of S packets over its own
//! link, all into the client's switch egress port, a drop-tail buffer of B
//! packets. The next request goes out only when every answer is complete. A
//! flow that loses the tail of its burst sees too few duplicate ACKs for fast
//! retransmit (RFC 5681 §3.2), so without SACK and a tail loss probe it waits
//! for its retransmission timer — SRTT + 200 ms in Linux (`TCP_RTO_MIN`),
//! thousands of datacenter RTTs — while the link idles and the whole request
//! waits: goodput collapses. Linux does negotiate SACK and probes the tail
//! 2·SRTT after its last send (RFC 8985 §7); the model computes when that
//! probe would have gone ([`Sender::probe_at`]) and says so, but does not run it.
//!
//! Fixes, as toggles: a bigger buffer (which costs queueing delay), a 1 ms RTO
//! floor (Vasudevan et al., SIGCOMM 2009) and DCTCP (RFC 8257: the port marks
//! CE above K packets, senders cut cwnd by α/2 at most once per window of
//! data, §3.3). The senders are NewReno (RFC 6582) on the shared path in
//! [`crate::net::congestion::path`].
//!
//! Focus keys: `sender-<i>` (server i, 1-based), `port` (the egress buffer),
//! `link` (the client's link), `client`, `chart` (goodput against N).

mod curve;
#[cfg(test)]
mod tests;

pub use curve::{goodput_curve, run, CurvePoint, Sweep, CURVE_SENDERS};

use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::net::congestion::path::{serialise_ns, Admission, Flow, Happening, Path};
use crate::net::congestion::sender::{Algorithm, Dctcp, Note, Sender, MSS, RTO_MIN_LINUX_NS};
use crate::text::{duration, fixed, plural};
use crate::Bound;
use serde::{Deserialize, Serialize};

/// Servers N.
pub const SENDERS: Bound<usize> = Bound::new("number of servers", "", 1, 64);
/// Packets S in each answer.
pub const BURST: Bound<u64> = Bound::new("answer size", " packets", 1, 64);
/// The port's buffer B, and the bigger buffer's (no smaller than B).
pub const BUFFER: Bound<usize> = Bound::new("port buffer", " packets", 4, 4096);
/// The client's link rate.
pub const LINK_MBPS: Bound<u64> = Bound::new("link rate", " Mbit/s", 100, 10_000);
/// The base RTT.
pub const RTT_US: Bound<u64> = Bound::new("base RTT", " µs", 10, 1_000);
/// Requests in a run.
pub const REQUESTS: Bound<u32> = Bound::new("number of requests", "", 1, 20);
pub const SENDERS_MAX: usize = SENDERS.max;

/// DCTCP's marking threshold K: at least one packet, below the buffer.
pub fn mark_k_bound(buffer: usize) -> Bound<usize> {
    Bound::new(
        "marking threshold K",
        " packets",
        1,
        buffer.saturating_sub(1),
    )
}
/// The fine-grained RTO floor: 1 ms, of the order Vasudevan et al. (SIGCOMM
/// 2009) argue for: with datacenter RTTs of ~100 µs, a 200 ms floor leaves a
/// link idle for thousands of round trips.
pub const RTO_MIN_FINE_NS: u64 = 1_000_000;

/// The three remedies the learner can switch on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fixes {
    /// Use the bigger buffer.
    pub big_buffer: bool,
    /// RTO floor of 1 ms instead of 200 ms.
    pub fine_rto: bool,
    /// ECN marking above K at the port, DCTCP at the senders.
    pub dctcp: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fix {
    BigBuffer,
    FineRto,
    Dctcp,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IncastConfig {
    pub senders: usize,
    /// Packets in each server's answer.
    pub burst: u64,
    /// The port's buffer, packets.
    pub buffer: usize,
    /// The buffer with the bigger-buffer fix, packets.
    pub big_buffer: usize,
    pub link_mbps: u64,
    /// Base RTT, µs.
    pub rtt_us: u64,
    /// Requests in a run (goodput is measured over all of them).
    pub requests: u32,
    /// DCTCP marking threshold K, packets.
    pub mark_k: usize,
    pub fixes: Fixes,
}

impl Default for IncastConfig {
    /// Illustrative numbers for a shallow-buffered 1 GbE rack switch: 64
    /// packets (~94 KB) of buffer for the port, 100 µs RTT, 16 servers each
    /// answering with 16 packets (~23 KB). K = 20 packets is the marking
    /// threshold Linux documents for DCTCP at 1 Gbit/s
    /// (Documentation/networking/dctcp.rst).
    fn default() -> Self {
        IncastConfig {
            senders: 16,
            burst: 16,
            buffer: 64,
            big_buffer: 1024,
            link_mbps: 1000,
            rtt_us: 100,
            requests: 10,
            mark_k: 20,
            fixes: Fixes::default(),
        }
    }
}

/// A finished request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    pub number: u32,
    pub duration_ns: u64,
    pub drops: u64,
    pub timeouts: u32,
}

/// Where one server's answer stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Packets are on their way.
    Sending,
    /// Every packet of this answer has reached the client.
    Delivered,
    /// Nothing in flight: the server waits for its timer, due at this time.
    WaitingRto(u64),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum IncastAction {
    /// Handle the single next event.
    Event,
    /// Run for one base RTT, or skip ahead to the next event if nothing
    /// happens before then (what Step and Play do).
    Slice,
    Toggle(Fix),
    /// Run the whole workload for every N on the chart with the fixes now
    /// on, and keep the goodput curve.
    Sweep,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Incast {
    pub path: Path,
    pub burst: u64,
    pub buffers: [usize; 2],
    pub mark_k: usize,
    pub link_mbps: u64,
    pub rtt_ns: u64,
    pub requests: u32,
    pub fixes: Fixes,
    /// The request in progress (1-based); `requests + 1` once all are done.
    pub request: u32,
    pub request_started: u64,
    /// Drops and timeouts when the current request began.
    counts_at_start: (u64, u32),
    pub finished: Vec<Request>,
    /// Goodput-against-N curves measured so far, one per set of fixes.
    pub sweeps: Vec<Sweep>,
}

impl Incast {
    pub fn senders(&self) -> usize {
        self.path.flows.len()
    }

    pub fn all_done(&self) -> bool {
        self.request > self.requests
    }

    pub fn drops(&self) -> u64 {
        self.path.flows.iter().map(|f| f.drops).sum()
    }

    pub fn timeouts(&self) -> u32 {
        self.path.flows.iter().map(|f| f.sender.timeouts).sum()
    }

    /// Timeouts for packets that were only delayed, not lost.
    pub fn spurious_timeouts(&self) -> u64 {
        self.path.flows.iter().map(|f| f.spurious_timeouts).sum()
    }

    /// Segments each answer ends at, for the request in progress.
    fn target(&self) -> u64 {
        self.burst * u64::from(self.request.min(self.requests))
    }

    pub fn fate(&self, f: usize) -> Fate {
        let flow = &self.path.flows[f];
        if flow.rcv_nxt >= self.target() {
            return Fate::Delivered;
        }
        let queued = self.path.queue.iter().any(|p| p.flow == f);
        match flow.sender.rto_at {
            Some(at) if flow.in_transit() == 0 && !queued => Fate::WaitingRto(at),
            _ => Fate::Sending,
        }
    }

    /// Goodput of a finished request, tenths of Mbit/s.
    pub fn goodput_tenths(&self, r: &Request) -> u64 {
        let bits = self.senders() as u64 * self.burst * MSS * 8;
        bits * 10_000 / r.duration_ns.max(1)
    }

    /// Goodput over finished requests from the `skip`th on, tenths of Mbit/s.
    pub fn goodput_from_tenths(&self, skip: usize) -> u64 {
        let done = self.finished.get(skip..).unwrap_or(&[]);
        let time: u64 = done.iter().map(|r| r.duration_ns).sum();
        let bits = self.senders() as u64 * self.burst * MSS * 8 * done.len() as u64;
        bits * 10_000 / time.max(1)
    }

    /// Goodput over every finished request, tenths of Mbit/s.
    pub fn overall_goodput_tenths(&self) -> u64 {
        self.goodput_from_tenths(0)
    }

    /// The textbook edge: the fewest servers whose answers together exceed
    /// the buffer (N × S > B).
    pub fn overflow_bound(&self) -> usize {
        (self.path.buffer as u64 / self.burst + 1) as usize
    }

    /// The deepest the port's queue would grow if it had no limit. Each
    /// server's link runs at the client's rate, so every server's k-th packet
    /// arrives k packet-times after the request while the port drains one per
    /// packet-time: N·S − (S − 1). The textbook edge N × S > B, less what
    /// drains during the burst.
    pub fn burst_peak(&self) -> u64 {
        let (n, s) = (self.senders() as u64, self.burst);
        n * s - (s - 1)
    }

    /// The longest a packet has waited in the port, ns.
    pub fn worst_queueing_ns(&self) -> u64 {
        self.path.max_queue as u64 * self.path.serialise_ns
    }

    fn start_request(&mut self) {
        self.request_started = self.path.now;
        self.counts_at_start = (self.drops(), self.timeouts());
        let target = self.target();
        for f in 0..self.senders() {
            self.path.flows[f].sender.limit = target;
            self.path.pump(f);
        }
    }

    /// Closes the request if every answer is in; returns the line to narrate.
    fn settle(&mut self) -> Option<Event> {
        let target = self.target();
        if self.all_done() || self.path.flows.iter().any(|f| f.rcv_nxt < target) {
            return None;
        }
        let r = Request {
            number: self.request,
            duration_ns: self.path.now - self.request_started,
            drops: self.drops() - self.counts_at_start.0,
            timeouts: self.timeouts() - self.counts_at_start.1,
        };
        self.finished.push(r);
        self.request += 1;
        let line = format!(
            "Request {} complete after {}: {} Mbit/s of goodput, {} lost, {} timeout{}.",
            r.number,
            duration(r.duration_ns),
            fixed(self.goodput_tenths(&r) as i64, 1),
            packets(r.drops),
            r.timeouts,
            plural(r.timeouts as usize)
        );
        if !self.all_done() {
            self.start_request();
        }
        Some(
            if r.timeouts > 0 {
                Event::warn(line)
            } else {
                Event::done(line)
            }
            .at("client"),
        )
    }

    fn event(&mut self) -> Outcome {
        if self.all_done() {
            return Err(done_refusal(self.requests));
        }
        let h = self
            .path
            .step()
            .ok_or_else(|| done_refusal(self.requests))?;
        let mut out = vec![self.happening(h)];
        out.extend(self.settle());
        Ok(out)
    }

    fn slice(&mut self) -> Outcome {
        if self.all_done() {
            return Err(done_refusal(self.requests));
        }
        let from = self.path.now;
        let next = self
            .path
            .next_time()
            .ok_or_else(|| done_refusal(self.requests))?;
        let mut out = Vec::new();
        if next > from + self.rtt_ns {
            let waiting = (0..self.senders())
                .filter(|&f| matches!(self.fate(f), Fate::WaitingRto(_)))
                .count();
            out.push(
                Event::warn(format!(
                    "Nothing moves for {}: the port is empty and {waiting} server{} wait{} for the retransmission timer.",
                    duration(next - from),
                    plural(waiting),
                    if waiting == 1 { "s" } else { "" }
                ))
                .at("link"),
            );
            if let Some((f, at, probe)) = self.first_waiting() {
                // From `from` to `next` nothing arrives: a probe due in that
                // stretch finds the port empty and gets through.
                let fate = if (from..next).contains(&probe) {
                    " The port is empty then, so the probe would get through, and the SACK it brings back would start fast recovery."
                } else {
                    ""
                };
                out.push(
                    Event::info(format!(
                        "With SACK and a tail loss probe (Linux's default), server {} would have probed at {}, {} before its timer at {}.{fate}",
                        f + 1,
                        duration(probe),
                        duration(at.saturating_sub(probe)),
                        duration(at)
                    ))
                    .at(sender_key(f)),
                );
            }
        }
        let until = next.max(from + self.rtt_ns);
        let (mut arrived, mut dropped, mut marked) = (0u64, 0u64, 0u64);
        let mut notes = Vec::new();
        while !self.all_done() {
            let Some(h) = self.path.step_until(until) else {
                break;
            };
            match h {
                Happening::Arrived { admission, .. } => {
                    arrived += 1;
                    match admission {
                        Admission::Overflow | Admission::Injected => dropped += 1,
                        Admission::Marked => marked += 1,
                        Admission::Queued => {}
                    }
                }
                Happening::TimedOut { .. }
                | Happening::Acked {
                    note: Note::FastRetransmit { .. } | Note::EcnCut,
                    ..
                } if notes.len() < 4 => notes.push(self.happening(h)),
                _ => {}
            }
            notes.extend(self.settle());
        }
        if !self.all_done() {
            self.path.now = self.path.now.max(until);
        }
        let delivered = (0..self.senders())
            .filter(|&f| self.fate(f) == Fate::Delivered)
            .count();
        let mut line = format!(
            "{} → {}: {arrived} packets reached the port, queue now {}/{}",
            duration(from),
            duration(self.path.now),
            self.path.queue.len(),
            self.path.buffer
        );
        if marked > 0 {
            line.push_str(&format!(", {marked} marked CE"));
        }
        line.push_str(&format!(
            "; {delivered}/{} answers complete.",
            self.senders()
        ));
        out.push(Event::info(line).at("port"));
        if dropped > 0 {
            out.push(
                Event::fault(format!(
                    "{} dropped: the buffer was full.",
                    capitalised_packets(dropped)
                ))
                .at("port"),
            );
        }
        out.extend(notes);
        Ok(out)
    }

    fn happening(&self, h: Happening) -> Event {
        match h {
            Happening::Arrived {
                flow,
                seq,
                admission,
            } => {
                let who = format!("Packet {} of server {}", seq + 1, flow + 1);
                match admission {
                    Admission::Queued => Event::info(format!(
                        "{who} joins the port's queue ({}/{}).",
                        self.path.queue.len(),
                        self.path.buffer
                    )),
                    Admission::Marked => Event::warn(format!(
                        "{who} is queued and marked CE: more than K = {} packets were waiting.",
                        self.mark_k
                    )),
                    _ => Event::fault(format!(
                        "{who} finds the buffer full ({}/{}) and is dropped.",
                        self.path.queue.len(),
                        self.path.buffer
                    )),
                }
                .at("port")
                .at(sender_key(flow))
            }
            Happening::Departed { flow, seq } => Event::info(format!(
                "Packet {} of server {} crosses the client's link.",
                seq + 1,
                flow + 1
            ))
            .at("link"),
            Happening::Acked { flow, ack, note } => {
                let s = &self.path.flows[flow].sender;
                let who = format!("Server {}", flow + 1);
                match note {
                    Note::FastRetransmit { seq } => Event::warn(format!(
                        "{who} got three duplicate ACKs and resends packet {} at once.",
                        seq + 1
                    )),
                    Note::EcnCut => Event::warn(format!(
                        "{who} sees an ECN echo: α = {}, cwnd cut to {} packets.",
                        fixed(
                            (s.dctcp.as_ref().map_or(0, |d| d.alpha) * 100 / 1024) as i64,
                            2
                        ),
                        s.cwnd / MSS
                    )),
                    Note::Duplicate(n) => {
                        Event::info(format!("{who}: duplicate ACK {n} for packet {}.", ack + 1))
                    }
                    _ => Event::info(format!(
                        "{who}: ACK up to packet {ack}, cwnd {} packets.",
                        s.cwnd / MSS
                    )),
                }
                .at(sender_key(flow))
            }
            Happening::TimedOut {
                flow,
                seq,
                spurious,
            } => Event::fault(format!(
                "Server {}'s timer fires after {}: packet {} goes again with a window of one{}.",
                flow + 1,
                duration(self.path.flows[flow].sender.rto / 2),
                seq + 1,
                spurious_note(spurious)
            ))
            .at(sender_key(flow)),
        }
    }

    fn toggle(&mut self, fix: Fix) -> Outcome {
        let now = self.path.now;
        let (on, text) = match fix {
            Fix::BigBuffer => {
                let on = !self.fixes.big_buffer;
                let size = self.buffers[usize::from(on)];
                if self.path.queue.len() > size {
                    return Err(Refusal::new(format!(
                        "The port holds {} packets; it can shrink to {size} only once it drains.",
                        self.path.queue.len()
                    )));
                }
                self.fixes.big_buffer = on;
                self.path.buffer = size;
                (
                    on,
                    format!(
                        "The port's buffer is now {size} packets: up to {} of queueing delay.",
                        duration(size as u64 * self.path.serialise_ns)
                    ),
                )
            }
            Fix::FineRto => {
                let on = !self.fixes.fine_rto;
                self.fixes.fine_rto = on;
                let floor = if on {
                    RTO_MIN_FINE_NS
                } else {
                    RTO_MIN_LINUX_NS
                };
                for flow in &mut self.path.flows {
                    let s = &mut flow.sender;
                    s.set_rto_min(floor);
                    if s.rto_at.is_some() {
                        s.rto_at = Some(now + s.rto);
                    }
                }
                (
                    on,
                    format!(
                        "RTO floor now {}; running timers restarted with it.",
                        duration(floor)
                    ),
                )
            }
            Fix::Dctcp => {
                let on = !self.fixes.dctcp;
                self.fixes.dctcp = on;
                self.path.mark_above = on.then_some(self.mark_k);
                for flow in &mut self.path.flows {
                    flow.sender.dctcp = on.then(Dctcp::default);
                }
                (
                    on,
                    format!(
                        "The port marks CE above K = {} packets; a server that sees an echo cuts cwnd by α/2, at most once per window of data.",
                        self.mark_k
                    ),
                )
            }
        };
        let tone = if on { Event::done } else { Event::info };
        let text = if on {
            text
        } else {
            format!("Fix switched off. {text}")
        };
        Ok(vec![tone(text).at("port")])
    }
}

impl Incast {
    /// The settings this run started from, with the fixes now on.
    pub fn config(&self) -> IncastConfig {
        IncastConfig {
            senders: self.senders(),
            burst: self.burst,
            buffer: self.buffers[0],
            big_buffer: self.buffers[1],
            link_mbps: self.link_mbps,
            rtt_us: self.rtt_ns / 1_000,
            requests: self.requests,
            mark_k: self.mark_k,
            fixes: self.fixes,
        }
    }

    /// The fixes in words: "no fix", "1 ms RTO + DCTCP (K = 20)".
    pub fn fixes_label(&self, fixes: Fixes) -> String {
        let mut parts = Vec::new();
        if fixes.big_buffer {
            parts.push(format!("{}-packet buffer", self.buffers[1]));
        }
        if fixes.fine_rto {
            parts.push("1 ms RTO floor".into());
        }
        if fixes.dctcp {
            parts.push(format!("DCTCP (K = {})", self.mark_k));
        }
        if parts.is_empty() {
            "no fix".into()
        } else {
            parts.join(" + ")
        }
    }

    /// A sweep is refused only when its curve is already drawn.
    fn sweep_refusal(&self) -> Option<Refusal> {
        self.sweeps.iter().any(|s| s.fixes == self.fixes).then(|| {
            Refusal::new(format!(
                "The curve for {} is already on the chart: switch a fix on or off, then sweep again.",
                self.fixes_label(self.fixes)
            ))
        })
    }

    fn sweep(&mut self) -> Outcome {
        if let Some(refusal) = self.sweep_refusal() {
            return Err(refusal);
        }
        let points = goodput_curve(&self.config());
        let half = self.link_mbps * 5;
        let best = points.iter().map(|p| p.goodput_tenths).max().unwrap_or(0);
        let fall = points.iter().find(|p| p.goodput_tenths < half).map_or(
            " and never falls below half the link".to_string(),
            |p| {
                format!(
                    "; it first falls below half the link at N = {}, with {} Mbit/s",
                    p.senders,
                    fixed(p.goodput_tenths as i64, 1)
                )
            },
        );
        let text = format!(
            "Swept N = 1 to {SENDERS_MAX} with {}: goodput peaks at {} Mbit/s{fall}.",
            self.fixes_label(self.fixes),
            fixed(best as i64, 1)
        );
        self.sweeps.push(Sweep {
            fixes: self.fixes,
            points,
        });
        Ok(vec![Event::info(text).at("chart")])
    }
}

impl Incast {
    /// When server `f`'s tail loss probe would go, had it SACK and TLP,
    /// if it is waiting for its timer now.
    pub fn probe_at(&self, f: usize) -> Option<u64> {
        match self.fate(f) {
            Fate::WaitingRto(_) => self.path.flows[f].sender.probe_at(),
            _ => None,
        }
    }

    /// The first server now waiting for its timer, with its timer and its
    /// probe time, for the narration.
    fn first_waiting(&self) -> Option<(usize, u64, u64)> {
        (0..self.senders()).find_map(|f| match self.fate(f) {
            Fate::WaitingRto(at) => self.probe_at(f).map(|probe| (f, at, probe)),
            _ => None,
        })
    }

    /// What Linux's tail loss probe would change, from the model's numbers.
    fn probe_sentence(&self) -> String {
        let s = &self.path.flows[0].sender;
        let pto = 2 * s.srtt;
        format!(
            "Linux negotiates SACK and, when ACKs stop, sends a tail loss probe 2·SRTT = {} after its last segment (RFC 8985 §7.2), some {} before this timer: the probe's ACK carries a SACK that starts fast recovery, so the tail is resent within a few round trips, if the probe itself is not dropped.",
            duration(pto),
            duration(s.base_rto().saturating_sub(pto))
        )
    }
}

fn done_refusal(requests: u32) -> Refusal {
    Refusal::new(format!(
        "All {requests} requests are answered. Reset to run them again, or change a fix first."
    ))
}

/// What a learner must hear when a timer fired for a packet that was only late.
pub(crate) fn spurious_note(spurious: bool) -> &'static str {
    if spurious {
        ", though it was not lost, only delayed by the queue (a spurious timeout)"
    } else {
        ""
    }
}

fn sender_key(f: usize) -> String {
    format!("sender-{}", f + 1)
}

fn packets(n: u64) -> String {
    format!("{n} packet{}", plural(n as usize))
}

fn capitalised_packets(n: u64) -> String {
    crate::text::capitalised(&packets(n))
}

impl Model for Incast {
    type Config = IncastConfig;
    type Action = IncastAction;

    fn validate(c: &IncastConfig) -> Result<(), String> {
        SENDERS.check(c.senders)?;
        BURST.check(c.burst)?;
        BUFFER.check(c.buffer)?;
        let bigger = Bound::new("bigger buffer", BUFFER.unit, c.buffer, BUFFER.max);
        bigger.check(c.big_buffer)?;
        LINK_MBPS.check(c.link_mbps)?;
        RTT_US.check(c.rtt_us)?;
        REQUESTS.check(c.requests)?;
        mark_k_bound(c.buffer).check(c.mark_k)?;
        Ok(())
    }

    fn new(c: &IncastConfig) -> Self {
        let ser = serialise_ns(c.link_mbps);
        let rtt = c.rtt_us * 1_000;
        let rto_min = if c.fixes.fine_rto {
            RTO_MIN_FINE_NS
        } else {
            RTO_MIN_LINUX_NS
        };
        let flows = (0..c.senders)
            .map(|_| {
                let mut s = Sender::new(Algorithm::NewReno, rto_min, false);
                // Persistent connections: the window is already open wide
                // enough for a whole answer, and the RTT already measured.
                s.cwnd = s.cwnd.max(c.burst * MSS);
                s.seed_rtt(rtt + ser);
                s.dctcp = c.fixes.dctcp.then(Dctcp::default);
                Flow::new(s, rtt)
            })
            .collect();
        let buffers = [c.buffer, c.big_buffer];
        // Every server's own link runs at the same rate as the client's.
        let mut path = Path::new(flows, buffers[usize::from(c.fixes.big_buffer)], ser, ser);
        path.mark_above = c.fixes.dctcp.then_some(c.mark_k);
        let mut m = Incast {
            path,
            burst: c.burst,
            buffers,
            mark_k: c.mark_k,
            link_mbps: c.link_mbps,
            rtt_ns: rtt,
            requests: c.requests,
            fixes: c.fixes,
            request: 1,
            request_started: 0,
            counts_at_start: (0, 0),
            finished: Vec::new(),
            sweeps: Vec::new(),
        };
        m.start_request();
        m
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "The client asks {} servers for {} packets each, all at once: {} packets head for one port with room for {}.",
            self.senders(),
            self.burst,
            self.senders() as u64 * self.burst,
            self.path.buffer
        ))
        .at("port")
    }

    fn apply(&mut self, action: &IncastAction) -> Outcome {
        match *action {
            IncastAction::Event => self.event(),
            IncastAction::Slice => self.slice(),
            IncastAction::Toggle(fix) => self.toggle(fix),
            IncastAction::Sweep => self.sweep(),
        }
    }

    fn next_auto(&self) -> Result<IncastAction, Refusal> {
        if self.all_done() {
            Err(done_refusal(self.requests))
        } else {
            Ok(IncastAction::Slice)
        }
    }

    /// A sweep runs the whole workload twelve times: answered without
    /// running it, so drawing the Sweep button stays cheap.
    fn refusal(&self, action: &IncastAction) -> Option<Refusal> {
        match action {
            IncastAction::Sweep => self.sweep_refusal(),
            _ => crate::model::trial_refusal(self, action),
        }
    }

    fn check(&self) -> Result<(), String> {
        self.path.check()?;
        if self.request > self.requests + 1 || self.finished.len() as u32 + 1 != self.request {
            return Err("requests finished out of order".into());
        }
        if self
            .path
            .flows
            .iter()
            .any(|f| f.sender.limit != self.target())
        {
            return Err("a server was asked for a different amount".into());
        }
        Ok(())
    }

    fn status(&self) -> Vec<Figure> {
        let delivered = (0..self.senders())
            .filter(|&f| self.fate(f) == Fate::Delivered)
            .count();
        let waiting = (0..self.senders())
            .filter(|&f| matches!(self.fate(f), Fate::WaitingRto(_)))
            .count();
        vec![
            Figure::new("time", "time", duration(self.path.now)),
            Figure::new(
                "request",
                "request",
                format!("{}/{}", self.request.min(self.requests), self.requests),
            ),
            Figure::new(
                "delivered",
                "answers in",
                format!("{delivered}/{}", self.senders()),
            ),
            Figure::new("waiting", "waiting for RTO", waiting),
            Figure::new(
                "queue",
                "port queue",
                format!("{}/{}", self.path.queue.len(), self.path.buffer),
            ),
            Figure::new("drops", "drops", self.drops()),
            Figure::new("timeouts", "timeouts", self.timeouts()),
            Figure::new(
                "goodput",
                "goodput",
                format!("{} Mbit/s", fixed(self.overall_goodput_tenths() as i64, 1)),
            ),
            Figure::new(
                "worst-delay",
                "worst queueing",
                duration(self.worst_queueing_ns()),
            ),
        ]
    }

    fn why(&self) -> Vec<String> {
        let n = self.senders() as u64;
        let rto = self.path.flows[0].sender.rto_min;
        let mut out = vec![format!(
            "{n} answers of {} packets make {} packets against a {}-packet buffer; while they arrive the port drains only one packet per {}, so the queue grows by about {} per packet time.",
            self.burst,
            n * self.burst,
            self.path.buffer,
            duration(self.path.serialise_ns),
            n.saturating_sub(1)
        )];
        let timer = self.path.flows[0].sender.base_rto();
        out.push(format!(
            "A server that lost the tail of its answer gets fewer than three duplicate ACKs. Without SACK and a tail loss probe, as here, only its timer can recover it: SRTT + {} floor = {}, {}× the {} round trip, with the link idle meanwhile.",
            duration(rto),
            duration(timer),
            timer / self.rtt_ns,
            duration(self.rtt_ns)
        ));
        out.push(self.probe_sentence());
        if let Some(r) = self.finished.last() {
            let ideal = n * self.burst * self.path.serialise_ns;
            out.push(format!(
                "Request {} took {}; the link alone needs {} for it, so it ran at {} of capacity.",
                r.number,
                duration(r.duration_ns),
                duration(ideal),
                crate::text::tenths(crate::text::share_tenths(
                    ideal as i64,
                    r.duration_ns as i64
                ))
            ));
        }
        if self.fixes.big_buffer {
            out.push(format!(
                "The bigger buffer has held up to {} packets, so a packet waited up to {} — {}× the base RTT.",
                self.path.max_queue,
                duration(self.worst_queueing_ns()),
                self.worst_queueing_ns() / self.rtt_ns
            ));
        }
        out
    }

    fn leaves_out() -> &'static str {
        "Leaves out: the request messages themselves, delayed ACKs, SACK and RACK-TLP (Linux's defaults: the page only says when a tail loss probe would have gone), timer granularity and randomised RTOs, restart after idle, other traffic on the port, and per-port shared-buffer schemes."
    }
}
