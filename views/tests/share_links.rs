//! Share links carry what the learner looks at: for every demo with a look,
//! a link taken after picking one reopens the same picture and controls; a
//! link without a look still opens; a bad look opens the link's state with
//! the default look and a notice; and no text, however hostile, panics.

use demos::cpu::cache_hierarchy::CacheHierarchy;
use demos::cpu::mesi::{Mesi, MesiConfig};
use demos::net::encapsulation::Encapsulation;
use demos::nic::busy_poll::BusyPoll;
use demos::nic::iommu::Iommu;
use demos::nic::rdma_qp::RdmaQp;
use demos::nic::send_path::SendPath;
use demos::scenario::{encode_look, split_link};
use demos::{Model, Scenario};
use proptest::prelude::*;
use views::control::Control;
use views::{open, Input, LiveDemo, Slot, View};

/// Every slot of a list of controls a press can send, with its test hook.
fn control_slots(controls: &[Control], out: &mut Vec<(String, Slot)>) {
    for control in controls {
        match control {
            Control::Button(b) => out.push((b.id.clone(), b.send)),
            Control::Toggle(t) => out.push((t.id.clone(), t.send)),
            Control::Choice(c) => out.extend(
                c.options
                    .iter()
                    .map(|o| (format!("{}-{}", c.id, o.value), o.send)),
            ),
            Control::Group(g) => control_slots(&g.controls, out),
            _ => {}
        }
    }
}

/// Everything a press can send in the demo's current frame: controls by
/// test hook, clickable shapes by key.
fn pressable(demo: &mut dyn LiveDemo) -> Vec<(String, Slot)> {
    let frame = demo.frame();
    let mut out = Vec::new();
    control_slots(&frame.controls, &mut out);
    for figure in frame.scene.figures() {
        for shape in figure.walk() {
            if let Some(slot) = shape.on_click {
                out.push((shape.key.clone(), slot));
            }
        }
    }
    out
}

/// Presses the control or shape named `id`.
fn press(demo: &mut dyn LiveDemo, id: &str) {
    let all = pressable(demo);
    let slot = all
        .iter()
        .find(|(key, _)| key == id)
        .unwrap_or_else(|| {
            panic!(
                "no {id} among {:?}",
                all.iter().map(|p| &p.0).collect::<Vec<_>>()
            )
        })
        .1;
    demo.send(slot, &Input::Press).unwrap();
}

/// A link with its state only.
fn state_of(link: &str) -> &str {
    split_link(link).0
}

/// Takes the demo's link and opens it: the same picture, controls, status,
/// step count and link, with no notice.
fn assert_round_trip<M: View>(demo: &mut dyn LiveDemo) -> String {
    let link = demo.link();
    let (mut again, notice) = open::<M>(Some(&link));
    assert_eq!(notice, None, "{link}");
    assert_eq!(again.frame(), demo.frame(), "{link}");
    assert_eq!(again.status(), demo.status());
    assert_eq!(again.step_count(), demo.step_count());
    assert_eq!(again.link(), link);
    link
}

/// A demo with a look picked: its link carries the look, reopens it exactly,
/// and differs in picture or controls from the same state's default look.
fn assert_carries_look<M: View>(demo: &mut dyn LiveDemo) {
    let link = assert_round_trip::<M>(demo);
    let (_, look) = split_link(&link);
    assert!(look.is_some(), "the link carries no look: {link}");
    let (mut plain, notice) = open::<M>(Some(state_of(&link)));
    assert_eq!(notice, None);
    assert_ne!(
        plain.frame(),
        demo.frame(),
        "the look picked changes nothing: {link}"
    );
}

fn steps(demo: &mut dyn LiveDemo, n: usize) {
    for _ in 0..n {
        demo.step();
    }
}

fn scenario_link<M: Model>(config: M::Config) -> String {
    Scenario::<M> {
        config,
        actions: vec![],
    }
    .encode()
}

#[test]
fn encapsulation_link_keeps_the_fragment_and_the_field() {
    let (mut demo, _) = open::<Encapsulation>(None);
    press(demo.as_mut(), "fragment");
    // Down to the IP layer: two fragments.
    steps(demo.as_mut(), 2);
    press(demo.as_mut(), "frame-2");
    press(demo.as_mut(), "ip-ttl");
    assert_carries_look::<Encapsulation>(demo.as_mut());
    // A field of the first frame, one layer further down.
    steps(demo.as_mut(), 1);
    press(demo.as_mut(), "frame-1");
    press(demo.as_mut(), "eth-dst");
    assert_carries_look::<Encapsulation>(demo.as_mut());
}

#[test]
fn encapsulation_link_draws_a_pick_a_back_took_away_as_the_picture_does() {
    let (mut demo, _) = open::<Encapsulation>(None);
    press(demo.as_mut(), "fragment");
    steps(demo.as_mut(), 3);
    press(demo.as_mut(), "frame-2");
    press(demo.as_mut(), "eth-dst");
    // Back to the IP layer: no Ethernet field; back to TCP: one buffer.
    for _ in 0..2 {
        demo.back();
        assert_round_trip::<Encapsulation>(demo.as_mut());
    }
}

