//! Unit tests of the journey: the sum, each stage against its own model,
//! what each toggle moves, and a stage's own configuration moving it.

use super::setup::{receive_model, send_model};
use super::*;
use crate::host::pcie::nic::{per_packet, transaction_wire, Path as Way};
use crate::host::ring_sizing::wire::frame_ps;
use crate::model::Model;
use crate::net::congestion::path::serialise_ns;
use crate::nic::busy_poll;
use crate::nic::coalescing::burst_wait_ns;
use crate::nic::send_path;
use crate::scenario::Scenario;

fn journey() -> Journey {
    Journey::new(&JourneyConfig::default())
}

fn with(actions: &[JourneyAction]) -> Journey {
    let mut j = journey();
    for a in actions {
        j.apply(a).unwrap();
    }
    j
}

fn on(t: Technique) -> JourneyAction {
    JourneyAction::Use(t, true)
}

/// Each stage's time, off-path stages as 0.
fn times(j: &Journey) -> Vec<(StageId, u64)> {
    j.path()
        .stages
        .iter()
        .map(|s| (s.id, if s.on_path { s.ns } else { 0 }))
        .collect()
}

/// The stages whose time differs between two journeys.
fn moved(a: &Journey, b: &Journey) -> Vec<StageId> {
    times(a)
        .iter()
        .zip(times(b))
        .filter(|(x, y)| x.1 != y.1)
        .map(|(x, _)| x.0)
        .collect()
}

#[test]
fn the_total_is_the_sum_of_the_stages_on_the_path() {
    for actions in [
        vec![],
        vec![on(Technique::BusyPoll)],
        vec![on(Technique::Bypass), on(Technique::Ctpio)],
        vec![on(Technique::Rdma), on(Technique::LoadedSwitch)],
        vec![JourneyAction::Break(Fault::Drop, true)],
    ] {
        let path = with(&actions).path();
        let sum: u64 = path.on_path().map(|s| s.ns).sum();
        assert_eq!(path.total_ns, sum, "{actions:?}");
    }
}

#[test]
fn each_stage_is_its_own_models_answer() {
    let j = journey();
    let path = j.path();
    let send = send_model(&j.setup);
    let receive = receive_model(&j.setup);
    let sc = |key: &str| {
        let i = send_path::STAGES.iter().position(|s| s.key == key).unwrap();
        u64::from(send.pipe.costs[i])
    };
    let rc = |key: &str| {
        let i = busy_poll::STAGES.iter().position(|s| s.key == key).unwrap();
        u64::from(receive.pipe.costs[i])
    };
    // One 64-byte message is one frame: 64 + 20 + 20 + 14 + 4 bytes.
    assert_eq!(path.frames.lens, vec![122]);
    assert_eq!(path.stage(StageId::Send).ns, sc("syscall") + sc("copy"));
    assert_eq!(path.stage(StageId::Segment).ns, sc("kernel-stack"));
    assert_eq!(
        path.stage(StageId::Doorbell).ns,
        sc("descriptor") + sc("doorbell")
    );
    assert_eq!(path.stage(StageId::Fetch).ns, sc("fetch") + sc("dma"));
    assert_eq!(
        path.stage(StageId::Wire).ns,
        frame_ps(122 - 18, 10).div_ceil(1000) + sc("phy")
    );
    assert_eq!(
        path.stage(StageId::Interrupt).ns,
        receive.interrupt().delay_ns()
    );
    assert_eq!(path.stage(StageId::Napi).ns, rc("stack"));
    assert_eq!(path.stage(StageId::Socket).ns, rc("wakeup") + rc("recvmsg"));
    assert_eq!(path.stage(StageId::RxDma).ns, rc("dma"));
    // Store-and-forward sends the whole frame again: two 64-byte chunks at 10 Gb/s.
    let switch = j.switch_model(122);
    let plan = switch.sent();
    assert_eq!(
        path.stage(StageId::Switch).ns,
        switch.ns(plan.end - plan.arrival(1)).round() as u64
    );
    assert_eq!(path.stage(StageId::Switch).ns, 102);
    // The PCIe bytes are the simple NIC's transactions on the configured link.
    let link = j.config.pcie_model().link();
    let fetched: u64 = per_packet(Way::Transmit, 122)
        .iter()
        .filter(|t| t.what == "descriptor fetch" || t.what == "packet fetch")
        .map(|t| {
            let w = transaction_wire(&link, t);
            w.inbound + w.outbound
        })
        .sum();
    assert_eq!(path.stage(StageId::Fetch).bytes, fetched);
}

