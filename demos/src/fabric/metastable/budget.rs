//! The retry budget: gRPC's retry throttling, a token bucket shared by the
//! clients of one server (gRPC proposal A6, "gRPC Retry Design", section
//! "Throttling Retry Attempts and Hedged RPCs", grpc/proposal
//! A6-client-retries.md): `token_count` starts at `maxTokens` and stays in
//! 0..=maxTokens; every failed RPC takes 1 away, every successful one adds
//! `tokenRatio`; while `token_count` is at or below `maxTokens / 2`, failed
//! RPCs are not retried.

use serde::{Deserialize, Serialize};

/// Tokens are kept in thousandths, so a ratio of 0.1 is exact.
pub const MILLI: u32 = 1_000;
/// A6's example configuration: `"maxTokens": 10, "tokenRatio": 0.1`.
pub const MAX_TOKENS: u32 = 10;
pub const TOKEN_RATIO_MILLI: u32 = 100;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenBucket {
    /// `token_count`, in thousandths of a token.
    pub milli: u32,
}

impl Default for TokenBucket {
    fn default() -> Self {
        TokenBucket {
            milli: MAX_TOKENS * MILLI,
        }
    }
}

impl TokenBucket {
    pub fn max_milli() -> u32 {
        MAX_TOKENS * MILLI
    }

    /// "Every failed RPC will decrement the token_count by 1."
    pub fn failure(&mut self) {
        self.milli = self.milli.saturating_sub(MILLI);
    }

    /// "Every successful RPC will increment the token_count by tokenRatio."
    pub fn success(&mut self) {
        self.milli = (self.milli + TOKEN_RATIO_MILLI).min(Self::max_milli());
    }

    /// Retries are allowed only while `token_count` is above the threshold
    /// `maxTokens / 2`.
    pub fn allows_retry(&self) -> bool {
        self.milli > Self::max_milli() / 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn six_failures_in_a_row_stop_retries() {
        let mut b = TokenBucket::default();
        for _ in 0..5 {
            b.failure();
        }
        // 10 − 5 = 5 is not above 5: no retry.
        assert!(!b.allows_retry());
        b.success();
        assert!(b.allows_retry(), "5.1 is above the threshold");
        for _ in 0..20 {
            b.failure();
        }
        assert_eq!(b.milli, 0);
        for _ in 0..200 {
            b.success();
        }
        assert_eq!(b.milli, 10_000);
    }
}
