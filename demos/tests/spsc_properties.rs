//! The SPSC ring obeys the laws every model obeys, and with the correct
//! protocol every value the consumer dequeues is the value enqueued, in FIFO
//! order, never lost or duplicated, whatever the schedule and whichever
//! stores the weak store buffer lets out first.

use demos::laws::check_laws;
use demos::memory::spsc::{Fault, Spsc, SpscAction, SpscConfig};
use demos::Model;
use proptest::prelude::*;

fn fault() -> impl Strategy<Value = Fault> {
    prop_oneof![
        Just(Fault::None),
        Just(Fault::RelaxedTail),
        Just(Fault::EarlyHead)
    ]
}

fn config() -> impl Strategy<Value = SpscConfig> {
    // Out-of-range capacities too: validate must refuse them.
    (0usize..20, fault(), any::<bool>()).prop_map(|(capacity, fault, cached)| SpscConfig {
        capacity,
        fault,
        cached,
    })
}

/// The schedule: who moves next, and which buffered store leaves (any
/// index, in range or not).
fn schedule() -> impl Strategy<Value = SpscAction> {
    prop_oneof![
        4 => Just(SpscAction::Producer),
        4 => Just(SpscAction::Consumer),
        3 => (0u8..12).prop_map(SpscAction::DrainProducer),
        2 => Just(SpscAction::DrainConsumer),
    ]
}

fn action() -> impl Strategy<Value = SpscAction> {
    prop_oneof![
        12 => schedule(),
        1 => fault().prop_map(SpscAction::SetFault),
        1 => any::<bool>().prop_map(SpscAction::SetCached),
    ]
}

/// Applies an action; returns the value the consumer read, if it read one.
fn apply(s: &mut Spsc, a: &SpscAction) -> Option<u32> {
    let before = s.dequeued;
    s.apply(a).ok()?;
    (s.dequeued > before).then(|| *s.received.last().unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn spsc_obeys_the_laws(config in config(), actions in prop::collection::vec(action(), 0..80)) {
        let config = if Spsc::validate(&config).is_ok() { config } else { SpscConfig::default() };
        prop_assert_eq!(check_laws::<Spsc>(config, &actions), Ok(()));
    }

    #[test]
    fn the_correct_protocol_delivers_every_item_once_in_order(
        capacity in 2usize..=16,
        cached in any::<bool>(),
        actions in prop::collection::vec(schedule(), 0..200),
    ) {
        let mut s = Spsc::new(&SpscConfig { capacity, fault: Fault::None, cached });
        let mut got = Vec::new();
        for a in &actions {
            got.extend(apply(&mut s, a));
            prop_assert_eq!(s.check(), Ok(()));
        }
        // Finish the schedule: the producer completes its item, every
        // store drains, and the consumer takes whatever is left.
        while s.producer != demos::memory::spsc::ProducerStep::CheckSpace {
            prop_assert!(apply(&mut s, &SpscAction::Producer).is_none());
        }
        loop {
            let moved = (0..12u8).any(|i| s.apply(&SpscAction::DrainProducer(i)).is_ok())
                || s.apply(&SpscAction::DrainConsumer).is_ok();
            if moved {
                continue;
            }
            let before = s.clone();
            got.extend(apply(&mut s, &SpscAction::Consumer));
            if s == before {
                break;
            }
        }
        prop_assert!(s.damage.is_empty());
        prop_assert_eq!(s.dequeued, s.tail, "an item was lost");
        let sent: Vec<u32> = (1..=s.tail).collect();
        prop_assert_eq!(got, sent);
    }
}
