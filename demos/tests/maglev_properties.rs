//! Maglev's lookup table against random sizes and backends: the library's
//! table equals a naive transcription of Pseudocode 1 (Eisenbud et al.,
//! NSDI 2016, §3.4) written here from scratch, and the laws that follow
//! from it hold; the command line never panics.

use demos::fabric::maglev::cli::maglev_command;
use demos::fabric::maglev::{
    counts, is_prime, modulo_table, modulo_without, moved, populate, without, Backend,
};
use proptest::prelude::*;

/// Prime by the definition, slowly: no divisor between 2 and n−1.
fn prime_by_definition(n: u64) -> bool {
    n >= 2 && (2..n).all(|d| !n.is_multiple_of(d))
}

/// Pseudocode 1 as written: the whole permutation table first (u128, from
/// the offset as given, so no reduction trick is shared with the library),
/// then `next`, `entry` with −1 for empty, and the turns.
fn naive(m: usize, backends: &[Backend]) -> Vec<usize> {
    let n = backends.len();
    let permutation: Vec<Vec<usize>> = backends
        .iter()
        .map(|b| {
            (0..m)
                .map(|j| ((b.offset as u128 + j as u128 * b.skip as u128) % m as u128) as usize)
                .collect()
        })
        .collect();
    let mut next = vec![0usize; n];
    let mut entry = vec![-1i64; m];
    let mut filled = 0;
    loop {
        for i in 0..n {
            let mut c = permutation[i][next[i]];
            while entry[c] >= 0 {
                next[i] += 1;
                c = permutation[i][next[i]];
            }
            entry[c] = i as i64;
            next[i] += 1;
            filled += 1;
            if filled == m {
                return entry.into_iter().map(|e| e as usize).collect();
            }
        }
    }
}

/// The smallest prime at or above `n`.
fn prime_from(n: u64) -> u64 {
    (n..).find(|&p| prime_by_definition(p)).unwrap()
}

/// A prime table size up to a few hundred (often below ten) and 1 to 9 backends with any
/// offset and a skip from 1 to M−1, named b0, b1, ….
fn table() -> impl Strategy<Value = (usize, Vec<Backend>)> {
    // Small sizes often, so a table fills before every backend has a turn.
    prop_oneof![2u64..12, 2u64..400].prop_flat_map(|n| {
        let m = prime_from(n);
        let backend = (any::<u64>(), 1..m);
        (Just(m as usize), prop::collection::vec(backend, 1..10)).prop_map(|(m, raw)| {
            let backends = raw
                .into_iter()
                .enumerate()
                .map(|(i, (offset, skip))| Backend::new(&format!("b{i}"), offset, skip))
                .collect();
            (m, backends)
        })
    })
}

/// The command line that asks for this table.
fn command(m: usize, backends: &[Backend]) -> Vec<String> {
    let mut args = vec!["--size".to_string(), m.to_string()];
    for b in backends {
        args.push("--backend".to_string());
        args.push(format!("{}:{}:{}", b.name, b.offset, b.skip));
    }
    args
}

/// `label` and the names of a table's owners, as the example prints them.
fn printed(label: &str, table: &[usize], backends: &[Backend]) -> String {
    let names: Vec<&str> = table.iter().map(|&i| backends[i].name.as_str()).collect();
    format!("{label} {}\n", names.join(" "))
}

/// In a module named for the demo, so `cargo test maglev` runs them.
mod maglev {
    use super::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn populate_is_pseudocode_1((m, backends) in table()) {
            prop_assert_eq!(populate(m, &backends), naive(m, &backends));
        }

        /// Every entry has an owner, and each turn claims one entry, so
        /// backend i owns ⌊M/N⌋ entries, one more if i < M mod N: counts differ
        /// by at most one, and when M ≥ N each is ⌊M/N⌋ or ⌈M/N⌉.
        #[test]
        fn every_entry_is_filled_and_shares_differ_by_at_most_one((m, backends) in table()) {
            let n = backends.len();
            let t = populate(m, &backends);
            prop_assert_eq!(t.len(), m);
            prop_assert!(t.iter().all(|&i| i < n));
            let c = counts(&t, n);
            for (i, &k) in c.iter().enumerate() {
                prop_assert_eq!(k, m / n + usize::from(i < m % n));
            }
            let (lo, hi) = (c.iter().min().unwrap(), c.iter().max().unwrap());
            prop_assert!(hi - lo <= 1);
            if m >= n {
                prop_assert!(*lo >= m / n && *hi <= m.div_ceil(n));
            }
        }

