use super::curve::run;
use super::*;

fn config(senders: usize, fixes: Fixes) -> IncastConfig {
    IncastConfig {
        senders,
        fixes,
        ..IncastConfig::default()
    }
}

const LINUX: Fixes = Fixes {
    big_buffer: false,
    fine_rto: false,
    dctcp: false,
};

#[test]
fn answers_that_fit_the_buffer_lose_nothing() {
    // 4 × 16 = 64 packets: exactly the buffer.
    let m = run(&config(4, LINUX));
    assert_eq!(m.overflow_bound(), 5);
    assert_eq!((m.drops(), m.timeouts()), (0, 0));
    assert_eq!(m.finished.len(), 10);
    // Nothing waits: the link runs above 95 % of 1 Gbit/s.
    assert!(m.overall_goodput_tenths() > 9_500);
}

#[test]
fn the_burst_peaks_at_n_s_less_what_drains_meanwhile() {
    // 5 × 16 = 80 packets, of which 15 leave while the bursts arrive: 65 > 64.
    let five = run(&config(5, LINUX));
    assert_eq!(five.burst_peak(), 65);
    assert_eq!(five.finished[0].drops, 1);
    let four = Incast::new(&config(4, LINUX));
    assert_eq!(four.burst_peak(), 49);
}

#[test]
fn past_the_buffer_a_request_waits_out_the_200_ms_timer() {
    let m = run(&config(16, LINUX));
    let first = m.finished[0];
    assert!(first.drops > 0 && first.timeouts > 0);
    assert!(first.duration_ns >= RTO_MIN_LINUX_NS);
    // 256 packets need 3 ms of link time; the request took 200 ms: collapse.
    assert!(
        m.goodput_tenths(&first) < 300,
        "{}",
        m.goodput_tenths(&first)
    );
}

#[test]
fn a_fine_grained_rto_recovers_most_of_the_goodput() {
    let slow = run(&config(16, LINUX));
    let fine = run(&config(
        16,
        Fixes {
            fine_rto: true,
            ..LINUX
        },
    ));
    assert!(fine.timeouts() > 0, "losses still happen");
    assert!(fine.finished.iter().all(|r| r.duration_ns < 20_000_000));
    assert!(fine.overall_goodput_tenths() > 20 * slow.overall_goodput_tenths());
}

#[test]
fn a_bigger_buffer_avoids_loss_but_packets_wait() {
    let m = run(&config(
        64,
        Fixes {
            big_buffer: true,
            ..LINUX
        },
    ));
    assert_eq!(m.drops(), 0);
    // 64 × 16 packets queue behind each other: ~12 ms against a 100 µs RTT.
    assert!(m.worst_queueing_ns() > 100 * m.rtt_ns);
}

#[test]
fn dctcp_settles_small_windows_that_fit_the_buffer() {
    let m = run(&config(
        16,
        Fixes {
            dctcp: true,
            ..LINUX
        },
    ));
    let settled = &m.finished[m.finished.len() / 2..];
    assert!(settled.iter().all(|r| r.drops == 0 && r.timeouts == 0));
    assert!(m.path.flows.iter().all(|f| f.sender.cwnd < 3 * MSS));
    assert!(m.path.flows.iter().all(|f| f.marks > 0));
}

#[test]
fn the_goodput_curve_collapses_past_the_buffer_and_the_fixes_move_it() {
    let points = |fixes| goodput_curve(&config(1, fixes));
    let at = |curve: &[CurvePoint], n| {
        curve
            .iter()
            .find(|p| p.senders == n)
            .unwrap()
            .goodput_tenths
    };
    let linux = points(LINUX);
    assert!(at(&linux, 4) > 9_000, "N × S = B still flows");
    assert!(at(&linux, 6) < 1_000 && at(&linux, 64) < 1_000, "collapse");
    let fine = points(Fixes {
        fine_rto: true,
        ..LINUX
    });
    assert!(fine.iter().all(|p| p.goodput_tenths > 5_000));
    let dctcp = points(Fixes {
        dctcp: true,
        ..LINUX
    });
    // Two packets per server fit until 2N exceeds the 64-packet buffer.
    assert!(at(&dctcp, 24) > 9_000);
    assert!(at(&dctcp, 48) < 1_000);
}

#[test]
fn each_server_is_sending_then_waiting_or_delivered() {
    let mut m = Incast::new(&config(16, LINUX));
    assert!((0..16).all(|f| m.fate(f) == Fate::Sending));
    let mut idle_while_waiting = false;
    while m.finished.is_empty() {
        m.apply(&IncastAction::Slice).unwrap();
        m.check().unwrap();
        let fates: Vec<Fate> = (0..16).map(|f| m.fate(f)).collect();
        if !fates.contains(&Fate::Sending) && fates.contains(&Fate::Delivered) {
            // The lucky servers are done, the rest wait on their timers, and
            // the port sits idle.
            assert!(fates.iter().any(|f| matches!(f, Fate::WaitingRto(_))));
            assert_eq!(m.path.queue.len(), 0);
            idle_while_waiting = true;
        }
    }
    assert!(idle_while_waiting);
}

