use super::*;
use crate::model::Tone;

fn ct() -> CutThrough {
    CutThrough::new(&CutThroughConfig::default())
}

fn with(chunks: usize, pcie: u32, wire: u32, threshold: usize) -> CutThrough {
    CutThrough::new(&CutThroughConfig {
        chunks,
        pcie_gbps: pcie,
        wire_gbps: wire,
        threshold,
        ..CutThroughConfig::default()
    })
}

#[test]
fn store_and_forward_waits_for_the_last_chunk() {
    let m = ct();
    let sf = m.store_and_forward();
    // 32 Gb/s PCIe: 16 ns a chunk; 10 Gb/s wire: 51.2 ns a chunk.
    assert!((m.ns(sf.start) - 12.0 * 16.0).abs() < 1e-9);
    assert!((m.ns(sf.end) - (192.0 + 12.0 * 51.2)).abs() < 1e-9);
    assert_eq!(sf.underrun, None);
}

#[test]
fn cut_through_starts_after_the_first_chunk() {
    let m = ct();
    let c = m.cut_through();
    assert!((m.ns(c.start) - 16.0).abs() < 1e-9);
    assert!((m.ns(c.end) - (16.0 + 12.0 * 51.2)).abs() < 1e-9);
    assert_eq!(c.underrun, None);
    assert_eq!(m.safe_threshold(), 1);
}

#[test]
fn a_faster_wire_runs_a_cut_through_frame_dry() {
    let mut m = ct();
    m.apply(&CtAction::SetWire(100)).unwrap();
    let c = m.cut_through();
    // The wire needs chunk 1 at 16 + 5.12 ns; it arrives at 32 ns.
    assert_eq!(c.underrun, Some(1));
    assert!((m.ns(c.end) - 21.12).abs() < 1e-9);
    assert_eq!(c.state(0, c.end), ChunkState::Sent);
    assert_eq!(c.state(1, c.end), ChunkState::CutOff);
    let fig = m
        .status()
        .into_iter()
        .find(|f| f.key == "ct-outcome")
        .unwrap();
    assert_eq!(fig.value, "UNDERRUN");
}

#[test]
fn the_underrun_is_narrated_as_a_fault_when_the_clock_reaches_it() {
    let mut m = with(12, 32, 100, 1);
    let first = m.apply(&CtAction::Tick).unwrap();
    assert!(first.iter().all(|e| e.tone != Tone::Fault));
    let second = m.apply(&CtAction::Tick).unwrap();
    assert!(second
        .iter()
        .any(|e| e.tone == Tone::Fault && e.text.contains("bad FCS")));
}

#[test]
fn the_nic_sends_the_fallback_itself_the_app_does_not_resend() {
    let mut m = ct();
    m.apply(&CtAction::BreakIt).unwrap();
    let why = m.why().join(" ");
    assert!(why.contains("fallback copy") && why.contains("the application does nothing"));
    assert!(!why.contains("send it again"));
    let fallback = m
        .status()
        .into_iter()
        .find(|f| f.key == "fallback")
        .unwrap();
    assert_eq!(fallback.value, "sent by the NIC");
}

#[test]
fn a_cpu_stall_runs_the_frame_dry_even_with_pcie_faster_than_the_wire() {
    // Default: PCIe 32 Gb/s feeds a 10 Gb/s wire, so without jitter any
    // threshold is safe. A seeded stall mid-frame breaks threshold 1.
    let mut m = ct();
    assert_eq!(m.cut_through().underrun, None);
    m.apply(&CtAction::SetJitter(true)).unwrap();
    let (at, ticks) = m.stall.unwrap();
    assert!((1..12).contains(&at) && (2..=8).contains(&ticks));
    assert!(
        m.cut_through().underrun.is_some(),
        "stall {ticks} ticks at {at}"
    );
    assert!(m.safe_threshold() > 1);
    m.apply(&CtAction::UseSafeThreshold).unwrap();
    assert_eq!(m.cut_through().underrun, None);
    assert!(m.store_and_forward().underrun.is_none());
    m.check().unwrap();
    m.apply(&CtAction::SetJitter(false)).unwrap();
    assert!(m.apply(&CtAction::SetJitter(false)).is_err());
}

#[test]
fn stalls_delay_every_later_arrival() {
    let p = Plan::new(6, 1, (32, 25), Some((3, 4)));
    assert_eq!(p.arrival(2), 3 * 25);
    assert_eq!(p.arrival(3), (4 + 4) * 25);
}

