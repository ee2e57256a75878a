//! The story's facts, read off whole runs.

use super::config::{PfcConfig, HORIZON, SMALL_HEADROOM_KB, XOFF_BYTES};
use super::model::{Pfc, PfcAction as A};
use super::topology::VICTIM;
use crate::Model;

fn run(c: PfcConfig, n: u32) -> Pfc {
    let mut m = Pfc::new(&c);
    m.apply(&A::Run(n)).unwrap();
    m.check().unwrap();
    m
}

/// PFC alone: the incast pauses its way back to every host on leaf 0,
/// including H2, which sends only to the idle H5; nothing is dropped.
#[test]
fn pauses_spread_to_the_victims_host() {
    let m = run(PfcConfig::default(), 2_000);
    assert!(m.fabric.paused_hosts().contains(&2) || m.fabric.ports[4].paused_ticks > 0);
    assert_eq!(m.overflow(), 0);
    // The peak stays within XOFF plus the model's worst case.
    let peak = m.fabric.ports.iter().map(|p| p.peak_ingress).max().unwrap();
    assert!(peak > XOFF_BYTES && peak <= XOFF_BYTES + m.headroom().model_bytes());
}

/// DCQCN lifts the victim above what PFC alone leaves it, and sends fewer
/// PFC frames.
#[test]
fn dcqcn_helps_the_victim() {
    let plain = run(PfcConfig::default(), HORIZON);
    let c = PfcConfig {
        dcqcn: true,
        ..PfcConfig::default()
    };
    let fixed = run(c, HORIZON);
    assert!(fixed.victim_mean_gbps() > plain.victim_mean_gbps());
    assert!(fixed.pause_frames() < plain.pause_frames());
    assert!(fixed.settled_hot_queue() < XOFF_BYTES);
    assert!(fixed.fabric.flows[VICTIM].rp.alpha < 1.0);
}

/// The routing loop deadlocks the four links of the ring, for good.
#[test]
fn the_loop_deadlocks() {
    let c = PfcConfig {
        loop_route: true,
        ..PfcConfig::default()
    };
    let m = run(c, HORIZON);
    assert_eq!(m.fabric.deadlock.len(), 4);
    assert!(m.fabric.deadlock_since.is_some());
    assert_eq!(m.fabric.flows[VICTIM].delivered, 0);
}

/// The watchdog breaks the deadlock by dropping, at a cost in bytes lost.
#[test]
fn the_watchdog_breaks_it() {
    let c = PfcConfig {
        loop_route: true,
        watchdog: true,
        ..PfcConfig::default()
    };
    let m = run(c, HORIZON);
    let flushed: u64 = m.fabric.flows.iter().map(|f| f.flushed).sum();
    assert!(flushed > 0);
    assert!(m.fabric.flows[0].delivered > 1_000_000);
}

/// Too little headroom drops bytes on the lossless priority.
#[test]
fn small_headroom_drops() {
    let c = PfcConfig {
        headroom_kb: SMALL_HEADROOM_KB,
        ..PfcConfig::default()
    };
    let m = run(c, 2_000);
    assert!(m.overflow() > 0);
}

#[test]
fn refusals() {
    let mut m = Pfc::new(&PfcConfig::default());
    assert!(m.apply(&A::SetMtu(2_000)).is_err());
    assert!(m.apply(&A::SetCable(0)).is_err());
    assert!(m.apply(&A::SetDcqcn(false)).is_err());
    assert!(m.apply(&A::Restart).is_err());
    m.apply(&A::ToEnd).unwrap();
    assert!(m.apply(&A::Tick).is_err());
}
