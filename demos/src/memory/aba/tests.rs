use super::*;
use crate::Tone;

fn run_classic(config: AbaConfig) -> (Aba, Vec<Event>) {
    let mut m = Aba::new(&config);
    let mut events = Vec::new();
    for _ in 0..30 {
        let Ok(action) = m.next_auto() else { break };
        events.extend(m.apply(&action).unwrap());
        m.check().unwrap();
    }
    (m, events)
}

#[test]
fn raw_cas_lets_the_stale_pop_install_a_freed_node() {
    let (mut m, events) = run_classic(AbaConfig::default());
    assert_eq!(m.script, Some(CLASSIC.len()));
    assert_eq!(m.head, Some(1), "head is B");
    assert_eq!(m.damage, vec![Damage::FreedReachable(1)]);
    // Popping the freed B hands it out a second time.
    for a in [AbaAction::Pop(1), AbaAction::Step(1), AbaAction::Step(1)] {
        m.apply(&a).unwrap();
    }
    assert!(m.damage.contains(&Damage::DoubleFree(1)));
    assert!(events.iter().any(|e| e.text
        == "T1's CAS(head, A, B) succeeds: head = B. A is popped and freed onto the free list."));
    assert!(events.iter().any(|e| e.tone == Tone::Fault
        && e.text
            .contains("B is reachable from head, but it was freed")));
}

#[test]
fn a_node_pushed_behind_the_reused_one_is_lost() {
    let mut m = Aba::new(&AbaConfig::default());
    // T2 pushes D before pushing A back: A → D → C. T1's stale CAS installs B → C.
    let schedule = [
        &CLASSIC[..8],
        &[AbaAction::Push(1, 3), AbaAction::Step(1)],
        &CLASSIC[8..],
    ]
    .concat();
    for a in &schedule {
        m.apply(a).unwrap();
        m.check().unwrap();
    }
    assert_eq!(m.damage, vec![Damage::FreedReachable(1), Damage::Lost(3)]);
}

#[test]
fn a_tag_makes_the_stale_cas_fail_on_the_version() {
    let (m, events) = run_classic(AbaConfig {
        tagged: true,
        deferred: false,
    });
    assert!(!m.corrupted());
    assert!(events
        .iter()
        .any(|e| e.text.contains("head is A again, but its tag is 3, not 0")));
    // T1 starts over and pops A properly: C remains.
    assert_eq!(m.head, Some(2));
    assert_eq!(m.workers[0].retries, 1);
}

#[test]
fn hazard_pointers_keep_a_from_being_reused() {
    let mut m = Aba::new(&AbaConfig {
        tagged: false,
        deferred: true,
    });
    for a in &CLASSIC[..8] {
        m.apply(a).unwrap();
    }
    assert_eq!(m.retired, vec![0], "A waits: T1's hazard pointer holds it");
    assert_eq!(m.free, vec![3, 1], "B was reclaimed at once");
    let refusal = m.apply(&AbaAction::Push(1, 0)).unwrap_err();
    assert!(refusal
        .reason
        .contains("T1's hazard pointer still holds it"));
    let (m, _) = run_classic(AbaConfig {
        tagged: false,
        deferred: true,
    });
    assert!(!m.corrupted());
}

#[test]
fn reading_next_of_a_freed_node_is_flagged() {
    let mut m = Aba::new(&AbaConfig::default());
    for a in [
        AbaAction::Pop(0),
        AbaAction::Pop(1),
        AbaAction::Step(1),
        AbaAction::Step(1),
    ] {
        m.apply(&a).unwrap();
    }
    let events = m.apply(&AbaAction::Step(0)).unwrap();
    assert_eq!(events[0].tone, Tone::Warn);
    assert!(events[0]
        .text
        .starts_with("T1 reads A.next = B. A is on the free list"));
}

#[test]
fn popping_an_empty_stack_returns_nothing() {
    let mut m = Aba::new(&AbaConfig::default());
    for _ in 0..3 {
        m.apply(&AbaAction::Pop(0)).unwrap();
        m.apply(&AbaAction::Step(0)).unwrap();
        m.apply(&AbaAction::Step(0)).unwrap();
    }
    let events = m.apply(&AbaAction::Pop(0)).unwrap();
    assert!(events[0].text.contains("the stack is empty"));
    assert_eq!(m.workers[0].task, Task::Idle);
    assert_eq!(m.free, vec![3, 0, 1, 2]);
}

#[test]
fn refusals_leave_the_state_alone() {
    let mut m = Aba::new(&AbaConfig::default());
    let fresh = m.clone();
    assert!(m.apply(&AbaAction::Step(0)).is_err(), "idle");
    assert!(m.apply(&AbaAction::Pop(2)).is_err(), "no T3");
    assert!(
        m.apply(&AbaAction::Push(0, 1)).is_err(),
        "B is in the stack"
    );
    assert!(m.apply(&AbaAction::Push(0, 9)).is_err(), "no such node");
    assert!(m.apply(&AbaAction::SetTagged(false)).is_err());
    assert_eq!(m, fresh);
    m.apply(&AbaAction::Pop(0)).unwrap();
    assert!(m.apply(&AbaAction::Push(0, 3)).is_err(), "T1 is busy");
}

