//! The cache simulator against the facts any correct cache obeys, over random
//! geometries and traces; and its text parsers against random text.

use demos::cpu::cachesim::parse::{parse_config, parse_trace};
use demos::cpu::cachesim::{AccessKind, Allocation, Hierarchy, LevelSpec, Place, Policy};
use proptest::prelude::*;
use std::collections::BTreeSet;

fn policy() -> impl Strategy<Value = Policy> {
    prop_oneof![
        Just(Policy::Lru),
        Just(Policy::Fifo),
        Just(Policy::Plru),
        Just(Policy::Random)
    ]
}

fn kind() -> impl Strategy<Value = AccessKind> {
    prop_oneof![2 => Just(AccessKind::Load), 1 => Just(AccessKind::Store)]
}

/// Accesses over a small address space, so lines collide and get reused.
fn trace(span: u64) -> impl Strategy<Value = Vec<(AccessKind, u64)>> {
    prop::collection::vec((kind(), 0..span), 0..300)
}

/// 1–3 levels, line sizes that never shrink outward.
fn hierarchy() -> impl Strategy<Value = Hierarchy> {
    let level = (0u32..4, 0u32..4, 1usize..6, policy(), 0u32..2, any::<u64>());
    (prop::collection::vec(level, 1..4), 0u32..3).prop_map(|(levels, line_log)| {
        let mut line = 1u64 << (line_log * 2);
        let specs = levels
            .into_iter()
            .enumerate()
            .map(|(i, (sets_log, ways_log, ways, policy, grow, seed))| {
                line <<= grow;
                let ways = if policy == Policy::Plru {
                    1 << ways_log
                } else {
                    ways
                };
                LevelSpec::new(&format!("L{}", i + 1), 1 << sets_log, ways, line, policy)
                    .with_latency(i as u32 * 3 + 1)
                    .with_seed(seed)
            })
            .collect();
        Hierarchy::new(specs, 50).expect("generated geometry is valid")
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Fully associative LRU: every access is a hit or a miss, and each
    /// distinct line misses at least once.
    #[test]
    fn fully_associative_lru_counts_add_up(ways in 1usize..40, trace in trace(4096)) {
        let mut h = Hierarchy::new(vec![LevelSpec::new("L1", 1, ways, 64, Policy::Lru)], 0).unwrap();
        let mut distinct = BTreeSet::new();
        for &(kind, addr) in &trace {
            h.access(addr, kind);
            distinct.insert(addr / 64);
        }
        let s = &h.levels[0].stats;
        prop_assert_eq!(s.hits + s.misses, trace.len() as u64);
        prop_assert!(s.misses >= distinct.len() as u64);
        prop_assert_eq!(s.compulsory, distinct.len() as u64);
        // Exact at the capacity edge: if every line fits, nothing is evicted,
        // so the only misses are the first touches.
        if distinct.len() <= ways {
            prop_assert_eq!(s.misses, distinct.len() as u64);
        }
        // Fully associative: nothing is ever a conflict miss.
        prop_assert_eq!(s.conflict, 0);
    }

    /// Direct-mapped: never two lines of one set at once.
    #[test]
    fn direct_mapped_never_holds_two_lines_of_a_set(sets_log in 0u32..6, trace in trace(8192)) {
        let mut h = Hierarchy::new(vec![LevelSpec::new("L1", 1 << sets_log, 1, 32, Policy::Lru)], 0).unwrap();
        for &(kind, addr) in &trace {
            h.access(addr, kind);
            let level = &h.levels[0];
            let mut sets_held = BTreeSet::new();
            for s in level.sets.values() {
                for block in s.ways.iter().flatten() {
                    prop_assert!(sets_held.insert(level.spec.split(block.base).set));
                }
            }
        }
    }

    /// LRU is a stack algorithm (Mattson et al., IBM Systems Journal 9(2),
    /// 1970): at the same number of sets, more ways never miss more.
    #[test]
    fn more_lru_ways_never_miss_more(sets_log in 0u32..4, ways in 1usize..8, extra in 1usize..8, trace in trace(4096)) {
        let run = |w| {
            let mut h = Hierarchy::new(vec![LevelSpec::new("L1", 1 << sets_log, w, 16, Policy::Lru)], 0).unwrap();
            let served: Vec<bool> = trace.iter().map(|&(k, a)| h.access(a, k).served == Place::Level(0)).collect();
            (h.levels[0].stats.misses, served)
        };
        let (small, small_hits) = run(ways);
        let (large, large_hits) = run(ways + extra);
        prop_assert!(large <= small);
        // Stronger, per access: whatever hits in the smaller cache hits in the larger.
        for (s, l) in small_hits.iter().zip(&large_hits) {
            prop_assert!(!s || *l);
        }
    }

    /// Conservation across the hierarchy, placement, and the 3C split.
    #[test]
    fn hierarchy_bookkeeping_is_consistent(mut h in hierarchy(), trace in trace(4096)) {
        let mut cycles = 0;
        for &(kind, addr) in &trace {
            let r = h.access(addr, kind);
            cycles += r.cycles;
            // The lookups stop at the serving level; everything before it missed and was filled.
            let reached = match r.served { Place::Level(i) => i + 1, Place::Memory => h.levels.len() };
            prop_assert_eq!(r.lookups.len(), reached);
            prop_assert_eq!(r.fills.len(), reached - usize::from(r.served != Place::Memory));
            // After any access, L1 holds the line just used.
            prop_assert!(h.levels[0].probe(addr).is_some());
        }
        prop_assert_eq!(h.cycles, cycles);
        prop_assert_eq!(h.accesses, trace.len() as u64);
        let first = &h.levels[0].stats;
        prop_assert_eq!(first.accesses(), trace.len() as u64);
        for pair in h.levels.windows(2) {
            prop_assert_eq!(pair[1].stats.accesses(), pair[0].stats.misses);
            prop_assert_eq!(pair[1].stats.writebacks_in, pair[0].stats.writebacks);
        }
        h.check().map_err(TestCaseError::fail)?;
        for l in &h.levels {
            prop_assert!(l.stats.writebacks <= l.stats.evictions);
        }
    }

    /// Victim levels (opt-in): never filled by a demand miss, and every line
    /// the level inside evicts, clean or dirty, arrives there; the other
    /// facts of a hierarchy still hold.
    #[test]
    fn a_victim_level_takes_exactly_the_inner_level_s_evictions(
        h in hierarchy(), victims in prop::collection::vec(any::<bool>(), 3), trace in trace(2048)
    ) {
        let specs: Vec<LevelSpec> = h.levels.iter().enumerate().map(|(i, l)| {
            let victim = i > 0 && victims[i - 1];
            l.spec.clone().with_allocation(if victim { Allocation::Victims } else { Allocation::OnMiss })
        }).collect();
        let mut h = Hierarchy::new(specs, 50).expect("victims only beyond L1");
        for &(kind, addr) in &trace {
            let r = h.access(addr, kind);
            for f in &r.fills {
                prop_assert_eq!(h.levels[f.level].spec.allocation, Allocation::OnMiss);
            }
            prop_assert!(h.levels[0].probe(addr).is_some());
        }
        for pair in h.levels.windows(2) {
            let (inner, outer) = (&pair[0].stats, &pair[1].stats);
            prop_assert_eq!(outer.accesses(), inner.misses);
            prop_assert_eq!(outer.writebacks_in, inner.writebacks);
            if pair[1].spec.allocation == Allocation::Victims {
                prop_assert_eq!(outer.writebacks_in + outer.victims_in, inner.evictions);
            } else {
                prop_assert_eq!(outer.victims_in, 0);
            }
        }
        h.check().map_err(TestCaseError::fail)?;
    }

    #[test]
    fn parsers_never_panic_on_random_text(text in "(?s).{0,400}") {
        let _ = parse_config(&text);
        let _ = parse_trace(&text);
    }

    /// Near-miss text: the right words in wrong shapes. Whatever parses builds.
    #[test]
    fn parsers_never_panic_on_near_valid_text(lines in prop::collection::vec(
        prop::collection::vec(prop_oneof![
            Just("level".to_string()), Just("memory".to_string()), Just("L1".to_string()),
            Just("L".to_string()), Just("S".to_string()), Just("#".to_string()),
            "(sets|ways|line|policy|latency|seed)=(0x)?[0-9a-fA-F]{0,21}",
            "policy=(lru|fifo|plru|random|mru)", "latency=[0-9]{0,8}", "0x[0-9a-g]{0,18}", "[0-9]{0,21}",
            "fill=(miss|victim|victims|)",
        ], 0..8).prop_map(|w| w.join(" ")), 0..8)) {
        let text = lines.join("\n");
        if let Ok(config) = parse_config(&text) {
            prop_assert!(Hierarchy::new(config.levels, config.memory_latency).is_ok());
        }
        let _ = parse_trace(&text);
    }
}

/// The capacity edge of a fully associative LRU cache: as many lines as ways
/// cycle with first-touch misses only; one more and every access misses.
#[test]
fn fully_associative_lru_capacity_edge() {
    let cycle = |lines: u64| {
        let mut h = Hierarchy::new(vec![LevelSpec::new("L1", 1, 4, 64, Policy::Lru)], 0).unwrap();
        for _ in 0..3 {
            for line in 0..lines {
                h.access(line * 64, AccessKind::Load);
            }
        }
        h.levels[0].stats.misses
    };
    assert_eq!(cycle(4), 4);
    assert_eq!(cycle(5), 15);
}
