use super::config::TIPPING_LENGTH;
use super::*;
use crate::Model;

fn run(c: &MetastableConfig) -> Metastable {
    let mut m = Metastable::new(c);
    m.apply(&MetastableAction::ToEnd).unwrap();
    m.check().unwrap();
    m
}

fn tipped() -> MetastableConfig {
    let mut c = MetastableConfig::default();
    c.trigger.length = TIPPING_LENGTH;
    c
}

#[test]
fn a_short_trigger_passes_and_the_server_recovers() {
    let m = run(&MetastableConfig::default());
    assert_eq!(m.recovered_at(), Some(30));
    assert_eq!(m.recent_goodput(), 8.0);
}

/// The load is 80 % of capacity after the trigger, and yet the server
/// stays stuck: every request waits past its timeout, every client retries.
#[test]
fn a_longer_trigger_leaves_it_stuck_below_capacity() {
    let m = run(&tipped());
    assert!(m.config.rate < m.config.capacity);
    assert_eq!(m.recovered_at(), None);
    assert_eq!(m.recent_goodput(), 0.0);
    let last = m.last().unwrap();
    assert_eq!(last.wasted, 10, "{last:?}");
    assert!(last.offered() > m.config.capacity, "{last:?}");
    assert!(last.dead * 2 > last.queue, "{last:?}");
}

#[test]
fn without_retries_the_same_trigger_passes() {
    let mut c = tipped();
    c.retries = 0;
    let m = run(&c);
    assert!(m.recovered_at().is_some());
    assert_eq!(m.recent_goodput(), 8.0);
}

#[test]
fn the_budget_lifo_deadline_and_shedding_each_recover_and_backoff_alone_does_not() {
    type Fix = fn(&mut Fixes);
    let fixes: [(&str, Fix); 5] = [
        ("budget", |f| f.budget = true),
        ("lifo", |f| f.lifo = true),
        ("deadline", |f| f.deadline = true),
        ("shed", |f| f.shed = true),
        ("backoff", |f| f.backoff = true),
    ];
    for (name, fix) in fixes {
        let mut c = tipped();
        fix(&mut c.fixes);
        let m = run(&c);
        let recovered = m.recovered_at().is_some();
        assert_eq!(recovered, name != "backoff", "{name}");
    }
}

#[test]
fn the_sweep_finds_two_stable_states() {
    let m = Metastable::new(&tipped());
    let sweep = m.sweep();
    let at8 = &sweep.points[8];
    assert_eq!((at8.calm, at8.after), (8.0, 0.0));
    assert_eq!(sweep.bistable(), vec![8, 9, 10]);
    // Above capacity there is only the bad state.
    assert_eq!(sweep.points[12].calm, 0.0);
}

#[test]
fn the_budget_stops_retries_once_half_its_tokens_are_gone() {
    let mut c = tipped();
    c.fixes.budget = true;
    let m = run(&c);
    let throttled: u32 = m.history().iter().map(|r| r.throttled).sum();
    assert!(throttled > 0);
    assert!(m
        .history()
        .iter()
        .all(|r| r.throttled == 0 || r.tokens_milli <= 5_000));
}

#[test]
fn a_fix_turned_on_mid_failure_brings_it_back() {
    let mut m = Metastable::new(&tipped());
    m.apply(&MetastableAction::Run(100)).unwrap();
    assert_eq!(m.recovered_at(), None);
    m.apply(&MetastableAction::SetBudget(true)).unwrap();
    m.apply(&MetastableAction::ToEnd).unwrap();
    m.check().unwrap();
    assert!(m.recovered_at().is_some());
}

#[test]
fn refusals_say_why() {
    let mut m = run(&MetastableConfig::default());
    assert!(m.apply(&MetastableAction::Tick).is_err());
    assert!(m.next_auto().is_err());
    assert!(m.apply(&MetastableAction::SetRate(8)).is_err());
    assert!(m.apply(&MetastableAction::SetRate(41)).is_err());
    assert!(m.apply(&MetastableAction::SetBudget(false)).is_err());
    assert!(m.apply(&MetastableAction::Run(0)).is_err());
    m.apply(&MetastableAction::Restart).unwrap();
    assert!(m.apply(&MetastableAction::Restart).is_err());
}

#[test]
fn a_burst_can_tip_it_too() {
    let mut c = MetastableConfig::default();
    c.trigger.kind = TriggerKind::Burst;
    let m = run(&c);
    assert_eq!(m.history()[20].new, 18);
    assert_eq!(m.recovered_at(), None);
}

#[test]
fn the_trigger_s_end_reports_the_queue_it_left() {
    let mut c = MetastableConfig::default();
    c.trigger.length = TIPPING_LENGTH;
    let mut m = Metastable::new(&c);
    let said = m.apply(&MetastableAction::ToEnd).unwrap();
    let end = &m.history()[34];
    let line = format!(
        "It left {} requests queued, {} of them dead.",
        end.queue, end.dead
    );
    assert!(said.iter().any(|e| e.text.contains(&line)), "{said:?}");
}
