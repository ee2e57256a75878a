//! Property tests: random action sequences against the laws every model obeys
//! (see `demos::laws`) and each model's own invariants.

use demos::laws::check_laws;
use demos::nic::descriptor_ring::{DescriptorRing, Direction, RingAction, RingConfig};
use demos::nic::napi::{Napi, NapiAction, NapiConfig};
use demos::{Model, Scenario, Timeline};
use proptest::prelude::*;

fn ring_action(allow_break: bool) -> impl Strategy<Value = RingAction> {
    let skip = if allow_break {
        prop_oneof![
            Just(RingAction::SetRelaxedDoorbell(true)),
            Just(RingAction::SetRelaxedDoorbell(false)),
            Just(RingAction::SetSkipRmb(true)),
            Just(RingAction::SetSkipRmb(false)),
        ]
        .boxed()
    } else {
        Just(RingAction::SetRelaxedDoorbell(false)).boxed()
    };
    prop_oneof![
        4 => Just(RingAction::Post),
        1 => Just(RingAction::Barrier),
        3 => Just(RingAction::Doorbell),
        2 => Just(RingAction::Reap),
        2 => Just(RingAction::FrameArrives),
        3 => Just(RingAction::NicFetch),
        3 => Just(RingAction::NicDma),
        3 => Just(RingAction::NicWriteBack),
        1 => skip,
    ]
}

fn ring_config() -> impl Strategy<Value = RingConfig> {
    (
        prop_oneof![Just(Direction::Rx), Just(Direction::Tx)],
        any::<u64>(),
        prop::sample::select(vec![1u8, 4]),
    )
        .prop_map(|(direction, seed, rs_every)| RingConfig {
            direction,
            seed,
            rs_every,
        })
}

fn napi_action() -> impl Strategy<Value = NapiAction> {
    prop_oneof![
        (0usize..70).prop_map(NapiAction::Burst),
        Just(NapiAction::Poll),
        Just(NapiAction::Poll),
        Just(NapiAction::TimerFires),
        (0usize..70).prop_map(NapiAction::SetBudget),
    ]
}

