//! Property tests for MMIO write vs read: the laws every model obeys, plus
//! the demo's own timing claims, over random settings and action sequences.

use demos::laws::check_laws;
use demos::nic::mmio::{Mmio, MmioAction, MmioConfig, OpKind, ISSUE, RTT};
use demos::{Model, Scenario, Timeline};
use proptest::prelude::*;

fn action() -> impl Strategy<Value = MmioAction> {
    prop_oneof![
        4 => Just(MmioAction::Advance),
        1 => Just(MmioAction::RunToEnd),
        1 => (0u64..260).prop_map(MmioAction::SetIssue),
        1 => (0u64..2_300).prop_map(MmioAction::SetRoundTrip),
        1 => (0usize..20).prop_map(MmioAction::SetCount),
        1 => (0u64..2_300).prop_map(MmioAction::SetWork),
        1 => any::<bool>().prop_map(MmioAction::SetHotRead),
    ]
}

fn config() -> impl Strategy<Value = MmioConfig> {
    (10u64..=200, 100u64..=2_000, 1usize..=16, 20u64..=2_000).prop_map(
        |(issue_ns, rtt_ns, count, work_ns)| MmioConfig {
            issue_ns,
            rtt_ns,
            count,
            work_ns,
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn mmio_obeys_the_laws(config in config(), actions in prop::collection::vec(action(), 0..80)) {
        prop_assert_eq!(check_laws::<Mmio>(config, &actions), Ok(()));
    }

    #[test]
    fn writes_always_free_the_core_sooner_than_reads(config in config()) {
        let m = Mmio::new(&config);
        prop_assert!(m.writes_core_free() < m.reads_core_free());
        // Strictly: a posted write needs only the one-way trip. With one
        // operation, a write charged the whole round trip would tie.
        prop_assert!(m.last_write_lands() < m.reads_core_free());
        prop_assert!(m.speedup() > 1.0);
        prop_assert!(m.slowdown() > 1.0);
    }

    #[test]
    fn playing_to_the_end_lands_every_write_and_retires_every_read(config in config()) {
        let mut timeline = Timeline::<Mmio>::new(config);
        let mut steps = 0;
        let mut last = 0;
        while timeline.step().is_ok() {
            let m = timeline.model();
            prop_assert!(m.now > last, "the clock must move forward");
            last = m.now;
            steps += 1;
        }
        let m = timeline.model();
        prop_assert_eq!(steps, m.event_times().len());
        prop_assert_eq!(m.now, m.horizon());
        prop_assert_eq!(m.landed(OpKind::Write, m.now), m.count);
        prop_assert_eq!(m.retired_reads(m.now), m.count);
    }

    #[test]
    fn hostile_links_never_panic(text in ".{0,300}", bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        use base64::Engine;
        let _ = Scenario::<Mmio>::decode(&text);
        let encoded = format!("v1.{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&bytes));
        if let Ok(s) = Scenario::<Mmio>::decode(&encoded) {
            let _ = Timeline::<Mmio>::from_scenario(&s);
        }
    }
}

/// The closest the two come: one operation, the slowest issue, the shortest
/// round trip. The write lands half a round trip after issue; the read's
/// Completion is back a whole one after.
#[test]
fn one_posted_write_lands_half_a_round_trip_before_the_read_returns() {
    let m = Mmio::new(&MmioConfig {
        issue_ns: ISSUE.max,
        rtt_ns: RTT.min,
        count: 1,
        work_ns: 200,
    });
    assert_eq!(m.last_write_lands(), ISSUE.max + RTT.min / 2);
    assert_eq!(m.reads_core_free(), ISSUE.max + RTT.min);
}
