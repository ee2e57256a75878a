//! Property tests for the PCIe budget: the orderings every link obeys, the
//! cutting of a transfer into TLPs, and a command line that never panics.

use demos::host::pcie::cli::pcie_command;
use demos::host::pcie::link::{
    Generation, Link, COMPLETION_BOUNDARIES, LANES, TRANSFER, TRANSFER_SIZES,
};
use demos::host::pcie::nic::{packet_rate, per_packet, Path};
use demos::host::pcie::transfer::{read, read_gbps, tlp_gbps, write, write_gbps};
use proptest::prelude::*;

fn link() -> impl Strategy<Value = Link> {
    (
        0usize..5,
        prop::sample::select(LANES.to_vec()),
        prop::sample::select(TRANSFER_SIZES.to_vec()),
        prop::sample::select(TRANSFER_SIZES.to_vec()),
        prop::sample::select(COMPLETION_BOUNDARIES.to_vec()),
        any::<(bool, bool, bool)>(),
    )
        .prop_map(
            |(g, lanes, mps, mrrs, rcb, (addr64, ecrc, rcb_chunks))| Link {
                generation: Generation::ALL[g],
                lanes,
                mps,
                mrrs,
                rcb,
                addr64,
                ecrc,
                rcb_chunks,
            },
        )
}

fn size() -> impl Strategy<Value = u64> {
    prop_oneof![1u64..=9_000, TRANSFER.min..=TRANSFER.max]
}

proptest! {
    /// Each layer only takes away: data ≤ TLP rate ≤ the encoded rate.
    #[test]
    fn every_layer_only_takes_away(link in link(), size in size()) {
        let (raw, tlp) = (link.raw_gbps(), tlp_gbps(&link));
        prop_assert!(0.0 < tlp && tlp < raw);
        prop_assert!(0.0 < write_gbps(&link, size) && write_gbps(&link, size) < tlp);
        prop_assert!(0.0 < read_gbps(&link, size) && read_gbps(&link, size) < tlp);
    }

    /// A transfer is cut into as few TLPs as the size limits allow, and
    /// every byte of it travels once.
    #[test]
    fn a_transfer_is_cut_at_its_limits(link in link(), size in size()) {
        let w = write(&link, size);
        let mps = u64::from(link.mps);
        prop_assert!(w.count * mps >= size && (w.count - 1) * mps < size);
        prop_assert_eq!(w.wire_bytes(), w.count * w.overhead_each + size);
        let r = read(&link, size);
        let mrrs = u64::from(link.mrrs);
        prop_assert!(r.requests.count * mrrs >= size && (r.requests.count - 1) * mrrs < size);
        prop_assert_eq!(r.requests.data, 0);
        prop_assert_eq!(r.completions.data, size);
    }

    /// A digest or a longer address only costs; never gains.
    #[test]
    fn a_digest_and_wide_addresses_only_cost(link in link(), size in size()) {
        let with = |ecrc, addr64| Link { ecrc, addr64, ..link };
        prop_assert!(write_gbps(&with(true, link.addr64), size) < write_gbps(&with(false, link.addr64), size));
        prop_assert!(write_gbps(&with(link.ecrc, true), size) < write_gbps(&with(link.ecrc, false), size));
        prop_assert!(read_gbps(&with(true, link.addr64), size) < read_gbps(&with(false, link.addr64), size));
        prop_assert!(read_gbps(&with(link.ecrc, true), size) <= read_gbps(&with(link.ecrc, false), size));
    }

    /// Twice the lanes, twice the encoded rate; a newer generation, more.
    #[test]
    fn width_and_generation_scale_the_link(link in link()) {
        if link.lanes < 32 {
            let wider = Link { lanes: link.lanes * 2, ..link };
            prop_assert!((wider.raw_gbps() - 2.0 * link.raw_gbps()).abs() < 1e-9);
        }
        if let Some(generation) = Generation::from_number(link.generation.number() + 1) {
            let newer = Link { generation, ..link };
            prop_assert!(newer.raw_gbps() > link.raw_gbps());
        }
    }

    /// A bigger packet never gets more packets a second through the link.
    #[test]
    fn bigger_packets_never_raise_the_packet_rate(link in link(), a in 1u64..=9_000, b in 1u64..=9_000, rx in any::<bool>()) {
        let path = if rx { Path::Receive } else { Path::Transmit };
        let (small, big) = (a.min(b), a.max(b));
        prop_assert!(packet_rate(&link, &per_packet(path, big)) <= packet_rate(&link, &per_packet(path, small)));
    }

    /// Whatever the command line holds, an answer or a reason, never a panic.
    #[test]
    fn the_command_line_never_panics(args in prop::collection::vec(
        prop_oneof![
            Just("--gen".to_string()), Just("--lanes".to_string()), Just("--mps".to_string()),
            Just("--mrrs".to_string()), Just("--rcb".to_string()), Just("--size".to_string()),
            Just("--addr".to_string()), Just("--ecrc".to_string()), Just("--rcb-chunks".to_string()),
            "[0-9x]{0,12}", ".{0,8}",
        ], 0..16)) {
        let _ = pcie_command(&args);
    }
}

