//! Property tests for `/host/zero-copy`: the laws every model obeys, and
//! the demo's own: zero-copy never copies, no drop while the application
//! keeps its buffers no longer than the area allows, and no buffer is ever
//! lost or held twice (the model's check, run after every step).

use demos::host::zero_copy::{
    Mode, Owner, Provider, ZeroCopy, ZeroCopyAction, ZeroCopyConfig, BUFFERS, HOLD, PAYLOAD,
};
use demos::laws::check_laws;
use demos::{Model, Scenario, Timeline};
use proptest::prelude::*;

fn mode() -> impl Strategy<Value = Mode> {
    prop_oneof![Just(Mode::Copy), Just(Mode::Split), Just(Mode::ZeroCopy)]
}

fn provider() -> impl Strategy<Value = Provider> {
    prop_oneof![Just(Provider::Devmem), Just(Provider::Zcrx)]
}

fn config() -> impl Strategy<Value = ZeroCopyConfig> {
    (
        mode(),
        provider(),
        BUFFERS.min..=BUFFERS.max,
        HOLD.min..=HOLD.max,
        PAYLOAD.min..=PAYLOAD.max,
        any::<(bool, bool)>(),
    )
        .prop_map(
            |(mode, provider, buffers, hold, payload, (nic_split, steering))| ZeroCopyConfig {
                mode,
                provider,
                buffers,
                hold,
                payload,
                nic_split,
                steering,
            },
        )
}

fn action() -> impl Strategy<Value = ZeroCopyAction> {
    prop_oneof![
        12 => Just(ZeroCopyAction::Step),
        1 => Just(ZeroCopyAction::Batch),
        1 => mode().prop_map(ZeroCopyAction::SetMode),
        1 => provider().prop_map(ZeroCopyAction::SetProvider),
        1 => (0u32..20).prop_map(ZeroCopyAction::SetBuffers),
        1 => (0u32..25).prop_map(ZeroCopyAction::SetHold),
        1 => (0u32..5_000).prop_map(ZeroCopyAction::SetPayload),
        1 => any::<bool>().prop_map(ZeroCopyAction::SetNicSplit),
        1 => any::<bool>().prop_map(ZeroCopyAction::SetSteering),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn the_demo_obeys_the_laws(config in config(), actions in prop::collection::vec(action(), 0..60)) {
        prop_assert_eq!(check_laws::<ZeroCopy>(config, &actions), Ok(()));
    }

    /// Zero-copy with the flow steered to the bound queue never copies a
    /// payload byte; every other path copies each payload it delivers.
    #[test]
    fn only_steered_zero_copy_avoids_the_copy(config in config(), steps in 0usize..120) {
        let mut m = ZeroCopy::new(&config);
        for _ in 0..steps {
            m.apply(&ZeroCopyAction::Step).unwrap();
        }
        let c = m.counts;
        if m.flow_bound() {
            prop_assert_eq!(c.bytes_copied, 0);
        } else {
            prop_assert_eq!(c.bytes_copied, c.delivered * u64::from(m.payload));
        }
    }

    /// While the application keeps each buffer no longer than the safe hold,
    /// no packet is dropped; only a bound queue ever drops.
    #[test]
    fn drops_only_when_held_too_long(config in config(), steps in 0usize..200) {
        let mut m = ZeroCopy::new(&config);
        for _ in 0..steps {
            m.apply(&ZeroCopyAction::Step).unwrap();
        }
        let dropped = m.counts.dropped;
        match m.safe_hold() {
            Some(safe) if m.hold <= safe => prop_assert_eq!(dropped, 0),
            None => prop_assert_eq!(dropped, 0),
            Some(_) => {}
        }
        if !m.flow_bound() {
            prop_assert_eq!(dropped, 0);
        }
        prop_assert!(m.area_count(Owner::App) <= m.hold as usize + 1);
    }

    #[test]
    fn hostile_links_never_panic(text in ".{0,300}", bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        use base64::Engine;
        let _ = Scenario::<ZeroCopy>::decode(&text);
        let encoded = format!("v1.{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&bytes));
        if let Ok(s) = Scenario::<ZeroCopy>::decode(&encoded) {
            let _ = Timeline::<ZeroCopy>::from_scenario(&s);
        }
    }
}
