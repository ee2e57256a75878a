//! The hash ring Maglev is measured against: Karger et al.'s consistent
//! hashing ("Consistent hashing and random trees", STOC 1997, the paper's
//! reference [28]), built as load balancers build it today.
//!
//! Each backend is placed at `V` points (virtual nodes) on a ring of 2⁶⁴
//! positions, at the hashes of "name#0" … "name#(V−1)"; a key belongs to
//! the first point at or after its own position, wrapping past the top.
//! That is Envoy's ring hash (`source/extensions/load_balancing_policies/
//! ring_hash/ring_hash_lb.cc`: each host hashed as "host_i" for i below its
//! share of the ring, the ring sorted, `chooseHost` picking the first point
//! whose hash is at least the key's, else the first point). The separator
//! `#` and the hash (h1, [`super::siphash`]) are our choice.
//!
//! To compare with a lookup table of M entries, entry `j` is the key at
//! position ⌊j·2⁶⁴/M⌋: the entries sit evenly round the ring, as keys
//! hashed uniformly would on average. The paper's own comparison (§5.3)
//! also fills a table of M entries with each method and counts the entries
//! each backend gets; how it placed the entries on Karger's ring it does
//! not say.

use super::siphash::h1;

/// One backend's point on the ring: its position, then its index (ties,
/// which a 64-bit hash makes all but impossible, go to the lower index).
pub type Point = (u64, usize);

/// Every backend's `virtual_nodes` points, sorted round the ring. The
/// backends are named by their index in `names`.
pub fn points(names: &[String], virtual_nodes: usize) -> Vec<Point> {
    let mut out: Vec<Point> = Vec::with_capacity(names.len().saturating_mul(virtual_nodes));
    // One buffer for every "name#k": the large table's comparison hashes up
    // to 200,000 of them, and a string each would be most of its cost.
    let mut key = String::new();
    for (i, name) in names.iter().enumerate() {
        for k in 0..virtual_nodes {
            key.clear();
            key.push_str(name);
            key.push('#');
            key.push_str(&k.to_string());
            out.push((h1(&key), i));
        }
    }
    out.sort_unstable();
    out
}

/// Where entry `j` of a table of `size` entries sits: ⌊j·2⁶⁴/M⌋, exact in
/// u128 (j < M, so it is below 2⁶⁴).
pub fn position(j: usize, size: usize) -> u64 {
    ((j as u128) << 64).checked_div(size as u128).unwrap_or(0) as u64
}

/// The owner of each of `size` entries: the first point at or after the
/// entry's position, or the ring's first point past the last one. Entries
/// are visited in order round the ring, so one sweep finds them all.
/// `None` if there are no points at all.
pub fn table(points: &[Point], size: usize) -> Option<Vec<usize>> {
    let first = points.first()?;
    let mut at = 0;
    Some(
        (0..size)
            .map(|j| {
                let p = position(j, size);
                while at < points.len() && points[at].0 < p {
                    at += 1;
                }
                points.get(at).unwrap_or(first).1
            })
            .collect(),
    )
}

/// The same ring with every point of backend `removed` taken off: the other
/// points stay where they were, so only the removed backend's entries can
/// change owner (each goes to the next surviving point clockwise).
pub fn without(points: &[Point], removed: usize) -> Vec<Point> {
    points.iter().copied().filter(|p| p.1 != removed).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("b{i}")).collect()
    }

    #[test]
    fn positions_are_evenly_spaced_from_zero() {
        assert_eq!(position(0, 7), 0);
        assert_eq!(position(1, 2), 1 << 63);
        assert_eq!(position(3, 4), 3 << 62);
        assert!(position(6, 7) < u64::MAX);
    }

    /// A key past the last point wraps to the first, and a point exactly
    /// at a key's position owns it (Envoy's `h <= midval`).
    #[test]
    fn the_next_point_clockwise_owns_an_entry() {
        let pts = vec![(0u64, 2), (1 << 62, 0), (3 << 62, 1)];
        // Entries at 0, 2^62, 2^63, 3·2^62 of M = 4.
        assert_eq!(table(&pts, 4).unwrap(), [2, 0, 1, 1]);
        let late = vec![(1u64, 1)];
        assert_eq!(table(&late, 2).unwrap(), [1, 1]);
        assert_eq!(table(&[], 3), None);
    }

    #[test]
    fn removing_a_backend_moves_only_its_own_entries() {
        let pts = points(&names(5), 20);
        assert_eq!(pts.len(), 100);
        let before = table(&pts, 1021).unwrap();
        let after = table(&without(&pts, 2), 1021).unwrap();
        for (b, a) in before.iter().zip(&after) {
            assert_eq!(b != a, *b == 2);
            assert_ne!(*a, 2);
        }
    }
}