mod demo {
    use demos::host::pcie::{Kind, Pcie, PcieAction, PcieConfig, LATENCY, SIZE, TAGS};
    use demos::laws::check_laws;
    use demos::{Model, Scenario, Timeline};
    use proptest::prelude::*;

    fn kind() -> impl Strategy<Value = Kind> {
        prop_oneof![Just(Kind::Write), Just(Kind::Read)]
    }

    fn action() -> impl Strategy<Value = PcieAction> {
        prop_oneof![
            6 => Just(PcieAction::Send),
            1 => Just(PcieAction::SendAll),
            1 => (0u32..7).prop_map(PcieAction::SetGeneration),
            1 => prop::sample::select(vec![0u32, 1, 2, 3, 4, 8, 12, 16, 32, 64]).prop_map(PcieAction::SetLanes),
            1 => prop::sample::select(vec![64u32, 128, 256, 512, 1024, 2048, 4096, 100]).prop_map(PcieAction::SetMps),
            1 => prop::sample::select(vec![64u32, 128, 256, 512, 1024, 2048, 4096, 8192]).prop_map(PcieAction::SetMrrs),
            1 => (0u64..70_000).prop_map(PcieAction::SetSize),
            1 => kind().prop_map(PcieAction::SetKind),
            1 => any::<bool>().prop_map(PcieAction::SetAddr64),
            1 => any::<bool>().prop_map(PcieAction::SetEcrc),
            1 => (0u32..300).prop_map(PcieAction::SetTags),
            1 => (0u64..2_500).prop_map(PcieAction::SetLatency),
        ]
    }

    fn config() -> impl Strategy<Value = PcieConfig> {
        (
            1u32..=5,
            prop::sample::select(vec![1u32, 2, 4, 8, 16, 32]),
            prop::sample::select(vec![128u32, 256, 512, 1024, 2048, 4096]),
            prop::sample::select(vec![128u32, 256, 512, 1024, 2048, 4096]),
            prop_oneof![SIZE.min..=4_096, SIZE.min..=SIZE.max],
            kind(),
            TAGS.min..=TAGS.max,
            LATENCY.min..=LATENCY.max,
        )
            .prop_map(
                |(generation, lanes, mps, mrrs, size, kind, tags, latency_ns)| PcieConfig {
                    generation,
                    lanes,
                    mps,
                    mrrs,
                    size,
                    kind,
                    tags,
                    latency_ns,
                },
            )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn the_demo_obeys_the_laws(config in config(), actions in prop::collection::vec(action(), 0..60)) {
            prop_assert_eq!(check_laws::<Pcie>(config, &actions), Ok(()));
        }

        /// Step sends every TLP once, and then the transfer is over.
        #[test]
        fn stepping_sends_each_tlp_once(config in config()) {
            let mut timeline = Timeline::<Pcie>::new(config);
            let total = timeline.model().total();
            let mut steps = 0;
            while timeline.step().is_ok() {
                steps += 1;
            }
            prop_assert_eq!(steps, total);
            prop_assert_eq!(timeline.model().sent, total);
        }

        /// Too few tags only ever slow a read, never a write.
        #[test]
        fn tags_only_bound_reads(config in config()) {
            let m = Pcie::new(&config);
            prop_assert!(m.effective_gbps() <= m.link_gbps());
            if m.kind == Kind::Write {
                prop_assert!(!m.tag_bound());
            }
        }

        #[test]
        fn hostile_links_never_panic(text in ".{0,300}", bytes in prop::collection::vec(any::<u8>(), 0..200)) {
            use base64::Engine;
            let _ = Scenario::<Pcie>::decode(&text);
            let encoded = format!("v1.{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&bytes));
            if let Ok(s) = Scenario::<Pcie>::decode(&encoded) {
                let _ = Timeline::<Pcie>::from_scenario(&s);
            }
        }
    }
}
