//! Property tests for congestion control, incast and all-reduce: the laws
//! every model obeys over random settings and action sequences (out-of-range
//! ones included), plus each demo's own claims.

use demos::laws::check_laws;
use demos::net::allreduce::cost::{Fabric, SlowLink, Straggler};
use demos::net::allreduce::schedule::Algorithm as Collective;
use demos::net::allreduce::{AllReduce, AllReduceAction, AllReduceConfig, Fill};
use demos::net::congestion::sender::{Algorithm, MSS, NO_LIMIT};
use demos::net::congestion::{Congestion, CongestionAction, CongestionConfig, FlowConfig};
use demos::net::incast::{Fate, Fix, Fixes, Incast, IncastAction, IncastConfig};
use demos::{Model, Scenario, Timeline};
use proptest::prelude::*;

fn algorithm() -> impl Strategy<Value = Algorithm> {
    prop_oneof![
        Just(Algorithm::Reno),
        Just(Algorithm::NewReno),
        Just(Algorithm::Cubic)
    ]
}

fn congestion_config() -> impl Strategy<Value = CongestionConfig> {
    (
        1u64..=20,
        1usize..=200,
        (algorithm(), 5u64..=100),
        (algorithm(), 5u64..=100),
        any::<bool>(),
    )
        .prop_map(|(link_mbps, buffer, a, b, two_flows)| CongestionConfig {
            link_mbps,
            buffer,
            flows: [
                FlowConfig {
                    algorithm: a.0,
                    rtt_ms: a.1,
                },
                FlowConfig {
                    algorithm: b.0,
                    rtt_ms: b.1,
                },
            ],
            two_flows,
        })
}

fn congestion_action() -> impl Strategy<Value = CongestionAction> {
    prop_oneof![
        4 => Just(CongestionAction::Event),
        4 => Just(CongestionAction::Rtt),
        1 => (0usize..4).prop_map(CongestionAction::DropNext),
        1 => (0usize..40).prop_map(CongestionAction::DropQueued),
        1 => Just(CongestionAction::JoinSecond),
    ]
}

fn incast_config() -> impl Strategy<Value = IncastConfig> {
    (
        1usize..=64,
        1u64..=64,
        (4usize..=256, 0usize..=768),
        (100u64..=10_000, 10u64..=1_000),
        1u32..=3,
        any::<(bool, bool, bool)>(),
    )
        .prop_flat_map(
            |(senders, burst, (buffer, extra), (link, rtt), requests, f)| {
                (1..buffer).prop_map(move |mark_k| IncastConfig {
                    senders,
                    burst,
                    buffer,
                    big_buffer: buffer + extra,
                    link_mbps: link,
                    rtt_us: rtt,
                    requests,
                    mark_k,
                    fixes: Fixes {
                        big_buffer: f.0,
                        fine_rto: f.1,
                        dctcp: f.2,
                    },
                })
            },
        )
}

fn incast_action() -> impl Strategy<Value = IncastAction> {
    prop_oneof![
        3 => Just(IncastAction::Event),
        4 => Just(IncastAction::Slice),
        1 => prop_oneof![Just(Fix::BigBuffer), Just(Fix::FineRto), Just(Fix::Dctcp)]
            .prop_map(IncastAction::Toggle),
    ]
}

fn collective() -> impl Strategy<Value = Collective> {
    prop_oneof![
        Just(Collective::Ring),
        Just(Collective::Tree),
        Just(Collective::DoubleTree)
    ]
}

fn allreduce_config() -> impl Strategy<Value = AllReduceConfig> {
    (
        2usize..=64,
        1usize..=64,
        prop_oneof![Just(Fill::Pattern), any::<u64>().prop_map(Fill::Seeded)],
        collective(),
        100u64..=1_000_000,
        1u64..=1_000,
        1u64..=1 << 34,
    )
        .prop_map(
            |(gpus, elements, fill, algorithm, alpha_ns, gbps, message_bytes)| AllReduceConfig {
                gpus,
                elements,
                fill,
                algorithm,
                alpha_ns,
                gbps,
                message_bytes,
            },
        )
}

