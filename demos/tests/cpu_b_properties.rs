//! Property tests for branch prediction, NUMA and batching: the laws every
//! model obeys over random settings and action sequences (out-of-range ones
//! included), plus each demo's own claims.

use demos::cpu::batching::{BatchAction, BatchConfig, Batching, RunEnd, CURVE_SIZES};
use demos::cpu::branch::{
    count_mispredicts, Branch, BranchAction, BranchConfig, Data, Pattern, Predictor, PredictorKind,
};
use demos::cpu::cachesim::{Hierarchy, LevelSpec, Place, Policy as Replacement};
use demos::cpu::numa::{Numa, NumaAction, NumaConfig, Order, Policy};
use demos::cpu::tlb::{forecast::LoopForecast, paging, Tlb, TlbAction, TlbConfig, PAGE};
use demos::laws::check_laws;
use demos::{Model, Scenario, Timeline};
use proptest::prelude::*;

fn data() -> impl Strategy<Value = Data> {
    prop_oneof![
        Just(Data::Sorted),
        Just(Data::Shuffled),
        (0u8..=110).prop_map(Data::Predictable),
        (0u8..=18, any::<u16>()).prop_map(|(len, bits)| Data::Pattern(Pattern { len, bits })),
    ]
}

fn predictor() -> impl Strategy<Value = PredictorKind> {
    prop::sample::select(PredictorKind::ALL.to_vec())
}

fn branch_config() -> impl Strategy<Value = BranchConfig> {
    (
        data(),
        8usize..=1100,
        predictor(),
        0u8..=9,
        0u8..=9,
        0u32..=55,
        0u32..=9,
        any::<u64>(),
    )
        .prop_map(
            |(data, length, predictor, index_bits, history_bits, penalty, base_cycles, seed)| {
                BranchConfig {
                    data,
                    length,
                    predictor,
                    index_bits,
                    history_bits,
                    penalty,
                    base_cycles,
                    seed,
                }
            },
        )
}

/// Only in-range settings.
fn valid_branch_config() -> impl Strategy<Value = BranchConfig> {
    let data = prop_oneof![
        Just(Data::Sorted),
        Just(Data::Shuffled),
        (0u8..=100).prop_map(Data::Predictable),
        (2u8..=16, any::<u16>()).prop_map(|(len, bits)| Data::Pattern(Pattern {
            len,
            bits: bits & ((1u32 << len) - 1) as u16
        })),
    ];
    (
        data,
        16usize..=1024,
        predictor(),
        1u8..=8,
        1u32..=50,
        1u32..=8,
        any::<u64>(),
    )
        .prop_map(
            |(data, length, predictor, index_bits, penalty, base_cycles, seed)| BranchConfig {
                data,
                length,
                predictor,
                index_bits,
                history_bits: index_bits / 2,
                penalty,
                base_cycles,
                seed,
            },
        )
}

fn branch_action() -> impl Strategy<Value = BranchAction> {
    prop_oneof![
        6 => Just(BranchAction::Step),
        2 => (0usize..300).prop_map(BranchAction::Run),
        1 => Just(BranchAction::Finish),
        1 => data().prop_map(BranchAction::SetData),
        1 => predictor().prop_map(BranchAction::SetPredictor),
        1 => (0u8..=9).prop_map(BranchAction::SetIndexBits),
        1 => (0u8..=9).prop_map(BranchAction::SetHistory),
        1 => (0u32..=55).prop_map(BranchAction::SetPenalty),
        1 => (0u32..=9).prop_map(BranchAction::SetBaseCycles),
        1 => (0usize..=1100).prop_map(BranchAction::SetLength),
        1 => Just(BranchAction::BreakIt),
    ]
}

fn policy() -> impl Strategy<Value = Policy> {
    prop_oneof![
        Just(Policy::FirstTouch),
        Just(Policy::Interleave),
        (0u8..5).prop_map(Policy::Bind),
    ]
}

