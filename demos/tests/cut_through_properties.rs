//! Property tests for cut-through (CTPIO): the laws every model obeys, plus
//! the demo's own claims about thresholds and underruns.

use demos::laws::check_laws;
use demos::nic::cut_through::{
    ChunkState, CtAction, CtpioMode, CutThrough, CutThroughConfig, Plan, WIRE_RATES,
};
use demos::{Model, Scenario, Timeline};
use proptest::prelude::*;

fn wire() -> impl Strategy<Value = u32> {
    prop::sample::select(WIRE_RATES.to_vec())
}

fn mode() -> impl Strategy<Value = CtpioMode> {
    prop::sample::select(CtpioMode::ALL.to_vec())
}

fn action() -> impl Strategy<Value = CtAction> {
    prop_oneof![
        5 => Just(CtAction::Tick),
        1 => Just(CtAction::RunToEnd),
        1 => (0usize..30).prop_map(CtAction::SetChunks),
        1 => (0u32..140).prop_map(CtAction::SetPcie),
        1 => prop_oneof![wire(), 0u32..120].prop_map(CtAction::SetWire),
        2 => (0usize..30).prop_map(CtAction::SetThreshold),
        1 => Just(CtAction::UseSafeThreshold),
        1 => Just(CtAction::BreakIt),
        1 => any::<bool>().prop_map(CtAction::SetJitter),
        1 => mode().prop_map(CtAction::SetMode),
    ]
}

fn config() -> impl Strategy<Value = CutThroughConfig> {
    (1usize..=24, 8u32..=128, wire(), mode(), any::<u64>()).prop_flat_map(
        |(chunks, pcie_gbps, wire_gbps, mode, seed)| {
            (1..=chunks).prop_map(move |threshold| CutThroughConfig {
                chunks,
                pcie_gbps,
                wire_gbps,
                threshold,
                mode,
                seed,
            })
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn cut_through_obeys_the_laws(config in config(), actions in prop::collection::vec(action(), 0..80)) {
        prop_assert_eq!(check_laws::<CutThrough>(config, &actions), Ok(()));
    }

    #[test]
    fn the_safe_threshold_is_exactly_the_smallest_that_never_runs_dry(config in config(), jitter in any::<bool>()) {
        let mut m = CutThrough::new(&config);
        let _ = m.apply(&CtAction::SetJitter(jitter));
        let safe = m.safe_threshold();
        for t in 1..=m.chunks {
            let plan = Plan::new(m.chunks, t, (m.pcie_gbps, m.wire_gbps), m.stall);
            prop_assert_eq!(plan.underrun.is_none(), t >= safe, "threshold {}", t);
        }
    }

    #[test]
    fn cut_through_never_starts_later_and_a_safe_one_never_ends_later(config in config()) {
        let m = CutThrough::new(&config);
        let (sf, ct) = (m.store_and_forward(), m.cut_through());
        prop_assert!(ct.start <= sf.start);
        if ct.underrun.is_none() {
            prop_assert!(ct.end <= sf.end);
        }
    }

    #[test]
    fn at_the_end_every_chunk_is_sent_or_cut_off(config in config()) {
        let mut timeline = Timeline::<CutThrough>::new(config);
        while timeline.step().is_ok() {}
        let m = timeline.model();
        let now = m.now_units();
        let sf = m.store_and_forward();
        prop_assert_eq!(sf.count(ChunkState::Sent, now), m.chunks);
        let ct = m.cut_through();
        let done = ct.count(ChunkState::Sent, now) + ct.count(ChunkState::CutOff, now);
        prop_assert_eq!(done, m.chunks);
        prop_assert_eq!(ct.count(ChunkState::CutOff, now) > 0, ct.underrun.is_some());
    }

    #[test]
    fn only_ct_mode_ever_sends_a_poisoned_frame(config in config(), actions in prop::collection::vec(action(), 0..40)) {
        let mut m = CutThrough::new(&config);
        for a in &actions {
            let _ = m.apply(a);
            prop_assert_eq!(m.poisoned(), m.mode == CtpioMode::Ct && m.cut_through().underrun.is_some());
            let fallback = m.status().into_iter().find(|f| f.key == "fallback").unwrap();
            prop_assert_eq!(fallback.value == "sent by the NIC", m.poisoned());
        }
    }

    #[test]
    fn hostile_links_never_panic(text in ".{0,300}", bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        use base64::Engine;
        let _ = Scenario::<CutThrough>::decode(&text);
        let encoded = format!("v1.{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&bytes));
        if let Ok(s) = Scenario::<CutThrough>::decode(&encoded) {
            let _ = Timeline::<CutThrough>::from_scenario(&s);
        }
    }
}
