//! The `/fabric/ecmp` demo against random settings and actions: the laws
//! every model obeys; the closed forms against a direct count over every
//! placement; ECMP's step set by its busiest uplink; no packet lost or
//! made; ECMP and long-paused flowlets never reorder (FLARE's rule).

use demos::fabric::ecmp::odds::Odds;
use demos::fabric::ecmp::send::{alone, run, Balancer, Pauses, PACKETS};
use demos::fabric::ecmp::{Ecmp, EcmpAction as A, EcmpConfig, FLOWS, GAPS, PATHS, PAUSE, QPS};
use demos::laws::check_laws;
use demos::{Model, Scenario, Timeline};
use proptest::prelude::*;

fn balancer() -> impl Strategy<Value = Balancer> {
    prop::sample::select(Balancer::ALL.to_vec())
}

fn config() -> impl Strategy<Value = EcmpConfig> {
    (
        FLOWS.min..=FLOWS.max,
        PATHS.min..=PATHS.max,
        QPS.min..=QPS.max,
        balancer(),
        GAPS.min..=GAPS.max,
        PAUSE.min..=PAUSE.max,
        any::<u64>(),
    )
        .prop_map(
            |(flows, paths, qps, balancer, gaps, pause, seed)| EcmpConfig {
                flows,
                paths,
                qps,
                balancer,
                gaps,
                pause,
                seed,
            },
        )
}

fn action() -> impl Strategy<Value = A> {
    prop_oneof![
        6 => Just(A::Place),
        2 => Just(A::PlaceAll),
        3 => Just(A::Send),
        1 => Just(A::Redraw),
        1 => (0u32..40).prop_map(A::SetFlows),
        1 => (0u32..20).prop_map(A::SetPaths),
        1 => (0u32..6).prop_map(A::SetQps),
        1 => balancer().prop_map(A::SetBalancer),
        1 => (0u32..9).prop_map(A::SetGaps),
        1 => (0u32..300).prop_map(A::SetPause),
    ]
}

/// Every one of k^N placements, counted: (mean idle, P(no collision),
/// mean busiest).
fn enumerate(n: usize, k: usize) -> (f64, f64, f64) {
    let total = k.pow(n as u32);
    let (mut idle, mut apart, mut busiest) = (0usize, 0usize, 0usize);
    for code in 0..total {
        let mut load = vec![0usize; k];
        let mut c = code;
        for _ in 0..n {
            load[c % k] += 1;
            c /= k;
        }
        idle += load.iter().filter(|&&l| l == 0).count();
        let most = load.iter().copied().max().unwrap_or(0);
        apart += usize::from(most <= 1);
        busiest += most;
    }
    let t = total as f64;
    (idle as f64 / t, apart as f64 / t, busiest as f64 / t)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn the_demo_obeys_the_laws(config in config(), actions in prop::collection::vec(action(), 0..30)) {
        prop_assert_eq!(check_laws::<Ecmp>(config, &actions), Ok(()));
    }

    #[test]
    fn the_closed_forms_count_every_placement(n in 1usize..=6, k in 2usize..=5) {
        let (idle, apart, busiest) = enumerate(n, k);
        let o = Odds::of(n, k);
        prop_assert!((o.idle - idle).abs() < 1e-9);
        prop_assert!((o.no_collision - apart).abs() < 1e-9);
        prop_assert!((o.expected_busiest() - busiest).abs() < 1e-9);
        let total: f64 = (0..=n).map(|m| o.busiest_is(m)).sum();
        prop_assert!((total - 1.0).abs() < 1e-9);
    }

    /// One QP, no pauses: ECMP's step is the busiest uplink's connections
    /// times a connection alone, and the status says so.
    #[test]
    fn ecmp_waits_for_its_busiest_uplink(flows in FLOWS.min..=FLOWS.max, paths in PATHS.min..=PATHS.max, seed in any::<u64>()) {
        let mut m = Ecmp::new(&EcmpConfig { flows, paths, seed, ..EcmpConfig::default() });
        m.apply(&A::PlaceAll).unwrap();
        let s = m.step();
        prop_assert_eq!(s.ticks, m.busiest_now() as u64 * PACKETS as u64);
        prop_assert_eq!(m.stretch(&s), m.stretch_for(m.busiest_now()));
    }

    /// Every balancer carries every packet; ECMP never reorders; neither
    /// do flowlets whose pause outlasts any queue.
    #[test]
    fn packets_are_kept_and_order_follows_flare(config in config()) {
        let mut m = Ecmp::new(&config);
        m.apply(&A::PlaceAll).unwrap();
        for b in Balancer::ALL {
            let s = m.step_with(b);
            prop_assert_eq!(s.carried.iter().sum::<usize>(), m.flows() * PACKETS);
            prop_assert!(s.ticks >= m.alone());
        }
        prop_assert_eq!(m.step_with(Balancer::Ecmp).out_of_order, 0);
        let longest_queue = (m.flows() * PACKETS) as u64;
        let calm = Pauses { gaps: 3, pause: longest_queue };
        let s = run(Balancer::Flowlet, &m.hashed(), m.paths(), calm, config.seed);
        prop_assert_eq!(s.out_of_order, 0);
        prop_assert!(s.ticks >= alone(calm));
    }

    #[test]
    fn hostile_links_never_panic(text in ".{0,300}", bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        use base64::Engine;
        let _ = Scenario::<Ecmp>::decode(&text);
        let encoded = format!("v1.{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&bytes));
        if let Ok(s) = Scenario::<Ecmp>::decode(&encoded) {
            let _ = Timeline::<Ecmp>::from_scenario(&s);
        }
    }
}

/// The Toeplitz hash behaves like the ideal one the closed forms assume:
/// over 2,000 draws of 8 connections on 8 uplinks, the mean idle uplinks
/// and busiest load are within a few standard errors of the exact values.
#[test]
fn the_real_hash_matches_the_closed_forms_on_average() {
    let draws = 2_000u64;
    let (mut idle, mut busiest) = (0usize, 0usize);
    for seed in 0..draws {
        let mut m = Ecmp::new(&EcmpConfig {
            seed,
            ..EcmpConfig::default()
        });
        m.apply(&A::PlaceAll).unwrap();
        idle += m.idle_now();
        busiest += m.busiest_now();
    }
    let o = Odds::of(8, 8);
    let mean_idle = idle as f64 / draws as f64;
    let mean_busiest = busiest as f64 / draws as f64;
    // Standard deviations are below 1.2 for both; 4 standard errors.
    let slack = 4.0 * 1.2 / (draws as f64).sqrt();
    assert!(
        (mean_idle - o.idle).abs() < slack,
        "{mean_idle} vs {}",
        o.idle
    );
    assert!(
        (mean_busiest - o.expected_busiest()).abs() < slack,
        "{mean_busiest} vs {}",
        o.expected_busiest()
    );
}