#[test]
fn rdma_link_keeps_unsignaled_posts() {
    let (mut demo, _) = open::<RdmaQp>(None);
    steps(demo.as_mut(), 3);
    press(demo.as_mut(), "signaled");
    assert_carries_look::<RdmaQp>(demo.as_mut());
}

#[test]
fn send_path_link_keeps_the_stage_being_edited() {
    let (mut demo, _) = open::<SendPath>(None);
    steps(demo.as_mut(), 2);
    press(demo.as_mut(), "stage-pick-3");
    assert_carries_look::<SendPath>(demo.as_mut());
}

#[test]
fn busy_poll_link_keeps_the_stage_being_edited() {
    let (mut demo, _) = open::<BusyPoll>(None);
    steps(demo.as_mut(), 2);
    press(demo.as_mut(), "stage-pick-4");
    assert_carries_look::<BusyPoll>(demo.as_mut());
}

#[test]
fn iommu_link_keeps_the_access() {
    let (mut demo, _) = open::<Iommu>(None);
    steps(demo.as_mut(), 2);
    press(demo.as_mut(), "access-read");
    assert_carries_look::<Iommu>(demo.as_mut());
}

#[test]
fn mesi_link_keeps_the_line() {
    let link = scenario_link::<Mesi>(MesiConfig {
        lines: 2,
        ..MesiConfig::default()
    });
    let (mut demo, notice) = open::<Mesi>(Some(&link));
    assert_eq!(notice, None);
    press(demo.as_mut(), "line-1");
    steps(demo.as_mut(), 2);
    assert_carries_look::<Mesi>(demo.as_mut());
}

#[test]
fn cache_hierarchy_link_keeps_stores_and_the_level() {
    let (mut demo, _) = open::<CacheHierarchy>(None);
    steps(demo.as_mut(), 2);
    press(demo.as_mut(), "kind-store");
    press(demo.as_mut(), "edit-l2");
    assert_carries_look::<CacheHierarchy>(demo.as_mut());
}

#[test]
fn a_link_with_the_default_look_is_the_state_alone() {
    let (mut demo, _) = open::<SendPath>(None);
    steps(demo.as_mut(), 2);
    let link = demo.link();
    assert_eq!(split_link(&link), (link.as_str(), None));
    assert!(!link[3..].contains('.'));
}

#[test]
fn a_link_from_before_looks_still_opens() {
    // `/cpu/mesi` with two lines and no look, as links were written before
    // they carried one (the encoding of the state has not changed).
    let config = MesiConfig {
        lines: 2,
        ..MesiConfig::default()
    };
    let link = scenario_link::<Mesi>(config);
    let (mut demo, notice) = open::<Mesi>(Some(&link));
    assert_eq!(notice, None);
    assert_eq!(demo.link(), link);
    let line = demo.frame().controls.into_iter().find_map(|c| match c {
        Control::Choice(c) if c.id == "line" => Some(c.selected),
        _ => None,
    });
    assert_eq!(line, Some(0), "two lines, the first picked");
}

/// Opens `link`, expecting the link's state with the default look and a
/// notice that says the look fell back.
fn assert_look_falls_back<M: View>(link: &str) {
    let (mut demo, notice) = open::<M>(Some(link));
    let notice = notice.unwrap_or_else(|| panic!("no notice for {link}"));
    assert!(
        notice.starts_with("This link's choice of what to show could not be restored: ")
            && notice.ends_with("The demo opened in the link's state, with its default view."),
        "{notice}"
    );
    assert!(!notice.contains(".."), "{notice}");
    let (mut plain, none) = open::<M>(Some(state_of(link)));
    assert_eq!(none, None);
    assert_eq!(demo.frame(), plain.frame());
    assert_eq!(demo.link(), plain.link());
}

#[test]
fn a_look_this_state_cannot_show_falls_back_with_a_notice() {
    let state = scenario_link::<Mesi>(MesiConfig::default());
    // One line: line 1 does not exist, nor does line 2⁶⁰.
    assert_look_falls_back::<Mesi>(&format!("{state}.{}", encode_look(&1usize)));
    assert_look_falls_back::<Mesi>(&format!("{state}.{}", encode_look(&(1usize << 60))));
    let state = scenario_link::<SendPath>(Default::default());
    assert_look_falls_back::<SendPath>(&format!("{state}.{}", encode_look(&99usize)));
    let state = scenario_link::<BusyPoll>(Default::default());
    assert_look_falls_back::<BusyPoll>(&format!("{state}.{}", encode_look(&99usize)));
    let state = scenario_link::<CacheHierarchy>(Default::default());
    assert_look_falls_back::<CacheHierarchy>(&format!("{state}.{}", encode_look(&(true, 4usize))));
    let state = scenario_link::<Encapsulation>(Default::default());
    // Frame 1 of one; a field that is no field; a field the payload lacks.
    assert_look_falls_back::<Encapsulation>(&format!(
        "{state}.{}",
        encode_look(&(1usize, None::<String>))
    ));
    assert_look_falls_back::<Encapsulation>(&format!(
        "{state}.{}",
        encode_look(&(0usize, Some("<script>")))
    ));
    assert_look_falls_back::<Encapsulation>(&format!(
        "{state}.{}",
        encode_look(&(0usize, Some("ip-ttl")))
    ));
}

