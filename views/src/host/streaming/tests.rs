use super::*;
use crate::scene::Scene;
use demos::host::streaming::{StreamingConfig, RUN};
use demos::Model;

fn model(change: impl FnOnce(&mut StreamingConfig)) -> Streaming {
    let mut c = StreamingConfig::default();
    change(&mut c);
    Streaming::new(&c)
}

fn scene(m: &Streaming) -> Scene {
    crate::build(m, &()).0
}

fn state(s: &Scene, key: &str) -> String {
    s.find(key)
        .unwrap_or_else(|| panic!("{key} is in the picture"))
        .state
        .clone()
        .unwrap_or_default()
}

#[test]
fn a_step_fills_one_slot_on_each_side() {
    let mut m = model(|_| {});
    let before = scene(&m);
    assert_eq!(state(&before, "classic-pkt-0"), "not yet");
    m.apply(&StreamingAction::Deliver).unwrap();
    let after = scene(&m);
    assert_eq!(state(&after, "classic-pkt-0"), "seen by software");
    // Ensō's software hears of it only when the batch closes.
    assert_eq!(state(&after, "enso-pkt-0"), "written, not yet notified");
    assert_eq!(state(&after, "classic-desc-0"), "written back");
    assert_eq!(state(&after, "enso-note-0"), "empty");
    assert_eq!(state(&after, "classic-pkt-1"), "not yet");
}

#[test]
fn a_notification_tells_software_of_the_whole_batch() {
    let mut m = model(|c| c.batch = 4);
    m.apply(&StreamingAction::DeliverBatch).unwrap();
    let s = scene(&m);
    for slot in 0..4 {
        assert_eq!(state(&s, &format!("enso-pkt-{slot}")), "seen by software");
    }
    assert_eq!(state(&s, "enso-note-0"), "written");
    assert_eq!(state(&s, "enso-note-1"), "empty");
}

#[test]
fn the_window_moves_on_every_eight_packets() {
    let mut m = model(|_| {});
    for _ in 0..9 {
        m.apply(&StreamingAction::Deliver).unwrap();
    }
    let s = scene(&m);
    let window = s.find("window").unwrap().text_content().unwrap();
    assert!(window.starts_with("Packets 9–16 of 64"), "{window}");
    assert_eq!(state(&s, "classic-pkt-0"), "seen by software");
    assert_eq!(state(&s, "classic-pkt-1"), "not yet");
}

#[test]
fn a_held_packet_pins_enso_but_one_classic_buffer() {
    let mut m = model(|c| c.hold = true);
    for _ in 0..3 {
        m.apply(&StreamingAction::Deliver).unwrap();
    }
    let s = scene(&m);
    assert_eq!(state(&s, "classic-pkt-0"), "held");
    assert_eq!(state(&s, "classic-pkt-1"), "seen by software");
    assert_eq!(state(&s, "enso-pkt-2"), "held");
    let pinned = s.table_named("so-far").unwrap();
    let enso = pinned.cell("enso-pinned").unwrap();
    assert_eq!(enso.text, "192");
}

#[test]
fn the_tables_read_the_model() {
    let mut m = model(|_| {});
    while m.apply(&StreamingAction::Deliver).is_ok() {}
    assert_eq!(m.delivered, RUN);
    let s = scene(&m);
    let so_far = s.table_named("so-far").unwrap();
    assert_eq!(so_far.cell("classic-transactions").unwrap().text, "256");
    assert_eq!(so_far.cell("enso-transactions").unwrap().text, "70");
    let per = s.table_named("per-packet").unwrap();
    assert_eq!(per.cell("classic-pp-up").unwrap().text, "148.0");
    assert_eq!(per.cell("enso-rate").unwrap().class, "done");
    assert_eq!(per.cell("classic-rate").unwrap().class, "fault");
}
