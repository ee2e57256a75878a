//! TCP congestion control: one or two bulk flows through a bottleneck link.
//!
//! Reno (RFC 5681), NewReno (RFC 6582) and CUBIC (RFC 9438) senders, ACK by
//! ACK, against a drop-tail buffer (rules in [`sender`], [`cubic`], [`path`]).
//! The learner steps one event or one round trip at a time, drops packets by
//! hand, starts a second flow to watch the two share the link (Jain's index),
//! and breaks it with a buffer far larger than the bandwidth-delay product:
//! the window keeps growing, the queue with it, and the RTT balloons.
//!
//! Focus keys: `flow-1`, `flow-2` (a sender and its window), `queue` (the
//! bottleneck buffer), `queue-<i>` (one buffered packet), `link` (the
//! bottleneck wire), `receiver-1`/`receiver-2`, `chart` (the time series).

pub mod cubic;
mod narrate;
pub mod path;
pub mod sender;
#[cfg(test)]
mod tests;

use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::text::{duration, fixed, plural};
use crate::Bound;
use path::{serialise_ns, Flow, Path};
use sender::{Algorithm, Sender, MSS, NO_LIMIT, RTO_MIN_LINUX_NS};
use serde::{Deserialize, Serialize};

/// The bottleneck's rate.
pub const LINK_MBPS: Bound<u64> = Bound::new("bottleneck rate", " Mbit/s", 1, 100);
/// Each flow's base RTT.
pub const RTT_MS: Bound<u64> = Bound::new("base RTT", " ms", 1, 200);
/// The bottleneck buffer, packets.
pub const BUFFER: Bound<usize> = Bound::new("buffer", " packets", 1, 1000);
/// Samples kept for the chart (one per step).
pub const HISTORY: usize = 240;
/// Loss and recovery marks kept for the chart.
pub const MARKS: usize = 64;
/// Buffer for the bufferbloat break-it: about 30 bandwidth-delay products at
/// the default link.
pub const BLOATED_BUFFER: usize = 1000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlowConfig {
    pub algorithm: Algorithm,
    /// Base (propagation) round-trip time, ms.
    pub rtt_ms: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CongestionConfig {
    /// Bottleneck rate, Mbit/s.
    pub link_mbps: u64,
    /// Bottleneck buffer, packets (the one on the wire included).
    pub buffer: usize,
    /// Flow 1 and flow 2; flow 2 runs from the start only with `two_flows`.
    pub flows: [FlowConfig; 2],
    pub two_flows: bool,
}

impl Default for CongestionConfig {
    /// 10 Mbit/s and 40 ms give a BDP of 33 packets; the buffer holds about
    /// one BDP, the classic sizing rule (Villamizar & Song, CCR 1994).
    fn default() -> Self {
        let reno = FlowConfig {
            algorithm: Algorithm::Reno,
            rtt_ms: 40,
        };
        CongestionConfig {
            link_mbps: 10,
            buffer: 32,
            flows: [reno, reno],
            two_flows: false,
        }
    }
}

impl CongestionConfig {
    /// The break-it setting: the same link with a buffer of ~30 BDPs.
    pub fn bufferbloat() -> Self {
        CongestionConfig {
            buffer: BLOATED_BUFFER,
            ..Self::default()
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CongestionAction {
    /// Handle the single next event.
    Event,
    /// Run for one base RTT of flow 1 (what Step and Play do).
    Rtt,
    /// Lose flow `f`'s (0 or 1) next packet at the port.
    DropNext(usize),
    /// Lose the packet waiting at this buffer position.
    DropQueued(usize),
    /// Start flow 2 now.
    JoinSecond,
}

/// One point of the chart, windows in tenths of a segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sample {
    pub t_ns: u64,
    pub cwnd: [u32; 2],
    /// `u32::MAX` while ssthresh is still unbounded.
    pub ssthresh: [u32; 2],
    pub queue: u32,
    /// The link's busy time so far, ns (utilisation between two samples).
    pub busy_ns: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MarkKind {
    Drop,
    FastRetransmit,
    Timeout,
}

/// A loss or a reaction to one, for dots on the chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mark {
    pub t_ns: u64,
    pub flow: usize,
    pub kind: MarkKind,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Congestion {
    pub path: Path,
    pub link_mbps: u64,
    /// When flow 2 began sending (None: not yet).
    pub second_since: Option<u64>,
    /// Segments each flow had delivered when both were running (for fairness).
    pub shared_from: [u64; 2],
    pub history: Vec<Sample>,
    pub marks: Vec<Mark>,
}

/// Windows as tenths of a segment.
pub fn segments_tenths(bytes: u64) -> u32 {
    if bytes == NO_LIMIT {
        return u32::MAX;
    }
    (bytes * 10 / MSS).min(u32::MAX as u64 - 1) as u32
}

impl Congestion {
    /// The settings this run started from (a second flow joined at time 0
    /// counts as running from the start).
    pub fn config(&self) -> CongestionConfig {
        let flow = |f: usize| FlowConfig {
            algorithm: self.path.flows[f].sender.algorithm,
            rtt_ms: self.path.flows[f].base_rtt / 1_000_000,
        };
        CongestionConfig {
            link_mbps: self.link_mbps,
            buffer: self.path.buffer,
            flows: [flow(0), flow(1)],
            two_flows: self.second_since == Some(0),
        }
    }

    /// The bandwidth-delay product of flow `f`'s path, in packets (tenths).
    pub fn bdp_tenths(&self, f: usize) -> u64 {
        self.path.flows[f].base_rtt * 10 / self.path.serialise_ns
    }

    pub fn active(&self) -> impl Iterator<Item = (usize, &Flow)> {
        self.path.flows.iter().enumerate().filter(|(_, f)| f.active)
    }

    /// Goodput of flow `f` so far, tenths of Mbit/s.
    pub fn goodput_tenths(&self, f: usize) -> u64 {
        let since = if f == 1 {
            self.second_since.unwrap_or(0)
        } else {
            0
        };
        let elapsed = self.path.now.saturating_sub(since);
        if elapsed == 0 {
            return 0;
        }
        self.path.flows[f].sender.snd_una * MSS * 8 * 10_000 / elapsed
    }

    /// Share of time the bottleneck was sending, tenths of a percent.
    pub fn utilisation_tenths(&self) -> i64 {
        crate::text::share_tenths(self.path.busy_so_far() as i64, self.path.now as i64)
    }

    /// Share of time the link was busy between two chart samples, tenths of
    /// a percent.
    pub fn utilisation_between(&self, from: usize, to: usize) -> i64 {
        let (a, b) = (self.history[from], self.history[to]);
        crate::text::share_tenths((b.busy_ns - a.busy_ns) as i64, (b.t_ns - a.t_ns) as i64)
    }

    /// Jain's fairness index over what each flow delivered since both ran,
    /// in thousandths: (Σx)² / (n·Σx²), 1000 = perfectly fair.
    pub fn jain_thousandths(&self) -> Option<u64> {
        self.second_since?;
        let x: Vec<u64> = (0..2)
            .map(|f| self.path.flows[f].sender.snd_una - self.shared_from[f])
            .collect();
        let squares = x[0] * x[0] + x[1] * x[1];
        if squares == 0 {
            return None;
        }
        Some((x[0] + x[1]).pow(2) * 1000 / (2 * squares))
    }

    fn sample(&mut self) {
        let flows = &self.path.flows;
        let pick = |f: usize, v: fn(&Sender) -> u64| {
            if flows[f].active {
                segments_tenths(v(&flows[f].sender))
            } else {
                0
            }
        };
        let sample = Sample {
            t_ns: self.path.now,
            cwnd: [pick(0, |s| s.cwnd), pick(1, |s| s.cwnd)],
            ssthresh: [pick(0, |s| s.ssthresh), pick(1, |s| s.ssthresh)],
            queue: self.path.queue.len() as u32,
            busy_ns: self.path.busy_so_far(),
        };
        self.history.push(sample);
        if self.history.len() > HISTORY {
            self.history.remove(0);
        }
    }

    fn mark(&mut self, flow: usize, kind: MarkKind) {
        self.marks.push(Mark {
            t_ns: self.path.now,
            flow,
            kind,
        });
        if self.marks.len() > MARKS {
            self.marks.remove(0);
        }
    }

    fn join_second(&mut self) -> Outcome {
        if self.path.flows[1].active {
            return Err(Refusal::new("Flow 2 is already running."));
        }
        self.path.flows[1].active = true;
        self.second_since = Some(self.path.now);
        self.shared_from = [self.path.flows[0].sender.snd_una, 0];
        // RFC 9438 §4.7: fast convergence is for competing flows.
        for flow in &mut self.path.flows {
            flow.sender.cubic.fast_convergence = true;
        }
        self.path.pump(1);
        Ok(vec![Event::info(format!(
            "Flow 2 ({}) starts with {} segments of window and competes for the same buffer.",
            self.path.flows[1].sender.algorithm.label(),
            self.path.flows[1].sender.cwnd / MSS
        ))
        .at("flow-2")])
    }

    fn drop_next(&mut self, f: usize) -> Outcome {
        let Some(flow) = self.path.flows.get_mut(f).filter(|fl| fl.active) else {
            return Err(Refusal::new(
                "Only a running flow can lose a packet: flow 1, or flow 2 once it has joined.",
            ));
        };
        if flow.drop_armed {
            return Err(Refusal::new(format!(
                "Flow {}'s next packet is already marked to be lost.",
                f + 1
            )));
        }
        flow.drop_armed = true;
        Ok(vec![Event::warn(format!(
            "The next packet of flow {} to reach the port will be lost.",
            f + 1
        ))
        .at(format!("flow-{}", f + 1))])
    }

    fn drop_queued(&mut self, index: usize) -> Outcome {
        let Some((f, seq)) = self.path.drop_queued(index) else {
            return Err(Refusal::new(format!(
                "Pick a waiting packet: positions 1 to {} of the buffer (0 is already on the wire).",
                self.path.queue.len().saturating_sub(1)
            )));
        };
        self.mark(f, MarkKind::Drop);
        self.sample();
        Ok(vec![Event::fault(format!(
            "You dropped segment {seq} of flow {} from the buffer; its receiver will see a hole.",
            f + 1
        ))
        .at("queue")])
    }

    fn event(&mut self) -> Outcome {
        let Some(happening) = self.path.step() else {
            return Err(Refusal::new("Nothing is in flight."));
        };
        self.note_marks(&happening);
        self.sample();
        Ok(vec![narrate::happening(self, happening)])
    }

    fn rtt(&mut self) -> Outcome {
        let from = self.path.now;
        let before: Vec<u64> = self.path.flows.iter().map(|f| f.sender.cwnd).collect();
        let mut tally = narrate::Tally::default();
        let until = from + self.path.flows[0].base_rtt;
        let mut happenings = Vec::new();
        self.path.run_until(until, |path, h| {
            tally.add(path, h);
            happenings.push(h);
        });
        for h in &happenings {
            self.note_marks(h);
        }
        self.sample();
        Ok(narrate::summary(self, from, &before, &tally))
    }

    fn note_marks(&mut self, h: &path::Happening) {
        use path::{Admission, Happening};
        use sender::Note;
        match *h {
            Happening::Arrived {
                flow,
                admission: Admission::Overflow | Admission::Injected,
                ..
            } => self.mark(flow, MarkKind::Drop),
            Happening::Acked {
                flow,
                note: Note::FastRetransmit { .. },
                ..
            } => self.mark(flow, MarkKind::FastRetransmit),
            Happening::TimedOut { flow, .. } => self.mark(flow, MarkKind::Timeout),
            _ => {}
        }
    }
}

impl Model for Congestion {
    type Config = CongestionConfig;
    type Action = CongestionAction;

    fn validate(config: &CongestionConfig) -> Result<(), String> {
        LINK_MBPS.check(config.link_mbps)?;
        BUFFER.check(config.buffer)?;
        for f in &config.flows {
            RTT_MS.check(f.rtt_ms)?;
        }
        Ok(())
    }

    fn new(config: &CongestionConfig) -> Self {
        let flows = config
            .flows
            .iter()
            .enumerate()
            .map(|(i, fc)| {
                let sender = Sender::new(fc.algorithm, RTO_MIN_LINUX_NS, config.two_flows);
                let mut flow = Flow::new(sender, fc.rtt_ms * 1_000_000);
                flow.active = i == 0 || config.two_flows;
                flow
            })
            .collect();
        let mut path = Path::new(flows, config.buffer, serialise_ns(config.link_mbps), 0);
        path.pump(0);
        path.pump(1);
        let mut m = Congestion {
            path,
            link_mbps: config.link_mbps,
            second_since: config.two_flows.then_some(0),
            shared_from: [0, 0],
            history: Vec::new(),
            marks: Vec::new(),
        };
        m.sample();
        m
    }

    fn intro(&self) -> Event {
        let bdp = self.bdp_tenths(0);
        Event::info(format!(
            "A {} Mbit/s bottleneck, {} ms base RTT: the pipe holds {} packets (the BDP), the buffer {} more. {} starts with Linux's initial window of {} segments.",
            self.link_mbps,
            self.path.flows[0].base_rtt / 1_000_000,
            fixed(bdp as i64, 1),
            self.path.buffer,
            self.path.flows[0].sender.algorithm.label(),
            sender::IW_SEGMENTS,
        ))
        .at("flow-1")
    }

    fn apply(&mut self, action: &CongestionAction) -> Outcome {
        match *action {
            CongestionAction::Event => self.event(),
            CongestionAction::Rtt => self.rtt(),
            CongestionAction::DropNext(f) => self.drop_next(f),
            CongestionAction::DropQueued(i) => self.drop_queued(i),
            CongestionAction::JoinSecond => self.join_second(),
        }
    }

    fn next_auto(&self) -> Result<CongestionAction, Refusal> {
        Ok(CongestionAction::Rtt)
    }

    fn check(&self) -> Result<(), String> {
        self.path.check()
    }

    fn status(&self) -> Vec<Figure> {
        let s0 = &self.path.flows[0].sender;
        let segs = |b: u64| match segments_tenths(b) {
            u32::MAX => "∞".to_string(),
            t => fixed(t as i64, 1),
        };
        let mut figures = vec![
            Figure::new("time", "time", duration(self.path.now)),
            Figure::new("cwnd", "cwnd (segments)", segs(s0.cwnd)),
            Figure::new("ssthresh", "ssthresh", segs(s0.ssthresh)),
            Figure::new(
                "queue",
                "queue",
                format!("{}/{}", self.path.queue.len(), self.path.buffer),
            ),
            Figure::new("rtt", "latest RTT", duration(s0.last_rtt)),
            Figure::new(
                "base-rtt",
                "base RTT",
                duration(self.path.flows[0].base_rtt),
            ),
            Figure::new(
                "goodput",
                "goodput",
                format!("{} Mbit/s", fixed(self.goodput_tenths(0) as i64, 1)),
            ),
            Figure::new(
                "utilisation",
                "link busy",
                crate::text::tenths(self.utilisation_tenths()),
            ),
            Figure::new(
                "drops",
                "drops",
                self.path.flows.iter().map(|f| f.drops).sum::<u64>(),
            ),
        ];
        if self.path.flows[1].active {
            let s1 = &self.path.flows[1].sender;
            figures.push(Figure::new("cwnd-2", "flow 2 cwnd", segs(s1.cwnd)));
            figures.push(Figure::new(
                "goodput-2",
                "flow 2 goodput",
                format!("{} Mbit/s", fixed(self.goodput_tenths(1) as i64, 1)),
            ));
        }
        if let Some(j) = self.jain_thousandths() {
            figures.push(Figure::new("jain", "Jain's index", fixed(j as i64, 3)));
        }
        figures
    }

    fn why(&self) -> Vec<String> {
        narrate::why(self)
    }

    fn leaves_out() -> &'static str {
        "Leaves out: SACK, RACK and tail loss probes (Linux's senders have them), Linux's per-window smoothing of the RTT variance, limited transmit, delayed ACKs, HyStart++, pacing, the receive window, reordering, Ethernet framing and queues on the ACK path (each flow's propagation is one lumped base RTT)."
    }
}

/// "1 packet", "3 packets".
fn packets(n: u64) -> String {
    format!("{n} packet{}", plural(n as usize))
}
