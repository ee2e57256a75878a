//! The `/host/rss` model. Step receives the next packet: its flow's hash
//! picks an entry of the 128-entry indirection table, the entry names a
//! queue, the queue's interrupt lands on a core, and RPS or RFS may hand
//! the packet to another core for protocol processing; the application's
//! reply leaves by a transmit queue XPS may choose.
//!
//! Packets come in a smooth weighted round robin over the flows (nginx's
//! `ngx_http_upstream_get_peer`): an elephant sends [`ELEPHANT_WEIGHT`]
//! packets for each small flow's one, evenly spread, so any run of packets
//! is close to the flows' shares.

use super::flows::{flows, Flow, ELEPHANTS, ELEPHANT_WEIGHT};
use super::steering::{rps_core, tx_queue_by_hash, xps_queue, Topology, NIC_NODE};
use crate::bound::Bound;
use crate::host::toeplitz::{default_indirection, table_index};
use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::text::{decimal, plural};
use serde::{Deserialize, Serialize};
use std::num::NonZeroU16;

/// Entries of the indirection table: "the most common hardware
/// implementation of RSS uses a 128-entry indirection table"
/// (`Documentation/networking/scaling.rst`; Intel I210 §7.1.2.10.2).
pub const TABLE_ENTRIES: usize = 128;
/// Receive queues, each with its own MSI-X vector.
pub const QUEUES: Bound<u32> = Bound::new("receive queues", "", 1, 16);
/// Cores on each of the two NUMA nodes.
pub const PER_NODE: Bound<u32> = Bound::new("cores per node", "", 1, 8);
/// Small flows; Break it adds the elephants.
pub const FLOWS: Bound<u32> = Bound::new("small flows", "", 1, 32);

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RssConfig {
    pub queues: u32,
    pub per_node: u32,
    pub mice: u32,
    pub elephants: bool,
    pub seed: u64,
    pub rps: bool,
    pub rfs: bool,
    pub xps: bool,
    pub remote_irqs: bool,
}

impl Default for RssConfig {
    /// Four queues on a host of two nodes of four cores, sixteen small
    /// flows, only RSS on.
    fn default() -> Self {
        RssConfig {
            queues: 4,
            per_node: 4,
            mice: 16,
            elephants: false,
            seed: 1,
            rps: false,
            rfs: false,
            xps: false,
            remote_irqs: false,
        }
    }
}

/// Where one packet of a flow goes under the current settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Path {
    pub entry: usize,
    pub queue: u32,
    /// The core the queue's interrupt (and NAPI poll) runs on.
    pub irq_core: u32,
    /// The core that runs the protocol processing.
    pub stack_core: u32,
    /// The core the flow's application thread runs on.
    pub app_core: u32,
    /// The transmit queue of the application's reply.
    pub tx_queue: u32,
    /// The core the reply's transmit completion interrupts.
    pub tx_core: u32,
}

