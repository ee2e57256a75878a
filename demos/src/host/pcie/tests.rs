use super::cli::pcie_command;
use super::link::{Generation, Link};
use super::transfer::{read, read_gbps, read_pace, tlp_gbps, write};

fn run(line: &str) -> Result<String, String> {
    let args: Vec<String> = line.split_whitespace().map(String::from).collect();
    pcie_command(&args)
}

/// The issue's example: Gen3 ×8, MPS 256, MRRS 512, RCB 64, 64 bytes.
#[test]
fn the_issue_example_gen3_x8_64_bytes() {
    assert_eq!(
        run("--gen 3 --lanes 8 --mps 256 --mrrs 512 --rcb 64 --size 64").unwrap(),
        "raw 63.02\ntlp 57.88\nwrite 42.10\nread 44.10\n"
    );
}

/// 16 GT/s × 128/130 × 16 lanes = 252.06 Gb/s = 31.5 GB/s, in *each*
/// direction: the figure the source text gave as "bidirectional".
#[test]
fn gen4_x16_is_31_5_gigabytes_a_second_each_way() {
    let link = Link {
        generation: Generation::Gen4,
        lanes: 16,
        ..Link::default()
    };
    let bytes_per_second = link.raw_gbps() / 8.0;
    assert!((bytes_per_second - 31.5).abs() < 0.01, "{bytes_per_second}");
}

/// Figures worked by hand from the open model's rules (each checked against
/// a re-typed copy of them): a 1,500-byte write on Gen3 ×8 is six 256-byte
/// TLPs of 24 bytes' overhead; its read is three 512-byte requests and six
/// completions of 20 bytes' overhead.
#[test]
fn a_1500_byte_transfer_is_cut_at_mps_and_mrrs() {
    let link = Link::default();
    let w = write(&link, 1500);
    assert_eq!((w.count, w.overhead_each, w.wire_bytes()), (6, 24, 1644));
    let r = read(&link, 1500);
    assert_eq!((r.requests.count, r.requests.wire_bytes()), (3, 72));
    assert_eq!((r.completions.count, r.completions.wire_bytes()), (6, 1620));
    assert_eq!(
        run("--gen 3 --lanes 8 --mps 256 --mrrs 512 --rcb 64 --size 1500").unwrap(),
        "raw 63.02\ntlp 57.88\nwrite 52.81\nread 53.60\n"
    );
}

/// One byte read with 64-bit addresses: the 24-byte request outweighs the
/// 21-byte completion, so the outbound requests set the pace.
#[test]
fn a_tiny_read_is_paced_by_its_requests() {
    let link = Link::default();
    assert!(read_pace(&link, 1).request_bound);
    assert!(!read_pace(&link, 64).request_bound);
    let tlp = tlp_gbps(&link);
    assert!((read_gbps(&link, 1) - tlp / 24.0).abs() < 1e-9);
}

#[test]
fn options_change_exactly_the_costs_they_name() {
    let base = "--gen 5 --lanes 16 --mps 128 --mrrs 256 --rcb 64 --size 4096";
    let figures = |extra: &str| run(&format!("{base} {extra}")).unwrap();
    assert_eq!(
        figures(""),
        "raw 504.12\ntlp 446.80\nwrite 376.25\nread 386.42\n"
    );
    assert_eq!(
        figures("--addr 32"),
        "raw 504.12\ntlp 446.80\nwrite 386.42\nread 386.42\n"
    );
    assert_eq!(
        figures("--ecrc"),
        "raw 504.12\ntlp 446.80\nwrite 366.60\nread 376.25\n"
    );
    assert_eq!(
        figures("--rcb-chunks"),
        "raw 504.12\ntlp 446.80\nwrite 376.25\nread 340.42\n"
    );
}

#[test]
fn generations_and_widths_in_either_spelling() {
    let a = run("--gen gen1 --lanes x1 --mps 128 --mrrs 128 --rcb 128 --size 100").unwrap();
    let b = run("--gen=1 --lanes=1 --mps=128 --mrrs=128 --rcb=128 --size=100").unwrap();
    assert_eq!(a, b);
    assert!(a.starts_with("raw 2.00\n"), "{a}");
}

#[test]
fn bad_arguments_are_named() {
    let ok = "--lanes 8 --mps 256 --mrrs 512 --rcb 64 --size 64";
    let fails = |line: &str| run(line).unwrap_err();
    assert!(fails(&format!("--gen 6 {ok}")).contains("--gen"));
    assert!(fails(ok).contains("--gen is required"));
    let with = |name: &str, value: &str| {
        let mut args: Vec<&str> = format!("--gen 3 {ok}").leak().split(' ').collect();
        let at = args.iter().position(|a| *a == name).unwrap();
        args[at + 1] = value;
        fails(&args.join(" "))
    };
    assert!(with("--lanes", "12").contains("lanes"));
    assert!(with("--mps", "100").contains("MPS"));
    assert!(with("--mrrs", "8192").contains("--mrrs"));
    assert!(with("--rcb", "32").contains("RCB"));
    assert!(with("--size", "0").contains("--size"));
    assert!(with("--size", "-5").contains("--size"));
    assert!(fails(&format!("--gen 3 {ok} --addr 48")).contains("--addr"));
    assert!(fails(&format!("--gen 3 {ok} --ecrc=1")).contains("--ecrc"));
}

