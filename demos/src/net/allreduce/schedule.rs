//! Who sends what to whom at each step of an all-reduce.
//!
//! - Ring: reduce-scatter then all-gather, N − 1 steps each; at every step
//!   GPU i sends one chunk (1/N of the vector) to GPU i + 1 (Patarasuk &
//!   Yuan, JPDC 2009; the order nccl-tests' doc/PERFORMANCE.md sketches).
//! - Tree: NCCL's binary tree (`ncclGetBtree`, src/graph/trees.cc); the whole
//!   vector is reduced up one level per step, then broadcast down: 2·depth
//!   steps, depth = ⌈log₂N⌉.
//! - Double binary tree: NCCL's second tree is the first mirrored (N even) or
//!   shifted by one rank (N odd) (`ncclGetDtree`), so a GPU that is a leaf in
//!   one is an inner node in the other; each tree carries half the vector
//!   (Sanders, Speck & Träff, Parallel Computing 2009; NCCL 2.4).

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Algorithm {
    Ring,
    Tree,
    DoubleTree,
}

impl Algorithm {
    pub fn label(self) -> &'static str {
        match self {
            Algorithm::Ring => "ring",
            Algorithm::Tree => "unpipelined binary tree",
            Algorithm::DoubleTree => "unpipelined double binary tree",
        }
    }
}

/// One message of a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transfer {
    pub from: usize,
    pub to: usize,
    /// Elements `start..end` of the vector.
    pub start: usize,
    pub end: usize,
    /// Added into the receiver's values (reduce) or copied over them.
    pub reduce: bool,
    /// 0 for the ring and the first tree, 1 for the second tree.
    pub tree: u8,
    /// Its share of the message, in units of 1/(2N) of it (a ring chunk is
    /// 2, half the vector N, all of it 2N), for the cost model.
    pub units: u64,
}

/// A spanning tree over the GPUs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tree {
    pub root: usize,
    pub parent: Vec<Option<usize>>,
    pub children: Vec<Vec<usize>>,
    pub depth: Vec<usize>,
}

impl Tree {
    pub fn height(&self) -> usize {
        self.depth.iter().copied().max().unwrap_or(0)
    }

    fn from_links(n: usize, links: impl Fn(usize) -> (Option<usize>, Vec<usize>)) -> Tree {
        let (parent, children): (Vec<_>, Vec<_>) = (0..n).map(links).unzip();
        let root = parent.iter().position(Option::is_none).unwrap_or(0);
        let mut depth = vec![0; n];
        let mut frontier = vec![root];
        while let Some(g) = frontier.pop() {
            for &c in &children[g] {
                depth[c] = depth[g] + 1;
                frontier.push(c);
            }
        }
        Tree {
            root,
            parent,
            children,
            depth,
        }
    }
}

/// `ncclGetBtree` (NCCL src/graph/trees.cc): rank r's parent and children in
/// a binary tree rooted at 0 that alternates leaves and inner nodes.
fn btree_links(n: usize, rank: usize) -> (Option<usize>, Vec<usize>) {
    let mut bit = 1;
    while bit < n {
        if bit & rank != 0 {
            break;
        }
        bit <<= 1;
    }
    if rank == 0 {
        return (None, vec![bit >> 1]);
    }
    let mut up = (rank ^ bit) | (bit << 1);
    if up >= n {
        up = rank ^ bit;
    }
    let mut lowbit = bit >> 1;
    let mut children = Vec::new();
    if lowbit != 0 {
        children.push(rank - lowbit);
    }
    // The second child is rank + lowbit, or the nearest smaller step in range
    // (the C loop, line for line).
    let mut down1 = (lowbit != 0).then(|| rank + lowbit);
    while down1.is_some_and(|d| d >= n) {
        down1 = (lowbit != 0).then(|| rank + lowbit);
        lowbit >>= 1;
    }
    children.extend(down1);
    (Some(up), children)
}

/// The first tree of NCCL's pair.
pub fn tree_a(n: usize) -> Tree {
    Tree::from_links(n, |r| btree_links(n, r))
}

/// The second tree: the first mirrored (r ↦ N−1−r) for even N, shifted by
/// one rank (r ↦ r+1) for odd N (`ncclGetDtree`).
pub fn tree_b(n: usize) -> Tree {
    let map = |x: usize| if n % 2 == 1 { (x + 1) % n } else { n - 1 - x };
    let unmap = |r: usize| {
        if n % 2 == 1 {
            (r + n - 1) % n
        } else {
            n - 1 - r
        }
    };
    Tree::from_links(n, |r| {
        let (up, down) = btree_links(n, unmap(r));
        (up.map(map), down.into_iter().map(map).collect())
    })
}

/// Steps the algorithm takes on `n` GPUs.
pub fn total_steps(algorithm: Algorithm, n: usize) -> usize {
    match algorithm {
        Algorithm::Ring => 2 * (n - 1),
        Algorithm::Tree => 2 * tree_a(n).height(),
        Algorithm::DoubleTree => 2 * tree_a(n).height().max(tree_b(n).height()),
    }
}

/// Elements of chunk `c` when `len` elements are cut into `n` chunks.
pub fn chunk(c: usize, n: usize, len: usize) -> (usize, usize) {
    (c * len / n, (c + 1) * len / n)
}

