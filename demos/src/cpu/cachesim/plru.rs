//! Tree pseudo-LRU: one bit per inner node of a binary tree over the ways.
//!
//! Each bit says on which side of its node the next victim lies (`false` =
//! left, `true` = right). A use of a way walks from the root to its leaf and
//! sets every bit on the way to point *away* from it; the victim is found by
//! following the bits from the root. With `ways` leaves the tree has
//! `ways - 1` bits, stored heap-style: node `n`'s children are `2n + 1` and
//! `2n + 2`. For four ways this is exactly the three-bit scheme B0 (root),
//! B1 (ways 0/1), B2 (ways 2/3) of Intel's Embedded Pentium Processor Family
//! Developer's Manual (1998), Figure 3-7, also used by the i486's on-chip
//! cache. Empty ways are filled before the tree is consulted, as there.

/// The root-to-leaf directions of `way` (most significant first) in a tree of
/// `depth` levels, with the node index each one leaves from.
fn path(way: usize, depth: u32) -> impl Iterator<Item = (usize, usize)> {
    let mut node = 0;
    (0..depth).rev().map(move |k| {
        let dir = (way >> k) & 1;
        let at = node;
        node = 2 * node + 1 + dir;
        (at, dir)
    })
}

fn depth(bits: &[bool]) -> u32 {
    (bits.len() + 1).trailing_zeros()
}

/// Records a use of `way`: every bit on its path now points away from it.
pub fn touch(bits: &mut [bool], way: usize) {
    for (node, dir) in path(way, depth(bits)) {
        bits[node] = dir == 0;
    }
}

/// The way the bits point to.
pub fn victim(bits: &[bool]) -> usize {
    let mut node = 0;
    let mut way = 0;
    for _ in 0..depth(bits) {
        let dir = usize::from(bits[node]);
        way = (way << 1) | dir;
        node = 2 * node + 1 + dir;
    }
    way
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Intel table for four ways: state `00x` replaces way 0, and a use of
    /// way 0 leaves `11_`; a use of way 3 leaves `0_0`.
    #[test]
    fn four_ways_follow_the_intel_table() {
        let mut bits = [false; 3];
        assert_eq!(victim(&bits), 0);
        touch(&mut bits, 0);
        assert_eq!(bits, [true, true, false]);
        bits = [true, false, true];
        assert_eq!(victim(&bits), 3);
        touch(&mut bits, 3);
        assert_eq!(bits, [false, false, false]);
        bits = [false, true, false];
        assert_eq!(victim(&bits), 1);
        bits = [true, false, false];
        assert_eq!(victim(&bits), 2);
    }

    /// The way just used is never the next victim.
    #[test]
    fn a_touched_way_is_never_the_victim() {
        for ways in [2usize, 4, 8, 16] {
            let mut bits = vec![false; ways - 1];
            for way in (0..ways).chain((0..ways).rev()) {
                touch(&mut bits, way);
                assert_ne!(victim(&bits), way);
            }
        }
    }

    #[test]
    fn one_way_has_no_bits_and_one_victim() {
        let mut bits: [bool; 0] = [];
        touch(&mut bits, 0);
        assert_eq!(victim(&bits), 0);
    }
}
