//! The `/fabric/maglev` demo against random settings and actions: the
//! laws every model obeys, a turn-by-turn build that ends in the table
//! `populate` gives, removals that move at least the leaver's entries, a
//! ring that moves no other, and hashes always in range.

use demos::fabric::maglev::compare::compare;
use demos::fabric::maglev::siphash::hashed;
use demos::fabric::maglev::{
    counts, is_prime, populate, ring, without, Backend, Maglev, MaglevAction as A, MaglevConfig,
    BACKENDS, COMPARE_SIZES, SIZE, VIRTUAL_NODES,
};
use demos::laws::check_laws;
use demos::{Model, Scenario, Timeline};
use proptest::prelude::*;

/// The small table's prime sizes.
fn primes() -> Vec<u64> {
    (SIZE.min..=SIZE.max).filter(|&m| is_prime(m)).collect()
}

/// A valid configuration: a prime size, 1 to 5 backends either hashed or
/// with any offset and a skip from 1 to M − 1, and a cheap large table.
fn config() -> impl Strategy<Value = MaglevConfig> {
    (
        prop::sample::select(primes()),
        1usize..=BACKENDS.max as usize,
        any::<bool>(),
        prop::collection::vec((any::<u64>(), any::<u64>()), 5),
        prop::sample::select(vec![13u64, 101, 251, 1_021]),
        2u32..=60,
        1u32..=20,
    )
        .prop_map(|(size, n, hashed_names, raw, compare_size, cb, v)| {
            let backends = (0..n)
                .map(|i| {
                    let name = format!("B{i}");
                    if hashed_names {
                        hashed(&name, size as usize)
                    } else {
                        let (offset, skip) = raw[i];
                        Backend::new(&name, offset % size, skip % (size - 1) + 1)
                    }
                })
                .collect();
            MaglevConfig {
                size,
                backends,
                hashed: hashed_names,
                compare_size,
                compare_backends: cb,
                virtual_nodes: v,
            }
        })
}

fn action() -> impl Strategy<Value = A> {
    prop_oneof![
        8 => Just(A::Claim),
        1 => Just(A::Fill),
        2 => (0usize..6).prop_map(A::Leave),
        1 => Just(A::Return),
        1 => (0u64..20).prop_map(A::SetSize),
        1 => (0u32..7).prop_map(A::SetBackends),
        1 => (0usize..6).prop_map(A::Select),
        1 => (0u64..20).prop_map(A::SetOffset),
        1 => (0u64..20).prop_map(A::SetSkip),
        1 => any::<bool>().prop_map(A::SetHashed),
        1 => prop::sample::select(vec![8u64, 13, 100, 101, 251]).prop_map(A::SetCompareSize),
        1 => (0u32..80).prop_map(A::SetCompareBackends),
        1 => (0u32..30).prop_map(A::SetVirtualNodes),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_demo_obeys_the_laws(config in config(), actions in prop::collection::vec(action(), 0..40)) {
        prop_assert_eq!(check_laws::<Maglev>(config, &actions), Ok(()));
    }

    /// Step to the end: M turns, the table `populate` builds, and each
    /// backend's share ⌊M/N⌋ or ⌈M/N⌉ (§3.4).
    #[test]
    fn stepping_builds_the_populated_table(config in config()) {
        let mut t = Timeline::<Maglev>::new(config.clone());
        let mut steps = 0;
        while t.step().is_ok() {
            steps += 1;
        }
        let m = config.size as usize;
        prop_assert_eq!(steps, m);
        let owners: Vec<usize> = t.model().entries().into_iter().flatten().collect();
        prop_assert_eq!(&owners, &populate(m, &config.backends));
        let n = config.backends.len();
        for c in counts(&owners, n) {
            prop_assert!(c == m / n || c == m.div_ceil(n));
        }
    }

    /// A backend leaves: the rebuilt table is `without`'s, every entry it
    /// owned moves, and the count the model reports is the entries changed.
    #[test]
    fn a_leaver_moves_at_least_its_own_entries(config in config(), pick in any::<prop::sample::Index>()) {
        let n = config.backends.len();
        prop_assume!(n >= 2);
        let gone = pick.index(n);
        let mut m = Maglev::new(&config);
        m.apply(&A::Leave(gone)).unwrap();
        m.apply(&A::Fill).unwrap();
        let size = config.size as usize;
        let after: Vec<usize> = m.entries().into_iter().flatten().collect();
        prop_assert_eq!(&after, &without(size, &config.backends, gone));
        let before = populate(size, &config.backends);
        let own = counts(&before, n)[gone];
        prop_assert!(m.moved_so_far() >= own);
        prop_assert_eq!(m.moved_so_far(), m.moved_when_leaves(gone));
        prop_assert!(m.ring_moved(gone) <= size && m.modulo_moved(gone) >= counts(&before, n)[gone]);
    }

    /// The ring moves only the leaver's entries, whatever the points.
    #[test]
    fn the_ring_moves_only_the_leavers_entries(n in 2usize..12, v in 1usize..=VIRTUAL_NODES.max as usize / 4, size in prop::sample::select(vec![7usize, 101, 1_021]), pick in any::<prop::sample::Index>()) {
        let names: Vec<String> = (0..n).map(|i| format!("b{i}")).collect();
        let pts = ring::points(&names, v);
        let gone = pick.index(n);
        let before = ring::table(&pts, size).unwrap();
        let after = ring::table(&ring::without(&pts, gone), size).unwrap();
        for (b, a) in before.iter().zip(&after) {
            prop_assert_eq!(b != a, *b == gone);
        }
    }

    /// Maglev's shares on the large table are as even as M/N allows; the
    /// moves are at least the leaver's.
    #[test]
    fn the_large_table_is_even_for_maglev(size in prop::sample::select(COMPARE_SIZES[..4].to_vec()), n in 2usize..200, v in 1usize..10) {
        let c = compare(size as usize, n, v);
        let m = size as usize;
        prop_assert_eq!(c.maglev.fewest, m / n);
        prop_assert_eq!(c.maglev.most, m.div_ceil(n));
        prop_assert!(c.maglev.moved >= c.maglev.leavers);
        prop_assert_eq!(c.ring.extra(), 0);
    }

    #[test]
    fn hashed_offsets_and_skips_are_in_range(name in "[A-Za-z0-9]{1,3}", size in prop::sample::select(primes())) {
        let b = hashed(&name, size as usize);
        prop_assert!(b.offset < size && (1..size).contains(&b.skip));
    }

    #[test]
    fn hostile_links_never_panic(text in ".{0,300}", bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        use base64::Engine;
        let _ = Scenario::<Maglev>::decode(&text);
        let encoded = format!("v1.{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&bytes));
        if let Ok(s) = Scenario::<Maglev>::decode(&encoded) {
            let _ = Timeline::<Maglev>::from_scenario(&s);
        }
    }
}
