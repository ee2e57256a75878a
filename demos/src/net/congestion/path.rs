//! The path every congestion demo shares: senders, one bottleneck port with a
//! drop-tail buffer, receivers that ACK every segment, and the way back.
//!
//! Time is model state in nanoseconds; [`Path::step`] handles the single next
//! event. A segment crosses the sender's access link (serialised at
//! `access_ns` per packet, 0 = instantly), joins the bottleneck buffer or is
//! dropped when it is full, is serialised onto the bottleneck link at
//! `serialise_ns`, and its ACK reaches the sender one base RTT (all
//! propagation, lumped) later. The buffer counts every packet in the port,
//! the one on the wire included.
//!
//! Receivers send an immediate cumulative ACK for every segment, duplicate
//! ACKs on a hole (RFC 5681 §4.2), echoing the segment's CE mark as ECE (with
//! no delayed ACKs this is exactly DCTCP's receiver, RFC 8257 §3.2). With a
//! marking threshold the port marks CE on every arriving packet that finds
//! more than K packets there (RFC 8257 §3.1).

use super::sender::{Note, Sender, MSS, NO_LIMIT};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, VecDeque};

/// Bytes a full segment occupies on the wire: SMSS plus 40 bytes of headers
/// (Ethernet framing left out).
pub const WIRE_BYTES: u64 = MSS + 40;

/// Nanoseconds to serialise one full segment at `mbps` megabits per second.
pub fn serialise_ns(mbps: u64) -> u64 {
    WIRE_BYTES * 8 * 1000 / mbps.max(1)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Packet {
    pub flow: usize,
    pub seq: u64,
    /// When the sender sent it: its timestamp (RFC 7323).
    pub sent_at: u64,
    /// Congestion Experienced, set by the port.
    pub ce: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ack {
    pub ack: u64,
    pub ece: bool,
    /// The timestamp echoed back (TSecr).
    pub echo: u64,
}

/// One connection: its sender, its receiver and what is in flight between.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Flow {
    pub sender: Sender,
    /// Propagation there and back, ns.
    pub base_rtt: u64,
    /// Next in-order segment the receiver expects (its cumulative ACK).
    pub rcv_nxt: u64,
    /// Segments received above a hole.
    pub out_of_order: BTreeSet<u64>,
    /// TS.Recent: the timestamp of the last segment that moved `rcv_nxt` on.
    ts_recent: u64,
    /// Packets on the access link, with their arrival time at the port.
    pub access: VecDeque<(u64, Packet)>,
    access_free: u64,
    /// ACKs on the way back, with their arrival time at the sender.
    pub acks: VecDeque<(u64, Ack)>,
    /// The learner asked for this flow's next packet to be lost.
    pub drop_armed: bool,
    pub drops: u64,
    pub marks: u64,
    /// Timer expiries for a segment that was only delayed, not lost: the
    /// queue made the RTT outgrow the RTO (RFC 5682 §1).
    pub spurious_timeouts: u64,
    /// Packets of this flow that left the port for the receiver.
    pub departed: u64,
    /// Sending stopped (a flow that has not started or has been removed).
    pub active: bool,
}

impl Flow {
    pub fn new(sender: Sender, base_rtt: u64) -> Self {
        Flow {
            sender,
            base_rtt,
            rcv_nxt: 0,
            out_of_order: BTreeSet::new(),
            ts_recent: 0,
            access: VecDeque::new(),
            access_free: 0,
            acks: VecDeque::new(),
            drop_armed: false,
            drops: 0,
            marks: 0,
            spurious_timeouts: 0,
            departed: 0,
            active: true,
        }
    }

    /// Packets of this flow between the sender and the port, or on the way back.
    pub fn in_transit(&self) -> usize {
        self.access.len() + self.acks.len()
    }
}

/// How an arriving packet fared at the port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admission {
    Queued,
    /// Queued with CE set: the port held more than K packets.
    Marked,
    /// The buffer was full.
    Overflow,
    /// The learner dropped it.
    Injected,
}

/// Which kind of event is due, in the order ties are broken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Due {
    Depart,
    Arrive(usize),
    Ack(usize),
    Timer(usize),
}