#[test]
fn moderation_waits_as_the_coalescing_rule_says() {
    let j = with(&[on(Technique::Moderation)]);
    let c = &j.config.coalescing;
    let wait = burst_wait_ns(c.rx_usecs, c.rx_frames, 1).unwrap();
    assert_eq!(j.path().stage(StageId::Moderation).ns, wait);
    assert_eq!(moved(&journey(), &j), vec![StageId::Moderation]);
}

#[test]
fn toggles_move_exactly_their_stages() {
    let base = journey();
    let cases: Vec<(JourneyAction, Vec<StageId>)> = vec![
        (
            on(Technique::BusyPoll),
            vec![StageId::Interrupt, StageId::Socket],
        ),
        (
            on(Technique::Bypass),
            vec![
                StageId::Send,
                StageId::Segment,
                StageId::Interrupt,
                StageId::Napi,
                StageId::Socket,
                StageId::AppPoll,
            ],
        ),
        (on(Technique::CutThroughSwitch), vec![StageId::Switch]),
        (on(Technique::LoadedSwitch), vec![StageId::Switch]),
        (on(Technique::ZeroCopy), vec![]),
        (
            JourneyAction::Break(Fault::FullRing, true),
            vec![StageId::Qdisc],
        ),
        (
            JourneyAction::Break(Fault::Drop, true),
            vec![StageId::Retransmit],
        ),
    ];
    for (action, stages) in cases {
        let j = with(&[action]);
        assert_eq!(moved(&base, &j), stages, "{action:?}");
    }
    // CTPIO: the doorbell goes, the PIO write comes, the fetch becomes the head start.
    let bypass = with(&[on(Technique::Bypass)]);
    let ctpio = with(&[on(Technique::Bypass), on(Technique::Ctpio)]);
    assert_eq!(
        moved(&bypass, &ctpio),
        vec![StageId::Pio, StageId::Doorbell, StageId::Fetch]
    );
}

#[test]
fn the_stage_models_rules_decide_what_else_changes() {
    // CTPIO needs kernel bypass (the send path's rule), on both ends.
    let j = with(&[on(Technique::Ctpio)]);
    assert!(j.setup.bypass && j.setup.ctpio);
    j.check().unwrap();
    // Busy polling and a poll-mode driver exclude each other (busy-poll's rule).
    let mut j = with(&[on(Technique::Ctpio)]);
    let events = j.apply(&on(Technique::BusyPoll)).unwrap();
    assert!(!j.setup.bypass && !j.setup.ctpio && j.setup.busy_poll);
    assert!(events.iter().any(|e| e.tone == crate::Tone::Warn));
    j.check().unwrap();
}

#[test]
fn a_stage_models_own_configuration_moves_the_journey() {
    let base = journey();
    // The coalescing demo's rx-usecs, with moderation on.
    let mut config = JourneyConfig::default();
    config.coalescing.rx_usecs = 50;
    let mut slower = Journey::new(&config);
    slower.apply(&on(Technique::Moderation)).unwrap();
    let faster = with(&[on(Technique::Moderation)]);
    assert_eq!(
        slower.path().stage(StageId::Moderation).ns,
        faster.path().stage(StageId::Moderation).ns + 20_000
    );
    // The PCIe demo's max payload size: more TLPs for the same frame.
    let mut config = JourneyConfig {
        message_bytes: 1_024,
        ..JourneyConfig::default()
    };
    let wide = Journey::new(&config).path().stage(StageId::RxDma).tlps;
    config.pcie.mps = 128;
    let narrow = Journey::new(&config).path().stage(StageId::RxDma).tlps;
    assert!(
        narrow > wide,
        "{narrow} TLPs at MPS 128, {wide} at the default"
    );
    // The encapsulation demo's MSS: more segments, more kernel-stack passes.
    let config = JourneyConfig {
        message_bytes: 1_024,
        mss: 256,
        ..JourneyConfig::default()
    };
    let cut = Journey::new(&config);
    assert_eq!(cut.path().frames.segments, 4);
    assert!(cut.path().total_ns > with(&[JourneyAction::SetMessage(1_024)]).path().total_ns);
    // The incast demo's buffer: a shallower queue ahead of the message.
    let mut config = JourneyConfig::default();
    config.incast.buffer = 16;
    let mut shallow = Journey::new(&config);
    shallow.apply(&on(Technique::LoadedSwitch)).unwrap();
    let deep = with(&[on(Technique::LoadedSwitch)]);
    assert!(shallow.path().stage(StageId::Switch).ns < deep.path().stage(StageId::Switch).ns);
    assert_eq!(
        deep.path().stage(StageId::Switch).ns - base.path().stage(StageId::Switch).ns,
        deep.queue_ahead() * serialise_ns(10_000)
    );
}

