//! The closed forms for N flows hashed onto k equal-cost paths, each flow
//! landing on any path with probability 1/k, independently (the ideal hash
//! every analysis of ECMP assumes; the sampled run beside them uses a real
//! one).
//!
//! - A path is missed by all N flows with probability (1 − 1/k)^N, so the
//!   expected number of idle paths is k·(1 − 1/k)^N: 8 flows on 8 paths
//!   leave 8·(7/8)^8 ≈ 2.75 paths idle.
//! - All N flows land on different paths with probability
//!   k·(k − 1)···(k − N + 1) / k^N = k!/(k − N)!/k^N for N ≤ k, and 0 for
//!   N > k (two must share): 8!/8^8 ≈ 0.24 %.
//! - The busiest path's load M is exact too: the probability that no path
//!   holds more than L flows is computed by dynamic programming over the
//!   paths (the first path takes j of the r flows left, a binomial draw
//!   with p = 1/b for b paths left, and the other b − 1 share the rest).

/// The tail below which the busiest path's distribution is taken as
/// complete: a load this unlikely changes no printed digit.
const TAIL: f64 = 1e-13;

/// What the closed forms say about `flows` flows on `paths` paths.
#[derive(Clone, Debug, PartialEq)]
pub struct Odds {
    pub flows: usize,
    pub paths: usize,
    /// k·(1 − 1/k)^N.
    pub idle: f64,
    /// k!/(k − N)!/k^N, or 0 when N > k.
    pub no_collision: f64,
    /// `at_most[L]` = P(no path carries more than L flows).
    pub at_most: Vec<f64>,
}

impl Odds {
    pub fn of(flows: usize, paths: usize) -> Odds {
        Odds {
            flows,
            paths,
            idle: expected_idle(flows, paths),
            no_collision: no_collision(flows, paths),
            at_most: busiest_distribution(flows, paths),
        }
    }

    /// P(the busiest path carries exactly `m` flows).
    pub fn busiest_is(&self, m: usize) -> f64 {
        let at = |l: usize| self.at_most.get(l).copied().unwrap_or(1.0);
        at(m) - if m == 0 { 0.0 } else { at(m - 1) }
    }

    /// E[M], the busiest path's expected number of flows.
    pub fn expected_busiest(&self) -> f64 {
        self.expect(|m| m as f64)
    }

    /// E[f(M)] over the busiest path's load.
    pub fn expect(&self, f: impl Fn(usize) -> f64) -> f64 {
        (0..=self.flows).map(|m| self.busiest_is(m) * f(m)).sum()
    }
}

/// k·(1 − 1/k)^N.
pub fn expected_idle(flows: usize, paths: usize) -> f64 {
    if paths == 0 {
        return 0.0;
    }
    let k = paths as f64;
    k * (1.0 - 1.0 / k).powi(flows.min(i32::MAX as usize) as i32)
}

/// k!/(k − N)!/k^N: the product of (k − i)/k for i < N.
pub fn no_collision(flows: usize, paths: usize) -> f64 {
    if flows > paths {
        return 0.0;
    }
    (0..flows)
        .map(|i| (paths - i) as f64 / paths as f64)
        .product()
}

/// P(no path carries more than L) for L = 0, 1, … until the rest of the
/// distribution is below [`TAIL`] (every later entry is then 1).
fn busiest_distribution(flows: usize, paths: usize) -> Vec<f64> {
    let mut out = Vec::new();
    if paths == 0 {
        return out;
    }
    for cap in 0..=flows {
        let p = all_within(flows, paths, cap);
        out.push(p);
        if 1.0 - p < TAIL {
            break;
        }
    }
    out
}

/// P(`flows` flows thrown onto `paths` paths put at most `cap` on each).
fn all_within(flows: usize, paths: usize, cap: usize) -> f64 {
    // within[r] = P(r flows on the paths counted so far fit under the cap).
    let mut within: Vec<f64> = (0..=flows)
        .map(|r| if r <= cap { 1.0 } else { 0.0 })
        .collect();
    for b in 2..=paths {
        let p = 1.0 / b as f64;
        let mut next = vec![0.0; flows + 1];
        for (r, slot) in next.iter_mut().enumerate() {
            // j of the r flows on the new path: Binomial(r, 1/b).
            let mut pmf = (1.0 - p).powi(r as i32);
            let mut sum = 0.0;
            for j in 0..=r.min(cap) {
                sum += pmf * within[r - j];
                pmf *= (r - j) as f64 / (j + 1) as f64 * p / (1.0 - p);
            }
            *slot = sum;
        }
        within = next;
    }
    within[flows]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_flows_on_eight_paths_are_the_issues_numbers() {
        let o = Odds::of(8, 8);
        assert!((o.idle - 8.0 * (7.0f64 / 8.0).powi(8)).abs() < 1e-12);
        assert!((o.idle - 2.7489).abs() < 1e-3, "{}", o.idle);
        assert!((o.no_collision - 40_320.0 / 16_777_216.0).abs() < 1e-15);
        assert!((o.no_collision * 100.0 - 0.2403).abs() < 1e-3);
        // P(M = 1) is the no-collision probability.
        assert!((o.busiest_is(1) - o.no_collision).abs() < 1e-12);
    }

    /// Two flows on two paths: busiest 1 with probability 1/2, else 2.
    #[test]
    fn two_on_two_by_hand() {
        let o = Odds::of(2, 2);
        assert!((o.busiest_is(1) - 0.5).abs() < 1e-12);
        assert!((o.busiest_is(2) - 0.5).abs() < 1e-12);
        assert!((o.expected_busiest() - 1.5).abs() < 1e-12);
        assert!((o.idle - 0.5).abs() < 1e-12);
    }

    /// Against enumeration of every one of k^N placements.
    #[test]
    fn the_busiest_path_agrees_with_enumeration() {
        for (n, k) in [(3usize, 3usize), (4, 3), (5, 4), (6, 2), (4, 5)] {
            let total = k.pow(n as u32);
            let mut sum = 0usize;
            let mut idle = 0usize;
            for code in 0..total {
                let mut load = vec![0usize; k];
                let mut c = code;
                for _ in 0..n {
                    load[c % k] += 1;
                    c /= k;
                }
                sum += load.iter().max().copied().unwrap_or(0);
                idle += load.iter().filter(|&&l| l == 0).count();
            }
            let o = Odds::of(n, k);
            assert!((o.expected_busiest() - sum as f64 / total as f64).abs() < 1e-9);
            assert!((o.idle - idle as f64 / total as f64).abs() < 1e-9);
        }
    }

    #[test]
    fn more_flows_than_paths_always_collide() {
        assert_eq!(no_collision(9, 8), 0.0);
        assert_eq!(Odds::of(9, 8).busiest_is(1), 0.0);
    }
}
