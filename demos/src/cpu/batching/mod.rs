//! Batching: a fixed cost per operation plus a cost per item, and the wait
//! for a batch to fill.
//!
//! Items arrive over time (evenly, or as a seeded Poisson process). They
//! collect in a batch that leaves when it holds `batch` items or when the
//! flush timer, started by the batch's first item, fires — whichever comes
//! first. One consumer processes batches in order; a batch of n items takes
//! `fixed_ns + n × per_item_ns`. This is the rule of NIC interrupt
//! coalescing (`ethtool -C … rx-frames N rx-usecs T`; Linux
//! `include/uapi/linux/ethtool.h`, `struct ethtool_coalesce`: delay the RX
//! interrupt at most `rx_coalesce_usecs` after a packet arrives, or until
//! `rx_max_coalesced_frames` packets; a 0 timer means frames only) and the
//! trade-off of TX batching with `xmit_more`, where the driver skips the
//! doorbell while `netdev_xmit_more()` says more packets follow (e.g.
//! `ixgbe_tx_map()`). TX batching flushes when the queue runs dry rather
//! than on a timer; the timer here is the coalescing one.
//!
//! Arithmetic pinned by the tests: with the consumer always busy,
//! throughput(B) = B / (fixed + B·per_item) and the overhead share is
//! fixed / (fixed + B·per_item); without a timeout, the mean wait for the
//! batch to fill at arrival rate λ is (B − 1) / (2λ).
//!
//! Default figures:
//! - fixed cost 700 ns: one system call, lmbench `lat_syscall null` on
//!   x86-64 — 0.7016 µs, from Kees Cook's patch "stack: Optionally randomize
//!   kernel stack offset each syscall" (2019–2021). Without page-table
//!   isolation the same test has measured 0.051 µs (Elena Reshetova, LKML,
//!   2019): edit the figure to see how much batching then still buys.
//! - per-item cost 50 ns: an assumption of this model (handling one small
//!   item), not a measurement.
//! - batch of 32 and timeout of 16 µs: mlx5's static interrupt moderation
//!   defaults, `MLX5E_PARAMS_DEFAULT_RX_CQ_MODERATION_PKTS 0x20` and
//!   `…_USEC 0x10` (Linux `drivers/net/ethernet/mellanox/mlx5/core/en.h`);
//!   its adaptive moderation (DIM), usually on, retunes them to the load.

mod arrivals;
mod report;
mod sim;
mod sweep;
#[cfg(test)]
mod tests;

pub use arrivals::next_gap;
pub use sweep::{arrival_times, RunEnd, SweepPoint};

use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::rng::Rng;
use crate::Bound;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Items per batch.
pub const BATCH: Bound<u32> = Bound::new("batch size", " items", 1, 256);
/// The largest batch: break it's setting and the chart's right edge.
pub const BATCH_MAX: u32 = BATCH.max;
/// Flush timer, ns; 0 = no timer.
pub const TIMEOUT: Bound<u32> = Bound::new("flush timer (0 = none)", " ns", 0, 1_000_000);
pub const FIXED: Bound<u32> = Bound::new("fixed cost", " ns", 1, 100_000);
pub const PER_ITEM: Bound<u32> = Bound::new("cost per item", " ns", 0, 10_000);
pub const GAP: Bound<u32> = Bound::new("mean gap between items", " ns", 1, 100_000);
pub const ITEMS: Bound<u32> = Bound::new("number of items", "", 1, 1024);
/// Batch sizes of the throughput chart.
pub const CURVE_SIZES: [u32; 9] = [1, 2, 4, 8, 16, 32, 64, 128, 256];
/// Finished batches kept for the picture.
pub const HISTORY_KEPT: usize = 16;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BatchConfig {
    /// Items per batch, 1..=256.
    pub batch: u32,
    /// Flush timer from a batch's first item, ns; 0 = no timer.
    pub timeout_ns: u32,
    /// Cost of one operation (syscall, doorbell, interrupt), ns.
    pub fixed_ns: u32,
    pub per_item_ns: u32,
    /// Mean time between arrivals, ns (1/λ).
    pub gap_ns: u32,
    /// Exponential gaps (Poisson arrivals) instead of even ones.
    pub poisson: bool,
    /// Items in one run.
    pub items: u32,
    pub seed: u64,
}

