use super::*;
use crate::Tone;

fn rcu() -> Rcu {
    Rcu::new(&RcuConfig::default())
}

fn run(m: &mut Rcu, actions: &[RcuAction]) -> Vec<Event> {
    let mut all = Vec::new();
    for a in actions {
        all.extend(m.apply(a).unwrap());
        m.check().unwrap();
    }
    all
}

/// Walks reader `r` from outside to the middle element: lock, head, first->next.
fn to_middle(r: usize) -> [RcuAction; 3] {
    [RcuAction::Lock(r), RcuAction::Deref(r), RcuAction::Deref(r)]
}

#[test]
fn the_story_frees_a_after_cpu_1_and_cpu_3_leave_while_cpu_2_still_reads_b() {
    let mut m = rcu();
    let mut events = Vec::new();
    while let Ok(a) = m.next_auto() {
        let at = m.story;
        events.extend(m.apply(&a).unwrap());
        m.check().unwrap();
        match at {
            // CPU 3 entered before the update but reached the element after it.
            Some(7) => assert_eq!(m.readers[2].held(), Some(1)),
            // CPU 1 leaves: A is still waited for, on CPU 3.
            Some(13) => assert_eq!(m.nodes[0], NodeState::Unlinked),
            // CPU 3 leaves: A freed, CPU 2 still inside, holding B.
            Some(14) => {
                assert_eq!(m.nodes[0], NodeState::Freed);
                assert!(m.readers[1].in_cs && m.readers[1].held() == Some(1));
                assert_eq!(m.updater, Updater::Idle);
            }
            _ => {}
        }
        if m.story == Some(STORY.len()) {
            break;
        }
    }
    assert_eq!(m.story, Some(STORY.len()));
    assert!(events.iter().any(|e| e.text
        == "The grace period waits for CPU 1 and CPU 3: inside a read-side critical section when it began."));
    assert!(events
        .iter()
        .any(|e| e.text == "CPU 1: p = rcu_dereference(A->next) gives last: the old node still points on into the list."));
    assert!(events.iter().any(|e| e
        .text
        .starts_with("Grace period over: synchronize_rcu() returns")));
    assert!(m.damage.is_empty());
}

#[test]
fn the_timeline_shows_who_began_before_the_grace_period_and_what_each_saw() {
    let mut m = rcu();
    for a in STORY {
        m.apply(&a).unwrap();
    }
    let h = &m.history;
    assert_eq!(h.now, 16);
    let spans: Vec<(u8, Option<u8>, u32, Option<u32>)> = h
        .sections
        .iter()
        .map(|s| (s.reader, s.saw, s.start, s.end))
        .collect();
    // CPU 1 from tick 1 saw A; CPU 3 from tick 4 saw B; CPU 2 from tick 9 saw B.
    assert_eq!(
        spans,
        vec![
            (0, Some(0), 1, Some(14)),
            (2, Some(1), 4, Some(15)),
            (1, Some(1), 9, None)
        ]
    );
    // synchronize_rcu() at tick 7 ends when CPU 3 leaves at 15.
    assert_eq!(
        h.spans,
        vec![Span {
            node: 0,
            waiter: Waiter::Synchronize,
            start: 7,
            end: Some(15)
        }]
    );
    assert_eq!(
        h.marks,
        vec![
            (6, Mark::Publish(1)),
            (
                15,
                Mark::Free {
                    node: 0,
                    early: false
                }
            )
        ]
    );
}

#[test]
fn a_walk_goes_head_first_middle_last_and_stops() {
    let mut m = rcu();
    let events = run(&mut m, &to_middle(0));
    assert_eq!(
        events[2].text,
        "CPU 1: p = rcu_dereference(first->next) gives A, the original version."
    );
    run(&mut m, &[RcuAction::Deref(0)]);
    assert_eq!(m.readers[0].at, Some(Place::Last));
    let refusal = m.apply(&RcuAction::Deref(0)).unwrap_err();
    assert!(refusal.reason.contains("whose next is NULL"));
    assert!(m.apply(&RcuAction::Use(0)).is_err(), "not on the element");
}

#[test]
fn freeing_at_once_lets_a_pre_existing_reader_use_freed_memory() {
    let mut m = rcu();
    let events = run(
        &mut m,
        &[
            to_middle(0).as_slice(),
            &[RcuAction::Publish, RcuAction::FreeNow],
        ]
        .concat(),
    );
    assert!(events
        .last()
        .unwrap()
        .text
        .starts_with("CPU 1 still holds a pointer to A"));
    let events = run(&mut m, &[RcuAction::Use(0)]);
    assert_eq!(events[0].tone, Tone::Fault);
    assert_eq!(m.damage, vec![UseAfterFree { reader: 0, node: 0 }]);
    // Walking on reads A->next out of freed memory too.
    let events = run(&mut m, &[RcuAction::Deref(0)]);
    assert!(events[0]
        .text
        .starts_with("CPU 1 follows p->next, but A has been freed"));
    assert_eq!(m.damage.len(), 2);
}

