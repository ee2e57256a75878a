//! The orders in which a walk visits the array. Every walk touches each
//! element exactly once, so their totals compare like for like.

use crate::rng::Rng;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Walk {
    /// Elements 0, 1, 2, … in address order.
    Sequential,
    /// Every k-th element: 0, k, 2k, …, then 1, k + 1, … (k passes).
    Stride,
    /// A seeded random permutation (Fisher–Yates).
    Random,
    /// A rows × cols array, `a[r][c]` with c varying fastest: address order, as C lays it out.
    RowMajor,
    /// The same array with r varying fastest: each step jumps a whole row.
    ColumnMajor,
}

impl Walk {
    pub const ALL: [Walk; 5] = [
        Walk::Sequential,
        Walk::Stride,
        Walk::Random,
        Walk::RowMajor,
        Walk::ColumnMajor,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Walk::Sequential => "sequential",
            Walk::Stride => "stride",
            Walk::Random => "random",
            Walk::RowMajor => "row-major",
            Walk::ColumnMajor => "column-major",
        }
    }

    /// Position in [`Walk::ALL`].
    pub fn index(self) -> usize {
        Walk::ALL.iter().position(|&w| w == self).unwrap_or(0)
    }
}

/// Element indices in visiting order. `n` is a power of two; `stride` and
/// `cols` are powers of two that divide it.
pub fn order(walk: Walk, n: usize, stride: usize, cols: usize, seed: u64) -> Vec<u32> {
    let per_pass = |k: usize| n / k.max(1);
    match walk {
        Walk::Sequential | Walk::RowMajor => (0..n as u32).collect(),
        Walk::Stride => {
            let len = per_pass(stride);
            (0..n)
                .map(|p| ((p % len) * stride + p / len) as u32)
                .collect()
        }
        Walk::ColumnMajor => {
            let rows = per_pass(cols);
            (0..n)
                .map(|p| ((p % rows) * cols + p / rows) as u32)
                .collect()
        }
        Walk::Random => {
            let mut rng = Rng::new(seed);
            let mut v: Vec<u32> = (0..n as u32).collect();
            for i in (1..n).rev() {
                let j = rng.range(0, i as u64) as usize;
                v.swap(i, j);
            }
            v
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_walk_is_a_permutation() {
        for walk in Walk::ALL {
            let mut v = order(walk, 64, 4, 8, 9);
            v.sort_unstable();
            assert_eq!(v, (0..64).collect::<Vec<u32>>(), "{walk:?}");
        }
    }

    #[test]
    fn stride_and_column_orders() {
        assert_eq!(&order(Walk::Stride, 16, 4, 4, 0)[..6], &[0, 4, 8, 12, 1, 5]);
        // 4 rows × 4 columns: down column 0, then column 1.
        assert_eq!(
            &order(Walk::ColumnMajor, 16, 1, 4, 0)[..6],
            &[0, 4, 8, 12, 1, 5]
        );
        assert_eq!(&order(Walk::ColumnMajor, 16, 1, 8, 0)[..3], &[0, 8, 1]);
    }
}
