//! The `/fabric/metastable` demo against random settings and actions: the
//! laws every model obeys (its `check` holds the queue's books: every
//! request sent is refused, served, thrown away or still queued; every
//! failure is retried or given up), and the model's own laws: the server
//! never serves more than its capacity, goodput never exceeds the requests
//! sent, and with no retries a trigger never outlives the queue it built.

use demos::fabric::metastable::config::{
    CAPACITY, HORIZON, QUEUE_LIMIT, RATE, RETRIES, SHED_AT, SLOW_CAPACITY, TIMEOUT, TRIGGER_LENGTH,
    TRIGGER_START,
};
use demos::fabric::metastable::{
    Fixes, Metastable, MetastableAction as A, MetastableConfig, Trigger, TriggerKind,
};
use demos::laws::check_laws;
use demos::Model;
use proptest::prelude::*;

fn fixes() -> impl Strategy<Value = Fixes> {
    prop::collection::vec(any::<bool>(), 5).prop_map(|b| Fixes {
        budget: b[0],
        backoff: b[1],
        lifo: b[2],
        deadline: b[3],
        shed: b[4],
    })
}

fn config() -> impl Strategy<Value = MetastableConfig> {
    (
        (
            CAPACITY.min..=CAPACITY.max,
            RATE.min..=RATE.max,
            TIMEOUT.min..=TIMEOUT.max,
        ),
        (
            RETRIES.min..=RETRIES.max,
            QUEUE_LIMIT.min..=QUEUE_LIMIT.max,
            SHED_AT.min..=SHED_AT.max,
        ),
        (
            any::<bool>(),
            TRIGGER_START.min..=TRIGGER_START.max,
            TRIGGER_LENGTH.min..=TRIGGER_LENGTH.max,
            SLOW_CAPACITY.min..=SLOW_CAPACITY.max,
            0u32..=100,
        ),
        fixes(),
        any::<u64>(),
    )
        .prop_map(
            |((capacity, rate, timeout), (retries, queue_limit, shed_at), t, fixes, seed)| {
                MetastableConfig {
                    capacity,
                    rate,
                    timeout,
                    retries,
                    queue_limit,
                    shed_at,
                    trigger: Trigger {
                        kind: if t.0 {
                            TriggerKind::Slowdown
                        } else {
                            TriggerKind::Burst
                        },
                        start: t.1,
                        length: t.2,
                        slow_capacity: t.3.min(capacity),
                        burst: t.4,
                    },
                    fixes,
                    seed,
                }
            },
        )
}

fn action() -> impl Strategy<Value = A> {
    prop_oneof![
        8 => Just(A::Tick),
        2 => (0u32..60).prop_map(A::Run),
        1 => Just(A::ToEnd),
        1 => Just(A::Restart),
        1 => (0u32..45).prop_map(A::SetRate),
        1 => (0u32..22).prop_map(A::SetCapacity),
        1 => (0u32..55).prop_map(A::SetTimeout),
        1 => (0u8..6).prop_map(A::SetRetries),
        1 => prop_oneof![Just(TriggerKind::Slowdown), Just(TriggerKind::Burst)].prop_map(A::SetTriggerKind),
        1 => (0u32..110).prop_map(A::SetTriggerLength),
        1 => any::<bool>().prop_map(A::SetBudget),
        1 => any::<bool>().prop_map(A::SetBackoff),
        1 => any::<bool>().prop_map(A::SetLifo),
        1 => any::<bool>().prop_map(A::SetDeadline),
        1 => any::<bool>().prop_map(A::SetShed),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn the_laws_hold(c in config(), actions in prop::collection::vec(action(), 0..30)) {
        prop_assert_eq!(check_laws::<Metastable>(c, &actions), Ok(()));
    }

    #[test]
    fn no_tick_serves_more_than_it_was_sent(c in config()) {
        let mut m = Metastable::new(&c);
        m.apply(&A::ToEnd).unwrap();
        prop_assert_eq!(m.check(), Ok(()));
        prop_assert_eq!(m.tick(), HORIZON);
        let good: u64 = m.history().iter().map(|r| u64::from(r.good)).sum();
        let sent: u64 = m.history().iter().map(|r| u64::from(r.offered())).sum();
        prop_assert!(good <= sent);
        for r in m.history() {
            prop_assert!(r.good + r.wasted <= r.capacity);
        }
    }

    /// Without retries nothing sustains the overload: once the trigger is
    /// over and the load is below capacity, the queue drains, whatever the
    /// trigger was. (A queue of at most 50 losing at least one request a
    /// tick drains within 50 ticks, so a trigger over by tick 50 leaves the
    /// run time to recover.)
    #[test]
    fn without_retries_a_trigger_passes(c in config()) {
        let mut c = c;
        c.retries = 0;
        c.rate = c.rate.min(c.capacity - 1);
        c.trigger.start = 10;
        c.trigger.length = c.trigger.length.min(40);
        c.queue_limit = c.queue_limit.min(50);
        let mut m = Metastable::new(&c);
        m.apply(&A::ToEnd).unwrap();
        prop_assert!(m.recovered_at().is_some(), "{:?}", m.last());
    }
}