mod nic {
    use super::super::link::Link;
    use super::super::nic::{packet_rate, per_packet, wire, Path, Wire};

    /// Receiving a 64-byte packet on Gen3 ×8 (64-bit addresses): out of the
    /// device go the descriptor-fetch request (24), the packet (24 + 64),
    /// the write-back (24 + 16), the MSI (24 + 4) and the head pointer's
    /// completion (20 + 4) = 204 bytes; in come the doorbell (24 + 4), the
    /// descriptor's completion (20 + 16) and the head-pointer request (24)
    /// = 88.
    #[test]
    fn a_64_byte_receive_costs_204_bytes_out_and_88_in() {
        let link = Link::default();
        let rx = per_packet(Path::Receive, 64);
        assert_eq!(
            wire(&link, &rx),
            Wire {
                inbound: 88,
                outbound: 204
            }
        );
        let pps = packet_rate(&link, &rx);
        let expected = super::tlp_gbps(&link) * 1e9 / (204.0 * 8.0);
        assert!((pps - expected).abs() < 1e-6);
        // 35.5 million packets a second: under the 59.5 million a 40 Gb/s
        // Ethernet link delivers at 64 bytes.
        assert!((35.0e6..36.0e6).contains(&pps), "{pps}");
    }

    /// Transmitting, the packet comes back as completions: inbound carries
    /// the doorbell (28), the descriptor (36) and the packet (20 + 1500
    /// cut at MPS 256: 6 × 20 + 1500 = 1620) and the head-pointer request
    /// (24).
    #[test]
    fn a_1500_byte_transmit_reads_its_packet_in_completions() {
        let link = Link::default();
        let tx = per_packet(Path::Transmit, 1500);
        assert_eq!(wire(&link, &tx).inbound, 28 + 36 + 1620 + 24);
    }
}

mod demo {
    use super::super::{Kind, Pcie, PcieAction, PcieConfig, TlpKind};
    use crate::Model;

    fn demo(change: impl FnOnce(&mut PcieConfig)) -> Pcie {
        let mut config = PcieConfig::default();
        change(&mut config);
        Pcie::new(&config)
    }

    /// 1,500 bytes at MPS 256: five full MWrs and one of 220 bytes.
    #[test]
    fn a_1500_byte_write_is_six_mwrs() {
        let m = demo(|_| {});
        let tlps = m.tlps();
        assert_eq!(tlps.len(), 6);
        assert!(tlps
            .iter()
            .all(|t| t.kind == TlpKind::MemWrite && t.overhead == 24));
        assert_eq!(tlps[5].data, 1500 - 5 * 256);
        assert_eq!(m.total(), 6);
    }

    /// A 1,500-byte read with MRRS 512: each request is followed by the two
    /// completions that answer it.
    #[test]
    fn a_read_alternates_requests_and_their_completions() {
        let m = demo(|c| c.kind = Kind::Read);
        let kinds: Vec<&str> = m.tlps().iter().map(|t| t.kind.short()).collect();
        assert_eq!(
            kinds,
            ["MRd", "CplD", "CplD", "MRd", "CplD", "CplD", "MRd", "CplD", "CplD"]
        );
    }

    /// Gen5 ×16 reads 512 bytes per request. With 256 tags and 500 ns each,
    /// Little's law allows 256 × 512 × 8 / 500 = 2,097 Gb/s: the link sets
    /// the pace. With 32, 262 Gb/s, under the link's 410; with 8, 65.5.
    #[test]
    fn few_tags_bound_a_fast_links_reads() {
        let mut m = demo(|c| {
            c.generation = 5;
            c.lanes = 16;
            c.kind = Kind::Read;
            c.size = 4096;
        });
        assert!(!m.tag_bound());
        m.apply(&PcieAction::SetTags(32)).unwrap();
        assert!(m.tag_bound());
        m.apply(&PcieAction::SetTags(8)).unwrap();
        assert!((m.effective_gbps() - 65.536).abs() < 1e-9);
        // A Gen3 ×8 link is slower than even 32 tags.
        assert!(!demo(|c| c.kind = Kind::Read).tag_bound());
    }

    #[test]
    fn a_setting_already_held_is_refused_and_a_change_restarts() {
        let mut m = demo(|_| {});
        m.apply(&PcieAction::Send).unwrap();
        assert!(m.apply(&PcieAction::SetMps(256)).is_err());
        assert!(m.apply(&PcieAction::SetMps(100)).is_err());
        m.apply(&PcieAction::SetMps(128)).unwrap();
        assert_eq!((m.sent, m.total()), (0, 12));
    }
}