#[test]
fn call_rcu_lets_the_updater_go_on_and_frees_later() {
    let mut m = rcu();
    run(
        &mut m,
        &[
            to_middle(2).as_slice(),
            &[RcuAction::Publish, RcuAction::CallRcu],
        ]
        .concat(),
    );
    assert_eq!(m.updater, Updater::Idle);
    assert_eq!(m.nodes[0], NodeState::Unlinked);
    // The updater publishes again while A's callback still waits.
    run(&mut m, &[RcuAction::Publish, RcuAction::CallRcu]);
    assert_eq!(m.grace.len(), 2);
    let events = run(&mut m, &[RcuAction::Unlock(2)]);
    assert!(events.iter().any(|e| e.text.contains("callback frees A")));
    assert!(events.iter().any(|e| e.text.contains("callback frees B")));
    assert_eq!(
        m.nodes,
        vec![NodeState::Freed, NodeState::Freed, NodeState::Live]
    );
}

#[test]
fn a_reader_that_starts_after_the_grace_period_began_does_not_delay_it() {
    let mut m = rcu();
    run(
        &mut m,
        &[
            RcuAction::Lock(0),
            RcuAction::Publish,
            RcuAction::Synchronize,
            RcuAction::Lock(1),
        ],
    );
    assert_eq!(m.grace[0].waiting_on, vec![0]);
    run(&mut m, &[RcuAction::Unlock(0)]);
    assert_eq!(
        m.nodes[0],
        NodeState::Freed,
        "CPU 2 is still inside, and that is fine"
    );
    assert!(m.readers[1].in_cs);
}

#[test]
fn with_no_reader_inside_synchronize_returns_at_once() {
    let mut m = rcu();
    let events = run(&mut m, &[RcuAction::Publish, RcuAction::Synchronize]);
    assert!(events.iter().any(|e| e.text.contains("ends at once")));
    assert_eq!((m.updater, m.nodes[0]), (Updater::Idle, NodeState::Freed));
}

#[test]
fn refusals_change_nothing() {
    let mut m = rcu();
    let fresh = m.clone();
    assert!(
        m.apply(&RcuAction::Deref(0)).is_err(),
        "outside a critical section"
    );
    assert!(m.apply(&RcuAction::Use(0)).is_err());
    assert!(m.apply(&RcuAction::Unlock(0)).is_err());
    assert!(
        m.apply(&RcuAction::Lock(3)).is_err(),
        "3 readers: CPU 1 to 3"
    );
    assert!(
        m.apply(&RcuAction::Synchronize).is_err(),
        "nothing published"
    );
    assert_eq!(m, fresh);
    run(
        &mut m,
        &[
            RcuAction::Lock(0),
            RcuAction::Publish,
            RcuAction::Synchronize,
        ],
    );
    assert!(
        m.apply(&RcuAction::Publish).is_err(),
        "blocked in synchronize_rcu"
    );
    assert!(m.apply(&RcuAction::Lock(0)).is_err(), "no nesting");
    assert_eq!(
        Rcu::validate(&RcuConfig { readers: 5 }),
        Err("The number of reader CPUs is 2 to 4; 5 is out of range.".into())
    );
}

#[test]
fn a_reader_already_inside_when_synchronize_starts_is_waited_for_even_holding_b() {
    let mut m = rcu();
    run(
        &mut m,
        &[
            &[RcuAction::Publish],
            to_middle(1).as_slice(),
            &[RcuAction::Synchronize],
        ]
        .concat(),
    );
    // RCU cannot know what CPU 2 fetched: a pre-existing section is waited for.
    assert_eq!(m.grace[0].waiting_on, vec![1]);
    assert_eq!(m.readers[1].held(), Some(1));
}

/// Issue 30: rcu_read_unlock() ends a critical section; it is not itself a
/// quiescent state (whatisRCU.rst §5B: a context switch is).
#[test]
fn unlock_ends_the_critical_section_and_is_not_called_a_quiescent_state() {
    let mut m = rcu();
    let events = run(&mut m, &[RcuAction::Lock(0), RcuAction::Unlock(0)]);
    let text = &events.last().unwrap().text;
    assert!(!text.contains("has passed a quiescent state"), "{text}");
    assert!(
        text.contains("rcu_read_unlock() ends its critical section"),
        "{text}"
    );
    assert!(text.contains("next quiescent state (a context switch, idle or user mode)"));
    assert!(Rcu::leaves_out().contains("rcu_read_unlock() itself is not one"));
}
