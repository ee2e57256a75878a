//! The fabric tick by tick: hosts send, bytes cross the wires, switches
//! queue them by egress port and count them by ingress port, PFC frames go
//! back upstream at XOFF and XON, and (when on) ECN marks and DCQCN set the
//! senders' rates. Bytes are a fluid cut into runs; nothing is random.

use super::config::{
    PfcConfig, HORIZON, SAMPLE_TICKS, TICK_BYTES, TICK_NS, TTL, XOFF_BYTES, XON_BYTES,
};
use super::dcqcn::{mark_probability, Reaction, CNP_TICKS};
use super::headroom::Headroom;
use super::port::{Chunk, PauseFrame, Port};
use super::topology::{links, next_hop, path, Link, Node, FLOWS, HOSTS};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// 0xFFFF quanta of 512 bit times at 100 Gb/s: 335.5 µs, in ticks. A PFC
/// frame's pause time per priority is a 2-byte count of quanta, each the
/// time to send 512 bits, and 0 means resume (Cisco's PFC white paper
/// c11-542809; Nokia SR Linux's QoS guide, "Priority-based Flow Control").
/// Like the switches that white paper describes, the model pauses for the
/// largest time and sends XON explicitly, refreshing XOFF before it expires.
pub const PAUSE_QUANTA_TICKS: u32 = ((0xFFFF_u64 * 512).div_ceil(100 * TICK_NS)) as u32;
/// A switch repeats XOFF while still above XON before the last one expires.
pub const REFRESH_TICKS: u32 = PAUSE_QUANTA_TICKS / 2;
/// The watchdog acts on a queue paused with bytes waiting this long, and
/// drops its bytes for as long again. Ours (switches default to hundreds of
/// milliseconds), shortened to fit a 2 ms run.
pub const WATCHDOG_TICKS: u32 = 2_000;
/// A packet's worth of ECN marking credit.
pub const MARK_UNIT: u64 = 1_000_000;
/// Ticks in a throughput window: 10 µs.
pub const WINDOW_TICKS: u32 = 100;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FlowState {
    pub sent: u64,
    pub delivered: u64,
    /// Dropped because an ingress buffer overflowed its headroom.
    pub overflow: u64,
    /// Dropped when their TTL ran out (a loop).
    pub expired: u64,
    /// Dropped by the watchdog.
    pub flushed: u64,
    /// Bytes the host may still send (a fraction of a byte carries over).
    pub credit: f64,
    pub rp: Reaction,
    pub last_cnp: Option<u32>,
    pub marked_since_cnp: bool,
    /// CNPs on their way back, with the tick each arrives.
    pub cnps: VecDeque<u32>,
    pub window: u64,
    pub last_window: u64,
    pub marks: u64,
    /// Bytes the host sent this tick (DCQCN's byte counter reads it).
    pub sent_now: u64,
}

impl FlowState {
    pub fn dropped(&self) -> u64 {
        self.overflow + self.expired + self.flushed
    }

    /// Delivered over the last throughput window, Gb/s.
    pub fn gbps(&self) -> f64 {
        self.last_window as f64 * 8.0 / f64::from(WINDOW_TICKS * TICK_NS as u32)
    }
}

/// A sample for the charts, every `SAMPLE_TICKS`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    pub tick: u32,
    /// Bytes queued for the hot receiver at its leaf.
    pub hot_queue: u64,
    pub victim_gbps: f64,
    pub paused: u32,
}

/// What one tick did, for the narration.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TickReport {
    pub tick: u32,
    pub xoff: Vec<usize>,
    pub xon: Vec<usize>,
    pub overflow: u64,
    pub expired: u64,
    pub flushed: u64,
    pub cnps: Vec<usize>,
    pub watchdog: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fabric {
    pub tick: u32,
    pub ports: Vec<Port>,
    pub flows: Vec<FlowState>,
    pub wire_ticks: u32,
    pub pause_ticks: u32,
    pub history: Vec<Sample>,
    /// The ports in a cycle of pauses, and since when (empty if none).
    pub deadlock: Vec<usize>,
    pub deadlock_since: Option<u32>,
}