/// Issue 30: a tag is "a few bits" only when packed into a pointer's spare
/// bits; with a double-width CAS it is a full word.
#[test]
fn the_tag_width_depends_on_where_it_is_kept() {
    let out = Aba::leaves_out();
    assert!(!out.contains("real tags are a few bits"));
    assert!(out.contains("spare bits"));
    assert!(out.contains("CMPXCHG16B"));
    let m = Aba::new(&AbaConfig {
        tagged: true,
        deferred: false,
    });
    assert!(m
        .why()
        .last()
        .unwrap()
        .contains("whole word beside the pointer"));
}

/// Issue 37, Break it: Unprotect starts over with the bare-pointer head and
/// no hazard pointers, and Step then reaches the corruption the audit finds.
#[test]
fn unprotect_starts_over_raw_and_step_reaches_the_damage() {
    let mut m = Aba::new(&AbaConfig {
        tagged: true,
        deferred: true,
    });
    assert_eq!(m.damage_ahead(), None, "both fixes hold");
    m.apply(&AbaAction::Pop(0)).unwrap();
    let events = m.apply(&AbaAction::Unprotect).unwrap();
    assert_eq!((m.tagged, m.deferred), (false, false));
    assert_eq!(m, Aba::new(&AbaConfig::default()));
    assert_eq!(
        m.script,
        Some(0),
        "Step plays the classic run from its start"
    );
    assert_eq!(
        m.damage_ahead(),
        Some((CLASSIC.len(), Damage::FreedReachable(1)))
    );
    assert!(events.iter().any(|e| e.text
        == "Step now plays the classic interleaving from its start. 11 Steps reach the damage: B freed yet reachable from head."));
    for n in 1..=CLASSIC.len() {
        let action = m.next_auto().unwrap();
        assert_eq!(action, CLASSIC[n - 1]);
        m.apply(&action).unwrap();
        m.check().unwrap();
        if n < CLASSIC.len() {
            assert_eq!(m.damage_ahead().map(|(k, _)| k), Some(CLASSIC.len() - n));
        }
    }
    assert_eq!(m.damage, vec![Damage::FreedReachable(1)]);
    assert_eq!(m.damage_ahead(), None, "both threads idle: Step stops");
}

/// Raw CAS is the default: a fresh raw stack has nothing to unprotect, and
/// the refusal says what Step does instead.
#[test]
fn unprotect_is_refused_on_the_untouched_default() {
    let mut m = Aba::new(&AbaConfig::default());
    let refusal = m.apply(&AbaAction::Unprotect).unwrap_err();
    assert_eq!(
        refusal.reason,
        "The stack is already unprotected, its default, and untouched: Step plays the classic interleaving. 11 Steps reach the damage: B freed yet reachable from head."
    );
    // Mid-run it starts the raw stack over.
    for a in &CLASSIC[..4] {
        m.apply(a).unwrap();
    }
    m.apply(&AbaAction::Unprotect).unwrap();
    assert_eq!(m, Aba::new(&AbaConfig::default()));
}

/// The reuse move is offered exactly when pushing the node back makes the
/// stale CAS install a `next` that is no longer next.
#[test]
fn reuse_is_the_push_that_makes_the_stale_cas_harmful() {
    let mut m = Aba::new(&AbaConfig::default());
    for (i, a) in CLASSIC[..8].iter().enumerate() {
        assert_eq!(m.reuse(), None, "before action {i}");
        m.apply(a).unwrap();
    }
    // T2 popped A and B: head is C, T1 still holds A and next = B.
    assert_eq!(m.reuse(), Some((1, 0, 0)));
    assert_eq!(CLASSIC[8], AbaAction::Push(1, 0));
    // After only A was popped, head is B, T1's next: pushing A back is
    // harmless, so it is not the break.
    let mut once = Aba::new(&AbaConfig::default());
    for a in &CLASSIC[..5] {
        once.apply(a).unwrap();
    }
    assert_eq!(once.head, Some(1));
    assert_eq!(once.reuse(), None);
    // With a tag the same push is possible, and the CAS fails on the version.
    let mut tagged = Aba::new(&AbaConfig {
        tagged: true,
        deferred: false,
    });
    for a in &CLASSIC[..8] {
        tagged.apply(a).unwrap();
    }
    assert_eq!(tagged.reuse(), Some((1, 0, 0)));
    assert_eq!(tagged.damage_ahead(), None);
    // With hazard pointers A is retired, and the push is refused.
    let mut held = Aba::new(&AbaConfig {
        tagged: false,
        deferred: true,
    });
    for a in &CLASSIC[..8] {
        held.apply(a).unwrap();
    }
    assert_eq!(held.reuse(), Some((1, 0, 0)));
    assert!(held.refusal(&AbaAction::Push(1, 0)).is_some());
}