#[test]
fn the_buffer_shrinks_back_only_once_drained() {
    let mut m = Incast::new(&config(
        64,
        Fixes {
            big_buffer: true,
            ..LINUX
        },
    ));
    for _ in 0..3 {
        m.apply(&IncastAction::Slice).unwrap();
    }
    assert!(m.path.queue.len() > 64);
    let before = m.clone();
    assert!(m.apply(&IncastAction::Toggle(Fix::BigBuffer)).is_err());
    assert_eq!(m, before);
}

#[test]
fn toggles_take_effect_at_once() {
    let mut m = Incast::new(&config(16, LINUX));
    m.apply(&IncastAction::Toggle(Fix::FineRto)).unwrap();
    assert!(m
        .path
        .flows
        .iter()
        .all(|f| f.sender.rto < 2 * RTO_MIN_FINE_NS));
    m.apply(&IncastAction::Toggle(Fix::Dctcp)).unwrap();
    assert_eq!(m.path.mark_above, Some(20));
    m.apply(&IncastAction::Toggle(Fix::Dctcp)).unwrap();
    assert_eq!(m.path.mark_above, None);
    assert!(m.path.flows.iter().all(|f| f.sender.dctcp.is_none()));
}

#[test]
fn nothing_to_step_once_every_request_is_answered() {
    let mut m = run(&config(2, LINUX));
    assert!(m.all_done());
    assert!(m.next_auto().is_err());
    let before = m.clone();
    assert!(m.apply(&IncastAction::Slice).is_err());
    assert!(m.apply(&IncastAction::Event).is_err());
    assert_eq!(m, before);
}

#[test]
fn invalid_configs_are_rejected() {
    let ok = IncastConfig::default();
    assert!(Incast::validate(&ok).is_ok());
    for bad in [
        IncastConfig {
            senders: 0,
            ..ok.clone()
        },
        IncastConfig {
            senders: 65,
            ..ok.clone()
        },
        IncastConfig {
            burst: 0,
            ..ok.clone()
        },
        IncastConfig {
            big_buffer: 32,
            ..ok.clone()
        },
        IncastConfig {
            mark_k: 64,
            ..ok.clone()
        },
        IncastConfig {
            requests: 0,
            ..ok.clone()
        },
        IncastConfig {
            rtt_us: 5,
            ..ok.clone()
        },
    ] {
        assert!(Incast::validate(&bad).is_err(), "{bad:?}");
    }
}

#[test]
fn a_sweep_draws_the_collapse_and_each_fix_adds_its_own_curve() {
    let mut m = Incast::new(&IncastConfig::default());
    let text = m.apply(&IncastAction::Sweep).unwrap()[0].text.clone();
    assert!(
        text.contains("with no fix") && text.contains("below half the link at N = 6"),
        "{text}"
    );
    let before = m.clone();
    assert!(m.apply(&IncastAction::Sweep).is_err(), "same fixes twice");
    assert_eq!(m, before);
    m.apply(&IncastAction::Toggle(Fix::FineRto)).unwrap();
    m.apply(&IncastAction::Sweep).unwrap();
    assert_eq!(m.sweeps.len(), 2);
    assert_eq!(m.fixes_label(m.sweeps[1].fixes), "1 ms RTO floor");
    let at = |s: &Sweep, n| {
        s.points
            .iter()
            .find(|p| p.senders == n)
            .unwrap()
            .goodput_tenths
    };
    assert!(at(&m.sweeps[1], 16) > 10 * at(&m.sweeps[0], 16));
    // The run itself is untouched by sweeping.
    assert_eq!(m.path.now, 0);
}

#[test]
fn the_sweep_buttons_refusal_agrees_with_sweeping() {
    let mut m = Incast::new(&IncastConfig::default());
    let agree = |m: &Incast| {
        let tried = m.clone().apply(&IncastAction::Sweep).err();
        assert_eq!(
            m.refusal(&IncastAction::Sweep).map(|r| r.reason),
            tried.map(|r| r.reason)
        );
    };
    agree(&m);
    m.apply(&IncastAction::Sweep).unwrap();
    agree(&m);
    assert!(m.refusal(&IncastAction::Sweep).is_some());
    m.apply(&IncastAction::Toggle(Fix::Dctcp)).unwrap();
    agree(&m);
    assert!(m.refusal(&IncastAction::Sweep).is_none());
}