fn numa_config() -> impl Strategy<Value = NumaConfig> {
    (
        prop_oneof![Just(2u8), Just(4u8), Just(3u8)],
        0usize..=70,
        0usize..=600,
        any::<bool>(),
        policy(),
        0u8..5,
        0u32..=70,
        0u32..=40,
        (0u32..=400, 0u32..=400, 0u32..=300, 0u32..=300),
        any::<bool>(),
        any::<u64>(),
    )
        .prop_map(
            |(
                sockets,
                pages,
                accesses,
                random,
                policy,
                start,
                in_flight,
                fill_buffers,
                costs,
                brk,
                seed,
            )| {
                NumaConfig {
                    sockets,
                    pages,
                    accesses,
                    order: if random {
                        Order::Random
                    } else {
                        Order::Sequential
                    },
                    policy,
                    start_socket: start,
                    in_flight,
                    fill_buffers,
                    local_ns: costs.0,
                    hop_ns: costs.1,
                    local_gbs: costs.2,
                    link_gbs: costs.3,
                    migrate_after_touch: brk,
                    seed,
                }
            },
        )
}

fn numa_action() -> impl Strategy<Value = NumaAction> {
    prop_oneof![
        6 => Just(NumaAction::Access),
        2 => (0usize..200).prop_map(NumaAction::Run),
        1 => Just(NumaAction::Finish),
        2 => (0u8..5).prop_map(NumaAction::Migrate),
        1 => policy().prop_map(NumaAction::SetPolicy),
        1 => any::<bool>().prop_map(NumaAction::SetBreakIt),
        1 => (1u8..6).prop_map(NumaAction::SetSockets),
        1 => prop_oneof![Just(Order::Sequential), Just(Order::Random)].prop_map(NumaAction::SetOrder),
        1 => (0u32..70).prop_map(NumaAction::SetInFlight),
        1 => Just(NumaAction::Restart),
    ]
}

fn batch_config() -> impl Strategy<Value = BatchConfig> {
    (
        0u32..=260,
        prop_oneof![Just(0u32), 0u32..=60_000, Just(1_000_001)],
        0u32..=5_000,
        0u32..=600,
        0u32..=30_000,
        any::<bool>(),
        0u32..=400,
        any::<u64>(),
    )
        .prop_map(
            |(batch, timeout_ns, fixed_ns, per_item_ns, gap_ns, poisson, items, seed)| {
                BatchConfig {
                    batch,
                    timeout_ns,
                    fixed_ns,
                    per_item_ns,
                    gap_ns,
                    poisson,
                    items,
                    seed,
                }
            },
        )
}

/// Only in-range settings, with a flush timer.
fn valid_timed_batch_config() -> impl Strategy<Value = BatchConfig> {
    (
        1u32..=256,
        1u32..=60_000,
        1u32..=5_000,
        0u32..=600,
        1u32..=30_000,
        any::<bool>(),
        1u32..=400,
        any::<u64>(),
    )
        .prop_map(
            |(batch, timeout_ns, fixed_ns, per_item_ns, gap_ns, poisson, items, seed)| {
                BatchConfig {
                    batch,
                    timeout_ns,
                    fixed_ns,
                    per_item_ns,
                    gap_ns,
                    poisson,
                    items,
                    seed,
                }
            },
        )
}

