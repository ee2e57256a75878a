//! Why the table size must be prime: which entries a preference list
//! reaches when it does not.
//!
//! §3.4 (p. 6): "M must be a prime number so that all values of skip are
//! relatively prime to it." The list `offset + j·skip mod M` steps round
//! the table by `skip`; it comes back to where it started after
//! M / gcd(skip, M) steps, so it names every entry only when skip and M
//! share no factor. A skip is any value from 1 to M − 1 (`h2(name) mod
//! (M − 1) + 1`), and all of them share no factor with M only when M is
//! prime. A list that misses entries breaks Pseudocode 1: once the entries
//! it names are claimed, its backend finds no empty one and the inner
//! `while` never ends.

use super::{preference, Backend};
use crate::text::grouped;

/// The greatest common divisor, by Euclid's algorithm.
pub fn gcd(a: u64, b: u64) -> u64 {
    let (mut a, mut b) = (a, b);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The smallest factor of `n` above 1 (`n` itself when it is prime), for
/// `n` ≥ 2.
pub fn smallest_factor(n: u64) -> u64 {
    (2..)
        .take_while(|d| d * d <= n)
        .find(|d| n.is_multiple_of(*d))
        .unwrap_or(n)
}

/// The entries a list with this skip reaches in a table of `size`, from
/// entry 0: every gcd(skip, M)-th one, M / gcd of them.
pub fn reached(skip: u64, size: u64) -> Vec<u64> {
    let g = gcd(skip, size).max(1);
    (0..size).step_by(g as usize).collect()
}

/// The first few of `entries`, as "0, 2, 4, 6" (with "…" past eight).
fn listed(entries: &[u64]) -> String {
    let mut out: Vec<String> = entries.iter().take(8).map(|e| e.to_string()).collect();
    if entries.len() > 8 {
        out.push("…".to_string());
    }
    out.join(", ")
}

/// Why a table of `size` entries cannot be built, when `size` is not prime,
/// in the learner's terms: the factor, and a backend here whose list would
/// miss entries, or else the skip a name could hash to that would. `None`
/// when `size` is prime (or below 2: the size's range says why).
pub fn not_prime(size: u64, backends: &[Backend]) -> Option<String> {
    if size < 2 || super::is_prime(size) {
        return None;
    }
    let p = smallest_factor(size);
    let head = format!(
        "A table size must be prime, and {} is not: {} = {p} × {}.",
        grouped(size as i64),
        grouped(size as i64),
        grouped((size / p) as i64)
    );
    let stuck = backends
        .iter()
        .find(|b| b.skip > 0 && gcd(b.skip, size) > 1);
    let tail = match stuck {
        Some(b) => {
            let g = gcd(b.skip, size);
            let start = preference(b, size as usize, 0) as u64;
            let mut seen: Vec<u64> = reached(b.skip, size)
                .into_iter()
                .map(|e| (e + start) % size)
                .collect();
            seen.sort_unstable();
            format!(
                " {}'s skip of {} shares the factor {g} with it, so its list would visit only {} of the {} entries ({}) and then repeat: once those were claimed, {} would search forever.",
                b.name,
                b.skip,
                seen.len(),
                grouped(size as i64),
                listed(&seen),
                b.name
            )
        }
        None => format!(
            " A name can hash to any skip from 1 to {}: a skip of {p} would visit only {} of the {} entries ({}) and never find the rest.",
            grouped((size - 1) as i64),
            grouped((size / p) as i64),
            grouped(size as i64),
            listed(&reached(p, size))
        ),
    };
    Some(head + &tail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_reaches_every_gcd_th_entry() {
        assert_eq!(reached(2, 8), [0, 2, 4, 6]);
        assert_eq!(reached(4, 8), [0, 4]);
        assert_eq!(reached(3, 8).len(), 8);
        assert_eq!(gcd(12, 18), 6);
        assert_eq!(smallest_factor(91), 7);
        assert_eq!(smallest_factor(13), 13);
    }

    /// The list itself names those entries: the formula and the count agree.
    #[test]
    fn reached_is_what_the_list_names() {
        for size in 2..40u64 {
            for skip in 1..size {
                let b = Backend::new("x", 0, skip);
                let mut named: Vec<u64> = (0..size as usize)
                    .map(|j| preference(&b, size as usize, j) as u64)
                    .collect();
                named.sort_unstable();
                named.dedup();
                assert_eq!(named, reached(skip, size), "{skip} of {size}");
            }
        }
    }

    #[test]
    fn a_composite_size_is_explained_with_a_backend_that_would_stick() {
        let paper = [
            Backend::new("B0", 3, 4),
            Backend::new("B1", 0, 2),
            Backend::new("B2", 3, 1),
        ];
        let why = not_prime(8, &paper).unwrap();
        assert!(why.contains("8 = 2 × 4"), "{why}");
        // B0's skip 4 shares 4 with 8: from entry 3 it visits 3 and 7.
        assert!(why.contains("B0's skip of 4 shares the factor 4"), "{why}");
        assert!(why.contains("only 2 of the 8 entries (3, 7)"), "{why}");
        let why = not_prime(9, &paper).unwrap();
        assert!(
            !why.contains("B0's skip of 4")
                && why.contains("a skip of 3 would visit only 3 of the 9 entries (0, 3, 6)"),
            "{why}"
        );
        assert_eq!(not_prime(7, &paper), None);
    }
}