/// Issue 30: "only its timer can recover it" holds without SACK and TLP;
/// the why says so, and says when Linux's tail loss probe would go.
#[test]
fn the_why_says_without_sack_and_tlp_and_when_the_probe_would_go() {
    let m = Incast::new(&config(16, LINUX));
    let why = m.why().join(" ");
    assert!(
        why.contains("Without SACK and a tail loss probe, as here, only its timer can recover it"),
        "{why}"
    );
    let srtt = m.path.flows[0].sender.srtt;
    assert!(
        why.contains(&format!(
            "sends a tail loss probe 2·SRTT = {} after its last segment (RFC 8985 §7.2)",
            crate::text::duration(2 * srtt)
        )),
        "{why}"
    );
}

/// A server waiting for its timer: the probe would have gone 2·SRTT after
/// its last send, long before the timer, and the narration says when.
#[test]
fn a_waiting_server_is_told_when_its_tail_loss_probe_would_have_gone() {
    let mut m = Incast::new(&config(16, LINUX));
    let mut said = None;
    while said.is_none() && m.finished.is_empty() {
        let events = m.apply(&IncastAction::Slice).unwrap();
        said = events
            .iter()
            .find(|e| e.text.contains("would have probed at"))
            .map(|e| e.text.clone());
    }
    let text = said.expect("an idle wait with a probe time");
    let f = (0..16)
        .find(|&f| matches!(m.fate(f), Fate::WaitingRto(_)))
        .unwrap();
    let (Fate::WaitingRto(at), Some(probe)) = (m.fate(f), m.probe_at(f)) else {
        panic!("server {f} waits");
    };
    let s = &m.path.flows[f].sender;
    assert!(probe < at);
    // The default run: the probe falls in the quiet stretch, port empty.
    assert!(
        text.contains("The port is empty then, so the probe would get through"),
        "{text}"
    );
    assert_eq!(probe, s.last_send_at.max(at - s.rto) + 2 * s.srtt);
    assert!(
        text.contains(&format!(
            "server {} would have probed at {}",
            f + 1,
            crate::text::duration(probe)
        )),
        "{text}"
    );
}

/// Issue 30: DCTCP cuts at most once per window of data (RFC 8257 §3.3):
/// the toggle says so, and no server cuts twice within one window.
#[test]
fn dctcp_is_told_and_run_as_one_cut_per_window() {
    let mut m = Incast::new(&config(16, LINUX));
    let text = m.apply(&IncastAction::Toggle(Fix::Dctcp)).unwrap()[0]
        .text
        .clone();
    assert!(!text.contains("on each echo"), "{text}");
    assert!(text.contains("at most once per window of data"), "{text}");
    let m = run(&config(
        16,
        Fixes {
            dctcp: true,
            ..LINUX
        },
    ));
    // Many marked packets per window, far fewer cuts: not one per echo.
    let marks: u64 = m.path.flows.iter().map(|f| f.marks).sum();
    let cuts: u64 = m
        .path
        .flows
        .iter()
        .map(|f| u64::from(f.sender.ecn_cuts))
        .sum();
    assert!(cuts > 0 && 2 * cuts < marks, "{cuts} cuts, {marks} marks");
}

#[test]
fn each_bound_is_refused_with_its_range() {
    let ok = IncastConfig::default();
    assert_eq!(
        Incast::validate(&IncastConfig {
            senders: 65,
            ..ok.clone()
        }),
        Err("The number of servers is 1 to 64; 65 is out of range.".into())
    );
    assert_eq!(
        Incast::validate(&IncastConfig {
            mark_k: 64,
            ..ok.clone()
        }),
        Err("The marking threshold K is 1 to 63 packets; 64 packets is out of range.".into())
    );
    assert_eq!(
        Incast::validate(&IncastConfig {
            big_buffer: 32,
            ..ok
        }),
        Err("The bigger buffer is 64 to 4096 packets; 32 packets is out of range.".into())
    );
}

/// The why's timer is the estimator's RTO, not one doubled by a backoff:
/// after the first request's timeouts it still reads SRTT + 200 ms.
#[test]
fn the_why_quotes_the_rto_before_backoff() {
    let mut m = Incast::new(&config(16, LINUX));
    while m.finished.is_empty() {
        m.apply(&IncastAction::Slice).unwrap();
    }
    // Server 1 as a timeout leaves it: its RTO backed off, doubled.
    m.path.flows[0].sender.rto *= 2;
    let s = &m.path.flows[0].sender;
    let why = m.why().join(" ");
    assert!(
        why.contains(&format!(
            "SRTT + 200.0 ms floor = {},",
            crate::text::duration(s.srtt + RTO_MIN_LINUX_NS)
        )),
        "{why}"
    );
}
