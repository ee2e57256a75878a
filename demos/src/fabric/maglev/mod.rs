//! Maglev's lookup table: how Google's load balancer spreads connections
//! over a pool of backends so that every backend gets an almost equal share
//! and few connections move when the pool changes.
//!
//! Source: Eisenbud et al., "Maglev: A Fast and Reliable Software Network
//! Load Balancer", NSDI 2016, §3.4 ("Maglev Hashing") and its Pseudocode 1
//! (table population). A packet's 5-tuple hashes to one of the table's `M`
//! entries; the entry names the backend. The table is built from one
//! *preference list* per backend: backend `i` has an `offset` and a `skip`,
//! and its list is `permutation[i][j] = (offset + j·skip) mod M` for
//! `j = 0..M-1`. The backends take turns, in the order they are listed,
//! each claiming the first entry of its list that is still empty, until all
//! `M` entries are claimed.
//!
//! What was read: the paper's text (§3.4, Pseudocode 1, Table 1, §5.3),
//! as a Markdown copy of the NSDI'16 PDF stored in a public repository,
//! checked against two implementations that cite Pseudocode 1 (Envoy's
//! `maglev_lb.cc`, "implementation of pseudocode listing 1"; GIFTS-fs's
//! `algorithm/maglevHashing.go`). The paper's Table 1 example (M = 7;
//! B0 3:4, B1 0:2, B2 3:1; the paper numbers backends and rows from 1) is
//! pinned by the tests.
//!
//! In the paper `offset` and `skip` come from two hashes of the backend's
//! name (`skip = h2(name) mod (M−1) + 1`). Here they are given directly, so
//! a learner can set them and the table can be checked against any other
//! implementation of the same pseudocode.

pub mod build;
pub mod cli;
pub mod compare;
pub mod coverage;
mod model;
pub mod ring;
pub mod siphash;

pub use model::{
    comparison_sentence, paper_backends, Maglev, MaglevAction, MaglevConfig, BACKENDS,
    COMPARE_BACKENDS, COMPARE_SIZE, COMPARE_SIZES, NAME_CHARS, SIZE, VIRTUAL_NODES,
};

#[cfg(test)]
mod model_tests;

use serde::{Deserialize, Serialize};

/// The largest table built: 2²⁴ entries. The paper's sizes (65,537 and
/// 655,373) fit with room to spare, and a table this size is 16 M entries,
/// about as much as a teaching tool should allocate.
pub const MAX_SIZE: usize = 1 << 24;

/// One backend: its name and the two numbers that fix its preference list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Backend {
    pub name: String,
    /// Where its preference list starts. Any value: only `offset mod M`
    /// matters.
    pub offset: u64,
    /// How far each next preference is from the last, 1 to M−1.
    pub skip: u64,
}

impl Backend {
    /// A backend with this name, offset and skip.
    pub fn new(name: &str, offset: u64, skip: u64) -> Backend {
        Backend {
            name: name.to_string(),
            offset,
            skip,
        }
    }
}

/// Whether `n` is prime, by trial division: the table is at most 2²⁴
/// entries, so at most 2¹² divisors are tried.
pub fn is_prime(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    let mut d = 2u64;
    while d * d <= n {
        if n.is_multiple_of(d) {
            return false;
        }
        d += 1;
    }
    true
}

/// Why a table of `size` entries cannot be built from these backends, or
/// `Ok`. The size must be prime: then every skip from 1 to M−1 shares no
/// factor with M, so `offset + j·skip` visits each entry exactly once as
/// `j` goes from 0 to M−1, and each preference list names every entry
/// (the paper asks for a prime M, as quoted from §3.4 in the summary we
/// read). A skip of 0 would repeat one entry forever; a skip of M or more
/// is the same list as `skip mod M`, which the skip formula the
/// implementations above transcribe, `h2(name) mod (M−1) + 1`, never
/// produces.
pub fn check(size: usize, backends: &[Backend]) -> Result<(), String> {
    if size > MAX_SIZE {
        return Err(format!("a table has at most {MAX_SIZE} entries."));
    }
    if !is_prime(size as u64) {
        return Err(format!("the table size must be prime; {size} is not."));
    }
    if backends.is_empty() {
        return Err("a table needs at least one backend.".to_string());
    }
    for b in backends {
        if b.skip == 0 || b.skip >= size as u64 {
            return Err(format!(
                "{}'s skip must be from 1 to {} (M − 1); it is {}.",
                b.name,
                size - 1,
                b.skip
            ));
        }
    }
    Ok(())
}

/// The `j`-th entry backend `b` prefers in a table of `size` entries:
/// `(offset + j·skip) mod M` (§3.4, `permutation[i][j]`). In u128 the sum
/// cannot overflow for any offset, skip and `j`, so the result is the
/// formula's exactly; the list has M entries, `j` from 0 to M−1.
pub fn preference(b: &Backend, size: usize, j: usize) -> usize {
    let m = size as u128;
    ((u128::from(b.offset) + j as u128 * u128::from(b.skip)) % m) as usize
}

