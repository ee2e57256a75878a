use super::*;
use crate::model::Tone;

fn numa(edit: impl FnOnce(&mut NumaConfig)) -> Numa {
    let mut c = NumaConfig::default();
    edit(&mut c);
    Numa::new(&c)
}

fn fig(m: &Numa, key: &str) -> String {
    m.status().into_iter().find(|f| f.key == key).unwrap().value
}

#[test]
fn first_touch_without_migration_keeps_every_access_local() {
    let mut m = numa(|_| {});
    m.apply(&NumaAction::Finish).unwrap();
    assert_eq!((m.local, m.remote), (256, 0));
    assert!(m.page_node.iter().all(|&n| n == Some(0)));
    assert_eq!(fig(&m, "avg-latency"), "90.0 ns");
    // One dependent load at a time: 64 bytes per 90 ns.
    assert_eq!(fig(&m, "bandwidth"), "0.7 GB/s");
    assert_eq!(m.link_bytes, vec![0]);
}

#[test]
fn break_it_moves_the_thread_after_first_touch_and_every_access_goes_remote() {
    let mut m = numa(|c| c.migrate_after_touch = true);
    let mut moved = false;
    for _ in 0..16 {
        let events = m.apply(&NumaAction::Access).unwrap();
        moved |= events
            .iter()
            .any(|e| e.tone == Tone::Warn && e.text.contains("socket 1"));
    }
    assert!(moved, "the 16th first touch triggers the move");
    assert_eq!((m.thread, m.local, m.remote), (1, 16, 0));
    m.apply(&NumaAction::Finish).unwrap();
    assert_eq!((m.local, m.remote), (16, 240));
    // (16 × 90 + 240 × 144) / 256 = 140.6 ns.
    assert_eq!(fig(&m, "avg-latency"), "140.6 ns");
    assert_eq!(m.link_bytes, vec![240 * 64]);
}

#[test]
fn interleave_sends_every_other_page_across_the_link() {
    let mut m = numa(|c| c.policy = Policy::Interleave);
    m.apply(&NumaAction::Finish).unwrap();
    assert_eq!((m.local, m.remote), (128, 128));
    assert_eq!(fig(&m, "avg-latency"), "117.0 ns");
    let nodes: Vec<_> = m.page_node.iter().take(4).map(|n| n.unwrap()).collect();
    assert_eq!(nodes, vec![0, 1, 0, 1]);
}

#[test]
fn binding_to_the_other_node_makes_everything_remote() {
    let mut m = numa(|c| c.policy = Policy::Bind(1));
    m.apply(&NumaAction::Run(10)).unwrap();
    assert_eq!((m.local, m.remote), (0, 10));
    assert_eq!(m.avg_latency_tenths(), 1440);
}

#[test]
fn four_sockets_form_a_ring_with_a_two_hop_far_side() {
    let m = numa(|c| c.sockets = 4);
    assert_eq!(hops(4, 0, 2), 2);
    assert_eq!(hops(4, 3, 0), 1);
    assert_eq!(m.latency_ns(0, 2), 198);
    let row: Vec<u32> = (0..4).map(|n| m.distance(0, n)).collect();
    assert_eq!(row, vec![10, 16, 22, 16]);
    assert_eq!(route(4, 0, 2), vec![0, 1]);
    assert_eq!(route(4, 0, 3), vec![3]);
    assert_eq!(route(4, 3, 1), vec![3, 0]);
    let mut m = numa(|c| {
        c.sockets = 4;
        c.policy = Policy::Bind(2);
    });
    m.apply(&NumaAction::Run(4)).unwrap();
    assert_eq!(m.link_bytes, vec![256, 256, 0, 0]);
    assert_eq!(m.worst_latency_ns(), 198);
}

/// The lecturer's case: 64 misses offered used to pull 28.4 GB/s over the
/// link (and 45 GB/s locally) from one thread. The core's 10 fill buffers
/// keep 10 in flight: 10 × 64 B / 144 ns = 4.4 GB/s remote.
#[test]
fn a_cores_fill_buffers_cap_the_misses_in_flight_and_its_bandwidth() {
    let mut m = numa(|c| {
        c.policy = Policy::Bind(1);
        c.in_flight = 64;
    });
    assert_eq!(m.lines_in_flight(), DEFAULT_FILL_BUFFERS);
    assert!(m.fill_buffer_bound());
    m.apply(&NumaAction::Finish).unwrap();
    // max(144 ns / 10, 64 B / 34 GB/s) = 14.4 ns per line.
    assert_eq!(fig(&m, "bandwidth"), "4.4 GB/s");
    assert_eq!(fig(&m, "link-load"), "13.1 %");
    assert_eq!(fig(&m, "in-flight"), "10 of 64 (fill buffers)");
    assert!(m.remote_latency_bound());
    assert_eq!(m.thread_ceiling_tenths(0, 0), 71);
    assert_eq!(m.thread_ceiling_tenths(0, 1), 44);
    let why = m.why().join("\n");
    assert!(
        why.contains("but the core's 10 L1D fill buffers keep only 10 in flight"),
        "{why}"
    );
    assert!(why.contains("7.1 GB/s from local memory"), "{why}");
    assert!(why.contains("reached only with many cores"), "{why}");

    // Local, with 64 offered: 7.1 GB/s, not the 45 of an unlimited core.
    let mut local = numa(|c| c.in_flight = 64);
    local.apply(&NumaAction::Finish).unwrap();
    assert_eq!(fig(&local, "bandwidth"), "7.1 GB/s");

    // A core with more fill buffers than the code offers: the code limits.
    let events = m.apply(&NumaAction::SetInFlight(8)).unwrap();
    assert_eq!(m.lines_in_flight(), 8);
    assert!(!m.fill_buffer_bound());
    assert!(events[0].text.starts_with("8 misses in flight."));
}

