use super::path::Admission;
use super::sender::{Algorithm, MSS};
use super::*;

fn run(config: &CongestionConfig, rtts: usize) -> Congestion {
    let mut m = Congestion::new(config);
    for _ in 0..rtts {
        m.apply(&CongestionAction::Rtt).unwrap();
        m.check().unwrap();
    }
    m
}

fn cwnd_segments(m: &Congestion, f: usize) -> u64 {
    m.path.flows[f].sender.cwnd / MSS
}

#[test]
fn slow_start_doubles_the_window_every_round_trip() {
    // A fast link and a deep buffer, so a whole window fits well inside one RTT.
    let config = CongestionConfig {
        link_mbps: 100,
        buffer: 1000,
        flows: [FlowConfig {
            algorithm: Algorithm::Reno,
            rtt_ms: 100,
        }; 2],
        two_flows: false,
    };
    let mut m = Congestion::new(&config);
    let mut seen = vec![cwnd_segments(&m, 0)];
    for _ in 0..5 {
        m.apply(&CongestionAction::Rtt).unwrap();
        seen.push(cwnd_segments(&m, 0));
    }
    // Linux's initial window of 10 segments (RFC 6928), doubling.
    assert_eq!(seen, [10, 10, 20, 40, 80, 160]);
}

#[test]
fn reno_draws_a_sawtooth_and_keeps_the_link_busy() {
    let m = run(&CongestionConfig::default(), 150);
    let s = &m.path.flows[0].sender;
    assert!(s.fast_retransmits >= 2, "several halvings");
    assert!(m.marks.iter().any(|k| k.kind == MarkKind::FastRetransmit));
    let peak = m.history.iter().map(|h| h.cwnd[0]).max().unwrap();
    let trough = m.history[m.history.len() / 2..]
        .iter()
        .map(|h| h.cwnd[0])
        .min()
        .unwrap();
    assert!(trough * 10 < peak * 7, "teeth: {trough} vs peak {peak}");
    // Once past the start-up losses, a buffer of about one BDP covers each
    // halving: the link barely idles.
    let last = m.history.len() - 1;
    let steady = m.utilisation_between(last / 2, last);
    assert!(steady > 980, "{steady}");
}

#[test]
fn bufferbloat_inflates_the_rtt_far_beyond_the_base() {
    let bloated = run(&CongestionConfig::bufferbloat(), 60);
    let sane = run(&CongestionConfig::default(), 60);
    let base = bloated.path.flows[0].base_rtt;
    let rtt = bloated.path.flows[0].sender.last_rtt;
    assert!(rtt > 10 * base, "RTT {rtt} vs base {base}");
    assert!(bloated.path.queue.len() > 300);
    assert!(cwnd_segments(&bloated, 0) > 300);
    // With a one-BDP buffer the RTT never reaches even three base RTTs.
    assert!(sane.path.flows[0].sender.last_rtt < 3 * base);
    // The deep buffer bought no throughput worth its delay.
    let (b, s) = (bloated.history.len() - 1, sane.history.len() - 1);
    let busy_bloated = bloated.utilisation_between(b - 20, b);
    let busy_sane = sane.utilisation_between(s - 20, s);
    assert!(
        busy_sane > 950 && busy_bloated <= 1000,
        "{busy_sane} {busy_bloated}"
    );
}

#[test]
fn the_shorter_rtt_flow_takes_more_of_the_link() {
    let config = CongestionConfig {
        flows: [
            FlowConfig {
                algorithm: Algorithm::Reno,
                rtt_ms: 20,
            },
            FlowConfig {
                algorithm: Algorithm::Reno,
                rtt_ms: 80,
            },
        ],
        two_flows: true,
        ..CongestionConfig::default()
    };
    let m = run(&config, 500);
    assert!(m.goodput_tenths(0) > 2 * m.goodput_tenths(1));
    let jain = m.jain_thousandths().unwrap();
    assert!(jain < 900, "Jain {jain}");
}

#[test]
fn equal_flows_share_fairly() {
    let config = CongestionConfig {
        two_flows: true,
        ..CongestionConfig::default()
    };
    let m = run(&config, 400);
    assert!(m.jain_thousandths().unwrap() > 950);
}

#[test]
fn a_dropped_packet_brings_fast_retransmit_and_a_halving() {
    let mut m = run(&CongestionConfig::default(), 8);
    let before = m.path.flows[0].sender.cwnd;
    assert!(!m.path.flows[0].sender.in_slow_start() || before >= 12 * MSS);
    m.apply(&CongestionAction::DropNext(0)).unwrap();
    assert!(
        m.apply(&CongestionAction::DropNext(0)).is_err(),
        "already armed"
    );
    for _ in 0..2 {
        m.apply(&CongestionAction::Rtt).unwrap();
    }
    let s = &m.path.flows[0].sender;
    assert!(s.fast_retransmits >= 1);
    assert_eq!(s.timeouts, 0);
    assert!(m.marks.iter().any(|k| k.kind == MarkKind::Drop));
}