/// Backend `i`'s place in its preference list: how far it has read
/// (the pseudocode's `next[i]`) and the entry found there. The entry is
/// carried along so that a step is an addition, not a division: a table of
/// 2²⁴ entries can take billions of steps.
struct Cursor {
    next: usize,
    at: usize,
    skip: usize,
}

impl Cursor {
    fn start(b: &Backend, size: usize) -> Cursor {
        Cursor {
            next: 0,
            at: preference(b, size, 0),
            // Below M ≤ 2²⁴, as `check` ensures.
            skip: b.skip as usize,
        }
    }

    /// `next[i] ← next[i] + 1`. The entry it now names is the last one
    /// plus `skip`, less M if that went past the end; both are below
    /// M ≤ 2²⁴, so the sum cannot overflow.
    fn advance(&mut self, size: usize) {
        self.next += 1;
        self.at += self.skip;
        if self.at >= size {
            self.at -= size;
        }
    }
}

/// The lookup table: entry `c` holds the index (into `backends`) of the
/// backend that owns it. Pseudocode 1, step by step: `next[i]` is how far
/// backend `i` has read down its preference list; on its turn it skips the
/// entries already claimed, claims the first empty one and moves past it.
/// The backends take turns in the order given, and building stops as soon
/// as the M-th entry is claimed, which may be part-way through a round.
///
/// Each turn claims exactly one entry, so after M turns the table is full
/// and backend `i` has had `⌊M/N⌋` turns, one more if `i < M mod N`
/// ([`counts`]). `next[i]` never runs off the end of the list: the entries
/// it has passed are all claimed, and while one is empty it is somewhere
/// later in the list, since the list names every entry. So the work is at
/// most N·M steps. Random lists take far fewer: when a fraction f of the
/// table is claimed, a turn expects 1/(1−f) steps, about M·ln M in all;
/// but N backends with the same list take about N·M/2.
///
/// # Panics
/// If [`check`] refuses the size or the backends: with a skip of 0 or a
/// size that is not prime, a preference list misses entries and the
/// pseudocode would search forever.
pub fn populate(size: usize, backends: &[Backend]) -> Vec<usize> {
    if let Err(why) = check(size, backends) {
        panic!("maglev::populate: {why}");
    }
    let mut next: Vec<Cursor> = backends.iter().map(|b| Cursor::start(b, size)).collect();
    // The pseudocode's −1: not yet claimed. (No backend has this index:
    // there cannot be `usize::MAX` of them.)
    const EMPTY: usize = usize::MAX;
    let mut entry = vec![EMPTY; size];
    let mut claimed = 0;
    loop {
        for (i, cursor) in next.iter_mut().enumerate() {
            while entry[cursor.at] != EMPTY {
                cursor.advance(size);
            }
            debug_assert_eq!(cursor.at, preference(&backends[i], size, cursor.next));
            entry[cursor.at] = i;
            cursor.advance(size);
            claimed += 1;
            if claimed == size {
                return entry;
            }
        }
    }
}

/// How many entries each of `n` backends owns in `table`. With Maglev's
/// turns these are `⌊M/N⌋` or `⌈M/N⌉`: the balance the paper is after
/// (with M > 100·N, as the summary we read quotes it, one entry is under
/// 1% of a backend's share).
pub fn counts(table: &[usize], n: usize) -> Vec<usize> {
    let mut out = vec![0; n];
    for &owner in table {
        out[owner] += 1;
    }
    out
}

/// How many entries changed owner between two tables of the same size,
/// both naming backends by the same indices: each such entry is a share of
/// the connections that now go to a different backend.
///
/// # Panics
/// If the tables differ in size: they would not describe the same keys.
pub fn moved(before: &[usize], after: &[usize]) -> usize {
    assert_eq!(before.len(), after.len(), "tables of different sizes");
    before.iter().zip(after).filter(|(b, a)| b != a).count()
}

/// Maps an index among the backends left after `removed` is taken out back
/// to its index in the full list, so tables before and after can be
/// compared entry by entry.
fn original(survivor: usize, removed: usize) -> usize {
    if survivor >= removed {
        survivor + 1
    } else {
        survivor
    }
}

/// The table rebuilt without backend `removed`: the others keep their
/// offset, skip and order (their preference lists do not change, which is
/// why most entries stay put), and the result names them by their indices
/// in the full list.
///
/// # Panics
/// If `removed` is not an index of `backends`, if it is the only backend,
/// or as [`populate`] does.
pub fn without(size: usize, backends: &[Backend], removed: usize) -> Vec<usize> {
    assert!(removed < backends.len(), "no backend {removed} to remove");
    let rest: Vec<Backend> = backends
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != removed)
        .map(|(_, b)| b.clone())
        .collect();
    populate(size, &rest)
        .into_iter()
        .map(|s| original(s, removed))
        .collect()
}

/// For comparison, the naive table: key `k` of `size` keys goes to backend
/// `k mod n`.
///
/// # Panics
/// If `n` is 0.
pub fn modulo_table(size: usize, n: usize) -> Vec<usize> {
    assert!(n > 0, "no backends");
    (0..size).map(|k| k % n).collect()
}

