//! NUMA local vs remote: one thread walks its pages on a 2- or 4-socket
//! machine; where each page lives decides what each access costs.
//!
//! Placement (Linux `Documentation/admin-guide/mm/numa_memory_policy.rst`):
//! - the system default policy is *local allocation*: a page is allocated on
//!   the node of the CPU that first touches it (first-touch);
//! - `MPOL_INTERLEAVE` (`numactl --interleave`) picks the node by the page's
//!   offset in its mapping modulo the number of nodes;
//! - `MPOL_BIND` (`numactl --membind`) allocates from the given node;
//! - pages already faulted in stay where they were allocated when the policy
//!   changes or the thread moves (no page migration is modelled).
//!
//! Cost of one access, a 64-byte line that misses every cache: the path's
//! idle latency, and the line's transfer at the path's bandwidth. The code
//! may offer many independent misses, but one core keeps at most as many
//! lines in flight as its L1 data cache has fill buffers: each outstanding
//! L1D miss holds one until its line arrives. With k = min(offered, fill
//! buffers) lines in flight an access occupies the path for
//! max(latency / k, 64 B / bandwidth). By Little's law one thread then pulls
//! at most k × 64 B / latency, whatever the memory could deliver: one
//! dependent load at a time (k = 1, as Intel MLC measures idle latency) gets
//! 64 B per latency, and even a full set of fill buffers stays far below the
//! socket's bandwidth, which takes many cores to reach.
//!
//! Default figures: Intel MLC v3.10 on KU Leuven's Genius nodes, 2 × Xeon
//! Gold 6140 (Skylake-SP) — idle latency 90.2 ns local, 144.3 ns remote;
//! read bandwidth 104,362 MB/s node-local, 34,290 MB/s across sockets
//! (hpcleuven/VscDocumentation `source/leuven/old_hardware/genius/skylake_mlc.txt`).
//! MLC measures those bandwidths "using all the threads from each core" (its
//! output says so), so here they are the socket's ceiling, not one thread's.
//! Fill buffers: 10 per core by default. The L1 data cache records each
//! outstanding miss in a line fill buffer (Intel 64 and IA-32 Architectures
//! Optimization Reference Manual, 248966, on the L1 data cache: about 10 on
//! Intel cores since Nehalem, about 12 on recent ones). D. Lemire measured
//! about ten concurrent memory requests on one Skylake core ("Memory-level
//! parallelism: Intel Skylake versus Apple A12/A12X", 2018). So one thread
//! pulls at most 10 × 64 B / 90 ns = 7.1 GB/s here.

mod report;
#[cfg(test)]
mod tests;
mod topology;
mod walk;

pub use topology::{farthest, hops, link_count, link_ends, route};

use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::rng::Rng;
use crate::text::plural;
use crate::Bound;
use serde::{Deserialize, Serialize};

/// Bytes moved by one access: a cache line.
pub const LINE_BYTES: u64 = 64;
pub const PAGES: Bound<usize> = Bound::new("number of pages", "", 1, 64);
pub const ACCESSES: Bound<usize> = Bound::new("run length", " accesses", 1, 4096);
/// Independent misses the thread's code offers (memory-level parallelism).
pub const IN_FLIGHT: Bound<u32> = Bound::new("number of misses offered", "", 1, 64);
/// L1D fill buffers of the thread's core: the misses it can keep in flight.
pub const FILL_BUFFERS: Bound<u32> = Bound::new("number of fill buffers", "", 1, 32);
pub const LOCAL_NS: Bound<u32> = Bound::new("local latency", " ns", 1, 2000);
pub const HOP_NS: Bound<u32> = Bound::new("cost of a hop", " ns", 1, 2000);
pub const LOCAL_GBS: Bound<u32> = Bound::new("local bandwidth", " GB/s", 1, 1000);
pub const LINK_GBS: Bound<u32> = Bound::new("link bandwidth", " GB/s", 1, 1000);
/// Fill buffers of the default core (see the module comment).
pub const DEFAULT_FILL_BUFFERS: u32 = 10;
/// Accesses kept for the picture's per-access strip.
pub const RECENT_KEPT: usize = 32;

