//! One message, end to end: the laws over random toggles, breaks, message
//! sizes and steps; the total is always the sum of the stages on the path;
//! and the walk's clock ends at the total.

use demos::journey::{
    Fault, Journey, JourneyAction, JourneyConfig, StageId, Technique, MESSAGE, MSSES,
};
use demos::laws::check_laws;
use demos::nic::cut_through::WIRE_RATES;
use demos::Model;
use proptest::prelude::*;

fn action() -> impl Strategy<Value = JourneyAction> {
    prop_oneof![
        4 => Just(JourneyAction::Step),
        1 => Just(JourneyAction::Again),
        4 => (prop::sample::select(Technique::ALL.to_vec()), any::<bool>())
            .prop_map(|(t, on)| JourneyAction::Use(t, on)),
        2 => (prop::sample::select(Fault::ALL.to_vec()), any::<bool>())
            .prop_map(|(f, on)| JourneyAction::Break(f, on)),
        1 => prop_oneof![
            prop::sample::select(vec![1usize, 64, 256, 1_024]),
            0usize..=MESSAGE.max + 2,
        ]
        .prop_map(JourneyAction::SetMessage),
        1 => prop_oneof![prop::sample::select(MSSES.to_vec()), 0u16..=9_100]
            .prop_map(JourneyAction::SetMss),
        1 => prop_oneof![prop::sample::select(WIRE_RATES.to_vec()), 0u32..=200]
            .prop_map(JourneyAction::SetLine),
    ]
}

fn config() -> impl Strategy<Value = JourneyConfig> {
    (
        MESSAGE.min..=MESSAGE.max,
        prop::sample::select(vec![256u16, 536, 1_460, 9_000]),
        prop::sample::select(WIRE_RATES.to_vec()),
        1usize..=4,
        prop::sample::select(vec![0u32, 10, 30]),
        prop::sample::select(vec![1u32, 32]),
    )
        .prop_map(
            |(message_bytes, mss, line_gbps, switch_threshold, rx_usecs, rx_frames)| {
                let mut c = JourneyConfig {
                    message_bytes,
                    mss,
                    line_gbps,
                    switch_threshold,
                    ..JourneyConfig::default()
                };
                c.coalescing.rx_usecs = rx_usecs;
                c.coalescing.rx_frames = rx_frames;
                c
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn the_journey_obeys_the_laws(
        config in config(),
        actions in prop::collection::vec(action(), 0..16),
    ) {
        let checked = check_laws::<Journey>(config, &actions);
        prop_assert!(checked.is_ok(), "{:?}", checked);
    }

    /// Whatever is switched on, the total is the plain sum of the stages on
    /// the path, every stage on it is a known one, and walking the message
    /// ends with the clock at the total.
    #[test]
    fn the_total_is_the_sum_and_the_walk_ends_there(
        config in config(),
        actions in prop::collection::vec(action(), 0..10),
    ) {
        prop_assume!(Journey::validate(&config).is_ok());
        let mut j = Journey::new(&config);
        for a in &actions {
            let _ = j.apply(a);
        }
        let path = j.path();
        let sum: u64 = path.on_path().map(|s| s.ns).sum();
        prop_assert_eq!(sum, path.total_ns);
        prop_assert!(path.on_path().all(|s| StageId::ALL.contains(&s.id)));
        let _ = j.apply(&JourneyAction::Again);
        let mut clock = 0;
        while j.next_auto().is_ok() {
            let stage = path.on_path().nth(j.passed).expect("a stage ahead");
            clock += stage.ns;
            j.apply(&JourneyAction::Step).unwrap();
        }
        prop_assert_eq!(clock, path.total_ns);
    }
}