#[test]
fn a_malformed_look_falls_back_with_a_notice() {
    let state = scenario_link::<Iommu>(Default::default());
    for look in ["", "!!", "A", "Ag", "AAAA", "AQ.AQ", &"A".repeat(5_000)] {
        assert_look_falls_back::<Iommu>(&format!("{state}.{look}"));
    }
    let state = scenario_link::<RdmaQp>(Default::default());
    // A bool is 0 or 1.
    assert_look_falls_back::<RdmaQp>(&format!("{state}.{}", encode_look(&7u8)));
}

#[test]
fn a_bad_state_ignores_the_look_and_says_why_once() {
    let (_, notice) = open::<Mesi>(Some(&format!("v1.!!.{}", encode_look(&1usize))));
    assert_eq!(
        notice.as_deref(),
        Some("This link could not be restored: the link's state is not valid URL-safe base64. The demo opened with its defaults.")
    );
}

/// Opens any text as a link: never panics; a notice whenever the picture is
/// not the one the text's state and look describe.
fn open_anything<M: View>(text: &str) {
    let (mut demo, notice) = open::<M>(Some(text));
    let frame = demo.frame();
    if let Some(notice) = notice {
        assert!(!notice.contains(".."), "{notice}");
        assert!(notice.ends_with('.'), "{notice}");
    }
    // Whatever opened has a link that opens to the same picture.
    let link = demo.link();
    let (mut again, notice) = open::<M>(Some(&link));
    assert_eq!(notice, None, "{link}");
    assert_eq!(again.frame(), frame);
}

fn open_everywhere(text: &str) {
    open_anything::<Encapsulation>(text);
    open_anything::<RdmaQp>(text);
    open_anything::<SendPath>(text);
    open_anything::<BusyPoll>(text);
    open_anything::<Iommu>(text);
    open_anything::<Mesi>(text);
    open_anything::<CacheHierarchy>(text);
}

fn default_state<M: Model>() -> String {
    scenario_link::<M>(M::Config::default())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn hostile_look_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..40)) {
        let look = demos::base64url::encode(&bytes);
        open_anything::<Encapsulation>(&format!("{}.{look}", default_state::<Encapsulation>()));
        open_anything::<RdmaQp>(&format!("{}.{look}", default_state::<RdmaQp>()));
        open_anything::<SendPath>(&format!("{}.{look}", default_state::<SendPath>()));
        open_anything::<BusyPoll>(&format!("{}.{look}", default_state::<BusyPoll>()));
        open_anything::<Iommu>(&format!("{}.{look}", default_state::<Iommu>()));
        open_anything::<Mesi>(&format!("{}.{look}", default_state::<Mesi>()));
        open_anything::<CacheHierarchy>(&format!("{}.{look}", default_state::<CacheHierarchy>()));
    }

    #[test]
    fn hostile_look_text_never_panics(text in ".{0,60}") {
        open_anything::<Mesi>(&format!("{}.{text}", default_state::<Mesi>()));
        open_anything::<Encapsulation>(&format!("{}.{text}", default_state::<Encapsulation>()));
    }

    #[test]
    fn hostile_links_never_panic(text in "(v1\\.)?[A-Za-z0-9_.!-]{0,80}") {
        open_everywhere(&text);
    }
}

/// A random session: presses anything the page offers, steps and goes back;
/// the link at the end reopens it exactly, with no notice.
fn wander<M: View>(moves: &[(u8, u16)]) {
    let (mut demo, _) = open::<M>(None);
    for &(kind, pick) in moves {
        match kind {
            0 => {
                demo.step();
            }
            1 => {
                demo.back();
            }
            _ => {
                let all = pressable(demo.as_mut());
                if !all.is_empty() {
                    let slot = all[usize::from(pick) % all.len()].1;
                    let _ = demo.send(slot, &Input::Press);
                }
            }
        }
    }
    assert_round_trip::<M>(demo.as_mut());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn any_session_reopens_from_its_link(moves in prop::collection::vec((0u8..5, any::<u16>()), 0..16)) {
        wander::<Encapsulation>(&moves);
        wander::<RdmaQp>(&moves);
        wander::<SendPath>(&moves);
        wander::<BusyPoll>(&moves);
        wander::<Iommu>(&moves);
        wander::<Mesi>(&moves);
        wander::<CacheHierarchy>(&moves);
    }
}