fn batch_action() -> impl Strategy<Value = BatchAction> {
    prop_oneof![
        8 => Just(BatchAction::Step),
        1 => Just(BatchAction::Finish),
        1 => (0u32..=260).prop_map(BatchAction::SetBatch),
        1 => prop_oneof![Just(0u32), 0u32..=1_000_100].prop_map(BatchAction::SetTimeout),
        1 => (0u32..=100_100).prop_map(BatchAction::SetFixed),
        1 => (0u32..=10_100).prop_map(BatchAction::SetPerItem),
        1 => (0u32..=100_100).prop_map(BatchAction::SetGap),
        1 => any::<bool>().prop_map(BatchAction::SetPoisson),
        1 => (0u32..=1100).prop_map(BatchAction::SetItems),
        1 => Just(BatchAction::BreakIt),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn branch_obeys_the_laws(config in branch_config(), actions in prop::collection::vec(branch_action(), 0..80)) {
        prop_assert_eq!(check_laws::<Branch>(config, &actions), Ok(()));
    }

    #[test]
    fn numa_obeys_the_laws(config in numa_config(), actions in prop::collection::vec(numa_action(), 0..80)) {
        prop_assert_eq!(check_laws::<Numa>(config, &actions), Ok(()));
    }

    #[test]
    fn batching_obeys_the_laws(config in batch_config(), actions in prop::collection::vec(batch_action(), 0..80)) {
        prop_assert_eq!(check_laws::<Batching>(config, &actions), Ok(()));
    }

    #[test]
    fn gshare_with_history_at_least_the_period_learns_it_to_zero(
        len in 2u8..=8, bits in any::<u16>(), extra in 0u8..=3,
    ) {
        let pattern = Pattern { len, bits: bits & ((1 << len) - 1) };
        let history = (len + extra).min(8);
        let mut p = Predictor::new(PredictorKind::Gshare, 8, history);
        let period = usize::from(len);
        // Warm-up: every history seen twice; afterwards, nothing is missed.
        for i in 0..period * 12 {
            p.resolve(pattern.taken_at(i));
        }
        for i in period * 12..period * 40 {
            let t = pattern.taken_at(i);
            prop_assert_eq!(p.resolve(t).predicted, t, "{} at {}", pattern.text(), i);
        }
    }

    #[test]
    fn always_taken_misses_exactly_the_not_taken_branches(config in valid_branch_config()) {
        prop_assert_eq!(Branch::validate(&config), Ok(()));
        let m = Branch::new(&config);
        let not_taken = m.values.iter().filter(|&&v| v < 128).count() as u32;
        let outcomes = m.values.iter().map(|&v| v >= 128);
        prop_assert_eq!(count_mispredicts(PredictorKind::AlwaysTaken, 1, 0, outcomes), not_taken);
    }

    #[test]
    fn branch_cycles_are_base_plus_penalty_per_mispredict(config in valid_branch_config(), run in 1usize..1024) {
        let mut m = Branch::new(&config);
        let _ = m.apply(&BranchAction::Run(run.min(m.values.len())));
        prop_assert!(m.mispredicts as usize <= m.next);
        prop_assert_eq!(
            m.cycles(),
            m.next as u64 * u64::from(config.base_cycles) + u64::from(m.mispredicts) * u64::from(config.penalty)
        );
    }

    #[test]
    fn numa_average_latency_lies_between_local_and_worst_remote(
        config in numa_config(), actions in prop::collection::vec(numa_action(), 1..60),
    ) {
        let mut t = Timeline::<Numa>::new(config);
        for a in actions {
            let _ = t.apply(a);
            let m = t.model();
            if m.done > 0 {
                let avg_tenths = m.avg_latency_tenths();
                prop_assert!(avg_tenths >= i64::from(m.config.local_ns) * 10);
                prop_assert!(avg_tenths <= i64::from(m.worst_latency_ns()) * 10);
            }
        }
    }

    #[test]
    fn numa_first_touch_without_migration_is_all_local(
        config in numa_config(), runs in prop::collection::vec(1usize..100, 1..8),
    ) {
        let config = NumaConfig { policy: Policy::FirstTouch, migrate_after_touch: false, ..config };
        let mut t = Timeline::<Numa>::new(config);
        for n in runs {
            let _ = t.apply(NumaAction::Run(n));
            let _ = t.apply(NumaAction::Access);
        }
        prop_assert_eq!(t.model().remote, 0);
        prop_assert!(t.model().link_bytes.iter().all(|&b| b == 0));
    }

    /// Little's law per core: however many misses the code offers, one
    /// thread pulls at most fill buffers × 64 B per local latency.
    #[test]
    fn numa_one_thread_never_beats_its_fill_buffers(config in numa_config()) {
        let config = NumaConfig {
            sockets: 2,
            pages: config.pages.clamp(1, 64),
            accesses: config.accesses.clamp(1, 600),
            start_socket: 0,
            policy: Policy::FirstTouch,
            in_flight: config.in_flight.clamp(1, 64),
            fill_buffers: config.fill_buffers.clamp(1, 32),
            local_ns: config.local_ns.clamp(1, 400),
            hop_ns: config.hop_ns.clamp(1, 400),
            local_gbs: config.local_gbs.clamp(1, 300),
            link_gbs: config.link_gbs.clamp(1, 300),
            ..config
        };
        prop_assert_eq!(Numa::validate(&config), Ok(()));
        let mut m = Numa::new(&config);
        m.apply(&NumaAction::Finish).unwrap();
        let k = u64::from(config.in_flight.min(config.fill_buffers));
        // bandwidth (tenths of GB/s) <= k × 64 B / local latency, to a tenth.
        let ceiling = (k * 64 * 10).div_ceil(u64::from(config.local_ns)) as i64;
        prop_assert!(m.bandwidth_tenths() <= ceiling + 1, "{} > {}", m.bandwidth_tenths(), ceiling);
        prop_assert!(m.bandwidth_tenths() <= i64::from(config.local_gbs) * 10 + 1);
    }

    /// Each page size has its own TLB: per load, hit or miss is what the
    /// cache simulator says for the geometry of the page size in use.
    #[test]
    fn tlb_agrees_with_cachesim_for_the_page_size_in_use(
        sets in prop::sample::select(vec![1usize, 2, 4, 8]), ways in 1usize..5,
        huge_sets in prop::sample::select(vec![1usize, 2, 4]), huge_ways in 1usize..5,
        huge_pages in any::<bool>(),
        vas in prop::collection::vec((0u64..48, 0u64..32, 0u64..PAGE), 1..150),
    ) {
        let config = TlbConfig {
            entries: sets * ways, ways, huge_entries: huge_sets * huge_ways, huge_ways, huge_pages,
            ..TlbConfig::default()
        };
        let mut m = Tlb::new(&config);
        let (entries, ways) = config.geometry();
        let line = if huge_pages { 2 << 20 } else { PAGE };
        let spec = LevelSpec::new("TLB", (entries / ways) as u64, ways, line, Replacement::Lru);
        let mut sim = Hierarchy::new(vec![spec], 0).unwrap();
        for (page, huge, offset) in vas {
            let va = 0x7f00_0000_0000 + huge * (2 << 20) + page * PAGE + offset;
            prop_assert!(paging::canonical(va));
            m.apply(&TlbAction::Access(va)).unwrap();
            prop_assert_eq!(m.last().unwrap().tlb_hit, sim.load(va).served == Place::Level(0));
            prop_assert_eq!(m.last().unwrap().cycles == 0, m.last().unwrap().tlb_hit);
        }
    }

    /// The loop narration's forecast is what the simulator does in rounds 2
    /// and 3, for any geometry, page size and loop length.
    #[test]
    fn tlb_loop_forecast_matches_the_simulator(
        sets in prop::sample::select(vec![1usize, 2, 4, 8]), ways in 1usize..9,
        huge_pages in any::<bool>(), pages in 1usize..=64,
    ) {
        let config = TlbConfig {
            entries: sets * ways, ways, huge_entries: sets * ways, huge_ways: ways, huge_pages,
            ..TlbConfig::default()
        };
        let f = LoopForecast::new(&config, pages);
        let mut m = Tlb::new(&config);
        m.apply(&TlbAction::Loop(pages)).unwrap();
        for _ in 0..pages {
            m.apply(&TlbAction::Step).unwrap();
        }
        let first = m.counters.hits;
        while m.apply(&TlbAction::Step).is_ok() {}
        prop_assert_eq!((m.counters.hits - first) as usize, f.later_hits());
    }

    #[test]
    fn batching_with_a_timer_finishes_every_item_and_caps_the_fill_wait(config in valid_timed_batch_config()) {
        prop_assert_eq!(Batching::validate(&config), Ok(()));
        let mut m = Batching::new(&config);
        let _ = m.apply(&BatchAction::Finish);
        prop_assert_eq!(m.latencies.len() as u32, config.items);
        prop_assert!(m.max_fill_wait <= u64::from(config.timeout_ns));
        let floor = u64::from(config.fixed_ns) + u64::from(config.per_item_ns);
        prop_assert!(m.latencies.iter().all(|&l| u64::from(l) >= floor));
    }

    #[test]
    fn batching_sweep_and_run_end_agree_with_running_the_engine(
        config in valid_timed_batch_config(), no_timer in any::<bool>(), tight in any::<bool>(),
    ) {
        // Without a timer, batches that never fill; with tight gaps, the
        // consumer falls behind and batches queue.
        let config = BatchConfig {
            timeout_ns: if no_timer { 0 } else { config.timeout_ns },
            gap_ns: if tight { config.gap_ns % 400 + 1 } else { config.gap_ns },
            ..config
        };
        let model = Batching::new(&config);
        let end = model.finished();
        prop_assert_eq!(model.run_end(), RunEnd { batches: end.batches_left, at_ns: end.now });
        let sweep = model.sweep();
        prop_assert_eq!(sweep.len(), CURVE_SIZES.len());
        for (point, &batch) in sweep.iter().zip(CURVE_SIZES.iter()) {
            let mut run = Batching::new(&BatchConfig { batch, ..config.clone() });
            let _ = run.apply(&BatchAction::Finish);
            prop_assert_eq!(point.batch, batch);
            prop_assert_eq!(point.done as usize, run.latencies.len());
            prop_assert_eq!(point.mean_ns, run.mean_latency_ns());
            prop_assert_eq!(point.p99_ns, run.p99_latency_ns());
            prop_assert_eq!(point.first_wait_ns, run.max_fill_wait);
        }
    }

    #[test]
    fn batching_even_arrivals_without_a_timer_wait_b_minus_1_over_2_lambda(
        batch in 1u32..=64, gap in 1u32..=5_000, batches in 1u32..=8, fixed in 1u32..=3_000,
    ) {
        let config = BatchConfig {
            batch, timeout_ns: 0, gap_ns: gap, poisson: false, items: batch * batches,
            fixed_ns: fixed, ..BatchConfig::default()
        };
        let mut m = Batching::new(&config);
        let _ = m.apply(&BatchAction::Finish);
        prop_assert_eq!(m.latencies.len() as u32, config.items);
        // Sum over one batch of (B − 1 − k) gaps = B (B − 1) / 2 gaps.
        let per_batch = u64::from(batch) * u64::from(batch - 1) / 2 * u64::from(gap);
        prop_assert_eq!(m.fill_wait_sum, per_batch * u64::from(batches));
    }

    #[test]
    fn pattern_text_never_panics_and_valid_patterns_round_trip(text in ".{0,40}", len in 2u8..=16, bits in any::<u16>()) {
        if let Ok(p) = Pattern::parse(&text) {
            prop_assert!(p.is_valid());
        }
        let p = Pattern { len, bits: bits & ((1u32 << len) - 1) as u16 };
        prop_assert_eq!(Pattern::parse(&p.text()), Ok(p));
    }

    #[test]
    fn hostile_scenario_text_never_panics(text in ".{0,400}") {
        let _ = Scenario::<Branch>::decode(&text);
        let _ = Scenario::<Numa>::decode(&text);
        let _ = Scenario::<Batching>::decode(&text);
    }

    #[test]
    fn hostile_scenario_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        use base64::Engine;
        let text = format!("v1.{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&bytes));
        if let Ok(s) = Scenario::<Branch>::decode(&text) {
            let _ = Timeline::<Branch>::from_scenario(&s);
        }
        if let Ok(s) = Scenario::<Numa>::decode(&text) {
            let _ = Timeline::<Numa>::from_scenario(&s);
        }
        if let Ok(s) = Scenario::<Batching>::decode(&text) {
            let _ = Timeline::<Batching>::from_scenario(&s);
        }
    }
}

#[test]
fn default_configs_are_valid() {
    assert!(Branch::validate(&BranchConfig::default()).is_ok());
    assert!(Numa::validate(&NumaConfig::default()).is_ok());
    assert!(Batching::validate(&BatchConfig::default()).is_ok());
}