/// The index of `link` in `links()`.
pub fn port_index(link: Link) -> usize {
    links().iter().position(|l| *l == link).unwrap_or(0)
}

impl Fabric {
    pub fn new(c: &PfcConfig) -> Self {
        let h = Headroom::new(c.cable_m, c.mtu);
        let wire = h.link_ticks();
        Fabric {
            tick: 0,
            ports: links().into_iter().map(|l| Port::new(l, wire)).collect(),
            flows: FLOWS.iter().map(|_| FlowState::default()).collect(),
            wire_ticks: wire,
            pause_ticks: h.pause_ticks(),
            history: Vec::new(),
            deadlock: Vec::new(),
            deadlock_since: None,
        }
    }

    pub fn over(&self) -> bool {
        self.tick >= HORIZON
    }

    pub fn host_port(&self, host: u8) -> usize {
        usize::from(host) * 2
    }

    /// The port a switch at `at` sends `flow`'s bytes out of.
    fn egress(at: Node, flow: usize, c: &PfcConfig) -> usize {
        let next = next_hop(at, FLOWS[flow].dst, c.loop_route);
        port_index(Link { from: at, to: next })
    }

    /// Ticks a CNP takes back to the sender: one wire a hop of the path,
    /// on a priority PFC does not pause.
    fn cnp_delay(&self, flow: usize) -> u32 {
        let hops = path(&FLOWS[flow], false, 8).len().saturating_sub(1) as u32;
        hops * self.wire_ticks
    }

    pub fn step(&mut self, c: &PfcConfig) -> TickReport {
        let t = self.tick;
        let mut report = TickReport {
            tick: t,
            ..TickReport::default()
        };
        self.pauses_bite(t);
        self.arrivals(c, &mut report);
        self.transmit(c, t);
        self.thresholds(t, &mut report);
        self.watchdog(c, t, &mut report);
        self.notify(c, t, &mut report);
        self.deadlock = super::waits::cycle(self, t);
        if self.deadlock.is_empty() {
            self.deadlock_since = None;
        } else if self.deadlock_since.is_none() {
            self.deadlock_since = Some(t);
        }
        self.tick += 1;
        if self.tick.is_multiple_of(WINDOW_TICKS) {
            for p in &mut self.ports {
                p.last_window = std::mem::take(&mut p.window);
            }
            for f in &mut self.flows {
                f.last_window = std::mem::take(&mut f.window);
            }
        }
        if self.tick.is_multiple_of(SAMPLE_TICKS) {
            self.history.push(self.sample());
        }
        report
    }

    fn sample(&self) -> Sample {
        let hot = port_index(Link {
            from: Node::Leaf(1),
            to: Node::Host(super::topology::HOT),
        });
        Sample {
            tick: self.tick,
            hot_queue: self.ports[hot].queued(),
            victim_gbps: self.flows[super::topology::VICTIM].gbps(),
            paused: self.paused_count(),
        }
    }

    pub fn paused_count(&self) -> u32 {
        self.ports.iter().filter(|p| p.paused(self.tick)).count() as u32
    }

    /// PFC frames that reach their sender this tick take effect.
    fn pauses_bite(&mut self, t: u32) {
        for p in &mut self.ports {
            while p.frames.front().is_some_and(|(at, _)| *at <= t) {
                let Some((_, frame)) = p.frames.pop_front() else {
                    break;
                };
                p.paused_until = match frame {
                    PauseFrame::Xoff => t + PAUSE_QUANTA_TICKS,
                    PauseFrame::Xon => t,
                };
            }
        }
    }