impl Default for BatchConfig {
    fn default() -> Self {
        BatchConfig {
            batch: 32,
            timeout_ns: 16_000,
            fixed_ns: 700,
            per_item_ns: 50,
            gap_ns: 1_000,
            poisson: true,
            items: 256,
            seed: 0x5EED_BA7C,
        }
    }
}

/// Why a batch left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Flush {
    Full,
    Timeout,
}

/// A batch that has left the filling stage.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Batch {
    pub number: u32,
    /// Arrival times of its items, ns.
    pub arrivals: Vec<u64>,
    pub reason: Flush,
    pub left_at: u64,
}

/// A processed batch, for the picture's time axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BatchRecord {
    pub number: u32,
    pub size: u32,
    pub reason: Flush,
    pub first_arrival: u64,
    pub left_at: u64,
    pub start: u64,
    pub done: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Batching {
    pub config: BatchConfig,
    /// The model clock, ns.
    pub now: u64,
    pub arrived: u32,
    /// When the next item arrives; `None` once all have.
    pub next_arrival: Option<u64>,
    /// Arrival times of the items in the filling batch.
    pub open: Vec<u64>,
    /// When the flush timer fires, if armed.
    pub deadline: Option<u64>,
    /// Batches that left and wait for the consumer.
    pub ready: VecDeque<Batch>,
    /// The batch the consumer is processing, and when it finishes.
    pub serving: Option<(Batch, u64, u64)>,
    pub batches_left: u32,
    pub full_batches: u32,
    /// Latency of each finished item (arrival to its batch done), ns.
    pub latencies: Vec<u32>,
    pub fill_wait_sum: u64,
    pub max_fill_wait: u64,
    pub queue_wait_sum: u64,
    /// Time the consumer spent processing, and the fixed part of it.
    pub busy_ns: u64,
    pub fixed_spent_ns: u64,
    pub history: Vec<BatchRecord>,
    pub rng: Rng,
    /// Run without writing narration (Finish's steps, [`Batching::finished`]).
    #[serde(skip)]
    pub(super) quiet: bool,
    /// The sweep and the run's end for the current configuration (they
    /// depend on nothing else, and the picture shows them at every step).
    #[serde(skip)]
    pub(super) sweep_memo: crate::memo::Memo<BatchConfig, (Vec<SweepPoint>, RunEnd)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BatchAction {
    /// The next event on the time axis.
    Step,
    /// Every remaining event.
    Finish,
    SetBatch(u32),
    SetTimeout(u32),
    SetFixed(u32),
    SetPerItem(u32),
    SetGap(u32),
    SetPoisson(bool),
    SetItems(u32),
    /// Batch of 256, no timer, one item every 10 µs: the largest batch and
    /// the lowest overhead, at a latency cost of milliseconds.
    BreakIt,
}

/// Throughput of a consumer that is always busy, thousand items per second:
/// B / (fixed + B·per_item).
pub fn throughput_kps(batch: u32, fixed_ns: u32, per_item_ns: u32) -> u64 {
    let ns = u64::from(fixed_ns) + u64::from(batch) * u64::from(per_item_ns);
    u64::from(batch) * 1_000_000 / ns
}

/// Share of processing time spent on the fixed cost, tenths of a percent:
/// fixed / (fixed + B·per_item).
pub fn overhead_tenths(batch: u32, fixed_ns: u32, per_item_ns: u32) -> i64 {
    let fixed = i64::from(fixed_ns);
    crate::text::share_tenths(fixed, fixed + i64::from(batch) * i64::from(per_item_ns))
}

/// Mean wait for a batch to fill without a timeout, ns: (B − 1) / (2λ).
pub fn mean_fill_wait_ns(batch: u32, gap_ns: u32) -> u64 {
    u64::from(batch - 1) * u64::from(gap_ns) / 2
}

/// One point of the chart against batch size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CurvePoint {
    pub batch: u32,
    pub throughput_kps: u64,
    pub overhead_tenths: i64,
    pub fill_wait_ns: u64,
}

impl Batching {
    /// The chart's data for the current costs and arrival rate.
    pub fn curve(&self) -> Vec<CurvePoint> {
        let c = &self.config;
        CURVE_SIZES
            .iter()
            .map(|&b| CurvePoint {
                batch: b,
                throughput_kps: throughput_kps(b, c.fixed_ns, c.per_item_ns),
                overhead_tenths: overhead_tenths(b, c.fixed_ns, c.per_item_ns),
                fill_wait_ns: mean_fill_wait_ns(b, c.gap_ns),
            })
            .collect()
    }

