use super::*;
use crate::model::Tone;

fn with(rate_pps: u32, rx_usecs: u32, rx_frames: u32) -> Coalescing {
    Coalescing::new(&CoalescingConfig {
        rate_pps,
        rx_usecs,
        rx_frames,
        ..CoalescingConfig::default()
    })
}

fn run(m: &mut Coalescing, until: u64) {
    while m.now < until {
        m.apply(&CoalescingAction::Advance).unwrap();
        m.check().unwrap();
    }
}

#[test]
fn the_timer_fires_rx_usecs_after_the_first_waiting_packet() {
    // 100 k pkt/s: a packet every 10 µs. rx-usecs 30: the interrupt fires
    // at 30 µs with 3 packets waiting; the poll also takes the one arriving
    // at 30 µs, and re-arms at 37.5 µs.
    let mut m = with(100_000, 30, 32);
    run(&mut m, STEP_NS);
    let first = m.recent_irqs[0];
    assert_eq!((first.timer_start, first.at), (0, 30_000));
    assert!(!first.by_frames);
    assert_eq!((first.batch, first.poll_end), (4, Some(37_500)));
    // Waits 33, 24.5, 16 and 7.5 µs: 20.25 µs on average.
    assert_eq!((m.totals.done, m.avg_latency_ns()), (4, 20_250));
}

#[test]
fn the_frame_count_can_fire_first() {
    let mut m = with(100_000, 250, 4);
    run(&mut m, STEP_NS);
    let first = m.recent_irqs[0];
    assert!(first.by_frames);
    assert_eq!(first.at, 30_000, "the 4th packet arrives at 30 µs");
}

#[test]
fn no_coalescing_is_one_interrupt_per_packet_and_the_shortest_wait() {
    let mut m = with(100_000, 0, 1);
    run(&mut m, 1_000_000);
    assert_eq!(m.totals.irqs, m.totals.arrived);
    assert_eq!(m.avg_latency_ns(), IRQ.delay_ns() + PACKET_NS);
}

#[test]
fn longer_waits_buy_fewer_interrupts_and_less_cpu() {
    let m = with(200_000, 30, 32);
    let rows: Vec<Summary> = [(0, 1), (10, 0), (50, 0), (125, 0)]
        .iter()
        .map(|&(u, f)| m.summary(u, f))
        .collect();
    for pair in rows.windows(2) {
        assert!(pair[1].irqs_per_s < pair[0].irqs_per_s);
        assert!(pair[1].avg_latency_ns > pair[0].avg_latency_ns);
        assert!(pair[1].cpu_tenths <= pair[0].cpu_tenths);
    }
}

#[test]
fn packets_during_a_poll_raise_no_interrupt() {
    // 500 k pkt/s, no coalescing: a packet every 2 µs while a poll runs for
    // at least 3 µs, so NAPI takes several per interrupt by itself.
    let mut m = with(500_000, 0, 1);
    run(&mut m, 1_000_000);
    assert!(m.totals.irqs < m.totals.done / 2);
}

#[test]
fn both_zero_is_refused_by_this_driver_not_by_ethtool() {
    let mut m = with(100_000, 30, 0);
    let why = m.apply(&CoalescingAction::SetUsecs(0)).unwrap_err().reason;
    assert!(why.contains("each driver's choice, not ethtool's"), "{why}");
    assert!(!why.contains("ethtool refuses"), "{why}");
    let bad = CoalescingConfig {
        rx_usecs: 0,
        rx_frames: 0,
        ..CoalescingConfig::default()
    };
    assert!(Coalescing::validate(&bad).is_err());
}

#[test]
fn adaptive_climbs_to_bulk_under_load_and_falls_to_lowest_when_quiet() {
    let mut busy = with(500_000, 30, 32);
    busy.apply(&CoalescingAction::SetAdaptive(true)).unwrap();
    run(&mut busy, 1_000_000);
    assert_eq!(busy.class, 2, "{}", busy.setting_label());
    let mut quiet = with(10_000, 30, 32);
    quiet.apply(&CoalescingAction::SetAdaptive(true)).unwrap();
    run(&mut quiet, 1_000_000);
    assert_eq!(quiet.class, 0, "{}", quiet.setting_label());
    assert_eq!(quiet.usecs_now(), 10);
}

#[test]
fn counting_frames_only_strands_packets_at_a_low_rate() {
    let mut m = with(100_000, 30, 32);
    m.apply(&CoalescingAction::FramesOnly).unwrap();
    let mut stranded = false;
    while m.now < HORIZON_NS {
        let events = m.apply(&CoalescingAction::Advance).unwrap();
        stranded |= events.iter().any(|e| e.tone == Tone::Fault);
        m.check().unwrap();
    }
    assert!(stranded);
    assert_eq!(m.totals.irqs, 0, "32 packets take 3.1 ms at 10 k pkt/s");
    assert!(m.now - m.pending[0] > STRANDED_NS);
    assert!(m.apply(&CoalescingAction::FramesOnly).is_err());
}