#[test]
fn rdma_takes_the_kernel_off_both_ends_and_names_the_verbs() {
    let base = journey();
    let rdma = with(&[on(Technique::Rdma)]);
    assert_eq!(
        moved(&base, &rdma),
        vec![
            StageId::Send,
            StageId::Segment,
            StageId::Interrupt,
            StageId::Napi,
            StageId::Socket,
            StageId::AppPoll,
        ]
    );
    let path = rdma.path();
    assert_eq!(
        path.stage(StageId::Send).off_reason.as_deref(),
        Some("system calls: ibv_post_send() 0, send() 1")
    );
    assert_eq!(rdma.drill(StageId::AppPoll).demo, "nic/rdma-qp");
    // The same time as kernel bypass: the lab prices the RDMA NIC's path as
    // the bypass path's stages, and the leaves-out line says so.
    assert_eq!(
        path.total_ns,
        with(&[on(Technique::Bypass)]).path().total_ns
    );
}

#[test]
fn ctpio_drills_into_the_cut_through_demo_with_the_frame_in_chunks() {
    let j = with(&[on(Technique::Ctpio)]);
    let drill = j.drill(StageId::Fetch);
    assert_eq!(drill.demo, "nic/cut-through");
    let s = Scenario::<crate::nic::cut_through::CutThrough>::decode(&drill.state).unwrap();
    // A 122-byte frame is two 64-byte chunks on the journey's 10 Gb/s wire.
    assert_eq!((s.config.chunks, s.config.wire_gbps), (2, 10));
}

#[test]
fn the_three_configurations_of_a_64_byte_message() {
    let interrupt = journey().path();
    let busy = with(&[on(Technique::BusyPoll)]).path();
    let bypass = with(&[on(Technique::Bypass)]).path();
    assert!(interrupt.total_ns > busy.total_ns && busy.total_ns > bypass.total_ns);
    assert_eq!(interrupt.dominant().unwrap().id, StageId::Socket);
    assert_eq!(busy.dominant().unwrap().id, StageId::Napi);
    assert_eq!(bypass.dominant().unwrap().id, StageId::Fetch);
    assert_eq!(interrupt.total_ns, 9_036);
    assert_eq!(busy.total_ns, 3_536);
    assert_eq!(bypass.total_ns, 1_246);
}

#[test]
fn step_walks_every_stage_and_the_clock_ends_at_the_total() {
    let mut j = journey();
    let total = j.path().total_ns;
    let stages = j.path().on_path().count();
    let mut last = Vec::new();
    for _ in 0..stages {
        last = j.apply(&JourneyAction::Step).unwrap();
    }
    assert!(j.next_auto().is_err());
    assert!(last
        .last()
        .unwrap()
        .text
        .contains(&crate::text::ns(total as i64)));
    j.apply(&JourneyAction::Again).unwrap();
    assert_eq!(j.passed, 0);
}

#[test]
fn the_comparison_keeps_each_configuration_once() {
    let mut j = journey();
    j.apply(&on(Technique::BusyPoll)).unwrap();
    j.apply(&JourneyAction::Use(Technique::BusyPoll, false))
        .unwrap();
    assert_eq!(j.tried.len(), 2);
    assert_eq!(j.tried[0].dominant, Some(StageId::Socket));
    assert_eq!(j.tried[1].dominant, Some(StageId::Napi));
    let shares: u16 = j.tried[0].shares.iter().map(|&(_, t)| t).sum();
    assert!((995..=1005).contains(&shares), "{shares}");
}

