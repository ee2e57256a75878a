//! The α–β cost of an all-reduce, step by step.
//!
//! Each GPU has one full-duplex port of bandwidth β to the fabric, the model
//! nccl-tests' doc/PERFORMANCE.md reasons with ("each rank has a bandwidth to
//! the outside world of B"). A step costs α (the per-message latency) plus the
//! time the busiest port needs for what it sends or receives in that step;
//! steps run back to back, each waiting for the slowest transfer. A slow link
//! divides one GPU's port bandwidth; a straggler GPU starts each of its sends
//! late. algbw and busbw are nccl-tests' (doc/PERFORMANCE.md "Bandwidth").
//!
//! The steps the page runs are unpipelined: a tree step waits for the whole
//! vector (the textbook tree). NCCL does not run its trees that way: it cuts
//! the message into chunks and streams them through its double binary tree,
//! reducing one chunk up while the next is still coming in. Its tuner
//! (`ncclTopoTuneModel`, src/graph/tuning.cc) prices that pipelined tree as a
//! latency of 2·log2i(N) network hops plus the message at half the bus
//! bandwidth (`else ratio *= .5` for the tree), i.e. t = 2·⌊log₂N⌋·α + 2S/β
//! with one GPU per node. [`Fabric::nccl_tree_linear`] is that line.

use super::schedule::{total_steps, transfers, Algorithm};
use serde::{Deserialize, Serialize};

/// One GPU's link runs `factor` times slower.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlowLink {
    pub gpu: usize,
    pub factor: u64,
}

/// One GPU posts every send `delay_ns` late (a slow kernel, a throttled clock).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Straggler {
    pub gpu: usize,
    pub delay_ns: u64,
}

/// The fabric the cost is computed for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fabric {
    pub gpus: usize,
    /// α: latency per step, ns.
    pub alpha_ns: u64,
    /// β: each GPU's port bandwidth, GB/s (= bytes per ns).
    pub gbps: u64,
    pub slow: Option<SlowLink>,
    pub straggler: Option<Straggler>,
}

/// What one step costs: a fixed part and a part proportional to the message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepCost {
    /// α plus any straggler delay, ns.
    pub fixed_ns: u64,
    /// The busiest port's load in 1/(2N)ths of the message, slow factor applied.
    pub units: u64,
}

impl Fabric {
    /// The cost of step `step` of `algorithm`.
    pub fn step(&self, algorithm: Algorithm, step: usize) -> StepCost {
        let n = self.gpus;
        let mut load_in = vec![0u64; n];
        let mut load_out = vec![0u64; n];
        let mut straggles = false;
        // The element count only places chunks; the cost uses ideal shares.
        for t in transfers(algorithm, n, 2 * n, step) {
            load_out[t.from] += t.units;
            load_in[t.to] += t.units;
            straggles |= self.straggler.is_some_and(|s| s.gpu == t.from);
        }
        let units = (0..n)
            .map(|g| {
                let factor = self.slow.filter(|s| s.gpu == g).map_or(1, |s| s.factor);
                load_in[g].max(load_out[g]) * factor
            })
            .max()
            .unwrap_or(0);
        let delay = if straggles {
            self.straggler.map_or(0, |s| s.delay_ns)
        } else {
            0
        };
        StepCost {
            fixed_ns: self.alpha_ns + delay,
            units,
        }
    }

    /// ns to move `units` 1/(2N)ths of a `bytes`-byte message through a port.
    pub fn transfer_ns(&self, units: u64, bytes: u64) -> u64 {
        let num = u128::from(units) * u128::from(bytes);
        let den = 2 * self.gpus as u128 * u128::from(self.gbps);
        num.div_ceil(den) as u64
    }

    /// Time of one step for a `bytes`-byte message, ns.
    pub fn step_ns(&self, algorithm: Algorithm, step: usize, bytes: u64) -> u64 {
        let c = self.step(algorithm, step);
        c.fixed_ns + self.transfer_ns(c.units, bytes)
    }

    /// The first `steps` steps as a + b·S: (Σ fixed ns, Σ units).
    pub fn prefix(&self, algorithm: Algorithm, steps: usize) -> (u64, u64) {
        (0..steps)
            .map(|s| self.step(algorithm, s))
            .fold((0, 0), |(a, u), c| (a + c.fixed_ns, u + c.units))
    }

    /// The whole all-reduce as a + b·S: (Σ fixed ns, Σ units).
    pub fn linear(&self, algorithm: Algorithm) -> (u64, u64) {
        self.prefix(algorithm, total_steps(algorithm, self.gpus))
    }

    /// Time until the end of step `steps` for a `bytes`-byte message, ns
    /// (rounded once, so the steps add up to exactly the total).
    pub fn elapsed_ns(&self, algorithm: Algorithm, steps: usize, bytes: u64) -> u64 {
        let (fixed, units) = self.prefix(algorithm, steps);
        fixed + self.transfer_ns(units, bytes)
    }

