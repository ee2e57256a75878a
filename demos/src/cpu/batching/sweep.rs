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
    /// This run carried on to its last event, without narration.
    pub fn finished(&self) -> Batching {
        let mut m = self.clone();
        m.quiet = true;
        while m.step().is_ok() {}
        m.quiet = false;
        m
    }

    /// Runs the whole workload once per batch size in [`CURVE_SIZES`].
    pub fn sweep(&self) -> Vec<SweepPoint> {
        self.sweep_memo
            .get(&self.config, || Self::sweep_for(&self.config))
    }

    fn sweep_for(config: &BatchConfig) -> Vec<SweepPoint> {
        CURVE_SIZES
            .iter()
            .map(|&batch| {
                let m = Batching::new(&BatchConfig {
                    batch,
                    ..config.clone()
                })
                .finished();
                SweepPoint {
                    batch,
                    done: m.latencies.len() as u32,
                    mean_ns: m.mean_latency_ns(),
                    p99_ns: m.p99_latency_ns(),
                    first_wait_ns: m.max_fill_wait,
                }
            })
            .collect()
    }
}
