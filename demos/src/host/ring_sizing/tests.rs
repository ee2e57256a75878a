use super::ddio::{ddio_bytes, lines_per_frame, written_per_frame};
use super::ring::{holds, rounded_up};
use super::sizing::{Largest, Smallest};
use super::wire::{frame_ps, wire_bytes};
use super::{micros, RingSizing, RingSizingAction, RingSizingConfig};
use crate::Model;

fn demo(change: impl FnOnce(&mut RingSizingConfig)) -> RingSizing {
    let mut config = RingSizingConfig::default();
    change(&mut config);
    RingSizing::build(&config).expect("a valid configuration")
}

fn finished(mut m: RingSizing) -> RingSizing {
    m.apply(&RingSizingAction::Finish).unwrap();
    m
}

/// The figure: 1,024 entries × 1,500 B at 100 Gb/s ≈ 126 µs, once
/// each frame's 38 bytes of header, FCS, preamble, SFD and gap count:
/// 1,538 bytes = 12,304 bits = 123.04 ns. The ring holds 1,023 of them.
#[test]
fn a_1024_entry_ring_absorbs_about_126_microseconds() {
    assert_eq!(wire_bytes(1_500), 1_538);
    assert_eq!(frame_ps(1_500, 100), 123_040);
    assert_eq!(holds(1_024), 1_023);
    let m = demo(|_| {});
    assert_eq!(m.absorbs_ps(), 1_023 * 123_040);
    assert_eq!(micros(m.absorbs_ps()), "125.9 µs");
}

/// The smallest frame: 46 bytes of packet make a 64-byte frame, 84 bytes
/// of line time, 6.72 ns at 100 Gb/s (14.88 M frames a second).
#[test]
fn a_minimum_frame_takes_84_bytes_of_line() {
    assert_eq!(wire_bytes(46), 84);
    assert_eq!(frame_ps(46, 100), 6_720);
    assert_eq!(frame_ps(46, 10), 67_200);
}

/// 24.75 MiB over 11 ways, 2 of them DDIO's: 4.5 MiB. A full frame is 24
/// lines written plus a 32-byte descriptor.
#[test]
fn ddio_holds_two_elevenths_of_the_xeon_gold_6140_llc() {
    assert_eq!(ddio_bytes(25_344, 11, 2), 4_718_592);
    assert_eq!(lines_per_frame(1_500), 24);
    assert_eq!(written_per_frame(1_500), 24 * 64 + 32);
    assert_eq!(lines_per_frame(46), 1);
}

/// ethtool -G on ice: 64 to 8,160, rounded up to a multiple of 32.
#[test]
fn ring_sizes_round_up_as_the_driver_does() {
    assert_eq!(rounded_up(64), Some(64));
    assert_eq!(rounded_up(1_500), Some(1_504));
    assert_eq!(rounded_up(8_160), Some(8_160));
    assert_eq!(rounded_up(63), None);
    assert_eq!(rounded_up(8_161), None);
    let mut m = demo(|_| {});
    let said = m.apply(&RingSizingAction::SetEntries(1_500)).unwrap();
    assert_eq!(m.config.entries, 1_504);
    assert!(said[0].text.contains("rounds 1,500 up"), "{}", said[0].text);
    assert!(m.apply(&RingSizingAction::SetEntries(1_490)).is_err());
    assert!(m.apply(&RingSizingAction::SetEntries(9_000)).is_err());
}

/// The default 100 µs stall brings 813 frames: the ring holds them. A
/// 200 µs stall brings 1,626, 603 more than 1,023.
#[test]
fn a_stall_longer_than_the_ring_absorbs_drops_the_rest() {
    let calm = finished(demo(|_| {}));
    assert_eq!(calm.params().stall_arrivals(), 813);
    assert_eq!(calm.run.dropped, 0);
    assert_eq!(calm.run.peak, 813);
    let long = finished(demo(|c| c.stall_us = 200));
    assert_eq!(long.params().stall_arrivals(), 1_626);
    assert_eq!(long.run.dropped, 1_626 - 1_023);
}

/// The smallest ring for 200 µs holds 1,626 frames: 1,627 entries, rounded
/// up to 1,632. It drops nothing; 1,600 drops.
#[test]
fn the_smallest_ring_is_the_first_that_drops_nothing() {
    let m = demo(|c| c.stall_us = 200);
    assert_eq!(m.smallest(), Smallest::Ring(1_632));
    assert_eq!(
        finished(demo(|c| {
            c.stall_us = 200;
            c.entries = 1_632;
        }))
        .run
        .dropped,
        0
    );
    assert!(
        finished(demo(|c| {
            c.stall_us = 200;
            c.entries = 1_600;
        }))
        .run
        .dropped
            > 0
    );
}