#[test]
fn the_first_events_follow_a_segment_into_the_buffer_and_out() {
    let mut m = Congestion::new(&CongestionConfig::default());
    let first = m.apply(&CongestionAction::Event).unwrap();
    assert!(first[0]
        .text
        .contains("Segment 0 of flow 1 joins the buffer"));
    let mut texts = Vec::new();
    // The initial window's 10 segments reach the port first.
    for _ in 0..12 {
        texts.push(m.apply(&CongestionAction::Event).unwrap()[0].text.clone());
    }
    assert!(texts.iter().any(|t| t.contains("leaves the port")));
}

#[test]
fn dropping_from_the_buffer_makes_a_hole() {
    let mut m = run(&CongestionConfig::default(), 6);
    let len = m.path.queue.len();
    assert!(len > 2, "the buffer is filling");
    let before = m.clone();
    assert!(m.apply(&CongestionAction::DropQueued(0)).is_err());
    assert!(m.apply(&CongestionAction::DropQueued(len)).is_err());
    assert_eq!(m, before);
    m.apply(&CongestionAction::DropQueued(1)).unwrap();
    assert_eq!(m.path.queue.len(), len - 1);
    m.check().unwrap();
}

#[test]
fn second_flow_joins_once_and_only_running_flows_lose_packets() {
    let mut m = Congestion::new(&CongestionConfig::default());
    let before = m.clone();
    assert!(m.apply(&CongestionAction::DropNext(1)).is_err());
    assert!(m.apply(&CongestionAction::DropNext(2)).is_err());
    assert_eq!(m, before);
    m.apply(&CongestionAction::JoinSecond).unwrap();
    assert!(m.apply(&CongestionAction::JoinSecond).is_err());
    m.apply(&CongestionAction::DropNext(1)).unwrap();
}

#[test]
fn a_port_that_marks_instead_of_dropping_is_counted() {
    let mut m = Congestion::new(&CongestionConfig::default());
    m.path.mark_above = Some(0);
    let mut marked = false;
    for _ in 0..10 {
        if let Some(path::Happening::Arrived {
            admission: Admission::Marked,
            ..
        }) = m.path.step()
        {
            marked = true;
        }
    }
    assert!(marked);
    assert!(m.path.flows[0].marks > 0);
}

#[test]
fn invalid_configs_are_rejected() {
    let ok = CongestionConfig::default();
    assert!(Congestion::validate(&ok).is_ok());
    let mut c = ok.clone();
    c.link_mbps = 0;
    assert!(Congestion::validate(&c).is_err());
    let mut c = ok.clone();
    c.buffer = BUFFER.max + 1;
    assert_eq!(
        Congestion::validate(&c),
        Err("The buffer is 1 to 1000 packets; 1001 packets is out of range.".into())
    );
    let mut c = ok;
    c.flows[1].rtt_ms = 0;
    assert!(Congestion::validate(&c).is_err());
}

fn two_flows(a: Algorithm, b: Algorithm) -> CongestionConfig {
    CongestionConfig {
        flows: [
            FlowConfig {
                algorithm: a,
                rtt_ms: 20,
            },
            FlowConfig {
                algorithm: b,
                rtt_ms: 80,
            },
        ],
        two_flows: true,
        ..CongestionConfig::default()
    }
}

/// Issue 30: "the shorter-RTT flow grows faster" is Reno's rule; CUBIC's
/// growth on its cubic curve depends on time, not on the RTT (RFC 9438 §4.2).
#[test]
fn the_rtt_sentence_is_true_for_the_algorithm_shown() {
    let reno = run(&two_flows(Algorithm::Reno, Algorithm::Reno), 20)
        .why()
        .join(" ");
    assert!(reno.contains("The shorter-RTT flow gets its ACKs sooner and grows faster"));
    let cubic = run(&two_flows(Algorithm::Cubic, Algorithm::Cubic), 20)
        .why()
        .join(" ");
    assert!(
        !cubic.contains("The shorter-RTT flow gets its ACKs sooner"),
        "{cubic}"
    );
    assert!(
        cubic.contains(
            "Both run CUBIC: on its cubic curve a window grows with the time since its last cut"
        ),
        "{cubic}"
    );
    let mixed = run(&two_flows(Algorithm::Cubic, Algorithm::NewReno), 20)
        .why()
        .join(" ");
    assert!(
        mixed.contains(
            "Flow 2 (NewReno) grows one segment per round trip of its own, flow 1 (CUBIC)"
        ),
        "{mixed}"
    );
}

#[test]
fn the_intro_names_linuxs_initial_window() {
    let m = Congestion::new(&CongestionConfig::default());
    assert!(m
        .intro()
        .text
        .contains("Reno starts with Linux's initial window of 10 segments."));
}

/// The link's share of busy time between two samples can never pass 100 %:
/// a packet still on the wire at a sample is credited for the part sent.
#[test]
fn utilisation_between_samples_never_passes_the_whole() {
    for config in [CongestionConfig::default(), CongestionConfig::bufferbloat()] {
        let m = run(&config, 60);
        for k in 1..m.history.len() {
            let u = m.utilisation_between(k - 1, k);
            assert!(u <= 1000, "{k}: {u}");
        }
        assert!(m.utilisation_tenths() <= 1000);
    }
}
