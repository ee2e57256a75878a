//! The `/fabric/pfc` demo against random settings and actions: the laws
//! every model obeys, and the model's own (its `check`): every byte sent is
//! delivered, held or dropped; each ingress counter is the bytes queued
//! that came in on it; no port holds more than XOFF plus its headroom; with
//! headroom for the worst case and no watchdog, nothing is dropped. Here
//! too: a paused sender puts nothing on its wire, and a run is determined
//! by its actions.

use demos::fabric::pfc::config::{CABLE, HEADROOM_KB, MTUS};
use demos::fabric::pfc::{Pfc, PfcAction as A, PfcConfig};
use demos::laws::check_laws;
use demos::Model;
use proptest::prelude::*;

fn config() -> impl Strategy<Value = PfcConfig> {
    (
        CABLE.min..=CABLE.max,
        0usize..3,
        HEADROOM_KB.min..=HEADROOM_KB.max,
        prop::collection::vec(any::<bool>(), 3),
    )
        .prop_map(|(cable_m, mtu, headroom_kb, b)| PfcConfig {
            cable_m,
            mtu: MTUS[mtu],
            headroom_kb,
            dcqcn: b[0],
            loop_route: b[1],
            watchdog: b[2],
        })
}

fn action() -> impl Strategy<Value = A> {
    prop_oneof![
        6 => Just(A::Tick),
        6 => (1u32..400).prop_map(A::Run),
        1 => Just(A::Restart),
        1 => (0u32..1_200).prop_map(A::SetCable),
        1 => prop_oneof![Just(1_500u32), Just(4_096), Just(9_216), Just(1_000)].prop_map(A::SetMtu),
        1 => (0u32..400).prop_map(A::SetHeadroom),
        2 => any::<bool>().prop_map(A::SetDcqcn),
        2 => any::<bool>().prop_map(A::SetLoop),
        1 => any::<bool>().prop_map(A::SetWatchdog),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn laws_hold(c in config(), actions in prop::collection::vec(action(), 0..24)) {
        prop_assert_eq!(check_laws::<Pfc>(c, &actions), Ok(()));
    }

    /// A paused sender sends nothing: every tick, the newest slot on a
    /// paused wire is empty.
    #[test]
    fn paused_sends_nothing(c in config(), n in 1u32..600) {
        let mut m = Pfc::new(&c);
        for _ in 0..n {
            m.apply(&A::Tick).unwrap();
            let t = m.fabric.tick - 1;
            for p in &m.fabric.ports {
                if p.paused(t) {
                    prop_assert!(p.wire.back().is_none_or(|s| s.is_empty()));
                }
            }
        }
    }

    /// Two runs of the same actions end in the same state.
    #[test]
    fn deterministic(c in config(), actions in prop::collection::vec(action(), 0..12)) {
        let mut a = Pfc::new(&c);
        let mut b = Pfc::new(&c);
        for x in &actions {
            let _ = a.apply(x);
            let _ = b.apply(x);
        }
        prop_assert_eq!(a, b);
    }
}
