//! The latency side of the trade-off, simulated rather than estimated: the
//! same arrivals (same seed, rate and timer) run once per batch size of the
//! chart, so the curve includes the timer's cap and the queue that builds
//! when a small batch cannot keep up.

use super::*;

/// What one batch size does to latency at the current arrival rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SweepPoint {
    pub batch: u32,
    /// Items that finished; fewer than all when, without a timer, the last
    /// batch never fills.
    pub done: u32,
    /// Mean and 99th percentile latency of the finished items, ns.
    pub mean_ns: u64,
    pub p99_ns: u64,
    /// The longest any batch's first item waited for its batch to leave, ns.
    pub first_wait_ns: u64,
}

/// Where the whole run at the current settings ends, for the time axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunEnd {
    /// Batches that leave the filling stage.
    pub batches: u32,
    /// When the last event happens (an arrival or a batch done), ns.
    pub at_ns: u64,
}

/// One batch size's run over given arrivals.
struct Run {
    point: SweepPoint,
    end: RunEnd,
}

/// The arrival times of the first `n` items under `c`: the same draws from
/// the seeded generator that [`Batching`] makes as items arrive.
pub fn arrival_times(c: &BatchConfig, n: usize) -> Vec<u64> {
    let mut rng = Rng::new(c.seed);
    let mut t = 0;
    (0..n.min(c.items as usize))
        .map(|_| {
            t += next_gap(&mut rng, c.gap_ns, c.poisson);
            t
        })
        .collect()
}

impl Batching {
    /// This run carried on to its last event, without narration: what the
    /// sweep and [`Batching::run_end`] are checked against.
    pub fn finished(&self) -> Batching {
        let mut m = self.clone();
        m.quiet = true;
        while m.step().is_ok() {}
        m.quiet = false;
        m
    }

    /// Runs the whole workload once per batch size in [`CURVE_SIZES`].
    pub fn sweep(&self) -> Vec<SweepPoint> {
        self.runs().0
    }

    /// Where this run ends once every event has happened. It depends on the
    /// settings alone, so the picture's time axis knows it from the start.
    pub fn run_end(&self) -> RunEnd {
        self.runs().1
    }

    fn runs(&self) -> (Vec<SweepPoint>, RunEnd) {
        self.sweep_memo
            .get(&self.config, || Self::sweep_for(&self.config))
    }

    /// The sweep without the event engine: the batches, their times and the
    /// latencies follow from the arrival times alone, by the engine's rules
    /// (see `sim.rs`). Nine engine runs cost the first frame a few ms of
    /// wasm; this costs a tenth of that. The property tests hold it equal to
    /// the engine's runs.
    fn sweep_for(config: &BatchConfig) -> (Vec<SweepPoint>, RunEnd) {
        let arrivals = arrival_times(config, config.items as usize);
        let mut latencies = Vec::with_capacity(arrivals.len());
        let points = CURVE_SIZES
            .iter()
            .map(|&batch| run_at(config, batch, &arrivals, &mut latencies).point)
            .collect();
        let end = run_at(config, config.batch, &arrivals, &mut latencies).end;
        (points, end)
    }
}

/// One run at batch size `batch` over these arrivals:
/// - a batch leaves when its `batch`-th item arrives, or when the timer its
///   first item started fires; an item arriving at that very nanosecond
///   still joins, because arrivals run before the timer;
/// - with no timer, a last batch that never fills never leaves, and its
///   items never finish;
/// - the one consumer takes batches in the order they left, each as soon as
///   both it and the batch are ready, for `fixed + n × per_item`.
fn run_at(c: &BatchConfig, batch: u32, arrivals: &[u64], latencies: &mut Vec<u32>) -> Run {
    latencies.clear();
    let mut batches = 0;
    let size = batch as usize;
    let cost = |n: usize| u64::from(c.fixed_ns) + n as u64 * u64::from(c.per_item_ns);
    let (mut free_at, mut first_wait) = (0u64, 0u64);
    let mut waiting = arrivals;
    while let Some(&first) = waiting.first() {
        let deadline = (c.timeout_ns > 0).then(|| first + u64::from(c.timeout_ns));
        let n = waiting
            .iter()
            .take(size)
            .take_while(|&&a| deadline.is_none_or(|d| a <= d))
            .count();
        let left_at = match deadline {
            _ if n == size => waiting[n - 1],
            Some(d) => d,
            None => break,
        };
        batches += 1;
        let done = left_at.max(free_at) + cost(n);
        free_at = done;
        first_wait = first_wait.max(left_at - first);
        latencies.extend(
            waiting[..n]
                .iter()
                .map(|&a| (done - a).min(u64::from(u32::MAX)) as u32),
        );
        waiting = &waiting[n..];
    }
    Run {
        point: SweepPoint {
            batch,
            done: latencies.len() as u32,
            mean_ns: report::mean_ns(latencies),
            p99_ns: report::p99_ns(latencies),
            first_wait_ns: first_wait,
        },
        // Every item arrives; a timer fires before its batch is done.
        end: RunEnd {
            batches,
            at_ns: free_at.max(arrivals.last().copied().unwrap_or(0)),
        },
    }
}
