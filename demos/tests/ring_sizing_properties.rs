//! Property tests for ring sizing: the demo's laws over random settings and
//! actions, and the model's own: the smallest ring is the first that drops
//! nothing, the largest the last that fits, a deeper ring never drops more,
//! and a footprint that fits never leaks.

use demos::host::ring_sizing::ddio::{footprint, DDIO_WAYS, LLC_KIB, LLC_WAYS};
use demos::host::ring_sizing::ring::{ENTRIES, MULTIPLE};
use demos::host::ring_sizing::sizing::{Largest, Smallest};
use demos::host::ring_sizing::wire::{PAYLOAD, RATES};
use demos::host::ring_sizing::{
    RingSizing, RingSizingAction, RingSizingConfig, CORE_NS, QUEUES, STALL_US,
};
use demos::laws::check_laws;
use demos::{Model, Scenario, Timeline};
use proptest::prelude::*;

fn entries() -> impl Strategy<Value = u32> {
    (ENTRIES.min / MULTIPLE..=ENTRIES.max / MULTIPLE).prop_map(|k| k * MULTIPLE)
}

fn config() -> impl Strategy<Value = RingSizingConfig> {
    (
        prop::sample::select(RATES.to_vec()),
        prop_oneof![PAYLOAD.min..=PAYLOAD.max, Just(PAYLOAD.max)],
        prop_oneof![1u32..=4, QUEUES.min..=QUEUES.max],
        entries(),
        prop_oneof![20u32..=400, CORE_NS.min..=CORE_NS.max],
        prop_oneof![0u32..=300, STALL_US.min..=STALL_US.max],
        prop_oneof![Just(25_344u32), LLC_KIB.min..=LLC_KIB.max],
        (LLC_WAYS.min..=LLC_WAYS.max),
        (DDIO_WAYS.min..=DDIO_WAYS.max),
    )
        .prop_map(
            |(rate_gbps, payload, queues, entries, core_ns, stall_us, llc_kib, llc_ways, ddio)| {
                RingSizingConfig {
                    rate_gbps,
                    payload,
                    queues,
                    entries,
                    core_ns,
                    stall_us,
                    llc_kib,
                    llc_ways,
                    ddio_ways: ddio.min(llc_ways),
                }
            },
        )
}

fn action() -> impl Strategy<Value = RingSizingAction> {
    use RingSizingAction as A;
    prop_oneof![
        8 => Just(A::Step),
        1 => Just(A::Finish),
        1 => (0u32..120).prop_map(A::SetRate),
        1 => (0u32..1_600).prop_map(A::SetPayload),
        1 => (0u32..70).prop_map(A::SetQueues),
        2 => (0u32..9_000).prop_map(A::SetEntries),
        1 => (0u32..5_500).prop_map(A::SetCoreNs),
        2 => (0u32..2_200).prop_map(A::SetStall),
        1 => (0u32..600_000).prop_map(A::SetLlcKib),
        1 => (0u32..24).prop_map(A::SetLlcWays),
        1 => (0u32..24).prop_map(A::SetDdioWays),
    ]
}

/// The whole run of `config`.
fn run(config: &RingSizingConfig) -> RingSizing {
    let mut m = RingSizing::new(config);
    let _ = m.apply(&RingSizingAction::Finish);
    m
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn the_demo_obeys_the_laws(config in config(), actions in prop::collection::vec(action(), 0..40)) {
        prop_assert_eq!(check_laws::<RingSizing>(config, &actions), Ok(()));
    }

    /// The smallest ring drops nothing in the run; one multiple fewer
    /// entries drops. Without one, the core is too slow or the driver's
    /// largest ring too small.
    #[test]
    fn the_smallest_ring_is_the_first_that_drops_nothing(config in config()) {
        let m = RingSizing::new(&config);
        match m.smallest() {
            Smallest::Ring(n) => {
                prop_assert_eq!(run(&RingSizingConfig { entries: n, ..config.clone() }).run.dropped, 0);
                if n > ENTRIES.min {
                    let fewer = RingSizingConfig { entries: n - MULTIPLE, ..config.clone() };
                    prop_assert!(run(&fewer).run.dropped > 0);
                }
            }
            Smallest::BeyondDriver { .. } => {
                let most = RingSizingConfig { entries: ENTRIES.max, ..config.clone() };
                prop_assert!(run(&most).run.dropped > 0);
            }
            Smallest::CoreTooSlow => {
                let done = run(&config);
                prop_assert!(done.run.dropped > 0 || done.run.held > 0);
            }
        }
    }

    /// The largest ring fits the DDIO ways and the next size does not.
    #[test]
    fn the_largest_ring_is_the_last_that_fits(config in config()) {
        let m = RingSizing::new(&config);
        let ddio = m.ddio_bytes();
        match m.largest() {
            Largest::Ring(n) => {
                prop_assert!(footprint(config.queues, n, config.payload) <= ddio);
                if n < ENTRIES.max {
                    prop_assert!(footprint(config.queues, n + MULTIPLE, config.payload) > ddio);
                }
            }
            Largest::NoneFits => {
                prop_assert!(footprint(config.queues, ENTRIES.min, config.payload) > ddio);
            }
        }
    }

    /// A deeper ring never drops more; a footprint that fits never leaks.
    #[test]
    fn a_deeper_ring_never_drops_more(config in config(), more in 1u32..=8) {
        let deeper = (config.entries + more * MULTIPLE).min(ENTRIES.max);
        let a = run(&config);
        let b = run(&RingSizingConfig { entries: deeper, ..config.clone() });
        prop_assert!(b.run.dropped <= a.run.dropped);
        if a.footprint() <= a.ddio_bytes() {
            prop_assert_eq!(a.run.from_dram, 0);
        }
    }

    #[test]
    fn hostile_links_never_panic(text in ".{0,300}", bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        use base64::Engine;
        let _ = Scenario::<RingSizing>::decode(&text);
        let encoded = format!("v1.{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&bytes));
        if let Ok(s) = Scenario::<RingSizing>::decode(&encoded) {
            let _ = Timeline::<RingSizing>::from_scenario(&s);
        }
    }
}