fn allreduce_action() -> impl Strategy<Value = AllReduceAction> {
    prop_oneof![
        8 => Just(AllReduceAction::Step),
        1 => Just(AllReduceAction::Restart),
        1 => collective().prop_map(AllReduceAction::SetAlgorithm),
        1 => proptest::option::of((0usize..70, 0u64..70))
            .prop_map(|s| AllReduceAction::SetSlowLink(s.map(|(gpu, factor)| SlowLink { gpu, factor }))),
        1 => proptest::option::of((0usize..70, 0u64..20_000_000))
            .prop_map(|s| AllReduceAction::SetStraggler(s.map(|(gpu, delay_ns)| Straggler { gpu, delay_ns }))),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn congestion_obeys_the_laws(config in congestion_config(), actions in prop::collection::vec(congestion_action(), 0..40)) {
        prop_assert_eq!(check_laws::<Congestion>(config, &actions), Ok(()));
    }

    #[test]
    fn incast_obeys_the_laws(config in incast_config(), actions in prop::collection::vec(incast_action(), 0..40)) {
        prop_assert_eq!(check_laws::<Incast>(config, &actions), Ok(()));
    }

    /// Sweeps run 12 whole workloads each, so they are tried on small ones.
    #[test]
    fn incast_with_sweeps_obeys_the_laws(config in incast_config(), actions in prop::collection::vec(prop_oneof![4 => incast_action(), 1 => Just(IncastAction::Sweep)], 0..12)) {
        let config = IncastConfig { burst: config.burst.min(4), requests: 1, ..config };
        prop_assert_eq!(check_laws::<Incast>(config, &actions), Ok(()));
    }

    #[test]
    fn allreduce_obeys_the_laws(config in allreduce_config(), actions in prop::collection::vec(allreduce_action(), 0..60)) {
        prop_assert_eq!(check_laws::<AllReduce>(config, &actions), Ok(()));
    }

    #[test]
    fn every_algorithm_ends_with_the_elementwise_sum_everywhere(config in allreduce_config(), algorithm in collective()) {
        let mut m = AllReduce::new(&AllReduceConfig { algorithm, ..config });
        let expected = m.expected();
        let mut steps = 0;
        while m.next_auto().is_ok() {
            m.apply(&AllReduceAction::Step).unwrap();
            steps += 1;
        }
        prop_assert_eq!(steps, m.total_steps);
        for v in &m.values {
            prop_assert_eq!(v, &expected);
        }
        // Elapsed time is exactly what the α–β model predicts for the run.
        prop_assert_eq!(m.elapsed_ns, m.predicted_ns());
    }

    #[test]
    fn the_ring_always_takes_two_n_minus_one_steps_and_the_tree_two_log_n(n in 2usize..=64) {
        let steps = |algorithm| AllReduce::new(&AllReduceConfig { gpus: n, algorithm, ..AllReduceConfig::default() }).total_steps;
        prop_assert_eq!(steps(Collective::Ring), 2 * (n - 1));
        prop_assert_eq!(steps(Collective::Tree), 2 * n.next_power_of_two().trailing_zeros() as usize);
    }

    /// Each ring step every GPU sends one chunk and the chunks tile the
    /// vector, so the ring moves 2(N−1) vectors in all: 2(N−1)/N per GPU.
    #[test]
    fn the_ring_sends_two_n_minus_one_vectors_in_all(gpus in 2usize..=64, elements in 1usize..=64) {
        let mut m = AllReduce::new(&AllReduceConfig { gpus, elements, ..AllReduceConfig::default() });
        while m.next_auto().is_ok() {
            m.apply(&AllReduceAction::Step).unwrap();
        }
        prop_assert_eq!(m.sent.iter().sum::<u64>(), 2 * (gpus as u64 - 1) * elements as u64);
    }

    /// A slow link or a straggler never speeds a step up; in the ring every
    /// GPU sends in every step, so every step waits for it, unless the slow
    /// port's share still rounds up to the same whole nanosecond.
    #[test]
    fn one_slow_gpu_holds_up_every_ring_step(
        gpus in 2usize..=64,
        culprit in 0usize..64,
        factor in 2u64..=64,
        delay_ns in 1u64..=10_000_000,
        straggle in any::<bool>(),
        algorithm in collective(),
        // Tiny messages too: the edge below lies at a few hundred bytes.
        bytes in prop_oneof![1u64..=4_000, 1u64..=1 << 34],
    ) {
        let gpu = culprit % gpus;
        let healthy = Fabric { gpus, alpha_ns: 10_000, gbps: 25, slow: None, straggler: None };
        let sick = if straggle {
            Fabric { straggler: Some(Straggler { gpu, delay_ns }), ..healthy }
        } else {
            Fabric { slow: Some(SlowLink { gpu, factor }), ..healthy }
        };
        let steps = demos::net::allreduce::schedule::total_steps(algorithm, gpus);
        for k in 0..steps {
            let (h, s) = (healthy.step_ns(algorithm, k, bytes), sick.step_ns(algorithm, k, bytes));
            prop_assert!(s >= h);
            if algorithm == Collective::Ring {
                // A ring step moves 2 of 2N units per port and rounds the
                // time up: ⌈f·b/(N·β)⌉ > ⌈b/(N·β)⌉ exactly when f·b > N·β.
                let waits = straggle || factor * bytes > gpus as u64 * healthy.gbps;
                prop_assert_eq!(s > h, waits, "ring step {}: {} ns against {} ns", k, s, h);
            }
        }
    }

    /// Latency rules small messages, bandwidth large ones: below the
    /// crossover the tree is no slower, from it on the ring is no slower.
    /// Checked on both sides of the edge itself; "no slower" rather than
    /// "faster" because each total rounds up to a whole ns, so the two can tie.
    #[test]
    fn the_crossover_splits_tree_and_ring(gpus in 2usize..=64, alpha_ns in 100u64..=1_000_000, gbps in 1u64..=1_000) {
        let f = Fabric { gpus, alpha_ns, gbps, slow: None, straggler: None };
        if let Some(x) = f.crossover_bytes(Collective::Ring, Collective::Tree) {
            let t = |a, bytes| f.total_ns(a, bytes);
            for below in [x / 2, x - 1] {
                prop_assert!(t(Collective::Tree, below) <= t(Collective::Ring, below), "{} bytes, crossover {}", below, x);
            }
            for above in [x, x + 1, 2 * x] {
                prop_assert!(t(Collective::Ring, above) <= t(Collective::Tree, above), "{} bytes, crossover {}", above, x);
            }
        } else {
            // No crossover only when the ring has no more steps than the tree.
            let steps = |a| demos::net::allreduce::schedule::total_steps(a, gpus);
            prop_assert!(steps(Collective::Ring) <= steps(Collective::Tree));
        }
    }

    /// The same for NCCL's pipelined tree (its tuner's line): below the
    /// crossover it is no slower than the ring, from it on the ring is no
    /// slower. From 3 GPUs on it never loses to the unpipelined double tree:
    /// that one takes 2⌈log₂N⌉ ≥ 4 steps of α, each moving at least half the
    /// message through some port, so at least 2S/β in all. (With 2 GPUs the
    /// unpipelined tree is 2 steps of S/(2β), and NCCL's half-bus-bandwidth
    /// estimate is the slower line.)
    #[test]
    fn the_nccl_crossover_splits_the_pipelined_tree_and_ring(gpus in 2usize..=64, alpha_ns in 100u64..=1_000_000, gbps in 1u64..=1_000, bytes in 1u64..=1 << 34) {
        let f = Fabric { gpus, alpha_ns, gbps, slow: None, straggler: None };
        if gpus >= 3 {
            prop_assert!(f.nccl_tree_ns(bytes) <= f.total_ns(Collective::DoubleTree, bytes));
        }
        if let Some(x) = f.nccl_crossover_bytes() {
            let ring = |b| f.total_ns(Collective::Ring, b);
            for below in [x / 2, x - 1] {
                prop_assert!(f.nccl_tree_ns(below) <= ring(below), "{} bytes, crossover {}", below, x);
            }
            for above in [x, x + 1, 2 * x] {
                prop_assert!(ring(above) <= f.nccl_tree_ns(above), "{} bytes, crossover {}", above, x);
            }
        } else {
            // No crossover only when the ring's latency is no more than the
            // pipeline's: 2(N − 1) ≤ 2⌊log₂N⌋, i.e. N = 2.
            prop_assert_eq!(gpus, 2);
        }
    }

    /// N·S − (S − 1) ≤ B: the queue's peak (see the overflow test below)
    /// fits the port, so nothing overflows while no timer fires; later
    /// requests cannot peak higher, each server still adding at most one
    /// packet per link-time and S in all. A timer can still fire first, for a packet that
    /// is only late: with a 1 ms floor, RTO = SRTT + max(4·RTTVAR, floor)
    /// (Linux's rule) learned on an empty queue can be shorter than the RTT a full one
    /// causes (RFC 5682 §1). Its go-back-N resend is what may then overflow.
    /// When even the worst RTT stays under the RTO floor, no timer fires.
    #[test]
    fn incast_delivers_every_answer_and_loses_nothing_when_it_fits(config in incast_config()) {
        let mut m = Incast::new(&config);
        let (n, s) = (config.senders as u64, config.burst);
        // Exact edge, not the textbook N·S ≤ B, which left out the band
        // N·S − (S − 1) ≤ B < N·S where the buffer still holds the peak.
        let fits = n * s - (s - 1) <= m.path.buffer as u64;
        while m.next_auto().is_ok() {
            m.apply(&IncastAction::Event).unwrap();
            if fits && m.timeouts() == 0 {
                prop_assert_eq!(m.drops(), 0);
            }
            if fits && m.timeouts() == 1 {
                prop_assert_eq!(m.spurious_timeouts(), 1, "the first timeout must be for a late packet");
            }
        }
        prop_assert!(m.all_done());
        let want = config.burst * u64::from(config.requests);
        prop_assert!(m.path.flows.iter().all(|f| f.rcv_nxt == want));
        prop_assert!((0..m.senders()).all(|f| m.fate(f) == Fate::Delivered));
        let ser = m.path.serialise_ns;
        let worst_rtt = m.rtt_ns + (config.burst + config.senders as u64 * config.burst) * ser;
        let floor = m.path.flows[0].sender.rto_min;
        // At most the floor: worst_rtt is reached when S = 1, and at a tie
        // the ACK is handled before the timer (the path's event order).
        if fits && worst_rtt <= floor {
            prop_assert_eq!((m.drops(), m.timeouts()), (0, 0));
        }
    }

    /// Goodput never beats the link, and a request's time is at least the
    /// link time its packets need, plus the first packet's own access link.
    #[test]
    fn incast_goodput_stays_under_the_link_rate(config in incast_config()) {
        let mut m = Incast::new(&config);
        while m.next_auto().is_ok() {
            m.apply(&IncastAction::Slice).unwrap();
        }
        let ser = m.path.serialise_ns;
        let ideal = config.senders as u64 * config.burst * ser;
        for r in &m.finished {
            prop_assert!(r.duration_ns >= ideal + ser);
            // The first request, unharmed, reaches that bound exactly: the
            // first packets arrive after one link-time, then the port never idles.
            if r.number == 1 && r.drops == 0 && r.timeouts == 0 {
                prop_assert_eq!(r.duration_ns, ideal + ser);
            }
            prop_assert!(m.goodput_tenths(r) <= m.link_mbps * 10);
        }
        prop_assert!(m.overall_goodput_tenths() <= m.link_mbps * 10);
        prop_assert!(m.path.max_queue <= m.path.buffer);
    }

    /// The edge of the collapse. Every server's k-th packet reaches the port
    /// k link-times after the request, while the port drains one per
    /// link-time, so the queue peaks at N·S − (S − 1) packets: past B, the
    /// first request loses packets (the textbook N × S > B, less what drains
    /// during the burst).
    #[test]
    fn incast_overflows_exactly_when_the_burst_outgrows_the_buffer(config in incast_config()) {
        let config = IncastConfig { fixes: Fixes::default(), ..config };
        let (n, s) = (config.senders as u64, config.burst);
        let peak = n * s - (s - 1);
        let mut m = Incast::new(&config);
        // Run the first burst: until the last packet could have arrived, or
        // the run is over (one short request can be answered sooner, and the
        // model then refuses to go on, though ACKs are still on the wire).
        let until = (s + 1) * m.path.serialise_ns;
        while !m.all_done() && m.path.next_time().is_some_and(|t| t <= until) {
            m.apply(&IncastAction::Event).unwrap();
        }
        prop_assert_eq!(m.path.max_queue as u64, peak.min(config.buffer as u64));
        prop_assert_eq!(m.drops() > 0, peak > config.buffer as u64);
    }

    #[test]
    fn no_flow_beats_physics(config in congestion_config(), rtts in 1usize..30) {
        let mut t = Timeline::<Congestion>::new(config);
        for _ in 0..rtts {
            t.step().unwrap();
            let m = t.model();
            for (f, flow) in m.path.flows.iter().enumerate() {
                let s = &flow.sender;
                // No RTT below propagation plus the segment's own serialisation.
                prop_assert!(s.last_rtt == 0 || s.last_rtt >= flow.base_rtt + m.path.serialise_ns);
                // Nor above propagation plus a full buffer ahead of it.
                prop_assert!(s.last_rtt <= flow.base_rtt + m.path.buffer as u64 * m.path.serialise_ns);
                // Every reduction leaves ssthresh at 2 segments or more (RFC
                // 5681 §3.1 equation (4), RFC 9438 §4.6).
                prop_assert!(s.ssthresh == NO_LIMIT || s.ssthresh >= 2 * MSS);
                // No flow, and no pair of flows, delivers faster than the link.
                prop_assert!(m.goodput_tenths(f) <= m.link_mbps * 10);
            }
            prop_assert!(m.utilisation_tenths() <= 1000);
        }
    }

    #[test]
    fn hostile_scenario_text_never_panics(text in ".{0,400}") {
        let _ = Scenario::<Congestion>::decode(&text);
        let _ = Scenario::<Incast>::decode(&text);
        let _ = Scenario::<AllReduce>::decode(&text);
    }

    #[test]
    fn hostile_scenario_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        use base64::Engine;
        let text = format!("v1.{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&bytes));
        if let Ok(s) = Scenario::<Congestion>::decode(&text) {
            let _ = Timeline::<Congestion>::from_scenario(&s);
        }
        if let Ok(s) = Scenario::<Incast>::decode(&text) {
            let _ = Timeline::<Incast>::from_scenario(&s);
        }
        if let Ok(s) = Scenario::<AllReduce>::decode(&text) {
            let _ = Timeline::<AllReduce>::from_scenario(&s);
        }
    }
}

/// The crossover's edge at 4 GPUs, α = 1 µs, 1 GB/s: one byte below it the
/// tree is faster, at it the ring is.
#[test]
fn the_crossover_is_the_first_size_the_ring_wins() {
    let f = Fabric {
        gpus: 4,
        alpha_ns: 1_000,
        gbps: 1,
        slow: None,
        straggler: None,
    };
    let x = f
        .crossover_bytes(Collective::Ring, Collective::Tree)
        .unwrap();
    assert_eq!(x, 445);
    let t = |a, bytes| f.total_ns(a, bytes);
    assert_eq!(
        (t(Collective::Ring, x - 1), t(Collective::Tree, x - 1)),
        (6_666, 6_664)
    );
    assert_eq!(
        (t(Collective::Ring, x), t(Collective::Tree, x)),
        (6_668, 6_670)
    );
}

/// 4 GPUs at 25 GB/s, one link twice as slow: a 50-byte ring step still takes
/// α + 1 ns either way; at 51 bytes the slow port needs a second nanosecond.
#[test]
fn a_slow_link_shows_once_its_share_outgrows_a_nanosecond() {
    let healthy = Fabric {
        gpus: 4,
        alpha_ns: 10_000,
        gbps: 25,
        slow: None,
        straggler: None,
    };
    let sick = Fabric {
        slow: Some(SlowLink { gpu: 1, factor: 2 }),
        ..healthy
    };
    let step = |f: &Fabric, bytes| f.step_ns(Collective::Ring, 0, bytes);
    assert_eq!((step(&healthy, 50), step(&sick, 50)), (10_001, 10_001));
    assert_eq!((step(&healthy, 51), step(&sick, 51)), (10_001, 10_002));
}

/// An incast run from `config`, event by event until the model is idle.
fn run_incast(config: IncastConfig) -> Incast {
    let mut m = Incast::new(&config);
    while m.next_auto().is_ok() {
        m.apply(&IncastAction::Event).unwrap();
    }
    m
}

/// The incast edge is the peak N·S − (S − 1), not N·S: 4 servers of 4
/// packets peak at 13, so a 13-packet buffer loses nothing over a whole run
/// and a 12-packet one overflows.
#[test]
fn incast_overflows_one_packet_below_the_peak_and_not_at_it() {
    let run = |buffer| {
        let m = run_incast(IncastConfig {
            senders: 4,
            burst: 4,
            buffer,
            mark_k: 1,
            requests: 3,
            ..IncastConfig::default()
        });
        (m.path.max_queue, m.drops(), m.timeouts())
    };
    assert_eq!(run(13), (13, 0, 0));
    let (max_queue, drops, _) = run(12);
    assert_eq!((max_queue, drops > 0), (12, true));
}

/// An unharmed first request lasts exactly one link-time per packet plus the
/// first packet's access link.
#[test]
fn an_unharmed_first_request_takes_n_s_plus_one_link_times() {
    let m = run_incast(IncastConfig {
        senders: 2,
        burst: 3,
        requests: 1,
        ..IncastConfig::default()
    });
    let r = m.finished[0];
    assert_eq!((r.drops, r.timeouts), (0, 0));
    assert_eq!(r.duration_ns, 7 * m.path.serialise_ns);
}

/// 64 one-packet answers, 1 ms RTO floor. The timer, armed at the send,
/// fires at SRTT + 1 ms (Linux adds the floor to SRTT; the seeded SRTT is
/// the RTT plus one link-time); the last ACK comes back after the RTT and
/// 65 link-times. The RTT cancels: the ACK is in time when 64 link-times
/// fit in 1 ms. At 768 Mbit/s a 1,500-byte packet takes 15,625 ns, and 64
/// of them take exactly 1 ms: the ACK beats a timer due at the same
/// instant; at 767 Mbit/s the timer fires first.
#[test]
fn the_last_ack_beats_a_timer_due_at_the_same_instant() {
    let run = |link_mbps| {
        let m = run_incast(IncastConfig {
            senders: 64,
            burst: 1,
            buffer: 64,
            link_mbps,
            rtt_us: 220,
            // A second request keeps the run going until the last ACK is in.
            requests: 2,
            mark_k: 1,
            fixes: Fixes {
                fine_rto: true,
                ..Fixes::default()
            },
            ..IncastConfig::default()
        });
        let s = &m.path.flows[63].sender;
        let last_ack = m.rtt_ns + 65 * m.path.serialise_ns;
        let timer = m.rtt_ns + m.path.serialise_ns + 1_000_000;
        (last_ack.cmp(&timer), m.timeouts(), s.rto_min)
    };
    let (edge, timeouts, floor) = run(768);
    assert_eq!(
        (edge, timeouts, floor),
        (std::cmp::Ordering::Equal, 0, 1_000_000)
    );
    let (edge, timeouts, _) = run(767);
    assert_eq!(edge, std::cmp::Ordering::Greater);
    assert!(timeouts > 0);
}