    /// Time of the whole all-reduce for a `bytes`-byte message, ns.
    pub fn total_ns(&self, algorithm: Algorithm, bytes: u64) -> u64 {
        self.elapsed_ns(algorithm, total_steps(algorithm, self.gpus), bytes)
    }

    /// The message size above which `a` is faster than `b`, if their lines
    /// cross (a has more latency and less bandwidth cost than b).
    pub fn crossover_bytes(&self, a: Algorithm, b: Algorithm) -> Option<u64> {
        self.crossover_of(self.linear(a), self.linear(b))
    }

    /// Where two lines a + b·S cross: the size above which `a` (more
    /// latency, less bandwidth cost) is faster than `b`.
    fn crossover_of(&self, (fa, ua): (u64, u64), (fb, ub): (u64, u64)) -> Option<u64> {
        if fa <= fb || ua >= ub {
            return None;
        }
        let num = u128::from(fa - fb) * 2 * self.gpus as u128 * u128::from(self.gbps);
        Some(num.div_ceil(u128::from(ub - ua)).min(u128::from(u64::MAX)) as u64)
    }

    /// NCCL's pipelined double binary tree as its tuner prices it, as
    /// a + b·S: (2·⌊log₂N⌋·α, 4N units, i.e. 2S/β). The tree's latency is
    /// `2 * log2i(nNodes) * interLat` and its bandwidth half the bus
    /// bandwidth (src/graph/tuning.cc): every GPU is an inner node of one tree
    /// and a leaf of the other, so its port carries 2S each way, pipelined.
    /// The tuner sees the topology, not a slow link or a straggler, so
    /// neither is in this line.
    pub fn nccl_tree_linear(&self) -> (u64, u64) {
        (
            u64::from(self.nccl_tree_hops()) * self.alpha_ns,
            4 * self.gpus as u64,
        )
    }

    /// The α's in NCCL's tree latency: 2·⌊log₂N⌋ (`log2i`, up and down).
    pub fn nccl_tree_hops(&self) -> u32 {
        2 * self.gpus.max(1).ilog2()
    }

    /// NCCL's estimate of its pipelined double binary tree, ns.
    pub fn nccl_tree_ns(&self, bytes: u64) -> u64 {
        let (fixed, units) = self.nccl_tree_linear();
        fixed + self.transfer_ns(units, bytes)
    }

    /// The size above which NCCL's tuner prefers the ring to its pipelined
    /// tree, if any: both its estimates, and neither sees a fault.
    pub fn nccl_crossover_bytes(&self) -> Option<u64> {
        let tuner = Fabric {
            slow: None,
            straggler: None,
            ..*self
        };
        tuner.crossover_of(tuner.linear(Algorithm::Ring), tuner.nccl_tree_linear())
    }
}

/// nccl-tests' algorithm bandwidth S/t, in hundredths of GB/s.
pub fn algbw_x100(bytes: u64, ns: u64) -> u64 {
    (u128::from(bytes) * 100 / u128::from(ns.max(1))) as u64
}

/// nccl-tests' bus bandwidth for all-reduce: algbw × 2(n − 1)/n, hundredths
/// of GB/s. 2(n − 1)/n·S is the least any all-reduce algorithm must move
/// through each rank's link (doc/PERFORMANCE.md), so busbw is the speed that
/// link would need: it can be held against the link's own bandwidth.
pub fn busbw_x100(algbw_x100: u64, n: usize) -> u64 {
    algbw_x100 * 2 * (n as u64 - 1) / n as u64
}

/// One point of the time-against-size chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizePoint {
    pub bytes: u64,
    pub ring_ns: u64,
    pub tree_ns: u64,
    pub double_tree_ns: u64,
    /// NCCL's pipelined double binary tree (its tuner's estimate).
    pub nccl_tree_ns: u64,
}