/// 4,718,592 / 1,568 = 3,009.3 entries for one ring: 3,008. With 16 queues,
/// 188 each: 160.
#[test]
fn the_largest_ring_fits_the_ddio_ways() {
    assert_eq!(demo(|_| {}).largest(), Largest::Ring(3_008));
    assert_eq!(demo(|c| c.queues = 16).largest(), Largest::Ring(160));
    assert_eq!(demo(|c| c.queues = 64).largest(), Largest::NoneFits);
    // The default 100 µs stall needs room for 813 frames: 832 entries.
    assert_eq!(demo(|_| {}).both(), Some((832, 3_008)));
}

/// A 500 µs stall needs 4,096 entries; only 3,008 fit: no ring does both.
#[test]
fn a_long_stall_leaves_no_ring_that_does_both() {
    let m = demo(|c| c.stall_us = 500);
    assert_eq!(m.smallest(), Smallest::Ring(4_096));
    assert_eq!(m.both(), None);
    assert!(m.why_answer().contains("No ring"), "{}", m.why_answer());
}

/// A 4,096-entry ring holds a 500 µs stall's 4,064 frames, but it is
/// 6.1 MiB of footprint against 4.5 MiB: the oldest frames leave the
/// cache before the core reads them.
#[test]
fn a_deep_ring_drops_nothing_but_leaks_to_dram() {
    let m = finished(demo(|c| {
        c.stall_us = 500;
        c.entries = 4_096;
    }));
    assert_eq!(m.run.dropped, 0);
    assert!(m.params().leaky);
    assert!(m.run.from_dram > 1_000, "{}", m.run.from_dram);
    // The same stall in a ring that fits leaks nothing (and drops).
    let small = finished(demo(|c| c.stall_us = 500));
    assert_eq!(small.run.from_dram, 0);
    assert!(small.run.dropped > 0);
}

/// A core slower than its frames never catches up: no ring is enough.
/// Just slower (124 ns against 123.04), the backlog grows slowly and the
/// run ends with it still there; much slower, the ring overflows.
#[test]
fn a_slow_core_has_no_smallest_ring() {
    let m = demo(|c| c.core_ns = 124);
    assert_eq!(m.smallest(), Smallest::CoreTooSlow);
    assert!(finished(m).run.held > 0);
    let m = demo(|c| c.core_ns = 150);
    assert_eq!(m.smallest(), Smallest::CoreTooSlow);
    assert!(finished(m).run.dropped > 0);
    // Two queues halve each core's share: 124 ns is fast enough.
    assert!(matches!(
        demo(|c| {
            c.core_ns = 124;
            c.queues = 2;
        })
        .smallest(),
        Smallest::Ring(_)
    ));
}

#[test]
fn the_run_ends_when_the_backlog_is_gone() {
    let mut m = demo(|_| {});
    let mut steps = 0;
    while m.next_auto().is_ok() {
        m.apply(&RingSizingAction::Step).unwrap();
        m.check().unwrap();
        steps += 1;
    }
    assert_eq!(m.run.held, 0);
    assert_eq!(m.run.now_us, steps * 10);
    assert!(m.apply(&RingSizingAction::Step).is_err());
    assert_eq!(m, finished(demo(|_| {})));
}

#[test]
fn bad_settings_are_refused_with_a_reason() {
    let mut m = demo(|_| {});
    let refuse = |m: &mut RingSizing, a| m.apply(&a).unwrap_err().reason;
    assert!(refuse(&mut m, RingSizingAction::SetRate(40)).contains("10, 25, 50 or 100"));
    assert!(refuse(&mut m, RingSizingAction::SetDdioWays(12)).contains("too many"));
    assert!(refuse(&mut m, RingSizingAction::SetLlcWays(1)).contains("2 to 20"));
    assert!(refuse(&mut m, RingSizingAction::SetPayload(45)).contains("46 to 1500"));
    assert!(refuse(&mut m, RingSizingAction::SetQueues(1)).contains("already"));
    let config = RingSizingConfig {
        entries: 1_000,
        ..RingSizingConfig::default()
    };
    assert!(RingSizing::validate(&config)
        .unwrap_err()
        .contains("multiples of 32"));
}
