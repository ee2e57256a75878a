//! Gaps between arrivals: fixed, or exponential (a Poisson process) drawn
//! from the seeded generator.

use crate::rng::Rng;

/// −ln(k / 2^32) for k in 1..=2^32, built from +, −, ×, ÷ only (IEEE 754
/// rounds those identically everywhere), so a share link replays to the
/// same nanoseconds on every machine, unlike a libm `ln`.
fn neg_ln_unit(k: u64) -> f64 {
    let e = 63 - k.leading_zeros() as i32;
    // k = m × 2^e with m in [1, 2); dividing by a power of two is exact.
    let m = k as f64 / (1u64 << e) as f64;
    // ln m = 2 atanh(s), s = (m − 1)/(m + 1) < 1/3: the series converges fast.
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let mut term = s;
    let mut sum = 0.0;
    for n in 0..24 {
        sum += term / f64::from(2 * n + 1);
        term *= s2;
    }
    -(2.0 * sum + f64::from(e - 32) * std::f64::consts::LN_2)
}

/// The next gap, in ns, for a mean of `mean_ns`.
pub fn next_gap(rng: &mut Rng, mean_ns: u32, poisson: bool) -> u64 {
    if !poisson {
        return u64::from(mean_ns);
    }
    // Inverse transform: −ln U × mean is exponential with that mean.
    let k = (rng.next_u64() >> 32) + 1;
    // Non-negative, so adding one half and truncating rounds to nearest.
    (neg_ln_unit(k) * f64::from(mean_ns) + 0.5) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_series_logarithm_matches_known_values() {
        assert_eq!(neg_ln_unit(1 << 32), 0.0);
        assert!((neg_ln_unit(1 << 31) - std::f64::consts::LN_2).abs() < 1e-15);
        assert!((neg_ln_unit(1) - 32.0 * std::f64::consts::LN_2).abs() < 1e-12);
        let k = 3_000_000_000u64;
        let expected = -(k as f64 / 4_294_967_296.0).ln();
        assert!((neg_ln_unit(k) - expected).abs() < 1e-14);
    }

    #[test]
    fn poisson_gaps_average_the_mean() {
        let mut rng = Rng::new(3);
        let n = 20_000;
        let total: u64 = (0..n).map(|_| next_gap(&mut rng, 1000, true)).sum();
        let mean = total / n;
        assert!((980..=1020).contains(&mean), "{mean}");
    }
}