/// Times of the three algorithms from 1 KiB to 1 GiB, ×4 apart.
pub fn size_curve(fabric: &Fabric) -> Vec<SizePoint> {
    (0..=10)
        .map(|k| {
            let bytes = 1u64 << (10 + 2 * k);
            SizePoint {
                bytes,
                ring_ns: fabric.total_ns(Algorithm::Ring, bytes),
                tree_ns: fabric.total_ns(Algorithm::Tree, bytes),
                double_tree_ns: fabric.total_ns(Algorithm::DoubleTree, bytes),
                nccl_tree_ns: fabric.nccl_tree_ns(bytes),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fabric(gpus: usize) -> Fabric {
        Fabric {
            gpus,
            alpha_ns: 10_000,
            gbps: 25,
            slow: None,
            straggler: None,
        }
    }

    #[test]
    fn ring_time_is_the_textbook_formula() {
        // t = 2(N−1)·α + 2(N−1)/N · S/β
        let f = fabric(8);
        let s = 1u64 << 30;
        let expected = 14 * 10_000 + (14 * s).div_ceil(8 * 25);
        assert_eq!(f.total_ns(Algorithm::Ring, s), expected);
    }

    #[test]
    fn ring_bus_bandwidth_reaches_the_link_for_large_messages() {
        // With α negligible, busbw = algbw·2(N−1)/N equals β: the point of busbw.
        let f = fabric(16);
        let s = 1u64 << 36;
        let t = f.total_ns(Algorithm::Ring, s);
        let bus = busbw_x100(algbw_x100(s, t), 16);
        assert!((2_490..=2_500).contains(&bus), "{bus}");
    }

    #[test]
    fn busbw_factor_is_two_n_minus_one_over_n() {
        assert_eq!(busbw_x100(1_000, 4), 1_500);
        assert_eq!(busbw_x100(1_000, 2), 1_000);
    }

    #[test]
    fn trees_win_small_messages_and_the_ring_wins_large_ones() {
        for n in [4, 8, 64] {
            let f = fabric(n);
            let x = f.crossover_bytes(Algorithm::Ring, Algorithm::Tree).unwrap();
            assert!(f.total_ns(Algorithm::Tree, x / 2) < f.total_ns(Algorithm::Ring, x / 2));
            assert!(f.total_ns(Algorithm::Ring, x * 2) < f.total_ns(Algorithm::Tree, x * 2));
            let y = f
                .crossover_bytes(Algorithm::Ring, Algorithm::DoubleTree)
                .unwrap();
            assert!(y > x, "halving the tree's load moves the crossover up");
        }
    }

    #[test]
    fn nccls_tree_line_is_its_tuners_formula() {
        // 2·⌊log₂8⌋·α + 2S/β: 6 hops of 10 µs, and 2 GiB at 25 GB/s.
        let f = fabric(8);
        let s = 1u64 << 30;
        assert_eq!(f.nccl_tree_ns(s), 60_000 + (2 * s).div_ceil(25));
        // 5 GPUs: log2i(5) = 2, as NCCL's integer log.
        assert_eq!(fabric(5).nccl_tree_linear(), (40_000, 20));
    }

    #[test]
    fn the_pipelined_tree_beats_the_unpipelined_one_and_moves_the_crossover_up() {
        // Unpipelined, the tree pays for the whole vector at every level; the
        // pipeline pays 2S/β once. So NCCL's crossover with the ring is at a
        // larger message than this model's textbook tree's.
        for n in [4, 8, 64] {
            let f = fabric(n);
            let s = 1u64 << 26;
            assert!(f.nccl_tree_ns(s) < f.total_ns(Algorithm::DoubleTree, s));
            let nccl = f.nccl_crossover_bytes().unwrap();
            let textbook = f.crossover_bytes(Algorithm::Ring, Algorithm::Tree).unwrap();
            assert!(nccl > textbook, "{n}: {nccl} vs {textbook}");
            // S = N·β·α·(N − 1 − ⌊log₂N⌋), from equating the two lines.
            let hops = n.ilog2() as u64;
            assert_eq!(nccl, n as u64 * 25 * 10_000 * (n as u64 - 1 - hops));
        }
        // Two GPUs: the same latency, and the ring moves less: no crossover.
        assert_eq!(fabric(2).nccl_crossover_bytes(), None);
        // The tuner's choice does not move with a fault it cannot see.
        let mut slow = fabric(8);
        slow.slow = Some(SlowLink { gpu: 1, factor: 4 });
        assert_eq!(
            slow.nccl_crossover_bytes(),
            fabric(8).nccl_crossover_bytes()
        );
    }

    #[test]
    fn a_slow_link_slows_every_ring_step_but_not_every_tree_step() {
        let mut f = fabric(8);
        let healthy = f;
        f.slow = Some(SlowLink { gpu: 5, factor: 4 });
        let s = 1 << 26;
        let ring_steps = total_steps(Algorithm::Ring, 8);
        assert!((0..ring_steps)
            .all(|k| f.step_ns(Algorithm::Ring, k, s) > healthy.step_ns(Algorithm::Ring, k, s)));
        let tree_steps = total_steps(Algorithm::Tree, 8);
        let slowed = (0..tree_steps)
            .filter(|&k| f.step_ns(Algorithm::Tree, k, s) > healthy.step_ns(Algorithm::Tree, k, s))
            .count();
        assert!(slowed < tree_steps);
    }

    #[test]
    fn a_straggler_delays_each_step_it_sends_in() {
        let mut f = fabric(4);
        f.straggler = Some(Straggler {
            gpu: 2,
            delay_ns: 1_000,
        });
        let (fixed, _) = f.linear(Algorithm::Ring);
        assert_eq!(
            fixed,
            6 * (10_000 + 1_000),
            "GPU 2 sends in all 6 ring steps"
        );
    }
}
