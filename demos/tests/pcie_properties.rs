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