#[test]
fn safe_threshold_matches_a_search_over_every_threshold() {
    for &wire in WIRE_RATES {
        for pcie in [8, 16, 25, 32, 50, 64, 100, 128] {
            for chunks in CHUNKS.min..=CHUNKS.max {
                let searched = (1..=chunks)
                    .find(|&t| Plan::new(chunks, t, (pcie, wire), None).underrun.is_none())
                    .unwrap();
                assert_eq!(
                    min_safe_threshold(chunks, pcie, wire),
                    searched,
                    "{chunks} chunks, {pcie} Gb/s PCIe, {wire} Gb/s wire"
                );
                let later = Plan::new(chunks, chunks.min(searched + 1), (pcie, wire), None);
                assert_eq!(later.underrun, None, "a larger threshold is safe too");
            }
        }
    }
}

#[test]
fn using_the_safe_threshold_avoids_the_underrun() {
    let mut m = with(12, 32, 100, 1);
    assert_eq!(m.safe_threshold(), 9);
    m.apply(&CtAction::UseSafeThreshold).unwrap();
    assert_eq!(m.threshold, 9);
    assert_eq!(m.cut_through().underrun, None);
    assert!(m.cut_through().start < m.store_and_forward().start);
    assert!(m.apply(&CtAction::UseSafeThreshold).is_err());
}

#[test]
fn ticks_run_until_both_frames_are_done() {
    let mut m = ct();
    let mut n = 0;
    while m.next_auto().is_ok() {
        m.apply(&CtAction::Tick).unwrap();
        m.check().unwrap();
        n += 1;
    }
    assert_eq!(n, m.last_tick());
    let now = m.now_units();
    assert_eq!(m.store_and_forward().count(ChunkState::Sent, now), 12);
    assert_eq!(m.cut_through().count(ChunkState::Sent, now), 12);
    assert!(m.apply(&CtAction::Tick).is_err());
    assert!(m.apply(&CtAction::RunToEnd).is_err());
}

#[test]
fn run_to_end_matches_stepping() {
    let mut a = with(20, 16, 50, 3);
    let mut b = a.clone();
    a.apply(&CtAction::RunToEnd).unwrap();
    while b.apply(&CtAction::Tick).is_ok() {}
    assert_eq!(a, b);
}

#[test]
fn chunk_states_progress_in_order() {
    // A 25 Gb/s wire, nearly as fast as PCIe: the last chunks are still
    // crossing PCIe while chunk 5 is on the wire.
    let m = with(12, 32, 25, 1);
    let c = m.cut_through();
    let t = c.wire_start(5) + 1;
    assert_eq!(c.state(0, t), ChunkState::Sent);
    assert_eq!(c.state(5, t), ChunkState::OnWire);
    assert_eq!(c.state(6, t), ChunkState::Arrived);
    assert_eq!(c.state(11, t), ChunkState::NotArrived);
}

#[test]
fn shrinking_the_frame_shrinks_the_threshold() {
    let mut m = with(12, 32, 25, 10);
    m.apply(&CtAction::SetChunks(6)).unwrap();
    assert_eq!(m.threshold, 6);
    m.check().unwrap();
}

#[test]
fn bad_settings_are_refused_and_change_nothing() {
    let mut m = ct();
    for a in [
        CtAction::SetChunks(0),
        CtAction::SetChunks(25),
        CtAction::SetPcie(7),
        CtAction::SetPcie(129),
        CtAction::SetWire(40),
        CtAction::SetWire(10),
        CtAction::SetMode(CtpioMode::Ct),
        CtAction::SetThreshold(0),
        CtAction::SetThreshold(13),
        CtAction::SetThreshold(1),
        CtAction::UseSafeThreshold,
    ] {
        assert!(m.apply(&a).is_err(), "{a:?}");
    }
    assert_eq!(m, ct());
}

#[test]
fn invalid_configs_are_rejected() {
    let too_high = CutThroughConfig {
        threshold: 13,
        ..CutThroughConfig::default()
    };
    assert!(CutThrough::validate(&too_high).is_err());
    let odd_wire = CutThroughConfig {
        wire_gbps: 40,
        ..CutThroughConfig::default()
    };
    assert!(CutThrough::validate(&odd_wire).is_err());
}

#[test]
fn break_it_is_one_move_to_an_underrun_on_a_wire_that_supports_ct() {
    // UG1586, "CTPIO Modes": ct is supported at 10 Gb, not at 25 Gb. The old
    // Break it set a 100 GbE wire.
    let mut m = CutThrough::new(&CutThroughConfig::default());
    m.apply(&CtAction::SetWire(100)).unwrap();
    m.apply(&CtAction::SetMode(CtpioMode::SfNp)).unwrap();
    m.apply(&CtAction::BreakIt).unwrap();
    assert_eq!((m.wire_gbps, m.threshold, m.mode), (10, 1, CtpioMode::Ct));
    assert!(m.ct_supported());
    assert_eq!(m.stall, Some((1, STALL_TICKS.1)));
    assert!(m.pcie_gbps <= 32);
    assert!(m.cut_through().underrun.is_some() && m.poisoned());
    assert!(
        m.apply(&CtAction::BreakIt).is_err(),
        "a second press changes nothing"
    );
    m.check().unwrap();
}

