//! Cache hierarchy, locality and TLB: the laws over random configurations and
//! action sequences (in and out of range), and each model's own promises.

use demos::cpu::cache_hierarchy::{CacheAction, CacheHierarchy, CacheHierarchyConfig, Preset};
use demos::cpu::cachesim::{Hierarchy, LevelSpec, Place, Policy};
use demos::cpu::locality::{Locality, LocalityAction, LocalityConfig, Walk};
use demos::cpu::tlb::{paging, Tlb, TlbAction, TlbConfig, PAGE};
use demos::laws::check_laws;
use demos::{Model, Scenario, Timeline};
use proptest::prelude::*;

fn policy() -> impl Strategy<Value = Policy> {
    prop_oneof![
        Just(Policy::Lru),
        Just(Policy::Fifo),
        Just(Policy::Plru),
        Just(Policy::Random)
    ]
}

fn pow2(max_log: u32) -> impl Strategy<Value = u64> {
    (0..=max_log).prop_map(|l| 1u64 << l)
}

// ---- cache hierarchy ----

fn hierarchy_config() -> impl Strategy<Value = CacheHierarchyConfig> {
    prop_oneof![
        3 => Just(CacheHierarchyConfig::preset(Preset::Small)),
        1 => Just(CacheHierarchyConfig::preset(Preset::Server)),
        1 => (pow2(3), 1usize..5, policy(), any::<u64>()).prop_map(|(sets, ways, policy, seed)| {
            let mut c = CacheHierarchyConfig::preset(Preset::Small);
            c.levels[0].sets = sets;
            c.levels[0].ways = if policy == Policy::Plru { 2 } else { ways };
            c.levels[0].policy = policy;
            c.seed = seed;
            c
        }),
    ]
}

fn hierarchy_action() -> impl Strategy<Value = CacheAction> {
    prop_oneof![
        6 => (0u64..0x5000).prop_map(CacheAction::Load),
        3 => (0u64..0x5000).prop_map(CacheAction::Store),
        1 => any::<u64>().prop_map(CacheAction::Load),
        1 => Just(CacheAction::Thrash),
        4 => Just(CacheAction::Step),
        1 => (0usize..4, pow2(5), 0usize..6, pow2(9)).prop_map(|(level, sets, ways, line)| {
            CacheAction::SetGeometry { level, sets, ways, line }
        }),
        1 => (0usize..4, policy()).prop_map(|(level, policy)| CacheAction::SetPolicy { level, policy }),
        1 => (0usize..5, 0u32..12_000).prop_map(|(level, cycles)| CacheAction::SetLatency { level, cycles }),
        1 => prop_oneof![Just(Preset::Small), Just(Preset::Server)].prop_map(CacheAction::UsePreset),
    ]
}

// ---- locality ----

fn locality_config() -> impl Strategy<Value = LocalityConfig> {
    (
        6u32..=9,
        0u32..5,
        1u32..4,
        pow2(2),
        1usize..4,
        policy(),
        any::<u64>(),
    )
        .prop_map(
            |(n_log, stride_log, cols_log, sets, ways, policy, seed)| LocalityConfig {
                elements: 1 << n_log,
                stride: 1 << stride_log,
                cols: 1 << cols_log,
                sets,
                ways: if policy == Policy::Plru { 2 } else { ways },
                line: 64,
                policy,
                seed,
            },
        )
}

fn walk() -> impl Strategy<Value = Walk> {
    prop::sample::select(Walk::ALL.to_vec())
}

fn locality_action() -> impl Strategy<Value = LocalityAction> {
    prop_oneof![
        8 => Just(LocalityAction::Step),
        2 => walk().prop_map(LocalityAction::Select),
        1 => Just(LocalityAction::RunToEnd),
        1 => Just(LocalityAction::RunAll),
        1 => prop_oneof![pow2(10).prop_map(|v| v as usize), 0usize..5000].prop_map(LocalityAction::SetElements),
        1 => (0usize..300).prop_map(LocalityAction::SetStride),
        1 => (0usize..100).prop_map(LocalityAction::SetColumns),
        1 => (pow2(4), 0usize..6, pow2(9)).prop_map(|(sets, ways, line)| LocalityAction::SetCache { sets, ways, line }),
        1 => policy().prop_map(LocalityAction::SetPolicy),
    ]
}