impl Path {
    /// Whether its interrupt or its protocol processing runs on the node
    /// without the NIC.
    pub fn far_from_nic(&self, t: Topology) -> bool {
        t.node_of(self.irq_core) != NIC_NODE || t.node_of(self.stack_core) != NIC_NODE
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rss {
    pub config: RssConfig,
    /// Queue of each indirection-table entry.
    pub table: Vec<u16>,
    /// The round robin's running credit per flow.
    credit: Vec<i64>,
    /// Packets received since the last change, in all and per flow. Every
    /// change of setting or table restarts the count, so a flow's path is
    /// the same for all its packets counted, and the counts per queue and
    /// core follow from these (`per_queue`, `stack_work`).
    pub sent: u64,
    pub per_flow: Vec<u64>,
    /// The flow of the latest packet.
    pub last: Option<usize>,
    /// The flows the configuration's seed and counts give, hashed once
    /// when they change: a frame reads them dozens of times.
    flows: Vec<Flow>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RssAction {
    /// Receive the next packet.
    Receive,
    /// Receive one whole round of the round robin.
    ReceiveRound,
    SetQueues(u32),
    SetPerNode(u32),
    SetFlows(u32),
    /// New random clients and ports for the small flows.
    NewFlows,
    SetElephants(bool),
    SetRps(bool),
    SetRfs(bool),
    SetXps(bool),
    SetRemoteIrqs(bool),
    /// Point a table entry at the next queue (`ethtool -X … weight`).
    CycleEntry(u8),
    /// Fill the table as the driver does (`ethtool -X … equal`).
    SpreadEvenly,
}

impl Rss {
    pub fn topology(&self) -> Topology {
        Topology {
            per_node: self.config.per_node,
        }
    }

    pub fn flows(&self) -> &[Flow] {
        &self.flows
    }

    /// The core queue `q`'s interrupt goes to: the driver's spread from the
    /// NIC's node (`Topology::local_spread`), or, broken, node 1's cores in
    /// turn, as if someone had written node 1's cores into every IRQ's
    /// `smp_affinity`.
    pub fn irq_core(&self, queue: u32) -> u32 {
        let t = self.topology();
        if self.config.remote_irqs {
            let far = t.node_cores(1 - NIC_NODE);
            far.start + queue % t.per_node
        } else {
            t.local_spread(queue, NIC_NODE)
        }
    }

    pub fn irq_cores(&self) -> Vec<u32> {
        (0..self.config.queues).map(|q| self.irq_core(q)).collect()
    }

    /// The core flow `i`'s application thread runs on: the server runs one
    /// thread per core and hands connections to them in turn.
    pub fn app_core(&self, flow: usize) -> u32 {
        flow as u32 % self.topology().cores()
    }

    /// Where a packet of `flow` goes now.
    pub fn path(&self, flow: usize, f: &Flow) -> Path {
        let topology = self.topology();
        let entry = table_index(f.hash, self.table.len()).unwrap_or(0);
        let queue = u32::from(self.table[entry]);
        let irq_core = self.irq_core(queue);
        let app_core = self.app_core(flow);
        // get_rps_cpu: a valid RFS entry (the core the application last
        // read on) wins; without one, the RPS list; without either, the
        // interrupted core keeps the packet.
        let stack_core = if self.config.rfs {
            app_core
        } else if self.config.rps {
            rps_core(f.hash, topology, irq_core)
        } else {
            irq_core
        };
        let irq_cores = self.irq_cores();
        let tx_queue = if self.config.xps {
            xps_queue(app_core, f.hash, topology, &irq_cores)
        } else {
            tx_queue_by_hash(f.hash, self.config.queues)
        };
        Path {
            entry,
            queue,
            irq_core,
            stack_core,
            app_core,
            tx_queue,
            tx_core: irq_cores[tx_queue as usize],
        }
    }

    /// Packets in one round of the round robin.
    pub fn round(&self) -> u64 {
        self.flows().iter().map(|f| u64::from(f.weight())).sum()
    }

    /// `amount` of each flow, summed where `place` puts the flow's path.
    fn tally(
        &self,
        places: u32,
        place: fn(&Path) -> u32,
        amount: impl Fn(usize, &Flow) -> u64,
    ) -> Vec<u64> {
        let mut out = vec![0; places as usize];
        for (i, f) in self.flows().iter().enumerate() {
            out[place(&self.path(i, f)) as usize] += amount(i, f);
        }
        out
    }

    /// Each core's share of the protocol processing over a whole round, in
    /// packets per round: what the counters approach.
    pub fn stack_load(&self) -> Vec<u64> {
        self.tally(
            self.topology().cores(),
            |p| p.stack_core,
            |_, f| u64::from(f.weight()),
        )
    }

    /// Packets received on each queue since the last change.
    pub fn per_queue(&self) -> Vec<u64> {
        self.tally(self.config.queues, |p| p.queue, |i, _| self.per_flow[i])
    }

    /// Packets each core has run TCP/IP for since the last change.
    pub fn stack_work(&self) -> Vec<u64> {
        self.tally(
            self.topology().cores(),
            |p| p.stack_core,
            |i, _| self.per_flow[i],
        )
    }

    /// Per cent of the packets the busiest core processes, over a round.
    pub fn busiest_share(&self) -> f64 {
        let load = self.stack_load();
        100.0 * *load.iter().max().unwrap_or(&0) as f64 / self.round().max(1) as f64
    }

    /// The busiest core.
    pub fn busiest_core(&self) -> u32 {
        let load = self.stack_load();
        let top = load.iter().max().copied().unwrap_or(0);
        load.iter().position(|&l| l == top).unwrap_or(0) as u32
    }

    /// Per cent of a round's packets whose interrupt or processing runs on
    /// the node without the NIC.
    pub fn remote_share(&self) -> f64 {
        self.share_of(|p, t| p.far_from_nic(t))
    }

    /// Per cent of a round's packets processed on another core than the
    /// one their application reads them on.
    pub fn handover_share(&self) -> f64 {
        self.share_of(|p, _| p.stack_core != p.app_core)
    }

    /// Per cent of a round's replies whose completion interrupts another
    /// core than the one that sent them.
    pub fn tx_elsewhere_share(&self) -> f64 {
        self.share_of(|p, _| p.tx_core != p.app_core)
    }

    fn share_of(&self, counts: impl Fn(&Path, Topology) -> bool) -> f64 {
        let t = self.topology();
        let hits: u64 = self
            .flows()
            .iter()
            .enumerate()
            .filter(|(i, f)| counts(&self.path(*i, f), t))
            .map(|(_, f)| u64::from(f.weight()))
            .sum();
        100.0 * hits as f64 / self.round().max(1) as f64
    }

    /// The flow the round robin picks next, without picking it.
    pub fn next_flow(&self) -> usize {
        let flows = self.flows();
        let mut best = 0;
        let mut best_credit = i64::MIN;
        for (i, f) in flows.iter().enumerate() {
            let c = self.credit[i] + i64::from(f.weight());
            if c > best_credit {
                best = i;
                best_credit = c;
            }
        }
        best
    }

    /// Every flow gains its weight, the richest sends and pays the round's
    /// total: the credits always sum to zero.
    fn pick(&mut self) -> usize {
        let chosen = self.next_flow();
        let total = self.round() as i64;
        for (credit, f) in self.credit.iter_mut().zip(&self.flows) {
            *credit += i64::from(f.weight());
        }
        self.credit[chosen] -= total;
        chosen
    }

    fn receive(&mut self) -> Event {
        let flow = self.pick();
        let f = self.flows()[flow];
        let p = self.path(flow, &f);
        let t = self.topology();
        self.sent += 1;
        self.per_flow[flow] += 1;
        let remote = p.far_from_nic(t);
        self.last = Some(flow);
        let moved = if p.stack_core == p.irq_core {
            format!("core {} also runs TCP/IP", p.irq_core)
        } else if self.config.rfs {
            format!(
                "RFS hands it to core {}, where its application reads",
                p.stack_core
            )
        } else {
            format!("RPS hands it to core {}", p.stack_core)
        };
        let tone = if remote { Event::warn } else { Event::info };
        tone(format!(
            "Packet {} ({}{}): hash {:#010x}; its low 7 bits pick entry {}, which holds queue {}; the queue's interrupt goes to core {} on node {}, and {}.{}",
            self.sent,
            f.tuple(),
            if f.elephant { ", an elephant" } else { "" },
            f.hash,
            p.entry,
            p.queue,
            p.irq_core,
            t.node_of(p.irq_core),
            moved,
            if remote {
                " That core is on the other socket from the NIC, so the packet crosses the socket link: as the NIC's DMA into far memory, or as the core's reads of memory near the NIC."
            } else {
                ""
            }
        ))
        .at(format!("entry-{}", p.entry))
    }

    fn restart(&mut self, change: String) -> Outcome {
        let n = self.flows().len();
        self.credit = vec![0; n];
        self.per_flow = vec![0; n];
        self.sent = 0;
        self.last = None;
        Ok(vec![Event::info(format!(
            "{change} Counting starts again; over a round of {} packets the busiest core, core {}, processes {} % of them.",
            self.round(),
            self.busiest_core(),
            decimal(self.busiest_share(), 1)
        ))
        .at("cores")])
    }

    /// Changes the configuration, if it stays valid, and counts anew.
    fn reconfigure(&mut self, change: impl FnOnce(&mut RssConfig), said: String) -> Outcome {
        let mut next = self.config.clone();
        change(&mut next);
        if next == self.config {
            return Err(Refusal::new("That is already the setting."));
        }
        Rss::validate(&next).map_err(Refusal::new)?;
        let queues_changed = next.queues != self.config.queues;
        self.config = next;
        self.flows = flows(self.config.seed, self.config.mice, self.config.elephants);
        if queues_changed {
            self.spread_evenly();
        }
        self.restart(said)
    }

    fn spread_evenly(&mut self) {
        let queues = NonZeroU16::new(self.config.queues as u16).unwrap_or(NonZeroU16::MIN);
        self.table = default_indirection(TABLE_ENTRIES, queues);
    }

    fn switch(
        &mut self,
        on: bool,
        field: fn(&mut RssConfig) -> &mut bool,
        name: &str,
        what_on: &str,
    ) -> Outcome {
        let said = if on {
            format!("{name} on: {what_on}")
        } else {
            format!("{name} off.")
        };
        self.reconfigure(|c| *field(c) = on, said)
    }
}

impl Model for Rss {
    type Config = RssConfig;
    type Action = RssAction;

    fn validate(c: &RssConfig) -> Result<(), String> {
        QUEUES.check(c.queues)?;
        PER_NODE.check(c.per_node)?;
        FLOWS.check(c.mice)?;
        let cores = Topology {
            per_node: c.per_node,
        }
        .cores();
        // Drivers offer at most one receive queue per online core (ice's
        // `ice_get_max_rxq` is min(num_online_cpus(), the device's queues),
        // drivers/net/ethernet/intel/ice/ice_ethtool.c), and scaling.rst
        // suggests no more.
        if c.queues > cores {
            return Err(format!(
                "{} queues need {} cores, and this host has {cores}: one queue per core at most.",
                c.queues, c.queues
            ));
        }
        Ok(())
    }

    fn new(c: &RssConfig) -> Self {
        let mut m = Rss {
            config: c.clone(),
            table: Vec::new(),
            credit: Vec::new(),
            sent: 0,
            per_flow: Vec::new(),
            last: None,
            flows: flows(c.seed, c.mice, c.elephants),
        };
        m.spread_evenly();
        let _ = m.restart(String::new());
        m
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "{} flow{} arrive at a NIC with {} receive queue{}, on a host of two nodes of {} core{}. Step receives the next packet.",
            self.flows().len(),
            plural(self.flows().len()),
            self.config.queues,
            plural(self.config.queues as usize),
            self.config.per_node,
            plural(self.config.per_node as usize)
        ))
    }

    fn apply(&mut self, action: &RssAction) -> Outcome {
        match *action {
            RssAction::Receive => Ok(vec![self.receive()]),
            RssAction::ReceiveRound => {
                let round = self.round();
                for _ in 0..round {
                    self.receive();
                }
                Ok(vec![Event::done(format!(
                    "{round} more packets, a whole round: every flow sent its share. The busiest core has processed {} of the {} packets so far.",
                    self.stack_work().iter().max().unwrap_or(&0),
                    self.sent
                ))
                .at("cores")])
            }
            RssAction::SetQueues(n) => self.reconfigure(
                |c| c.queues = n,
                format!("{n} receive queue{}; the driver spreads the table over them again.", plural(n as usize)),
            ),
            RssAction::SetPerNode(n) => self.reconfigure(
                |c| c.per_node = n,
                format!("{n} core{} on each node.", plural(n as usize)),
            ),
            RssAction::SetFlows(n) => self.reconfigure(
                |c| c.mice = n,
                format!("{n} small flow{}.", plural(n as usize)),
            ),
            RssAction::NewFlows => {
                let seed = self.config.seed.wrapping_add(1);
                self.reconfigure(|c| c.seed = seed, "New clients and ports for the small flows.".into())
            }
            RssAction::SetElephants(on) => self.reconfigure(
                |c| c.elephants = on,
                if on {
                    format!("{ELEPHANTS} elephant flows from one backup host join, each sending {ELEPHANT_WEIGHT} packets for every one of a small flow.")
                } else {
                    "The elephants are gone.".into()
                },
            ),
            RssAction::SetRps(on) => self.switch(on, |c| &mut c.rps, "RPS", "the interrupted core hands each packet to a core of its node chosen by the hash's high bits."),
            RssAction::SetRfs(on) => self.switch(on, |c| &mut c.rfs, "RFS", "each packet is processed on the core where its application reads."),
            RssAction::SetXps(on) => self.switch(on, |c| &mut c.xps, "XPS", "a reply leaves by the transmit queue of the core that sends it."),
            RssAction::SetRemoteIrqs(on) => self.reconfigure(
                |c| c.remote_irqs = on,
                if on {
                    "Every queue's interrupt is now pinned to node 1, away from the NIC.".into()
                } else {
                    "The interrupts are back on the NIC's node first.".into()
                },
            ),
            RssAction::CycleEntry(e) => {
                let entry = usize::from(e);
                let Some(slot) = self.table.get_mut(entry) else {
                    return Err(Refusal::new(format!("The table has entries 0 to {}.", TABLE_ENTRIES - 1)));
                };
                if self.config.queues < 2 {
                    return Err(Refusal::new("With one queue every entry holds queue 0: there is nowhere else to point it."));
                }
                let from = *slot;
                *slot = ((u32::from(from) + 1) % self.config.queues) as u16;
                let to = *slot;
                self.restart(format!("Entry {entry} now holds queue {to} instead of {from}."))
                    .map(|mut events| {
                        if let Some(e) = events.first_mut() {
                            *e = e.clone().at(format!("entry-{entry}"));
                        }
                        events
                    })
            }
            RssAction::SpreadEvenly => {
                let before = self.table.clone();
                self.spread_evenly();
                if self.table == before {
                    return Err(Refusal::new("The table already spreads the queues evenly."));
                }
                self.restart("The table is spread evenly again, entry i holding queue i mod the queues.".into())
            }
        }
    }

    fn next_auto(&self) -> Result<RssAction, Refusal> {
        Ok(RssAction::Receive)
    }

    fn check(&self) -> Result<(), String> {
        Self::validate(&self.config)?;
        if self.table.len() != TABLE_ENTRIES {
            return Err("the indirection table lost entries".into());
        }
        if self
            .table
            .iter()
            .any(|&q| u32::from(q) >= self.config.queues)
        {
            return Err("a table entry names a queue that does not exist".into());
        }
        if self.credit.iter().sum::<i64>() != 0 {
            return Err("the round robin's credits do not sum to zero".into());
        }
        if self.per_flow.len() != self.flows().len()
            || self.per_flow.iter().sum::<u64>() != self.sent
        {
            return Err("the flows' counts lost or gained a packet".into());
        }
        Ok(())
    }

    fn status(&self) -> Vec<Figure> {
        vec![
            Figure::new("received", "packets received", self.sent),
            Figure::new(
                "busiest",
                "busiest core's share",
                format!("{} %", decimal(self.busiest_share(), 1)),
            ),
            Figure::new(
                "fair",
                "an even share",
                format!(
                    "{} %",
                    decimal(100.0 / f64::from(self.topology().cores()), 1)
                ),
            ),
            Figure::new(
                "remote",
                "handled on the far node",
                format!("{} %", decimal(self.remote_share(), 1)),
            ),
            Figure::new(
                "handover",
                "processed away from their application",
                format!("{} %", decimal(self.handover_share(), 1)),
            ),
            Figure::new(
                "tx-elsewhere",
                "replies completing on another core",
                format!("{} %", decimal(self.tx_elsewhere_share(), 1)),
            ),
        ]
    }

    fn why(&self) -> Vec<String> {
        let flows = self.flows();
        let elephants = flows.iter().filter(|f| f.elephant).count();
        let elephant_queues = {
            let mut q: Vec<u32> = flows
                .iter()
                .enumerate()
                .filter(|(_, f)| f.elephant)
                .map(|(i, f)| self.path(i, f).queue)
                .collect();
            q.sort_unstable();
            q.dedup();
            q.len()
        };
        let mut out = vec![
            format!(
                "The NIC hashes each packet's addresses and ports with the Toeplitz function; the hash's low 7 bits index the {TABLE_ENTRIES}-entry table, and the entry names the queue. Every packet of a flow has the same hash, so a flow never leaves its queue: that keeps its packets in order."
            ),
            format!(
                "Over a round of {} packets the busiest core processes {} %, where an even spread over {} cores would give each {} %.",
                self.round(),
                decimal(self.busiest_share(), 1),
                self.topology().cores(),
                decimal(100.0 / f64::from(self.topology().cores()), 1)
            ),
        ];
        if elephants > 0 {
            out.push(format!(
                "The {elephants} elephants carry {} % of the packets and land on {elephant_queues} queue{}: RSS spreads flows, not packets, so a few heavy flows cannot be spread evenly, and two of them may share a queue. Moving a hot entry to a quiet queue helps; splitting a flow would reorder it.",
                decimal(100.0 * (elephants as u64 * u64::from(ELEPHANT_WEIGHT)) as f64 / self.round() as f64, 1),
                plural(elephant_queues)
            ));
        }
        out.push(format!(
            "{} % of the packets are handled on node 1, away from the NIC: each crosses the socket link, as DMA into far memory or as the core's reads of memory near the NIC, and Intel's DDIO places DMA data only in the cache of the NIC's own socket.{}",
            decimal(self.remote_share(), 1),
            if self.config.remote_irqs {
                " The interrupts were pinned to the wrong node."
            } else if self.config.queues > self.config.per_node {
                " More queues than the NIC's node has cores: the driver's spread continues on the far node."
            } else {
                ""
            }
        ));
        out.push(format!(
            "{} % of the packets are processed on a core other than the one their application reads them on, so the socket's data moves between caches. RFS steers each flow to its reader's core; it needs no hardware, only the table of where each flow's reader last ran.",
            decimal(self.handover_share(), 1)
        ));
        out.push(format!(
            "{} % of the replies leave by a queue whose completion interrupts another core. XPS gives each core its own transmit queue, so completions come back to the sender and cores do not share a queue's lock.",
            decimal(self.tx_elsewhere_share(), 1)
        ));
        out
    }

    fn leaves_out() -> &'static str {
        "Leaves out: time (it counts packets, not nanoseconds, so no core saturates and no queue overflows), interrupt coalescing and NAPI budgets, RFS's check that a flow moves core only when its backlog is empty (threads never migrate here), accelerated RFS and n-tuple filters, RPS flow limit, symmetric hashing, IPv6 and UDP's hash fields, irqbalance moving interrupts while you watch, and real applications' threads: here each core runs one, and connections are handed to them in turn."
    }
}
