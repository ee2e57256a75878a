use super::*;

fn cas(method: Method) -> Cas {
    Cas::new(&CasConfig {
        method,
        ..CasConfig::default()
    })
}

fn steps(m: &mut Cas, order: &[usize]) -> Vec<Event> {
    let mut all = Vec::new();
    for &t in order {
        all.extend(m.apply(&CasAction::Step(t)).unwrap());
        m.check().unwrap();
    }
    all
}

#[test]
fn two_plain_loads_before_either_store_lose_one_update() {
    let mut m = cas(Method::Plain);
    // T1 load, T2 load, T1 add, T2 add, T1 store, T2 store.
    let events = steps(&mut m, &[0, 1, 0, 1, 0, 1]);
    assert_eq!((m.value, m.expected(), m.lost().count_ones()), (1, 2, 1));
    assert!(events.iter().any(|e| e.tone == crate::Tone::Fault
        && e.text
            .contains("T2's store was computed from 0, so it erases T1's increment 1")));
}

#[test]
fn the_log_records_the_interleaving_and_the_store_that_lost_an_update() {
    let mut m = cas(Method::Plain);
    steps(&mut m, &[0, 1, 0, 1, 0, 1]);
    let kinds: Vec<(Option<u8>, MoveKind, u32)> =
        m.log.iter().map(|e| (e.thread, e.kind, e.value)).collect();
    assert_eq!(
        kinds,
        vec![
            (Some(0), MoveKind::Load, 0),
            (Some(1), MoveKind::Load, 0),
            (Some(0), MoveKind::Add, 1),
            (Some(1), MoveKind::Add, 1),
            (Some(0), MoveKind::Store, 1),
            (Some(1), MoveKind::Store, 1),
        ]
    );
    // Only T2's store erased anything: T1's first increment (update 0).
    assert_eq!(m.log[5].erased, 1);
    assert_eq!(m.log.iter().map(|e| e.erased).sum::<u32>(), 1);
    assert_eq!(m.lost(), 1);
}

#[test]
fn a_failed_cas_and_an_outside_write_are_logged() {
    let mut m = cas(Method::CasLoop);
    steps(&mut m, &[0, 0]);
    m.apply(&CasAction::Inject).unwrap();
    steps(&mut m, &[0, 0, 0]);
    let kinds: Vec<MoveKind> = m.log.iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        vec![
            MoveKind::Load,
            MoveKind::Add,
            MoveKind::Inject,
            MoveKind::CasFail,
            MoveKind::Add,
            MoveKind::CasOk
        ]
    );
    assert_eq!(
        (m.log[2].thread, m.log[3].value, m.log[5].value),
        (None, 1, 2)
    );
}

#[test]
fn round_robin_steps_reproduce_the_lost_update() {
    let mut m = cas(Method::Plain);
    while let Ok(a) = m.next_auto() {
        m.apply(&a).unwrap();
    }
    // Lockstep increments: each pair of stores keeps only one.
    assert_eq!((m.value, m.expected(), m.lost().count_ones()), (2, 4, 2));
    assert_eq!(m.expected() - m.value, m.lost().count_ones());
}

#[test]
fn a_cas_that_finds_the_counter_changed_retries_from_the_value_it_saw() {
    let mut m = cas(Method::CasLoop);
    steps(&mut m, &[0, 0, 1, 1, 1]); // T1 loads and computes; T2 completes an increment.
    let events = steps(&mut m, &[0]);
    assert!(events[0]
        .text
        .contains("T1's CAS fails: the counter holds 1, not 0"));
    assert_eq!(
        m.threads[0].loaded,
        Some(1),
        "expected now holds what the CAS saw"
    );
    assert_eq!(m.threads[0].phase, Phase::Compute, "no separate reload");
    let events = steps(&mut m, &[0, 0]);
    assert!(events
        .last()
        .unwrap()
        .text
        .contains("finds 1 as expected and stores 2"));
    assert_eq!((m.value, m.retries()), (2, 1));
}

#[test]
fn an_outside_write_forces_a_retry_and_is_counted() {
    let mut m = cas(Method::CasLoop);
    steps(&mut m, &[0, 0]);
    m.apply(&CasAction::Inject).unwrap();
    steps(&mut m, &[0]);
    assert_eq!(m.retries(), 1);
    while let Ok(a) = m.next_auto() {
        m.apply(&a).unwrap();
    }
    assert_eq!(m.value, 4 + 1, "2 threads × 2 increments + 1 outside write");
    assert_eq!(m.lost(), 0);
}

#[test]
fn fetch_add_is_one_step_per_increment() {
    let mut m = Cas::new(&CasConfig {
        threads: 4,
        increments: 3,
        method: Method::FetchAdd,
        initial: 10,
    });
    let mut n = 0;
    while let Ok(a) = m.next_auto() {
        m.apply(&a).unwrap();
        n += 1;
    }
    assert_eq!((n, m.value, m.retries()), (12, 22, 0));
}

/// Issue 30: "never retries" holds for LOCK XADD / LDADD, not for LL/SC.
#[test]
fn fetch_add_names_where_it_is_one_instruction_and_where_a_loop() {
    let m = Cas::new(&CasConfig {
        method: Method::FetchAdd,
        ..CasConfig::default()
    });
    let why = m.why().join(" ");
    assert!(why.contains("LOCK XADD"), "{why}");
    assert!(
        why.contains("LDXR/STXR or lwarx/stwcx. loop, which does retry"),
        "{why}"
    );
    assert!(!why.contains("there is nothing to retry"));
    assert!(Cas::leaves_out().contains("load-linked/store-conditional"));
}

#[test]
fn plain_can_lose_an_outside_write_too() {
    let mut m = cas(Method::Plain);
    steps(&mut m, &[0, 0]);
    m.apply(&CasAction::Inject).unwrap();
    let events = steps(&mut m, &[0]);
    assert!(events
        .iter()
        .any(|e| e.text.contains("erases outside write 1")));
    assert_eq!((m.value, m.expected()), (1, 2));
}

#[test]
fn refusals_leave_the_state_alone() {
    let mut m = cas(Method::CasLoop);
    let fresh = m.clone();
    assert!(m.apply(&CasAction::Step(2)).is_err());
    assert!(m.apply(&CasAction::SetMethod(Method::CasLoop)).is_err());
    assert_eq!(m, fresh);
    steps(&mut m, &[0, 0, 0, 0, 0, 0]);
    assert!(m.apply(&CasAction::Step(0)).is_err(), "T1 is done");
    m.apply(&CasAction::SetMethod(Method::Plain)).unwrap();
    assert_eq!((m.value, m.threads[0].done), (0, 0));
    assert!(Cas::validate(&CasConfig {
        threads: 5,
        ..CasConfig::default()
    })
    .is_err());
    assert!(Cas::validate(&CasConfig {
        increments: 6,
        ..CasConfig::default()
    })
    .is_err());
    assert_eq!(
        Cas::validate(&CasConfig {
            initial: 1001,
            ..CasConfig::default()
        }),
        Err("The initial value is 0 to 1000; 1001 is out of range.".into())
    );
    assert_eq!(THREADS.control_range(3), (3, 2, 4));
}