/// Where newly touched pages go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Policy {
    /// Local allocation, Linux's default: the toucher's node.
    #[default]
    FirstTouch,
    /// Round-robin over all nodes by page number.
    Interleave,
    /// Every page on this node.
    Bind(u8),
}

impl Policy {
    pub fn label(self) -> String {
        match self {
            Policy::FirstTouch => "first touch".into(),
            Policy::Interleave => "interleave".into(),
            Policy::Bind(n) => format!("bind to node {n}"),
        }
    }
}

/// The order the thread visits its pages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Order {
    /// Page 0, 1, 2, … and round again.
    #[default]
    Sequential,
    /// A seeded random page each time.
    Random,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NumaConfig {
    /// 2 or 4.
    pub sockets: u8,
    pub pages: usize,
    /// Accesses in one run.
    pub accesses: usize,
    pub order: Order,
    pub policy: Policy,
    /// Socket the thread starts on.
    pub start_socket: u8,
    /// Independent misses the thread's code offers at once (memory-level
    /// parallelism); the core keeps at most `fill_buffers` of them in flight.
    pub in_flight: u32,
    /// L1D fill buffers of the core: its limit on outstanding misses.
    pub fill_buffers: u32,
    pub local_ns: u32,
    /// Extra latency per interconnect hop.
    pub hop_ns: u32,
    /// Bandwidth of a node's own memory, GB/s (= bytes per ns): the whole
    /// socket's, reached only with all its cores loading.
    pub local_gbs: u32,
    /// Bandwidth across one link, GB/s.
    pub link_gbs: u32,
    /// Break it: the scheduler moves the thread to the far socket right
    /// after the last page is first touched.
    pub migrate_after_touch: bool,
    pub seed: u64,
}

impl Default for NumaConfig {
    fn default() -> Self {
        NumaConfig {
            sockets: 2,
            pages: 16,
            accesses: 256,
            order: Order::Sequential,
            policy: Policy::FirstTouch,
            start_socket: 0,
            in_flight: 1,
            fill_buffers: DEFAULT_FILL_BUFFERS,
            // MLC idle latency, rounded: 90 ns local, 144 ns remote.
            local_ns: 90,
            hop_ns: 54,
            // MLC read bandwidth, rounded to whole GB/s.
            local_gbs: 104,
            link_gbs: 34,
            migrate_after_touch: false,
            seed: 0x5EED_0A1A,
        }
    }
}

