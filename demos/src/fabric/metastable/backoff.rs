//! Exponential backoff with full jitter. gRPC proposal A6 ("Exponential
//! Backoff"): "the n-th attempt will occur at random(0,
//! min(initialBackoff*backoffMultiplier**(n-1), maxBackoff))"; Marc
//! Brooker's "Exponential Backoff And Jitter" (AWS Architecture Blog) calls
//! the same rule "Full Jitter": sleep = random_between(0, min(cap, base *
//! 2 ** attempt)). Here the multiplier is 2 and time is whole ticks.

use crate::rng::Rng;

/// `initialBackoff`, in ticks: our choice, a labelled parameter.
pub const BASE_TICKS: u32 = 4;
/// `maxBackoff`, in ticks: our choice.
pub const CAP_TICKS: u32 = 32;

/// The longest wait before retry `n` (n ≥ 1): min(base · 2^(n−1), cap).
pub fn ceiling(n: u8) -> u32 {
    let doubled = BASE_TICKS.saturating_mul(1u32 << u32::from(n.saturating_sub(1)).min(16));
    doubled.min(CAP_TICKS)
}

/// The wait before retry `n`: uniform in 0..=ceiling(n), drawn from `rng`.
pub fn wait(n: u8, rng: &mut Rng) -> u32 {
    rng.range(0, u64::from(ceiling(n))) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ceiling_doubles_up_to_the_cap() {
        assert_eq!(ceiling(1), 4);
        assert_eq!(ceiling(2), 8);
        assert_eq!(ceiling(3), 16);
        assert_eq!(ceiling(4), 32);
        assert_eq!(ceiling(9), 32);
        let mut rng = Rng::new(3);
        for n in 1..6 {
            for _ in 0..50 {
                assert!(wait(n, &mut rng) <= ceiling(n));
            }
        }
    }
}