#[test]
fn break_it_breaks_every_pcie_rate_and_frame_size() {
    for pcie in PCIE.min..=PCIE.max {
        for chunks in CHUNKS.min..=CHUNKS.max {
            let mut m = with(chunks, pcie, 10, chunks);
            m.apply(&CtAction::BreakIt).unwrap();
            assert!(m.poisoned(), "{chunks} chunks, {pcie} Gb/s");
        }
    }
}

#[test]
fn the_default_is_ct_on_a_10_gbe_wire() {
    // UG1586 supports ct at 10 Gb, not at 25 Gb: the old default was 25 GbE.
    let c = CutThroughConfig::default();
    assert_eq!((c.wire_gbps, c.mode), (10, CtpioMode::Ct));
    let m = ct();
    assert!(m.ct_supported());
    assert!(m.intro().text.contains("Onload's default is sf-np"));
}

#[test]
fn store_and_forward_modes_send_the_whole_frame_and_never_poison() {
    for mode in [CtpioMode::Sf, CtpioMode::SfNp] {
        let mut m = with(12, 32, 100, 1);
        assert!(m.poisoned(), "ct runs this frame dry");
        let events = m.apply(&CtAction::SetMode(mode)).unwrap();
        assert!(events[0]
            .text
            .contains(&format!("EF_CTPIO_MODE={}", mode.env())));
        assert_eq!(m.sent(), m.store_and_forward());
        assert!(!m.poisoned());
        let figure = |key: &str| m.status().into_iter().find(|f| f.key == key).unwrap();
        assert_eq!(figure("fallback").value, "not needed");
        assert_eq!(figure("sent").value, "store-and-forward");
        assert_eq!(figure("mode").value, mode.env());
        // The cut-through lane still runs dry, as a comparison: a warning,
        // never a fault, and no fallback.
        m.apply(&CtAction::Tick).unwrap();
        let second = m.apply(&CtAction::Tick).unwrap();
        assert!(second.iter().all(|e| e.tone != Tone::Fault));
        assert!(second
            .iter()
            .any(|e| e.tone == Tone::Warn && e.text.contains("would run dry")));
        assert!(m.why().join(" ").contains("no fallback is needed"));
        m.check().unwrap();
    }
}

#[test]
fn ct_above_10_gbe_is_called_generic_physics() {
    let mut m = ct();
    let events = m.apply(&CtAction::SetWire(25)).unwrap();
    assert!(events
        .iter()
        .any(|e| e.tone == Tone::Warn && e.text.contains("generic cut-through physics")));
    let lane = m.status().into_iter().find(|f| f.key == "ct-lane").unwrap();
    assert_eq!(lane.value, "generic physics, not Onload ct");
    assert!(m.why().join(" ").contains("not an Onload setting"));
    m.apply(&CtAction::SetMode(CtpioMode::Sf)).unwrap();
    let events = m.apply(&CtAction::SetWire(50)).unwrap();
    assert!(
        events.iter().all(|e| e.tone != Tone::Warn),
        "sf runs at any rate"
    );
}

#[test]
fn out_of_range_settings_are_refused_with_the_bound() {
    let mut m = ct();
    let r = m.apply(&CtAction::SetChunks(25)).unwrap_err();
    assert_eq!(r.reason, CHUNKS.out_of_range(25));
    let r = m.apply(&CtAction::SetThreshold(13)).unwrap_err();
    assert_eq!(
        r.reason,
        "The threshold is 1 to 12 chunks; 13 chunks is out of range."
    );
    let r = m.apply(&CtAction::SetWire(40)).unwrap_err();
    assert_eq!(r.reason, "The wire runs at 10, 25, 50 or 100 Gb/s, not 40.");
}

#[test]
fn a_tick_inside_the_stall_says_the_cpu_is_stalled_not_that_the_frame_is_in() {
    // The old narration said "PCIe has delivered the whole frame" for any
    // tick with no arrival, a stalled tick included.
    let mut m = ct();
    m.apply(&CtAction::BreakIt).unwrap();
    m.apply(&CtAction::Tick).unwrap();
    let stalled = m.apply(&CtAction::Tick).unwrap();
    assert!(
        stalled[0].text.contains("the CPU is stalled"),
        "{}",
        stalled[0].text
    );
    assert!(!stalled[0].text.contains("whole frame"));
    m.apply(&CtAction::RunToEnd).unwrap();
}

#[test]
fn in_a_store_and_forward_mode_the_cut_through_lane_is_told_as_a_what_if() {
    let mut m = ct();
    assert!(m
        .why()
        .join(" ")
        .contains("Cut-through starts after 1 chunk"));
    m.apply(&CtAction::SetMode(CtpioMode::Sf)).unwrap();
    let why = m.why().join(" ");
    assert!(why.contains("In ct mode cut-through would start after 1 chunk"));
    assert!(!why.contains("Cut-through starts"));
}