    /// The front slot of every wire arrives: at a host it is delivered; at
    /// a switch it is counted against its ingress port and queued for its
    /// egress port, or dropped if the ingress buffer is full.
    fn arrivals(&mut self, c: &PfcConfig, report: &mut TickReport) {
        let limit = c.limit_bytes();
        for i in 0..self.ports.len() {
            let Some(slot) = self.ports[i].wire.pop_front() else {
                continue;
            };
            let to = self.ports[i].link.to;
            for mut chunk in slot {
                let f = usize::from(chunk.flow);
                if let Node::Host(_) = to {
                    let flow = &mut self.flows[f];
                    flow.delivered += chunk.bytes;
                    flow.window += chunk.bytes;
                    if chunk.marked {
                        flow.marked_since_cnp = true;
                    }
                    continue;
                }
                chunk.ttl = chunk.ttl.saturating_sub(1);
                if chunk.ttl == 0 {
                    self.flows[f].expired += chunk.bytes;
                    report.expired += chunk.bytes;
                    continue;
                }
                let out = Self::egress(to, f, c);
                if self.tick < self.ports[out].flushing_until {
                    self.flows[f].flushed += chunk.bytes;
                    report.flushed += chunk.bytes;
                    continue;
                }
                let room = limit.saturating_sub(self.ports[i].ingress);
                let kept = chunk.bytes.min(room);
                let lost = chunk.bytes - kept;
                if lost > 0 {
                    self.flows[f].overflow += lost;
                    report.overflow += lost;
                }
                if kept > 0 {
                    chunk.bytes = kept;
                    chunk.ingress = i as u8;
                    self.ports[i].ingress += kept;
                    self.ports[i].peak_ingress =
                        self.ports[i].peak_ingress.max(self.ports[i].ingress);
                    self.ports[out].enqueue(chunk);
                }
            }
        }
    }

    /// Every sender not paused puts up to a tick's bytes on its wire.
    fn transmit(&mut self, c: &PfcConfig, t: u32) {
        for i in 0..self.ports.len() {
            let link = self.ports[i].link;
            let paused = self.ports[i].paused(t);
            if paused {
                self.ports[i].paused_ticks += 1;
            }
            let slot = if paused {
                Vec::new()
            } else if let Node::Host(h) = link.from {
                self.host_sends(h, c)
            } else {
                self.switch_sends(i, c)
            };
            let bytes: u64 = slot.iter().map(|ch| ch.bytes).sum();
            let port = &mut self.ports[i];
            port.sent += bytes;
            port.window += bytes;
            port.wire.push_back(slot);
        }
    }

    fn host_sends(&mut self, host: u8, c: &PfcConfig) -> Vec<Chunk> {
        let Some(f) = FLOWS.iter().position(|fl| fl.src == host) else {
            return Vec::new();
        };
        let flow = &mut self.flows[f];
        let rate = if c.dcqcn {
            flow.rp.rc
        } else {
            super::config::LINK_GBPS as f64
        };
        // Gb/s × ns / 8 = bytes.
        flow.credit = (flow.credit + rate * TICK_NS as f64 / 8.0).min(TICK_BYTES as f64);
        let bytes = flow.credit.floor() as u64;
        flow.credit -= bytes as f64;
        flow.sent += bytes;
        flow.sent_now = bytes;
        if bytes == 0 {
            return Vec::new();
        }
        vec![Chunk {
            flow: f as u8,
            bytes,
            ttl: TTL,
            ingress: 0,
            marked: false,
        }]
    }

    fn switch_sends(&mut self, i: usize, c: &PfcConfig) -> Vec<Chunk> {
        let depth = self.ports[i].queued();
        let mut pieces = self.ports[i].serve();
        for piece in &mut pieces {
            let src = usize::from(piece.ingress);
            self.ports[src].ingress -= piece.bytes;
            if c.dcqcn {
                // Marks in millionths of a packet: p × bytes / MTU. A mark
                // stays on the bytes to the receiver, as ECN's CE does.
                let p = mark_probability(depth);
                let port = &mut self.ports[i];
                port.mark_credit +=
                    (p * MARK_UNIT as f64 * piece.bytes as f64 / f64::from(c.mtu)).round() as u64;
                if port.mark_credit >= MARK_UNIT {
                    port.mark_credit -= MARK_UNIT;
                    piece.marked = true;
                    self.flows[usize::from(piece.flow)].marks += 1;
                }
            }
        }
        pieces
    }