/// The naive table after backend `removed` goes: key `k` goes to the
/// `(k mod (n−1))`-th survivor, named by its index in the full list. Most
/// keys move, because the divisor changed for every key, not only for the
/// removed backend's: `moved(&modulo_table(m, n), &modulo_without(m, n, r))`
/// is the figure to set beside Maglev's.
///
/// # Panics
/// If `removed` is not below `n`, or `n` is below 2.
pub fn modulo_without(size: usize, n: usize, removed: usize) -> Vec<usize> {
    assert!(
        n >= 2 && removed < n,
        "cannot remove backend {removed} of {n}"
    );
    (0..size).map(|k| original(k % (n - 1), removed)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The paper's worked example as the issue quotes it: M = 7.
    fn paper() -> Vec<Backend> {
        vec![
            Backend::new("B0", 3, 4),
            Backend::new("B1", 0, 2),
            Backend::new("B2", 3, 1),
        ]
    }

    #[test]
    fn the_papers_preference_lists() {
        let lists: Vec<Vec<usize>> = paper()
            .iter()
            .map(|b| (0..7).map(|j| preference(b, 7, j)).collect())
            .collect();
        assert_eq!(lists[0], [3, 0, 4, 1, 5, 2, 6]);
        assert_eq!(lists[1], [0, 2, 4, 6, 1, 3, 5]);
        assert_eq!(lists[2], [3, 4, 5, 6, 0, 1, 2]);
    }

    /// Round 1: B0 claims 3, B1 claims 0, B2 finds 3 claimed and takes 4.
    /// Round 2: B0 passes 0 and 4 and claims 1, B1 claims 2, B2 claims 5.
    /// Round 3: B0 passes 5 and 2 and claims 6, the seventh entry, so the
    /// table is full before B1 and B2 have their third turn.
    #[test]
    fn the_papers_table() {
        assert_eq!(populate(7, &paper()), [1, 0, 1, 0, 2, 2, 0]);
        assert_eq!(counts(&populate(7, &paper()), 3), [3, 2, 2]);
    }

    /// Without B1, B0 and B2 keep their lists but not all their entries.
    /// B0 now claims B1's old entry 0 in round 2, which puts it a turn
    /// behind on its list, and B2 claims entry 6 in round 3 before B0 gets
    /// there. So three entries move, not only B1's two: the table keeps
    /// disruption small, not minimal.
    #[test]
    fn the_papers_table_without_b1() {
        let before = populate(7, &paper());
        let after = without(7, &paper(), 1);
        assert_eq!(after, [0, 0, 0, 0, 2, 2, 2]);
        assert_eq!(moved(&before, &after), 3);
    }

    /// Modulo hashing over the same 7 keys moves 4 of them: 0,1,2,0,1,2,0
    /// becomes B0,B2,B0,B2,B0,B2,B0.
    #[test]
    fn modulo_hashing_moves_more_for_the_same_removal() {
        let before = modulo_table(7, 3);
        let after = modulo_without(7, 3, 1);
        assert_eq!(after, [0, 2, 0, 2, 0, 2, 0]);
        assert_eq!(moved(&before, &after), 4);
    }

    #[test]
    fn a_table_may_fill_before_every_backend_has_a_turn() {
        // Three backends, two entries: the third never has a turn.
        let same = vec![Backend::new("a", 0, 1); 3];
        assert_eq!(populate(2, &same), [0, 1]);
        // Five turns for two backends: the first has one more.
        let two = &paper()[..2];
        assert_eq!(counts(&populate(5, two), 2), [3, 2]);
    }

    #[test]
    fn primes_by_trial_division() {
        let small: Vec<u64> = (0..30).filter(|&n| is_prime(n)).collect();
        assert_eq!(small, [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]);
        assert!(is_prime(65_537) && is_prime(655_373));
        assert!(!is_prime(1 << 24) && !is_prime(4093 * 4099));
    }

    #[test]
    fn check_names_what_is_wrong() {
        let fails = |size, b: &[Backend]| check(size, b).unwrap_err();
        assert!(fails(8, &paper()).contains("prime"));
        assert!(fails(7, &[]).contains("at least one"));
        assert!(fails(7, &[Backend::new("x", 0, 0)]).contains("x's skip"));
        assert!(fails(7, &[Backend::new("x", 0, 7)]).contains("1 to 6"));
        assert!(fails(MAX_SIZE + 1, &paper()).contains("at most"));
        assert_eq!(check(7, &[Backend::new("x", u64::MAX, 6)]), Ok(()));
    }

    /// The largest offset is reduced before it is added, so nothing
    /// overflows: 2⁶⁴−1 mod 7 = 1 (2⁶⁴ ≡ 2 mod 7, as 2³ ≡ 1).
    #[test]
    fn any_offset_works() {
        let b = Backend::new("x", u64::MAX, 6);
        assert_eq!(preference(&b, 7, 0), 1);
        assert_eq!(preference(&b, 7, 6), (1 + 36) % 7);
    }

    #[test]
    #[should_panic(expected = "prime")]
    fn populate_refuses_what_check_refuses() {
        populate(9, &paper());
    }
}
