use super::send::{Balancer, PACKETS};
use super::*;
use crate::model::Model;

fn default() -> Ecmp {
    Ecmp::new(&EcmpConfig::default())
}

fn sent(config: EcmpConfig) -> Ecmp {
    let mut m = Ecmp::new(&config);
    m.apply(&EcmpAction::PlaceAll).unwrap();
    m.apply(&EcmpAction::Send).unwrap();
    m
}

#[test]
fn the_status_shows_the_closed_forms() {
    let m = default();
    let status = m.status();
    let get = |k: &str| status.iter().find(|f| f.key == k).unwrap().value.clone();
    assert_eq!(get("expected-idle"), "2.75");
    assert_eq!(get("no-collision"), "0.24 %");
}

/// With one QP and no pauses, ECMP's step is exactly the busiest uplink's
/// connections times a connection alone.
#[test]
fn ecmp_step_is_the_busiest_uplinks_load() {
    for seed in 0..20 {
        let m = sent(EcmpConfig {
            seed,
            ..EcmpConfig::default()
        });
        let s = m.step();
        assert_eq!(s.ticks, m.busiest_now() as u64 * PACKETS as u64);
        assert_eq!(s.out_of_order, 0);
    }
}

#[test]
fn steps_place_then_send_then_stop() {
    let mut m = default();
    for _ in 0..8 {
        assert_eq!(m.next_auto(), Ok(EcmpAction::Place));
        m.apply(&EcmpAction::Place).unwrap();
    }
    assert_eq!(m.next_auto(), Ok(EcmpAction::Send));
    m.apply(&EcmpAction::Send).unwrap();
    assert!(m.next_auto().is_err());
    assert!(m.apply(&EcmpAction::Place).is_err());
}

#[test]
fn send_before_placing_is_refused() {
    let mut m = default();
    assert!(m.apply(&EcmpAction::Send).is_err());
}

#[test]
fn changing_the_balancer_keeps_the_placement() {
    let mut m = default();
    m.apply(&EcmpAction::PlaceAll).unwrap();
    m.apply(&EcmpAction::SetBalancer(Balancer::Spray)).unwrap();
    assert!(m.all_placed() && !m.sent);
    m.apply(&EcmpAction::SetQps(2)).unwrap();
    assert_eq!(m.placed, 0);
}

#[test]
fn spraying_balances_what_ecmp_piles_up() {
    let ecmp = sent(EcmpConfig::default());
    let spray = sent(EcmpConfig {
        balancer: Balancer::Spray,
        ..EcmpConfig::default()
    });
    assert!(spray.step().ticks < ecmp.step().ticks);
    assert!(spray.step().out_of_order > 0);
}

fn figure(m: &Ecmp, key: &str) -> String {
    m.status()
        .into_iter()
        .find(|f| f.key == key)
        .map(|f| f.value)
        .unwrap_or_default()
}

/// The numbers the browser story expects (end2end/tests/ecmp.spec.js).
#[test]
fn the_browser_storys_numbers() {
    let mut m = default();
    let first = m.apply(&EcmpAction::Place).unwrap();
    assert_eq!(
        first[0].text,
        "Connection 0: 10.0.0.1:56513 → 10.0.1.1:4791. QP 0xad2ae1 hashes to 0xf6dd2dd5, uplink 7."
    );
    m.apply(&EcmpAction::PlaceAll).unwrap();
    assert_eq!(figure(&m, "idle-now"), "4");
    assert_eq!(figure(&m, "busiest-now"), "3");
    m.apply(&EcmpAction::Send).unwrap();
    assert_eq!(figure(&m, "step"), "3.00");
    assert_eq!(m.step_with(Balancer::Ecmp).ticks, 192);
    let mut spray = m.clone();
    spray
        .apply(&EcmpAction::SetBalancer(Balancer::Spray))
        .unwrap();
    let said = spray.apply(&EcmpAction::Send).unwrap();
    assert!(said[0].text.contains("73 ticks: 1.14×"), "{}", said[0].text);
    assert_eq!(figure(&spray, "reordered"), "257");
    let mut qps = default();
    qps.apply(&EcmpAction::SetQps(4)).unwrap();
    qps.apply(&EcmpAction::PlaceAll).unwrap();
    qps.apply(&EcmpAction::Send).unwrap();
    assert_eq!(figure(&qps, "step"), "1.50");
    let mut flowlet = default();
    for a in [
        EcmpAction::SetBalancer(Balancer::Flowlet),
        EcmpAction::SetGaps(3),
        EcmpAction::SetPause(2),
        EcmpAction::PlaceAll,
        EcmpAction::Send,
    ] {
        flowlet.apply(&a).unwrap();
    }
    assert_eq!(figure(&flowlet, "step"), "1.23");
    assert_eq!(figure(&flowlet, "reordered"), "164");
    flowlet.apply(&EcmpAction::SetPause(200)).unwrap();
    flowlet.apply(&EcmpAction::Send).unwrap();
    assert_eq!(figure(&flowlet, "step"), "1.00");
    assert_eq!(figure(&flowlet, "reordered"), "0");
}