    /// Each ingress counter against XOFF and XON: a PFC frame back to the
    /// sender, biting after the frame in progress, the wire and the
    /// sender's response (`Headroom::pause_ticks`).
    fn thresholds(&mut self, t: u32, report: &mut TickReport) {
        let delay = self.pause_ticks;
        for (i, p) in self.ports.iter_mut().enumerate() {
            if !p.link.to.is_switch() {
                continue;
            }
            let frame = if !p.xoff && p.ingress >= XOFF_BYTES {
                p.xoff = true;
                report.xoff.push(i);
                Some(PauseFrame::Xoff)
            } else if p.xoff && p.ingress <= XON_BYTES {
                p.xoff = false;
                report.xon.push(i);
                Some(PauseFrame::Xon)
            } else if p.xoff && t - p.last_frame_sent >= REFRESH_TICKS {
                Some(PauseFrame::Xoff)
            } else {
                None
            };
            if let Some(frame) = frame {
                p.frames.push_back((t + delay, frame));
                p.last_frame_sent = t;
                p.frames_sent += 1;
            }
        }
    }

    /// The PFC watchdog: a switch's queue paused with bytes waiting for
    /// `WATCHDOG_TICKS` is flushed, and bytes for it are dropped for as
    /// long again (the drop action Juniper's and SONiC's watchdogs take).
    fn watchdog(&mut self, c: &PfcConfig, t: u32, report: &mut TickReport) {
        for i in 0..self.ports.len() {
            let p = &mut self.ports[i];
            if !p.link.from.is_switch() {
                continue;
            }
            // A watchdog switched on starts watching then: it has not seen
            // how long the queue was stuck before.
            p.stuck = if c.watchdog && p.paused(t) && !p.queue.is_empty() {
                p.stuck + 1
            } else {
                0
            };
            if p.stuck < WATCHDOG_TICKS {
                continue;
            }
            p.stuck = 0;
            p.flushing_until = t + WATCHDOG_TICKS;
            let gone: Vec<Chunk> = p.queue.drain(..).collect();
            report.watchdog.push(i);
            for ch in gone {
                self.ports[usize::from(ch.ingress)].ingress -= ch.bytes;
                self.flows[usize::from(ch.flow)].flushed += ch.bytes;
                report.flushed += ch.bytes;
            }
        }
    }

    /// Receivers send CNPs for marked bytes (at most one a flow every
    /// 50 µs), and senders cut their rate when one arrives.
    fn notify(&mut self, c: &PfcConfig, t: u32, report: &mut TickReport) {
        for f in 0..self.flows.len() {
            let delay = self.cnp_delay(f);
            let flow = &mut self.flows[f];
            if c.dcqcn {
                // The RP's timer runs whether or not the host may send.
                flow.rp.tick(std::mem::take(&mut flow.sent_now));
            }
            flow.sent_now = 0;
            let window_over = flow.last_cnp.is_none_or(|l| t - l >= CNP_TICKS);
            if c.dcqcn && flow.marked_since_cnp && window_over {
                flow.marked_since_cnp = false;
                flow.last_cnp = Some(t);
                flow.cnps.push_back(t + delay);
            }
            while flow.cnps.front().is_some_and(|at| *at <= t) {
                flow.cnps.pop_front();
                if c.dcqcn {
                    flow.rp.on_cnp();
                    report.cnps.push(f);
                }
            }
        }
    }

    /// Bytes of `flow` held in the fabric: queued and on the wires.
    pub fn held(&self, flow: u8) -> u64 {
        self.ports
            .iter()
            .map(|p| {
                p.queue
                    .iter()
                    .chain(p.wire.iter().flatten())
                    .filter(|ch| ch.flow == flow)
                    .map(|ch| ch.bytes)
                    .sum::<u64>()
            })
            .sum()
    }

    /// The hosts whose own link is paused.
    pub fn paused_hosts(&self) -> Vec<u8> {
        (0..HOSTS)
            .filter(|h| self.ports[self.host_port(*h)].paused(self.tick))
            .collect()
    }
}