/// The transfers of step `step` (0-based) for `n` GPUs and `len` elements.
pub fn transfers(algorithm: Algorithm, n: usize, len: usize, step: usize) -> Vec<Transfer> {
    match algorithm {
        Algorithm::Ring => ring(n, len, step),
        Algorithm::Tree => {
            let height = tree_a(n).height();
            tree_step(&tree_a(n), height, step, (0, len), 0, 2 * n as u64)
        }
        Algorithm::DoubleTree => {
            let (a, b) = (tree_a(n), tree_b(n));
            let height = a.height().max(b.height());
            let half = len.div_ceil(2);
            let mut out = tree_step(&a, height, step, (0, half), 0, n as u64);
            out.extend(tree_step(&b, height, step, (half, len), 1, n as u64));
            out
        }
    }
}

fn ring(n: usize, len: usize, step: usize) -> Vec<Transfer> {
    // Reduce-scatter step s: GPU i sends chunk (i − s) mod N, the receiver adds
    // it. After N − 1 steps GPU i owns the full sum of chunk (i + 1) mod N.
    // All-gather step s: GPU i forwards chunk (i + 1 − s) mod N, copied.
    let reduce = step < n - 1;
    let s = if reduce { step } else { step - (n - 1) };
    (0..n)
        .map(|i| {
            let c = if reduce {
                (i + n - s) % n
            } else {
                (i + 1 + n - s) % n
            };
            let (start, end) = chunk(c, n, len);
            Transfer {
                from: i,
                to: (i + 1) % n,
                start,
                end,
                reduce,
                tree: 0,
                units: 2,
            }
        })
        .collect()
}

fn tree_step(
    t: &Tree,
    height: usize,
    step: usize,
    (start, end): (usize, usize),
    tree: u8,
    units: u64,
) -> Vec<Transfer> {
    let n = t.depth.len();
    let message = |from, to, reduce| Transfer {
        from,
        to,
        start,
        end,
        reduce,
        tree,
        units,
    };
    if step < height {
        // Reduce: the level `height − step` sends its partial sums up.
        let level = height - step;
        (0..n)
            .filter(|&g| t.depth[g] == level)
            .filter_map(|g| t.parent[g].map(|p| message(g, p, true)))
            .collect()
    } else {
        // Broadcast: the level `step − height` sends the result down.
        let level = step - height;
        (0..n)
            .filter(|&g| t.depth[g] == level)
            .flat_map(|g| t.children[g].iter().map(move |&c| message(g, c, false)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(t: &Tree) -> bool {
        let n = t.depth.len();
        let reachable = 1 + t.children.iter().map(Vec::len).sum::<usize>();
        let consistent = (0..n).all(|g| t.children[g].iter().all(|&c| t.parent[c] == Some(g)));
        reachable == n && consistent && t.parent[t.root].is_none()
    }

    #[test]
    fn ncclgetbtree_matches_its_illustration() {
        // trees.cc draws 14 ranks; 13 hangs off 12 by the xx1001 rule.
        let t = tree_a(14);
        assert_eq!(t.children[0], vec![8]);
        assert_eq!(t.children[8], vec![4, 12]);
        assert_eq!(t.children[4], vec![2, 6]);
        assert_eq!(t.children[12], vec![10, 13]);
        assert_eq!(t.children[10], vec![9, 11]);
        assert_eq!(t.parent[13], Some(12));
        assert!(spans(&t));
    }

    #[test]
    fn mirrored_and_shifted_second_trees() {
        // Even: trees.cc's picture of 12 ranks, second tree rooted at 11.
        let b = tree_b(12);
        assert_eq!(b.root, 11);
        assert_eq!(b.children[11], vec![3]);
        assert_eq!(b.children[3], vec![7, 1]);
        // Odd: 13 ranks, shifted by one, rooted at 1.
        let b = tree_b(13);
        assert_eq!(b.root, 1);
        assert_eq!(b.children[1], vec![9]);
    }

    #[test]
    fn every_tree_spans_and_is_log_deep() {
        for n in 2usize..=64 {
            let log = n.next_power_of_two().trailing_zeros() as usize;
            for t in [tree_a(n), tree_b(n)] {
                assert!(spans(&t), "n = {n}");
                assert_eq!(t.height(), log, "n = {n}");
                assert!(t.children.iter().all(|c| c.len() <= 2));
            }
        }
    }

    #[test]
    fn a_leaf_in_one_tree_is_inner_in_the_other() {
        // The point of the double tree: the two trees share the work of
        // receiving. With N even every rank is a leaf in at most one tree.
        for n in (4..=64).step_by(2) {
            let (a, b) = (tree_a(n), tree_b(n));
            let both_leaves = (0..n)
                .filter(|&g| a.children[g].is_empty() && b.children[g].is_empty())
                .count();
            assert_eq!(both_leaves, 0, "n = {n}");
        }
    }

    #[test]
    fn step_counts() {
        assert_eq!(total_steps(Algorithm::Ring, 4), 6);
        assert_eq!(total_steps(Algorithm::Tree, 4), 4);
        assert_eq!(total_steps(Algorithm::Ring, 64), 126);
        assert_eq!(total_steps(Algorithm::Tree, 64), 12);
        assert_eq!(total_steps(Algorithm::DoubleTree, 13), 8);
    }
}
