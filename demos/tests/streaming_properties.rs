//! Property tests for the packetized-vs-streaming demo: the laws every
//! model obeys, and the demo's own: a run delivers every packet once,
//! Ensō's reads never jump while the classic ones jump at every packet, a
//! bigger batch never costs Ensō more, and a held packet pins Ensō's pipe
//! flit by flit.

use demos::host::pcie::link::LANES;
use demos::host::streaming::cpu::STALL;
use demos::host::streaming::enso::padded;
use demos::host::streaming::ethernet::FRAME;
use demos::host::streaming::{Streaming, StreamingAction, StreamingConfig, BATCH, RUN};
use demos::laws::check_laws;
use demos::{Model, Scenario, Timeline};
use proptest::prelude::*;

fn config() -> impl Strategy<Value = StreamingConfig> {
    (
        prop_oneof![Just(FRAME.min), Just(FRAME.max), FRAME.min..=FRAME.max],
        BATCH.min..=BATCH.max,
        1u32..=5,
        prop::sample::select(LANES.to_vec()),
        any::<(bool, bool)>(),
        STALL.min..=STALL.max,
    )
        .prop_map(
            |(frame, batch, generation, lanes, (interrupts, hold), stall)| StreamingConfig {
                frame,
                batch,
                generation,
                lanes,
                interrupts,
                stall,
                hold,
            },
        )
}

fn action() -> impl Strategy<Value = StreamingAction> {
    prop_oneof![
        8 => Just(StreamingAction::Deliver),
        2 => Just(StreamingAction::DeliverBatch),
        1 => (0u64..2_000).prop_map(StreamingAction::SetFrame),
        1 => (0u32..80).prop_map(StreamingAction::SetBatch),
        1 => (0u32..7).prop_map(StreamingAction::SetGeneration),
        1 => prop::sample::select(vec![0u32, 1, 3, 4, 8, 16, 32, 64]).prop_map(StreamingAction::SetLanes),
        1 => any::<bool>().prop_map(StreamingAction::SetInterrupts),
        1 => (0u32..400).prop_map(StreamingAction::SetStall),
        1 => any::<bool>().prop_map(StreamingAction::SetHold),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_demo_obeys_the_laws(config in config(), actions in prop::collection::vec(action(), 0..80)) {
        prop_assert_eq!(check_laws::<Streaming>(config, &actions), Ok(()));
    }

    /// Step delivers each packet of the run once, and every batch ends in
    /// one notification.
    #[test]
    fn a_run_delivers_every_packet_once(config in config()) {
        let mut timeline = Timeline::<Streaming>::new(config);
        let mut steps = 0;
        while timeline.step().is_ok() {
            steps += 1;
        }
        let m = timeline.model();
        prop_assert_eq!(steps, RUN);
        prop_assert_eq!(m.delivered, RUN);
        prop_assert_eq!(m.batches(), RUN.div_ceil(m.config.batch));
    }

    /// Packets back to back never make the core jump; a buffer per packet
    /// makes it jump at every packet after the first.
    #[test]
    fn enso_reads_run_on_and_classic_reads_jump(config in config(), packets in 0u32..=RUN) {
        let mut m = Streaming::new(&config);
        for _ in 0..packets {
            m.apply(&StreamingAction::Deliver).unwrap();
        }
        prop_assert_eq!(m.enso_reads().jumps, 0);
        prop_assert_eq!(m.classic_reads().jumps, u64::from(packets.saturating_sub(1)));
    }

    /// Sharing a notification among more packets never costs a packet
    /// more, and never lowers the rate the link allows.
    #[test]
    fn a_bigger_batch_never_costs_more(config in config(), a in BATCH.min..=BATCH.max, b in BATCH.min..=BATCH.max) {
        let with = |batch| Streaming::new(&StreamingConfig { batch, ..config.clone() });
        let (small, big) = (with(a.min(b)), with(a.max(b)));
        prop_assert!(big.enso_per_packet().up <= small.enso_per_packet().up + 1e-9);
        prop_assert!(big.enso_rate() >= small.enso_rate() * (1.0 - 1e-12));
        // The classic side does not care.
        prop_assert_eq!(big.classic_so_far(), small.classic_so_far());
    }

    /// While packet 1 is held, each packet pins its flits of the pipe; the
    /// classic NIC keeps one buffer, and its traffic does not change.
    #[test]
    fn a_held_packet_pins_the_pipe_flit_by_flit(config in config(), packets in 1u32..=RUN) {
        let held = StreamingConfig { hold: true, ..config.clone() };
        let free = StreamingConfig { hold: false, ..config };
        let run = |c: &StreamingConfig| {
            let mut m = Streaming::new(c);
            for _ in 0..packets {
                m.apply(&StreamingAction::Deliver).unwrap();
            }
            m
        };
        let (h, f) = (run(&held), run(&free));
        prop_assert_eq!(h.enso_pinned(), u64::from(packets) * padded(h.dma()));
        prop_assert_eq!(f.enso_pinned(), 0);
        prop_assert_eq!(h.classic_so_far(), f.classic_so_far());
        prop_assert!(h.enso_so_far().transactions <= f.enso_so_far().transactions);
    }

    #[test]
    fn hostile_links_never_panic(text in ".{0,300}", bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        use base64::Engine;
        let _ = Scenario::<Streaming>::decode(&text);
        let encoded = format!("v1.{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&bytes));
        if let Ok(s) = Scenario::<Streaming>::decode(&encoded) {
            let _ = Timeline::<Streaming>::from_scenario(&s);
        }
    }
}