/// One event, for narration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Happening {
    Arrived {
        flow: usize,
        seq: u64,
        admission: Admission,
    },
    Departed {
        flow: usize,
        seq: u64,
    },
    Acked {
        flow: usize,
        ack: u64,
        note: Note,
    },
    TimedOut {
        flow: usize,
        seq: u64,
        /// The segment was not lost: it was still queued, or its ACK was on
        /// the way back (a spurious timeout, RFC 5682 §1).
        spurious: bool,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Path {
    /// Model time, ns.
    pub now: u64,
    pub flows: Vec<Flow>,
    /// The bottleneck port's buffer; the front packet is on the wire.
    pub queue: VecDeque<Packet>,
    /// When the front packet finishes serialising.
    pub head_done: u64,
    /// Buffer size, packets.
    pub buffer: usize,
    /// ECN marking threshold K, packets (None: no marking).
    pub mark_above: Option<usize>,
    /// ns per packet on the bottleneck link.
    pub serialise_ns: u64,
    /// ns per packet on each sender's access link (0 = instantly).
    pub access_ns: u64,
    /// Time the bottleneck link spent sending, ns.
    pub busy_ns: u64,
    /// Deepest the buffer has been, packets.
    pub max_queue: usize,
}

impl Path {
    pub fn new(flows: Vec<Flow>, buffer: usize, serialise_ns: u64, access_ns: u64) -> Self {
        Path {
            now: 0,
            flows,
            queue: VecDeque::new(),
            head_done: 0,
            buffer,
            mark_above: None,
            serialise_ns,
            access_ns,
            busy_ns: 0,
            max_queue: 0,
        }
    }

    /// Lets flow `f` put on its access link every segment its window allows.
    pub fn pump(&mut self, f: usize) {
        let now = self.now;
        let access_ns = self.access_ns;
        let flow = &mut self.flows[f];
        if !flow.active {
            return;
        }
        while let Some(seq) = flow.sender.next_send(now) {
            let at = now.max(flow.access_free) + access_ns;
            flow.access_free = at;
            let packet = Packet {
                flow: f,
                seq,
                sent_at: now,
                ce: false,
            };
            flow.access.push_back((at, packet));
        }
    }

    /// When the next event happens, if anything is pending.
    pub fn next_time(&self) -> Option<u64> {
        self.next_due().map(|(t, _)| t)
    }

    /// The next event and its time. At equal times a departure comes first,
    /// then arrivals, ACKs and timers, each in flow order.
    fn next_due(&self) -> Option<(u64, Due)> {
        let mut best: Option<(u64, Due)> = None;
        let mut offer = |t: u64, due: Due| {
            if best.is_none_or(|(bt, bd)| (t, due) < (bt, bd)) {
                best = Some((t, due));
            }
        };
        if !self.queue.is_empty() {
            offer(self.head_done, Due::Depart);
        }
        for (f, flow) in self.flows.iter().enumerate() {
            if let Some(&(t, _)) = flow.access.front() {
                offer(t, Due::Arrive(f));
            }
            if let Some(&(t, _)) = flow.acks.front() {
                offer(t, Due::Ack(f));
            }
            if let Some(t) = flow.sender.rto_at {
                offer(t, Due::Timer(f));
            }
        }
        best
    }

    /// Handles the next event.
    pub fn step(&mut self) -> Option<Happening> {
        self.step_until(u64::MAX)
    }

    /// Handles the next event if it happens no later than `until`.
    pub fn step_until(&mut self, until: u64) -> Option<Happening> {
        let (t, due) = self.next_due().filter(|&(t, _)| t <= until)?;
        self.now = t;
        Some(match due {
            Due::Depart => self.depart(),
            Due::Arrive(f) => self.arrive(f),
            Due::Ack(f) => {
                let (_, ack) = self.flows[f].acks.pop_front()?;
                let note = self.flows[f].sender.on_ack(t, ack.ack, ack.ece, ack.echo);
                self.pump(f);
                Happening::Acked {
                    flow: f,
                    ack: ack.ack,
                    note,
                }
            }
            Due::Timer(f) => {
                let flow = &self.flows[f];
                let seq = flow.sender.snd_una;
                // ACKs are never lost here, so a segment the receiver has
                // taken has its ACK on the way.
                let spurious = flow.rcv_nxt > seq
                    || flow.access.iter().any(|(_, p)| p.seq == seq)
                    || self.queue.iter().any(|p| p.flow == f && p.seq == seq);
                self.flows[f].spurious_timeouts += u64::from(spurious);
                self.flows[f].sender.on_timeout(t);
                self.pump(f);
                Happening::TimedOut {
                    flow: f,
                    seq,
                    spurious,
                }
            }
        })
    }

    /// Runs every event up to and including time `until`, then sets the clock there.
    pub fn run_until(&mut self, until: u64, mut seen: impl FnMut(&Path, Happening)) {
        while let Some(h) = self.step_until(until) {
            seen(self, h);
        }
        self.now = self.now.max(until);
    }

    fn arrive(&mut self, f: usize) -> Happening {
        let (_, mut packet) = self.flows[f].access.pop_front().expect("an arrival is due");
        let flow = &mut self.flows[f];
        let admission = if flow.drop_armed {
            flow.drop_armed = false;
            Admission::Injected
        } else if self.queue.len() >= self.buffer {
            Admission::Overflow
        } else if self.mark_above.is_some_and(|k| self.queue.len() > k) {
            Admission::Marked
        } else {
            Admission::Queued
        };
        match admission {
            Admission::Injected | Admission::Overflow => flow.drops += 1,
            Admission::Marked => {
                flow.marks += 1;
                packet.ce = true;
            }
            Admission::Queued => {}
        }
        if matches!(admission, Admission::Queued | Admission::Marked) {
            if self.queue.is_empty() {
                self.head_done = self.now + self.serialise_ns;
            }
            self.queue.push_back(packet);
            self.max_queue = self.max_queue.max(self.queue.len());
        }
        Happening::Arrived {
            flow: f,
            seq: packet.seq,
            admission,
        }
    }

    fn depart(&mut self) -> Happening {
        let packet = self.queue.pop_front().expect("a packet is on the wire");
        self.busy_ns += self.serialise_ns;
        if !self.queue.is_empty() {
            self.head_done = self.now + self.serialise_ns;
        }
        let flow = &mut self.flows[packet.flow];
        flow.departed += 1;
        // The receiver: advance over the hole it fills, or remember what lies beyond one.
        if packet.seq == flow.rcv_nxt {
            flow.ts_recent = packet.sent_at;
            flow.rcv_nxt += 1;
            while flow.out_of_order.remove(&flow.rcv_nxt) {
                flow.rcv_nxt += 1;
            }
        } else if packet.seq > flow.rcv_nxt {
            flow.out_of_order.insert(packet.seq);
        }
        let ack = Ack {
            ack: flow.rcv_nxt,
            ece: packet.ce,
            echo: flow.ts_recent,
        };
        flow.acks.push_back((self.now + flow.base_rtt, ack));
        Happening::Departed {
            flow: packet.flow,
            seq: packet.seq,
        }
    }

    /// The link's busy time up to now, ns: finished packets, and the part of
    /// the one on the wire already sent. Crediting a packet only when it
    /// leaves would count a window's last packet whole in the next window,
    /// and a share of busy time could pass 100 %.
    pub fn busy_so_far(&self) -> u64 {
        let on_wire = if self.queue.is_empty() {
            0
        } else {
            let started = self.head_done.saturating_sub(self.serialise_ns);
            self.now.saturating_sub(started).min(self.serialise_ns)
        };
        self.busy_ns + on_wire
    }

    /// The invariants of the path: nothing created or lost unaccounted.
    pub fn check(&self) -> Result<(), String> {
        if self.queue.len() > self.buffer {
            return Err("the buffer holds more packets than it has room for".into());
        }
        if self.busy_ns > self.now {
            return Err("the link was busy longer than time has run".into());
        }
        for (i, flow) in self.flows.iter().enumerate() {
            let s = &flow.sender;
            let n = i + 1;
            if !(s.snd_una <= s.snd_nxt && s.snd_nxt <= s.snd_max) {
                return Err(format!("flow {n}: SND.UNA ≤ SND.NXT ≤ highest sent broken"));
            }
            if flow.rcv_nxt < s.snd_una || flow.rcv_nxt > s.snd_max {
                return Err(format!(
                    "flow {n}: the receiver acknowledged what was never sent"
                ));
            }
            if s.cwnd < MSS {
                return Err(format!("flow {n}: cwnd below one segment"));
            }
            if s.in_recovery && s.ssthresh == NO_LIMIT {
                return Err(format!("flow {n}: in recovery without an ssthresh"));
            }
            // Every transmission is dropped, delivered or still on its way.
            let queued = self.queue.iter().filter(|p| p.flow == i).count() as u64;
            let sent = s.snd_max + s.retransmits;
            let accounted = flow.drops + flow.departed + flow.access.len() as u64 + queued;
            if sent != accounted {
                return Err(format!(
                    "flow {n}: {sent} packets sent but {accounted} dropped, delivered or in flight"
                ));
            }
        }
        Ok(())
    }

    /// Loses the packet waiting at buffer position `index` (the packet on the
    /// wire, at 0, can no longer be recalled). Returns its flow and segment.
    pub fn drop_queued(&mut self, index: usize) -> Option<(usize, u64)> {
        if index == 0 {
            return None;
        }
        let packet = self.queue.remove(index)?;
        self.flows[packet.flow].drops += 1;
        Some((packet.flow, packet.seq))
    }

    /// Queueing delay a packet arriving now would see, ns.
    pub fn queue_delay(&self) -> u64 {
        self.queue.len() as u64 * self.serialise_ns
    }
}