// ---- TLB ----

fn tlb_config() -> impl Strategy<Value = TlbConfig> {
    (pow2(4), 1usize..5, any::<bool>(), 1usize..6, any::<bool>()).prop_map(
        |(sets, ways, pwc, pwc_entries, huge_pages)| TlbConfig {
            entries: sets as usize * ways,
            ways,
            pwc,
            pwc_entries,
            huge_pages,
            ..TlbConfig::default()
        },
    )
}

/// Addresses that share pages and upper tables, plus wild ones.
fn virtual_address() -> impl Strategy<Value = u64> {
    prop_oneof![
        6 => (0u64..48, 0u64..PAGE).prop_map(|(p, o)| 0x7f00_0000_0000 + p * PAGE + o),
        2 => (0u64..8, 0u64..4).prop_map(|(p, r)| (r << 30) + (p << 21)),
        1 => 0u64..(1 << 47),
        1 => any::<u64>(),
    ]
}

fn tlb_action() -> impl Strategy<Value = TlbAction> {
    prop_oneof![
        6 => virtual_address().prop_map(TlbAction::Access),
        1 => (0usize..70).prop_map(TlbAction::Loop),
        4 => Just(TlbAction::Step),
        1 => (0usize..40, 0usize..6).prop_map(|(entries, ways)| TlbAction::SetTlb { entries, ways }),
        1 => any::<bool>().prop_map(TlbAction::SetPwc),
        1 => any::<bool>().prop_map(TlbAction::SetHugePages),
        1 => (0u32..12_000).prop_map(TlbAction::SetReadCycles),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn cache_hierarchy_obeys_the_laws(config in hierarchy_config(), actions in prop::collection::vec(hierarchy_action(), 0..60)) {
        prop_assert_eq!(check_laws::<CacheHierarchy>(config, &actions), Ok(()));
    }

    #[test]
    fn locality_obeys_the_laws(config in locality_config(), actions in prop::collection::vec(locality_action(), 0..60)) {
        prop_assert_eq!(check_laws::<Locality>(config, &actions), Ok(()));
    }

    #[test]
    fn tlb_obeys_the_laws(config in tlb_config(), actions in prop::collection::vec(tlb_action(), 0..80)) {
        prop_assert_eq!(check_laws::<Tlb>(config, &actions), Ok(()));
    }

    /// The check: per load, the TLB's hit or miss is what the cache
    /// simulator says for a cache of entries/ways sets, page-sized lines, LRU.
    #[test]
    fn tlb_agrees_with_cachesim_as_a_tlb(config in tlb_config(), vas in prop::collection::vec(virtual_address(), 1..200)) {
        let mut m = Tlb::new(&config);
        let line = if config.huge_pages { 2 << 20 } else { PAGE };
        // The TLB of the page size in use: 2 MiB pages have their own.
        let (entries, ways) = config.geometry();
        let spec = LevelSpec::new("TLB", (entries / ways) as u64, ways, line, Policy::Lru);
        let mut sim = Hierarchy::new(vec![spec], 0).unwrap();
        for va in vas.into_iter().filter(|&va| paging::canonical(va)) {
            m.apply(&TlbAction::Access(va)).unwrap();
            let expected = sim.load(va).served == Place::Level(0);
            prop_assert_eq!(m.last().unwrap().tlb_hit, expected);
        }
    }

    /// The page-walk cache only ever removes reads: same hits, never more reads.
    #[test]
    fn page_walk_cache_never_costs_reads(config in tlb_config(), vas in prop::collection::vec(virtual_address(), 1..150)) {
        let run = |pwc| {
            let mut m = Tlb::new(&TlbConfig { pwc, ..config.clone() });
            for &va in &vas {
                let _ = m.apply(&TlbAction::Access(va));
            }
            m.counters
        };
        let (off, on) = (run(false), run(true));
        prop_assert_eq!((off.hits, off.misses), (on.hits, on.misses));
        prop_assert!(on.reads <= off.reads);
        prop_assert_eq!(on.reads + on.reads_saved, off.reads);
    }

    /// Every walk, whatever the locality of earlier loads, ends at the page
    /// the formula maps, and a walk never skips the leaf.
    #[test]
    fn every_translation_is_right(config in tlb_config(), vas in prop::collection::vec(virtual_address(), 1..100)) {
        let mut m = Tlb::new(&config);
        for va in vas.into_iter().filter(|&va| paging::canonical(va)) {
            m.apply(&TlbAction::Access(va)).unwrap();
            let t = m.last().unwrap();
            prop_assert_eq!(t.pa, paging::translate(va, config.huge_pages));
            if !t.tlb_hit {
                let leaf = if config.huge_pages { paging::Table::Pd } else { paging::Table::Pt };
                prop_assert_eq!(t.steps.last().map(|s| s.table), Some(leaf));
            }
        }
    }

    /// Each walk from a cold cache touches every element once: the totals
    /// cover the array, and no order beats one miss per line.
    #[test]
    fn every_walk_misses_at_least_once_per_line(config in locality_config()) {
        let lines = (config.elements as u64 * 8).div_ceil(config.line);
        for walk in Walk::ALL {
            let t = config.totals(walk);
            prop_assert_eq!(t.hits + t.misses, config.elements as u64);
            prop_assert!(t.misses >= lines);
        }
        prop_assert_eq!(config.totals(Walk::Sequential).misses, lines);
    }

    /// Reconfiguring the hierarchy replays the trace: the result equals a
    /// fresh model given the new configuration and the same accesses.
    #[test]
    fn hierarchy_replay_equals_a_fresh_run(addrs in prop::collection::vec(0u64..0x4000, 1..60), ways in 1usize..5) {
        let mut m = CacheHierarchy::new(&CacheHierarchyConfig::default());
        for &a in &addrs {
            m.apply(&CacheAction::Load(a)).unwrap();
        }
        let _ = m.apply(&CacheAction::SetGeometry { level: 0, sets: 2, ways, line: 64 });
        let mut fresh = CacheHierarchy::new(&m.config);
        for &a in &addrs {
            fresh.apply(&CacheAction::Load(a)).unwrap();
        }
        prop_assert_eq!(&m.sim, &fresh.sim);
    }

    #[test]
    fn hostile_links_never_panic(text in "v1\\.[A-Za-z0-9_-]{0,300}") {
        if let Ok(s) = Scenario::<CacheHierarchy>::decode(&text) {
            let _ = Timeline::<CacheHierarchy>::from_scenario(&s);
        }
        if let Ok(s) = Scenario::<Locality>::decode(&text) {
            let _ = Timeline::<Locality>::from_scenario(&s);
        }
        if let Ok(s) = Scenario::<Tlb>::decode(&text) {
            let _ = Timeline::<Tlb>::from_scenario(&s);
        }
    }
}

// ---- one latency table ----

#[test]
fn mesi_the_hierarchy_and_locality_read_one_latency_table() {
    // Issue 30: MESI charged 4 cycles for a hit and 200 for memory while the
    // hierarchy and locality demos charged 5 and 350.
    use demos::coherence::Costs;
    use demos::cpu::latency;
    let costs = Costs::default();
    let server = CacheHierarchyConfig::preset(Preset::Server);
    let l1 = server.levels[0].latency;
    let to_dram: u32 = server.levels.iter().map(|l| l.latency).sum::<u32>() + server.dram_latency;
    let cold = LocalityConfig::default().cold_cache();
    let locality_dram = cold.levels[0].spec.latency + cold.memory_latency;
    assert_eq!(
        (costs.hit, l1, cold.levels[0].spec.latency),
        (latency::L1_HIT, latency::L1_HIT, latency::L1_HIT)
    );
    assert_eq!(
        (costs.memory, to_dram, locality_dram),
        (latency::DRAM, latency::DRAM, latency::DRAM)
    );
    assert_eq!(costs.cache_to_cache, latency::PEER_MODIFIED);
}