/// One access, as the picture shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Access {
    pub number: usize,
    pub page: usize,
    /// The socket the thread ran on.
    pub from: u8,
    /// The node holding the page.
    pub node: u8,
    pub hops: u8,
    pub latency_ns: u32,
    /// Bandwidth of the path the line took, GB/s: the node's memory when
    /// local, otherwise the slower of the link and that memory.
    pub gbs: u32,
    /// This access faulted the page in.
    pub first_touch: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Numa {
    /// Current settings (policy and the break-it switch change during a run).
    pub config: NumaConfig,
    /// The socket the thread runs on now.
    pub thread: u8,
    /// The node each page lives on; `None` until first touched.
    pub page_node: Vec<Option<u8>>,
    /// Accesses done in this run.
    pub done: usize,
    pub local: u32,
    pub remote: u32,
    pub latency_sum_ns: u64,
    /// Sum of hops over all accesses.
    pub hop_sum: u64,
    /// Run time so far, picoseconds.
    pub elapsed_ps: u64,
    /// Bytes that crossed each link.
    pub link_bytes: Vec<u64>,
    pub migrations: u32,
    /// Whether the break-it migration has happened this run.
    pub moved_after_touch: bool,
    /// The last [`RECENT_KEPT`] accesses, oldest first.
    pub recent: Vec<Access>,
    pub rng: Rng,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NumaAction {
    /// The thread's next access.
    Access,
    /// The next n accesses.
    Run(usize),
    /// The rest of the run.
    Finish,
    /// The scheduler moves the thread to this socket.
    Migrate(u8),
    /// Policy for pages not yet touched.
    SetPolicy(Policy),
    SetBreakIt(bool),
    /// These restart the run with every page untouched.
    SetSockets(u8),
    SetOrder(Order),
    SetInFlight(u32),
    Restart,
}

impl Numa {
    /// Latency from the thread's socket `from` to memory on `node`.
    pub fn latency_ns(&self, from: u8, node: u8) -> u32 {
        self.config.local_ns + u32::from(hops(self.config.sockets, from, node)) * self.config.hop_ns
    }

    /// Bandwidth of the path from socket `from` to memory on `node`, GB/s.
    pub fn path_gbs(&self, from: u8, node: u8) -> u32 {
        if from == node {
            self.config.local_gbs
        } else {
            self.config.link_gbs.min(self.config.local_gbs)
        }
    }

    /// Lines the core keeps in flight: what the code offers, capped by the
    /// L1D fill buffers.
    pub fn lines_in_flight(&self) -> u32 {
        self.config.in_flight.min(self.config.fill_buffers)
    }

    /// Whether the fill buffers, not the code, limit the misses in flight.
    pub fn fill_buffer_bound(&self) -> bool {
        self.config.in_flight > self.config.fill_buffers
    }

    /// The most one thread can pull from memory on `node` while on socket
    /// `from`, tenths of a GB/s: lines in flight × 64 B / latency (Little's
    /// law), capped by the path's bandwidth.
    pub fn thread_ceiling_tenths(&self, from: u8, node: u8) -> i64 {
        let little = crate::text::ratio(
            u64::from(self.lines_in_flight()) * LINE_BYTES,
            u64::from(self.latency_ns(from, node)),
            1,
        );
        little.min(i64::from(self.path_gbs(from, node)) * 10)
    }

    /// The latest access of this run.
    pub fn last(&self) -> Option<&Access> {
        self.recent.last()
    }

    /// The slowest path on this machine.
    pub fn worst_latency_ns(&self) -> u32 {
        self.latency_ns(0, farthest(self.config.sockets, 0))
    }

    /// SLIT-style distance (local = 10) implied by the model's latencies.
    pub fn distance(&self, from: u8, node: u8) -> u32 {
        let l = u64::from(self.latency_ns(from, node));
        ((l * 10 + u64::from(self.config.local_ns) / 2) / u64::from(self.config.local_ns)) as u32
    }

    fn restart(&mut self, config: NumaConfig, what: &str) -> Outcome {
        Self::validate(&config).map_err(Refusal::new)?;
        *self = Self::new(&config);
        Ok(vec![Event::info(format!(
            "{what} The run starts over with no page touched yet."
        ))
        .at("pages")])
    }
}

impl Model for Numa {
    type Config = NumaConfig;
    type Action = NumaAction;

    fn validate(c: &NumaConfig) -> Result<(), String> {
        if c.sockets != 2 && c.sockets != 4 {
            return Err("The machine has 2 or 4 sockets.".into());
        }
        PAGES.check(c.pages)?;
        ACCESSES.check(c.accesses)?;
        if c.start_socket >= c.sockets {
            return Err(format!(
                "The thread starts on socket 0 to {}.",
                c.sockets - 1
            ));
        }
        if let Policy::Bind(n) = c.policy {
            if n >= c.sockets {
                return Err(format!("Bind to node 0 to {}.", c.sockets - 1));
            }
        }
        IN_FLIGHT.check(c.in_flight)?;
        FILL_BUFFERS.check(c.fill_buffers)?;
        LOCAL_NS.check(c.local_ns)?;
        HOP_NS.check(c.hop_ns)?;
        LOCAL_GBS.check(c.local_gbs)?;
        LINK_GBS.check(c.link_gbs)?;
        Ok(())
    }

    fn new(c: &NumaConfig) -> Self {
        Numa {
            config: c.clone(),
            thread: c.start_socket,
            page_node: vec![None; c.pages],
            done: 0,
            local: 0,
            remote: 0,
            latency_sum_ns: 0,
            hop_sum: 0,
            elapsed_ps: 0,
            link_bytes: vec![0; link_count(c.sockets)],
            migrations: 0,
            moved_after_touch: false,
            recent: Vec::new(),
            rng: Rng::new(c.seed),
        }
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "{} sockets, each with its own memory. A thread on socket {} will make {} accesses over {} page{}, none touched yet; policy: {}.",
            self.config.sockets,
            self.thread,
            self.config.accesses,
            self.config.pages,
            plural(self.config.pages),
            self.config.policy.label()
        ))
    }

    fn apply(&mut self, action: &NumaAction) -> Outcome {
        let mut c = self.config.clone();
        match *action {
            NumaAction::Access => {
                self.ensure_left()?;
                Ok(self.access())
            }
            NumaAction::Run(n) => self.run(n),
            NumaAction::Finish => {
                self.ensure_left()?;
                self.run(self.config.accesses - self.done)
            }
            NumaAction::Migrate(to) => {
                if to >= self.config.sockets {
                    return Err(Refusal::new(format!(
                        "This machine has sockets 0 to {}.",
                        self.config.sockets - 1
                    )));
                }
                if to == self.thread {
                    return Err(Refusal::new(format!(
                        "The thread already runs on socket {to}."
                    )));
                }
                Ok(vec![self.move_thread(to, false)])
            }
            NumaAction::SetPolicy(policy) => {
                c.policy = policy;
                Self::validate(&c).map_err(Refusal::new)?;
                if policy == self.config.policy {
                    return Err(Refusal::new(format!(
                        "The policy is already {}.",
                        policy.label()
                    )));
                }
                self.config.policy = policy;
                let placed = self.page_node.iter().filter(|p| p.is_some()).count();
                Ok(vec![Event::info(format!(
                    "Policy now {}. It governs pages touched from here on; the {placed} already placed stay put.",
                    policy.label()
                ))
                .at("policy")])
            }
            NumaAction::SetBreakIt(on) => {
                if on == self.config.migrate_after_touch {
                    return Err(Refusal::new(if on {
                        "Break it is already on."
                    } else {
                        "Break it is already off."
                    }));
                }
                self.config.migrate_after_touch = on;
                Ok(vec![Event::info(if on {
                    "Break it: once every page has been touched, the scheduler will move the thread to the far socket."
                } else {
                    "Break it off: the thread stays where it is unless you move it."
                })
                .at("thread")])
            }
            NumaAction::SetSockets(n) => {
                c.sockets = n;
                c.start_socket = c.start_socket.min(n.saturating_sub(1));
                if let Policy::Bind(b) = c.policy {
                    c.policy = Policy::Bind(b.min(n.saturating_sub(1)));
                }
                if n == self.config.sockets {
                    return Err(Refusal::new(format!("There are already {n} sockets.")));
                }
                self.restart(c, &format!("{n} sockets."))
            }
            NumaAction::SetOrder(order) => {
                if order == self.config.order {
                    return Err(Refusal::new("That is already the access order."));
                }
                c.order = order;
                let what = match order {
                    Order::Sequential => "Pages in order.",
                    Order::Random => "Pages at random.",
                };
                self.restart(c, what)
            }
            NumaAction::SetInFlight(k) => {
                if k == self.config.in_flight {
                    return Err(Refusal::new(format!(
                        "{k} miss{} already in flight.",
                        if k == 1 { " is" } else { "es are" }
                    )));
                }
                IN_FLIGHT.admit(k)?;
                c.in_flight = k;
                let what = if k > c.fill_buffers {
                    format!(
                        "The code offers {k} independent misses, but the core's {fb} fill buffers keep only {fb} in flight.",
                        fb = c.fill_buffers
                    )
                } else {
                    format!("{k} miss{} in flight.", if k == 1 { "" } else { "es" })
                };
                self.restart(c, &what)
            }
            NumaAction::Restart => {
                if self.done == 0 && self.migrations == 0 {
                    return Err(Refusal::new("Nothing to restart: no access has run yet."));
                }
                self.restart(c, "Restart.")
            }
        }
    }

    fn next_auto(&self) -> Result<NumaAction, Refusal> {
        self.ensure_left().map(|_| NumaAction::Access)
    }

    fn check(&self) -> Result<(), String> {
        report::check(self)
    }

    fn status(&self) -> Vec<Figure> {
        report::figures(self)
    }

    fn why(&self) -> Vec<String> {
        report::why(self)
    }

    fn leaves_out() -> &'static str {
        "Leaves out: caches and prefetchers (every access is a miss; a real core's L2 prefetcher fetches beyond the L1 fill buffers and lifts one thread somewhat above their limit), queueing when many cores share a memory controller or link, page-fault cost, automatic NUMA balancing (which migrates hot pages toward their user), and sub-NUMA clustering; latency grows by a fixed cost per hop."
    }
}