        /// Removing a backend: the table is the naive one over the others in
        /// their order. What is guaranteed is only that every entry of the
        /// removed backend moves, so at least its count do; entries of the
        /// others may move too (the paper's own example moves one).
        #[test]
        fn removal_moves_every_entry_of_the_removed_backend(
            (m, backends) in table(), pick in any::<prop::sample::Index>(),
        ) {
            prop_assume!(backends.len() >= 2);
            let n = backends.len();
            let gone = pick.index(n);
            let before = populate(m, &backends);
            let after = without(m, &backends, gone);
            let rest: Vec<Backend> = backends
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != gone)
                .map(|(_, b)| b.clone())
                .collect();
            let named = |t: &[usize], bs: &[Backend]| -> Vec<String> {
                t.iter().map(|&i| bs[i].name.clone()).collect()
            };
            prop_assert_eq!(named(&after, &backends), named(&naive(m, &rest), &rest));
            for (b, a) in before.iter().zip(&after) {
                prop_assert_ne!(*a, gone);
                if *b == gone {
                    prop_assert_ne!(*a, *b);
                }
            }
            let k = moved(&before, &after);
            prop_assert!(k >= counts(&before, n)[gone] && k <= m);
            let left = counts(&after, n);
            prop_assert_eq!(left[gone], 0);
            let shares: Vec<usize> = (0..n).filter(|&i| i != gone).map(|i| left[i]).collect();
            prop_assert!(shares.iter().max().unwrap() - shares.iter().min().unwrap() <= 1);
        }

        /// The modulo tables are `k mod N` and the `(k mod (N−1))`-th survivor.
        #[test]
        fn modulo_tables_are_key_mod_n(m in 1usize..500, n in 2usize..12, pick in any::<prop::sample::Index>()) {
            let gone = pick.index(n);
            let survivors: Vec<usize> = (0..n).filter(|&i| i != gone).collect();
            let before = modulo_table(m, n);
            let after = modulo_without(m, n, gone);
            for k in 0..m {
                prop_assert_eq!(before[k], k % n);
                prop_assert_eq!(after[k], survivors[k % (n - 1)]);
            }
            let k = moved(&before, &after);
            prop_assert!(k >= counts(&before, n)[gone]);
        }

        #[test]
        fn primes_by_trial_division_are_primes(n in 0u64..5000) {
            prop_assert_eq!(is_prime(n), prime_by_definition(n));
        }

        /// The command line prints the naive table by name, and with
        /// `--remove` the naive table without it and the count that changed.
        #[test]
        fn the_command_prints_the_naive_tables(
            (m, backends) in table(), pick in any::<prop::sample::Index>(),
        ) {
            let table = naive(m, &backends);
            let mut want = printed("table", &table, &backends);
            let mut args = command(m, &backends);
            if backends.len() >= 2 {
                let gone = pick.index(backends.len());
                let rest: Vec<Backend> = backends
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i != gone)
                    .map(|(_, b)| b.clone())
                    .collect();
                let after = naive(m, &rest);
                want.push_str(&printed("after", &after, &rest));
                let changed = table
                    .iter()
                    .zip(&after)
                    .filter(|&(&b, &a)| backends[b].name != rest[a].name)
                    .count();
                want.push_str(&format!("moved {changed}\n"));
                args.push("--remove".to_string());
                args.push(backends[gone].name.clone());
            }
            prop_assert_eq!(maglev_command(&args), Ok(want));
        }

        /// Whatever the arguments, the command answers: a table, or a reason.
        #[test]
        fn the_command_never_panics(args in prop::collection::vec(argument(), 0..12)) {
            match maglev_command(&args) {
                Ok(out) => prop_assert!(out.starts_with("table ") && out.ends_with('\n')),
                Err(why) => prop_assert!(!why.is_empty()),
            }
        }
    }
}

/// One argument: an option name, a plausible value, or anything at all.
fn argument() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "--size",
            "--backend",
            "--remove",
            "--size=7",
            "--backend=",
            "--remove=",
            "7",
            "2",
            "1",
            "0",
            "8",
            "101",
            "16777259",
            "18446744073709551616",
            "B0:3:4",
            "B1:0:2",
            "B2:3:1",
            "B0",
            "B1",
            "a:b:0:1",
            ":1:1",
            "x:0:0",
            "x:18446744073709551615:6",
            "x::1",
            "x:1:",
            "::",
        ])
        .prop_map(String::from),
        "[a-z0-9:]{0,3}:[0-9]{1,3}:[0-9]{1,3}",
        "--[a-z]{0,6}(=[0-9]{0,3})?",
        "[0-9]{1,3}",
        any::<String>(),
    ]
}
