use super::*;
use crate::Tone;

fn mpmc() -> Mpmc {
    Mpmc::new(&MpmcConfig::default())
}

fn run(m: &mut Mpmc, order: &[usize]) -> Vec<Event> {
    let mut all = Vec::new();
    for &a in order {
        all.extend(m.apply(&MpmcAction::Step(a)).unwrap());
        m.check().unwrap();
    }
    all
}

#[test]
fn one_enqueue_reads_pos_and_seq_cases_writes_and_publishes() {
    let mut m = mpmc();
    let events = run(&mut m, &[0, 0, 0, 0, 0]);
    assert!(events[1].text.contains("sequence 0: it equals pos"));
    assert!(events[2].text.contains("moves enqueue_pos from 0 to 1"));
    assert!(events[4].text.contains("stores sequence 1"));
    assert_eq!(
        (m.enqueue_pos, m.cells[0].seq, m.cells[0].data),
        (1, 1, Some(11))
    );
    // A consumer: seq 1 = pos + 1, CAS, read, release with pos + mask + 1 = 4.
    let events = run(&mut m, &[2, 2, 2, 2, 2]);
    assert!(events[4]
        .text
        .contains("stores sequence 4 = pos + mask + 1"));
    assert_eq!((m.dequeue_pos, m.cells[0].seq), (1, 4));
    assert_eq!(m.dequeued, vec![(0, 11)]);
}

#[test]
fn p2_stealing_the_head_makes_p1s_cas_fail_and_retry() {
    let mut m = mpmc();
    run(&mut m, &[0, 0]); // P1 loaded pos 0 and read seq 0.
    let events = m.apply(&MpmcAction::Steal).unwrap();
    assert!(events.last().unwrap().text.contains("P2 took position 0"));
    assert_eq!(m.agents[1].phase, Phase::Write);
    let events = run(&mut m, &[0]);
    assert_eq!(events[0].tone, Tone::Warn);
    assert!(events[0]
        .text
        .contains("P1's CAS fails: enqueue_pos is 1, not 0"));
    assert_eq!((m.agents[0].retries, m.agents[0].pos), (1, Some(1)));
    run(&mut m, &[0, 0, 0, 0]);
    assert_eq!(m.enqueued, vec![(1, 11)], "P1 got position 1");
}

#[test]
fn a_full_ring_and_an_empty_one_return_false() {
    let mut m = Mpmc::new(&MpmcConfig {
        capacity: 2,
        items: 3,
        sequenced: true,
    });
    run(&mut m, &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    let events = run(&mut m, &[0, 0]);
    assert!(events[1].text.contains("the queue is full"));
    assert_eq!(m.full_returns, 1);
    let mut e = mpmc();
    let events = run(&mut e, &[2, 2]);
    assert!(events[1].text.contains("empty"));
}

#[test]
fn without_sequence_numbers_a_consumer_reads_a_reserved_unwritten_slot() {
    let mut m = Mpmc::new(&MpmcConfig {
        sequenced: false,
        ..MpmcConfig::default()
    });
    run(&mut m, &[0, 0, 0]); // P1 reserved position 0 but has not written.
    let events = run(&mut m, &[2, 2, 2, 2]);
    let last = events.last().unwrap();
    assert_eq!(last.tone, Tone::Fault);
    assert!(last
        .text
        .contains("before any producer wrote it there: it gets nothing"));
    assert_eq!(
        m.torn,
        vec![TornRead {
            consumer: 2,
            pos: 0,
            got: None
        }]
    );
}

#[test]
fn round_robin_delivers_every_item_once_in_producer_order() {
    let mut m = mpmc();
    while let Ok(a) = m.next_auto() {
        m.apply(&a).unwrap();
        m.check().unwrap();
    }
    let mut by_pos = m.dequeued.clone();
    by_pos.sort_unstable();
    let mut got: Vec<u32> = by_pos.iter().map(|d| d.1).collect();
    let p1: Vec<u32> = got.iter().copied().filter(|v| *v < 20).collect();
    assert_eq!(p1, vec![11, 12, 13]);
    got.sort_unstable();
    assert_eq!(got, vec![11, 12, 13, 21, 22, 23]);
    assert!(
        m.retries() > 0,
        "taking turns makes the second CAS of a pair fail"
    );
    assert_eq!(m.cas_ops(), 12 + m.retries());
}

#[test]
fn refusals_change_nothing() {
    let mut m = mpmc();
    let fresh = m.clone();
    assert!(m.apply(&MpmcAction::Step(4)).is_err());
    assert!(m.apply(&MpmcAction::Steal).is_err(), "P1 holds no position");
    assert_eq!(m, fresh);
    assert!(Mpmc::validate(&MpmcConfig {
        capacity: 3,
        ..MpmcConfig::default()
    })
    .is_err());
    assert_eq!(
        Mpmc::validate(&MpmcConfig {
            items: 0,
            ..MpmcConfig::default()
        }),
        Err("The number of items per producer is 1 to 8; 0 is out of range.".into())
    );
    assert_eq!(
        Mpmc::validate(&MpmcConfig {
            capacity: 3,
            ..MpmcConfig::default()
        }),
        Err("The capacity is a power of two, one of 2, 4, 8, 16 slots; 3 slots is not.".into())
    );
}

/// Regression (issue 30): a producer whose loaded `pos` fell behind
/// dequeue_pos made `pos - dequeue_pos` underflow. Overflow checks panicked;
/// a release build wrapped it to about four billion and told the learner an
/// empty queue was full.
#[test]
fn a_stale_producer_position_behind_dequeue_pos_is_not_a_full_queue() {
    let mut m = Mpmc::new(&MpmcConfig {
        capacity: 2,
        items: 1,
        sequenced: false,
    });
    run(&mut m, &[0]); // P1 loads enqueue_pos = 0 and pauses.
    run(&mut m, &[1, 1, 1, 1]); // P2 enqueues 21 at position 0.
    run(&mut m, &[2, 2, 2, 2]); // C1 dequeues it: dequeue_pos = 1.
    assert_eq!((m.agents[0].pos, m.dequeue_pos), (Some(0), 1));
    let events = run(&mut m, &[0]);
    assert!(
        events[0]
            .text
            .contains("0 − dequeue_pos 1 = −1 < 2, so it goes for position 0"),
        "{}",
        events[0].text
    );
    assert_eq!(m.full_returns, 0, "the queue is empty, not full");
    let events = run(&mut m, &[0]);
    assert!(events[0]
        .text
        .contains("P1's CAS fails: enqueue_pos is 1, not 0"));
}