fn napi_config() -> impl Strategy<Value = NapiConfig> {
    (
        4usize..=64,
        1usize..=64,
        0u32..=10,
        prop_oneof![Just(0u32), 1u32..=1000],
        prop::bool::weighted(0.25),
    )
        .prop_map(
            |(ring_size, budget, defer_hard_irqs, gro_flush_timeout_us, never_unmasks)| {
                NapiConfig {
                    ring_size,
                    budget,
                    defer_hard_irqs,
                    gro_flush_timeout_us,
                    never_unmasks,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn ring_obeys_the_laws(config in ring_config(), actions in prop::collection::vec(ring_action(true), 0..120)) {
        prop_assert_eq!(check_laws::<DescriptorRing>(config, &actions), Ok(()));
    }

    #[test]
    fn ring_with_writel_and_dma_rmb_never_corrupts(config in ring_config(), actions in prop::collection::vec(ring_action(false), 0..160)) {
        let mut timeline = Timeline::<DescriptorRing>::new(config);
        for action in actions {
            let _ = timeline.apply(action);
            let _ = timeline.step();
        }
        prop_assert!(timeline.model().damage.is_empty());
    }

    #[test]
    fn napi_obeys_the_laws(config in napi_config(), actions in prop::collection::vec(napi_action(), 0..120)) {
        prop_assert_eq!(check_laws::<Napi>(config, &actions), Ok(()));
    }

    #[test]
    fn napi_every_packet_is_processed_or_dropped_once_drained(config in napi_config(), bursts in prop::collection::vec(1usize..=64, 1..20)) {
        let config = NapiConfig { never_unmasks: false, ..config };
        let mut timeline = Timeline::<Napi>::new(config);
        for n in &bursts {
            timeline.apply(NapiAction::Burst(*n)).unwrap();
        }
        while timeline.step().is_ok() {}
        let m = timeline.model();
        prop_assert_eq!(m.occupancy, 0);
        prop_assert_eq!(m.processed + m.dropped, bursts.iter().sum::<usize>() as u64);
        // Exactly one: the first burst finds the line armed, and every later
        // one lands while it is masked (no poll runs between the bursts).
        prop_assert_eq!(m.hard_irqs, 1);
    }

    #[test]
    fn napi_a_driver_that_never_unmasks_processes_nothing_after_its_first_release(config in napi_config(), actions in prop::collection::vec(napi_action(), 0..120)) {
        let config = NapiConfig { never_unmasks: true, ..config };
        let mut timeline = Timeline::<Napi>::new(config);
        let mut processed_at_release = None;
        for action in actions {
            let _ = timeline.apply(action);
            let _ = timeline.step();
            let m = timeline.model();
            prop_assert!(m.hard_irqs <= 1);
            if m.history.iter().any(|p| p.released) {
                prop_assert!(m.stuck());
                let at = *processed_at_release.get_or_insert(m.processed);
                prop_assert_eq!(m.processed, at, "a poll ran after the release");
            }
        }
    }

    #[test]
    fn hostile_scenario_text_never_panics(text in ".{0,400}") {
        let _ = Scenario::<DescriptorRing>::decode(&text);
        let _ = Scenario::<Napi>::decode(&text);
    }

    #[test]
    fn share_link_base64_agrees_with_the_base64_crate(bytes in prop::collection::vec(any::<u8>(), 0..200), text in "[A-Za-z0-9_=+/-]{0,40}") {
        use base64::Engine;
        let oracle = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        prop_assert_eq!(demos::base64url::encode(&bytes), oracle.encode(&bytes));
        prop_assert_eq!(demos::base64url::decode(&text), oracle.decode(&text).ok());
    }

    #[test]
    fn hostile_scenario_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        use base64::Engine;
        let text = format!("v1.{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&bytes));
        if let Ok(s) = Scenario::<Napi>::decode(&text) {
            let _ = Timeline::<Napi>::from_scenario(&s);
        }
        if let Ok(s) = Scenario::<DescriptorRing>::decode(&text) {
            let _ = Timeline::<DescriptorRing>::from_scenario(&s);
        }
    }
}

#[test]
fn napi_raises_a_hard_irq_only_for_a_burst_that_finds_the_line_armed() {
    let mut t = Timeline::<Napi>::new(NapiConfig::default());
    t.apply(NapiAction::Burst(3)).unwrap();
    assert_eq!(t.model().hard_irqs, 1);
    // Masked: a second burst before the poll raises nothing.
    t.apply(NapiAction::Burst(3)).unwrap();
    assert_eq!(t.model().hard_irqs, 1);
    // Drained and re-armed: the next burst raises the next one.
    while t.step().is_ok() {}
    t.apply(NapiAction::Burst(3)).unwrap();
    assert_eq!(t.model().hard_irqs, 2);
}

#[test]
fn a_refused_step_in_a_link_rejects_the_whole_scenario() {
    let scenario = Scenario::<DescriptorRing> {
        config: RingConfig::default(),
        actions: vec![RingAction::Reap],
    };
    let decoded = Scenario::<DescriptorRing>::decode(&scenario.encode()).unwrap();
    assert!(Timeline::from_scenario(&decoded).is_err());
}

#[test]
fn a_huge_link_is_rejected_before_decoding() {
    let text = format!("v1.{}", "A".repeat(50_000));
    assert!(Scenario::<Napi>::decode(&text).is_err());
}

#[test]
fn an_invalid_config_in_a_link_is_rejected() {
    let scenario = Scenario::<Napi> {
        config: NapiConfig {
            ring_size: 1000,
            ..NapiConfig::default()
        },
        actions: vec![],
    };
    assert!(Timeline::<Napi>::from_scenario(&scenario).is_err());
}

#[test]
fn a_long_run_keeps_a_bounded_history() {
    use demos::timeline::{CHECKPOINTS_KEPT, NARRATION_KEPT, RECENT_KEPT};
    let mut timeline = Timeline::<Napi>::new(NapiConfig::default());
    let mut most_states = 0;
    for i in 0..20_000 {
        let action = if i % 2 == 0 {
            NapiAction::Burst(1 + i % 7)
        } else {
            NapiAction::Poll
        };
        let _ = timeline.apply(action);
        most_states = most_states.max(timeline.kept_states());
        assert!(timeline.narration().len() <= 2 * NARRATION_KEPT);
    }
    assert!(timeline.step_count() > 10_000);
    assert!(
        most_states <= RECENT_KEPT + CHECKPOINTS_KEPT,
        "{most_states}"
    );
    // And the newest line is still the last step's.
    let last = timeline.narration().last().expect("a line");
    assert_eq!(last.step, timeline.step_count());
}

#[test]
fn stepping_back_past_the_snapshot_window_replays_exactly() {
    let mut timeline = Timeline::<Napi>::new(NapiConfig::default());
    let mut states = vec![timeline.model().clone()];
    for i in 0..2_100 {
        let action = if i % 2 == 0 {
            NapiAction::Burst(1 + i % 7)
        } else {
            NapiAction::Poll
        };
        if timeline.apply(action).is_ok() {
            states.push(timeline.model().clone());
        }
    }
    let n = timeline.step_count();
    for k in 1..=n {
        assert!(timeline.back());
        assert_eq!(*timeline.model(), states[n - k]);
    }
    assert_eq!(*timeline.model(), Napi::new(&NapiConfig::default()));
}