#[test]
fn a_rate_change_applies_from_now_on() {
    let mut m = with(10_000, 30, 32);
    run(&mut m, 100_000);
    m.apply(&CoalescingAction::SetRate(500_000)).unwrap();
    assert!(m.next_arrival <= m.now + 2_000);
    run(&mut m, 200_000);
    assert!(m.totals.arrived > 40);
}

#[test]
fn the_run_ends_at_the_horizon() {
    let mut m = with(100_000, 30, 32);
    m.apply(&CoalescingAction::RunToEnd).unwrap();
    assert_eq!(m.now, HORIZON_NS);
    assert!(m.next_auto().is_err());
    assert!(m.apply(&CoalescingAction::Advance).is_err());
}

#[test]
fn out_of_range_settings_are_refused_and_change_nothing() {
    let mut m = with(100_000, 30, 32);
    let before = m.clone();
    for a in [
        CoalescingAction::SetRate(123),
        CoalescingAction::SetUsecs(USECS.max + 1),
        CoalescingAction::SetFrames(FRAMES.max + 1),
        CoalescingAction::SetFrameBytes(100),
        CoalescingAction::SetAdaptive(false),
    ] {
        assert!(m.apply(&a).is_err(), "{a:?}");
    }
    assert_eq!(m, before);
}

#[test]
fn an_interrupt_is_counted_as_busy_poll_counts_it() {
    // One packet, no coalescing: MSI-X delivery (500 ns) and the handler
    // (1,000 ns) delay the poll, but only the handler is CPU time, as in
    // the busy-poll demo, whose plain SO_BUSY_POLL pays the handler alone.
    let mut m = with(10_000, 0, 1);
    m.apply(&CoalescingAction::Advance).unwrap();
    assert_eq!(m.totals.done, 1);
    assert_eq!(m.avg_latency_ns(), 500 + 1_000 + 1_500);
    assert_eq!(m.totals.busy_ns, 1_000 + 1_500);
    let mut bp = crate::nic::busy_poll::BusyPoll::new(&Default::default());
    bp.apply(&crate::nic::busy_poll::BusyPollAction::Stage(
        crate::nic::stages::StageAction::Use {
            technique: crate::nic::busy_poll::BUSY,
            on: true,
        },
    ))
    .unwrap();
    assert_eq!(bp.cpu().leftover_irq_ns, IRQ.cpu_ns());
    let sentences = m.sentences().join(" ");
    assert!(sentences.contains("costs 1.0 µs of CPU"), "{sentences}");
}

#[test]
fn dynamic_mode_is_credited_to_ixgbe_rx_usecs_1_not_adaptive_rx() {
    let mut m = with(100_000, 30, 32);
    let events = m.apply(&CoalescingAction::SetAdaptive(true)).unwrap();
    let text = &events[0].text;
    assert!(text.starts_with("ethtool -C rx-usecs 1 on ixgbe"), "{text}");
    assert!(!text.contains("adaptive-rx on"), "{text}");
    assert!(m.setting_label().starts_with("ixgbe dynamic"));
    assert!(Coalescing::leaves_out().contains("net_dim"));
}

#[test]
fn the_settings_bounds_are_the_refusals() {
    let mut m = with(100_000, 30, 32);
    let why = m
        .apply(&CoalescingAction::SetUsecs(251))
        .unwrap_err()
        .reason;
    assert_eq!(why, USECS.out_of_range(251));
    let bad = CoalescingConfig {
        rx_frames: 65,
        ..CoalescingConfig::default()
    };
    assert_eq!(Coalescing::validate(&bad), Err(FRAMES.out_of_range(65)));
}

#[test]
fn a_lone_packets_wait_is_the_closed_form_the_journey_reads() {
    // 10 k pkt/s: the next packet comes 100 µs later, so the first waits
    // alone; the simulation fires where burst_wait_ns says, for each way
    // the setting can fire.
    for (usecs, frames) in [(30, 32), (10, 0), (0, 1), (50, 1)] {
        let mut m = with(10_000, usecs, frames);
        run(&mut m, STEP_NS);
        let first = m.recent_irqs[0];
        assert_eq!(
            Some(first.at - first.timer_start),
            burst_wait_ns(usecs, frames, 1),
            "rx-usecs {usecs}, rx-frames {frames}"
        );
    }
}
