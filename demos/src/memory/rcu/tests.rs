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

#[test]
fn the_story_frees_a_after_cpu_1_leaves_while_cpu_2_still_reads_b() {
    let mut m = rcu();
    let mut events = Vec::new();
    while let Ok(a) = m.next_auto() {
        let before_end = m.story == Some(7);
        events.extend(m.apply(&a).unwrap());
        m.check().unwrap();
        if before_end {
            // Right after CPU 1's unlock: A freed, CPU 2 still inside, holding B.
            assert_eq!(m.nodes[0], NodeState::Freed);
            assert!(m.readers[1].in_cs && m.readers[1].held == Some(1));
            assert_eq!(m.updater, Updater::Idle);
        }
    }
    assert_eq!(m.story, Some(STORY.len()));
    assert!(events.iter().any(|e| e.text
        == "The grace period waits for CPU 1: inside a read-side critical section when it began."));
    assert!(events.iter().any(|e| e
        .text
        .starts_with("Grace period over: synchronize_rcu() returns")));
    assert!(m.damage.is_empty());
}

#[test]
fn freeing_at_once_lets_a_pre_existing_reader_use_freed_memory() {
    let mut m = rcu();
    let events = run(
        &mut m,
        &[
            RcuAction::Lock(0),
            RcuAction::Deref(0),
            RcuAction::Publish,
            RcuAction::FreeNow,
        ],
    );
    assert!(events
        .last()
        .unwrap()
        .text
        .starts_with("CPU 1 still holds a pointer to A"));
    let events = run(&mut m, &[RcuAction::Use(0)]);
    assert_eq!(events[0].tone, Tone::Fault);
    assert_eq!(m.damage, vec![UseAfterFree { reader: 0, node: 0 }]);
}

#[test]
fn call_rcu_lets_the_updater_go_on_and_frees_later() {
    let mut m = rcu();
    run(
        &mut m,
        &[
            RcuAction::Lock(2),
            RcuAction::Deref(2),
            RcuAction::Publish,
            RcuAction::CallRcu,
        ],
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
    assert!(Rcu::validate(&RcuConfig { readers: 5 }).is_err());
}

#[test]
fn a_reader_already_inside_when_synchronize_starts_is_waited_for_even_holding_b() {
    let mut m = rcu();
    run(
        &mut m,
        &[
            RcuAction::Publish,
            RcuAction::Lock(1),
            RcuAction::Deref(1),
            RcuAction::Synchronize,
        ],
    );
    // RCU cannot know what CPU 2 fetched: a pre-existing section is waited for.
    assert_eq!(m.grace[0].waiting_on, vec![1]);
    assert_eq!(m.readers[1].held, Some(1));
}