/// With enough lines in flight and a thin link the link's bandwidth caps a
/// remote walk.
#[test]
fn a_thin_link_caps_a_remote_walk_with_enough_lines_in_flight() {
    let mut m = numa(|c| {
        c.policy = Policy::Bind(1);
        c.in_flight = 32;
        c.fill_buffers = 32;
        c.link_gbs = 5;
    });
    m.apply(&NumaAction::Finish).unwrap();
    // 144 ns / 32 = 4.5 ns per line, but 64 B at 5 GB/s takes 12.8 ns.
    assert!(!m.remote_latency_bound());
    assert_eq!(fig(&m, "bandwidth"), "5.0 GB/s");
    assert_eq!(m.thread_ceiling_tenths(0, 1), 50);
}

#[test]
fn a_new_policy_only_governs_pages_touched_after_it() {
    let mut m = numa(|_| {});
    m.apply(&NumaAction::Run(8)).unwrap();
    m.apply(&NumaAction::SetPolicy(Policy::Bind(1))).unwrap();
    m.apply(&NumaAction::Run(16)).unwrap();
    assert!(m.page_node[..8].iter().all(|&n| n == Some(0)));
    assert!(m.page_node[8..].iter().all(|&n| n == Some(1)));
    assert_eq!((m.local, m.remote), (16, 8));
}

#[test]
fn moving_the_thread_by_hand_leaves_its_pages_behind() {
    let mut m = numa(|_| {});
    m.apply(&NumaAction::Run(16)).unwrap();
    m.apply(&NumaAction::Migrate(1)).unwrap();
    m.apply(&NumaAction::Run(16)).unwrap();
    assert_eq!((m.local, m.remote, m.migrations), (16, 16, 1));
    assert!(m.why().iter().any(|s| s.contains("not moved")));
}

#[test]
fn impossible_actions_are_refused_and_change_nothing() {
    let mut m = numa(|c| c.accesses = 4);
    let fresh = m.clone();
    for action in [
        NumaAction::Migrate(0),
        NumaAction::Migrate(2),
        NumaAction::SetPolicy(Policy::Bind(2)),
        NumaAction::SetPolicy(Policy::FirstTouch),
        NumaAction::SetSockets(3),
        NumaAction::SetSockets(2),
        NumaAction::SetInFlight(0),
        NumaAction::SetInFlight(65),
        NumaAction::Run(0),
        NumaAction::Run(5),
        NumaAction::Restart,
        NumaAction::SetBreakIt(false),
    ] {
        assert!(m.apply(&action).is_err(), "{action:?}");
        assert_eq!(m, fresh);
    }
    m.apply(&NumaAction::Finish).unwrap();
    assert!(m.apply(&NumaAction::Access).is_err());
    assert!(m.next_auto().is_err());
}

#[test]
fn invalid_configs_are_rejected() {
    let bad = [
        NumaConfig {
            sockets: 3,
            ..NumaConfig::default()
        },
        NumaConfig {
            pages: 0,
            ..NumaConfig::default()
        },
        NumaConfig {
            start_socket: 2,
            ..NumaConfig::default()
        },
        NumaConfig {
            policy: Policy::Bind(5),
            ..NumaConfig::default()
        },
        NumaConfig {
            link_gbs: 0,
            ..NumaConfig::default()
        },
        NumaConfig {
            local_ns: 5000,
            ..NumaConfig::default()
        },
    ];
    for c in bad {
        assert!(Numa::validate(&c).is_err(), "{c:?}");
    }
}

#[test]
fn each_access_records_its_latency_and_the_bandwidth_of_its_path() {
    let mut m = numa(|c| c.migrate_after_touch = true);
    m.apply(&NumaAction::Run(17)).unwrap();
    let local = m.recent[0];
    assert_eq!((local.hops, local.latency_ns, local.gbs), (0, 90, 104));
    // Access 17 runs after the break-it move: page 0 is now a hop away.
    let remote = *m.last().unwrap();
    assert_eq!(
        (remote.number, remote.page, remote.from, remote.node),
        (17, 0, 1, 0)
    );
    assert_eq!((remote.hops, remote.latency_ns, remote.gbs), (1, 144, 34));
    m.apply(&NumaAction::Finish).unwrap();
    assert_eq!(m.recent.len(), RECENT_KEPT);
    assert_eq!(m.recent[0].number, 256 - RECENT_KEPT + 1);
}