    fn reconfigure(&mut self, c: BatchConfig, what: String) -> Outcome {
        Self::validate(&c).map_err(Refusal::new)?;
        if c == self.config {
            return Err(Refusal::new(format!("{what} is already the setting.")));
        }
        *self = Self::new(&c);
        Ok(vec![Event::info(format!(
            "{what}. The run restarts at 0 ns with no item yet."
        ))
        .at("settings")])
    }
}

impl Model for Batching {
    type Config = BatchConfig;
    type Action = BatchAction;

    fn validate(c: &BatchConfig) -> Result<(), String> {
        BATCH.check(c.batch)?;
        TIMEOUT.check(c.timeout_ns)?;
        FIXED.check(c.fixed_ns)?;
        PER_ITEM.check(c.per_item_ns)?;
        GAP.check(c.gap_ns)?;
        ITEMS.check(c.items)?;
        Ok(())
    }

    fn new(c: &BatchConfig) -> Self {
        let mut rng = Rng::new(c.seed);
        let first = next_gap(&mut rng, c.gap_ns, c.poisson);
        Batching {
            config: c.clone(),
            now: 0,
            arrived: 0,
            next_arrival: Some(first),
            open: Vec::new(),
            deadline: None,
            ready: VecDeque::new(),
            serving: None,
            batches_left: 0,
            full_batches: 0,
            latencies: Vec::new(),
            fill_wait_sum: 0,
            max_fill_wait: 0,
            queue_wait_sum: 0,
            busy_ns: 0,
            fixed_spent_ns: 0,
            history: Vec::new(),
            rng,
            quiet: false,
            sweep_memo: Default::default(),
        }
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "{} items will arrive, one every {} on average. A batch leaves at {} item{} or {}; each costs {} plus {} per item.",
            self.config.items,
            crate::text::ns(i64::from(self.config.gap_ns)),
            self.config.batch,
            crate::text::plural(self.config.batch as usize),
            report::timer_text(&self.config),
            crate::text::ns(i64::from(self.config.fixed_ns)),
            crate::text::ns(i64::from(self.config.per_item_ns)),
        ))
    }

    fn apply(&mut self, action: &BatchAction) -> Outcome {
        let mut c = self.config.clone();
        match *action {
            BatchAction::Step => self.step(),
            BatchAction::Finish => self.finish(),
            BatchAction::SetBatch(b) => {
                c.batch = b;
                self.reconfigure(c, format!("Batch size {b}"))
            }
            BatchAction::SetTimeout(t) => {
                c.timeout_ns = t;
                let what = if t == 0 {
                    "No flush timer".into()
                } else {
                    format!("Flush timer {}", crate::text::ns(i64::from(t)))
                };
                self.reconfigure(c, what)
            }
            BatchAction::SetFixed(f) => {
                c.fixed_ns = f;
                self.reconfigure(c, format!("Fixed cost {}", crate::text::ns(i64::from(f))))
            }
            BatchAction::SetPerItem(p) => {
                c.per_item_ns = p;
                self.reconfigure(
                    c,
                    format!("Cost per item {}", crate::text::ns(i64::from(p))),
                )
            }
            BatchAction::SetGap(g) => {
                c.gap_ns = g;
                self.reconfigure(
                    c,
                    format!(
                        "One item every {} on average",
                        crate::text::ns(i64::from(g))
                    ),
                )
            }
            BatchAction::SetPoisson(p) => {
                c.poisson = p;
                let what = if p {
                    "Poisson arrivals"
                } else {
                    "Evenly spaced arrivals"
                };
                self.reconfigure(c, what.into())
            }
            BatchAction::SetItems(n) => {
                c.items = n;
                self.reconfigure(c, format!("{n} items"))
            }
            BatchAction::BreakIt => {
                c.batch = BATCH_MAX;
                c.timeout_ns = 0;
                c.gap_ns = 10_000;
                self.reconfigure(
                    c,
                    "Break it: batches of 256, no flush timer, an item every 10 µs".into(),
                )
            }
        }
    }

    fn next_auto(&self) -> Result<BatchAction, Refusal> {
        self.next_event()
            .map(|_| BatchAction::Step)
            .ok_or_else(|| self.why_stopped())
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
        "Leaves out: adaptive moderation (DIM) that retunes the batch and timer to the load, a consumer that also has other work, cache effects that make a per-item cost fall inside a batch, and the NIC's own timer starting from the last interrupt rather than the first packet."
    }
}
