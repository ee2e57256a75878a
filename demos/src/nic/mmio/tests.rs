use super::*;

fn mmio() -> Mmio {
    Mmio::new(&MmioConfig::default())
}

#[test]
fn posted_writes_free_the_core_after_their_issue_cost() {
    let m = mmio();
    assert_eq!(m.writes_core_free(), 5 * 60);
    assert_eq!(m.last_write_lands(), 300 + 300);
    assert_eq!(m.core_state(OpKind::Write, 299), CoreState::Issuing(4));
    assert_eq!(m.core_state(OpKind::Write, 300), CoreState::Free);
}

#[test]
fn posted_writes_land_in_issue_order_one_way_after_posting() {
    let m = mmio();
    let lands: Vec<u64> = m.writes().iter().map(|w| w.at_device).collect();
    assert_eq!(lands, vec![360, 420, 480, 540, 600]);
    assert!(m.writes().iter().all(|w| w.completed.is_none()));
}

#[test]
fn reads_stall_a_full_round_trip_and_serialise() {
    let m = mmio();
    let reads = m.reads();
    assert_eq!(reads[0].completed, Some(660));
    assert_eq!(reads[1].issue_start, 660);
    assert_eq!(m.reads_core_free(), 5 * 660);
    assert_eq!(m.core_state(OpKind::Read, 100), CoreState::Stalled(0));
    assert_eq!(m.core_state(OpKind::Read, 665), CoreState::Issuing(1));
}

#[test]
fn speedup_is_reads_time_over_writes_time() {
    let m = mmio();
    assert!((m.speedup() - 11.0).abs() < 1e-9);
    let status = m.status();
    let fig = status.iter().find(|f| f.key == "speedup").unwrap();
    assert_eq!(fig.value, "11.0× sooner");
}

#[test]
fn advance_visits_every_event_in_order_then_stops() {
    let mut m = mmio();
    let times = m.event_times();
    for &t in &times {
        let events = m.apply(&MmioAction::Advance).unwrap();
        assert_eq!(m.now, t);
        assert!(events[0].text.starts_with(&format!("t = {t} ns")));
        m.check().unwrap();
    }
    assert_eq!(m.now, m.horizon());
    assert!(m.next_auto().is_err());
    assert!(m.apply(&MmioAction::Advance).is_err());
    assert_eq!(m.retired_reads(m.now), 5);
    assert_eq!(m.landed(OpKind::Write, m.now), 5);
}

#[test]
fn run_to_end_jumps_to_the_horizon() {
    let mut m = mmio();
    m.apply(&MmioAction::RunToEnd).unwrap();
    assert_eq!(m.now, 3300);
    assert!(m.apply(&MmioAction::RunToEnd).is_err());
}

#[test]
fn changing_a_setting_restarts_the_clock() {
    let mut m = mmio();
    m.apply(&MmioAction::Advance).unwrap();
    m.apply(&MmioAction::SetRoundTrip(1000)).unwrap();
    assert_eq!(m.now, 0);
    assert_eq!(m.reads_core_free(), 5 * 1060);
    m.apply(&MmioAction::SetCount(16)).unwrap();
    assert_eq!(m.writes().len(), 16);
}

#[test]
fn a_register_read_in_the_hot_loop_slows_it_by_the_round_trip() {
    let mut m = mmio();
    assert!(m.status().iter().all(|f| f.key != "slowdown"));
    let events = m.apply(&MmioAction::SetHotRead(true)).unwrap();
    assert_eq!(events[0].tone, crate::model::Tone::Fault);
    assert_eq!(m.read_packet_ns(), 200 + 60 + 600);
    assert!((m.slowdown() - 4.3).abs() < 1e-9);
    let status = m.status();
    let get = |k: &str| status.iter().find(|f| f.key == k).unwrap().value.clone();
    assert_eq!(get("pps-plain"), "5.00 M pkt/s");
    assert_eq!(get("pps-read"), "1.16 M pkt/s");
    assert_eq!(get("slowdown"), "4.3×");
    assert_eq!(m.loop_packets(3300), (16, 3));
}

#[test]
fn loop_lanes_are_capped() {
    let mut m = mmio();
    m.apply(&MmioAction::SetWork(20)).unwrap();
    m.apply(&MmioAction::SetCount(16)).unwrap();
    m.apply(&MmioAction::SetRoundTrip(2000)).unwrap();
    let plain = m.loop_segments(false);
    assert_eq!(plain.len(), 1);
    assert_eq!(plain[0].label, "1648 packets back to back");
    m.apply(&MmioAction::SetIssue(ISSUE.max)).unwrap();
    // The longest run, with the shortest pass a read loop can have.
    let worst = m.horizon() / (ISSUE.min + RTT.min + WORK.min);
    assert!(worst <= MAX_DRAWN as u64);
}

#[test]
fn out_of_range_and_repeated_settings_are_refused() {
    let mut m = mmio();
    for a in [
        MmioAction::SetIssue(9),
        MmioAction::SetIssue(201),
        MmioAction::SetIssue(60),
        MmioAction::SetRoundTrip(99),
        MmioAction::SetRoundTrip(2001),
        MmioAction::SetCount(0),
        MmioAction::SetCount(17),
        MmioAction::SetWork(19),
        MmioAction::SetHotRead(false),
    ] {
        assert!(m.apply(&a).is_err(), "{a:?}");
    }
    assert_eq!(m, mmio());
}

#[test]
fn invalid_configs_are_rejected() {
    let bad = MmioConfig {
        rtt_ns: 50,
        ..MmioConfig::default()
    };
    assert!(Mmio::validate(&bad).is_err());
    assert!(Mmio::validate(&MmioConfig::default()).is_ok());
}

#[test]
fn the_core_lane_covers_the_whole_run_without_gaps() {
    let m = mmio();
    for kind in [OpKind::Write, OpKind::Read] {
        let segs = m.core_segments(kind);
        assert_eq!(segs[0].start, 0);
        assert!(segs.windows(2).all(|w| w[0].end == w[1].start));
        assert_eq!(segs.last().unwrap().end, m.horizon());
    }
}

#[test]
fn validation_refusal_and_slider_read_one_bound_each() {
    let bad = MmioConfig {
        rtt_ns: RTT.max + 1,
        ..MmioConfig::default()
    };
    assert_eq!(Mmio::validate(&bad), Err(RTT.out_of_range(RTT.max + 1)));
    let mut m = Mmio::new(&MmioConfig::default());
    let why = m.apply(&MmioAction::SetIssue(5)).unwrap_err().reason;
    assert_eq!(why, "The issue cost is 10 to 200 ns; 5 ns is out of range.");
    assert!(m.apply(&MmioAction::SetCount(COUNT.max + 1)).is_err());
    assert!(m.apply(&MmioAction::SetWork(WORK.min - 1)).is_err());
}