#[test]
fn every_drill_down_opens_its_demo_in_the_journeys_configuration() {
    let j = with(&[on(Technique::Moderation), on(Technique::BusyPoll)]);
    for (id, drill) in j.drills() {
        let ok = match drill.demo {
            "nic/send-path" => Scenario::<send_path::SendPath>::decode(&drill.state).is_ok(),
            "nic/busy-poll" => {
                let s = Scenario::<busy_poll::BusyPoll>::decode(&drill.state).unwrap();
                crate::Timeline::from_scenario(&s).is_ok()
            }
            "nic/coalescing" => {
                let s =
                    Scenario::<crate::nic::coalescing::Coalescing>::decode(&drill.state).unwrap();
                s.config.rx_usecs == j.config.coalescing.rx_usecs
                    && crate::Timeline::from_scenario(&s).is_ok()
            }
            "host/pcie" => {
                let s = Scenario::<crate::host::pcie::Pcie>::decode(&drill.state).unwrap();
                s.config.size == 122 && crate::Timeline::from_scenario(&s).is_ok()
            }
            "net/encapsulation" => {
                let s = Scenario::<crate::net::encapsulation::Encapsulation>::decode(&drill.state)
                    .unwrap();
                s.config.payload.len() == 64 && crate::Timeline::from_scenario(&s).is_ok()
            }
            "nic/cut-through" => {
                let s =
                    Scenario::<crate::nic::cut_through::CutThrough>::decode(&drill.state).unwrap();
                crate::Timeline::from_scenario(&s).is_ok()
            }
            "net/incast" => {
                let s = Scenario::<crate::net::incast::Incast>::decode(&drill.state).unwrap();
                crate::Timeline::from_scenario(&s).is_ok()
            }
            "nic/napi" => {
                let s = Scenario::<crate::nic::napi::Napi>::decode(&drill.state).unwrap();
                crate::Timeline::from_scenario(&s).is_ok()
            }
            other => panic!("unexpected demo {other} for {id:?}"),
        };
        assert!(ok, "{id:?} → {}", drill.demo);
        assert_eq!(drill.demo, j.drill_demo(id));
        assert!(drill.href().starts_with(&format!("/{}?s=v1.", drill.demo)));
    }
    // The busy-poll link carries busy polling on.
    let s = Scenario::<busy_poll::BusyPoll>::decode(&j.drill(StageId::Interrupt).state).unwrap();
    let m = crate::Timeline::from_scenario(&s).unwrap();
    assert!(m.model().pipe.uses(busy_poll::BUSY));
}

/// The stage demos that link to the journey are exactly those a stage
/// opens under some setting: every technique and fault alone, and each
/// pair of techniques.
#[test]
fn the_stage_demos_are_those_the_stages_open() {
    let mut settings: Vec<Vec<JourneyAction>> = vec![vec![]];
    for (i, &a) in Technique::ALL.iter().enumerate() {
        settings.push(vec![on(a)]);
        for &b in &Technique::ALL[i + 1..] {
            settings.push(vec![on(a), on(b)]);
        }
    }
    settings.extend(
        Fault::ALL
            .iter()
            .map(|&f| vec![JourneyAction::Break(f, true)]),
    );
    let mut opened = std::collections::BTreeSet::new();
    for actions in settings {
        // A pair the model refuses (CTPIO without kernel bypass) keeps
        // the first technique alone.
        let mut j = journey();
        for a in &actions {
            let _ = j.apply(a);
        }
        opened.extend(StageId::ALL.iter().map(|&id| j.drill_demo(id)));
    }
    let listed: std::collections::BTreeSet<&str> = STAGE_DEMOS.into_iter().collect();
    assert_eq!(opened, listed);
    assert_eq!(listed.len(), STAGE_DEMOS.len());
}

#[test]
fn refusals_leave_the_journey_unchanged() {
    let mut j = with(&[on(Technique::Rdma)]);
    let before = j.clone();
    for action in [
        on(Technique::Bypass),
        on(Technique::ZeroCopy),
        JourneyAction::Break(Fault::Drop, true),
        on(Technique::Rdma),
        JourneyAction::SetMessage(0),
        JourneyAction::SetMessage(64),
        JourneyAction::Again,
    ] {
        assert!(j.apply(&action).is_err(), "{action:?}");
        assert_eq!(j, before);
    }
}

#[test]
fn the_message_mss_and_line_rate_change_the_path_and_say_by_how_much() {
    let mut j = journey();
    let events = j.apply(&JourneyAction::SetMessage(1_024)).unwrap();
    let said = &events.last().unwrap().text;
    assert!(said.contains("from 9,036 ns to"), "{said}");
    let events = j.apply(&JourneyAction::SetMss(536)).unwrap();
    assert!(events[0].text.contains("2 segments"), "{}", events[0].text);
    assert_eq!(j.path().frames.lens.len(), 2);
    let slow = j.path().stage(StageId::Wire).ns;
    j.apply(&JourneyAction::SetLine(100)).unwrap();
    assert!(j.path().stage(StageId::Wire).ns < slow);
    assert!(j.apply(&JourneyAction::SetLine(40)).is_err());
    assert!(j.apply(&JourneyAction::SetMss(7)).is_err());
    assert_eq!(j.tried.len(), 4);
    assert!(j.tried[3].label().starts_with("1024 B, MSS 536, 100 Gb/s"));
}
