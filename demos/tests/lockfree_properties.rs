//! Property tests for the lock-free demos: the laws every model obeys, and
//! each demo's own guarantee over random schedules.

use demos::laws::check_laws;
use demos::memory::aba::{Aba, AbaAction, AbaConfig};
use demos::memory::cas::{Cas, CasAction, CasConfig, Method};
use demos::memory::mpmc::{Mpmc, MpmcAction, MpmcConfig};
use demos::memory::rcu::{NodeState, Rcu, RcuAction, RcuConfig};
use demos::Timeline;
use proptest::prelude::*;

fn method() -> impl Strategy<Value = Method> {
    prop_oneof![
        Just(Method::Plain),
        Just(Method::CasLoop),
        Just(Method::FetchAdd)
    ]
}

fn cas_config() -> impl Strategy<Value = CasConfig> {
    (1usize..=5, 0u8..=6, method(), 0u32..1100).prop_map(
        |(threads, increments, method, initial)| CasConfig {
            threads,
            increments,
            method,
            initial,
        },
    )
}

fn cas_action() -> impl Strategy<Value = CasAction> {
    prop_oneof![
        8 => (0usize..5).prop_map(CasAction::Step),
        1 => Just(CasAction::Inject),
        1 => method().prop_map(CasAction::SetMethod),
    ]
}

fn aba_action(fixes: bool) -> BoxedStrategy<AbaAction> {
    let base = prop_oneof![
        3 => (0usize..3).prop_map(AbaAction::Pop),
        3 => (0usize..3, 0u8..5).prop_map(|(t, n)| AbaAction::Push(t, n)),
        8 => (0usize..3).prop_map(AbaAction::Step),
    ];
    if fixes {
        prop_oneof![
            14 => base,
            1 => any::<bool>().prop_map(AbaAction::SetTagged),
            1 => any::<bool>().prop_map(AbaAction::SetDeferred),
            1 => Just(AbaAction::Unprotect),
        ]
        .boxed()
    } else {
        base.boxed()
    }
}

fn aba_config() -> impl Strategy<Value = AbaConfig> {
    (any::<bool>(), any::<bool>()).prop_map(|(tagged, deferred)| AbaConfig { tagged, deferred })
}

fn mpmc_config() -> impl Strategy<Value = MpmcConfig> {
    (
        prop::sample::select(vec![1usize, 2, 3, 4, 8, 16]),
        0u8..=9,
        any::<bool>(),
    )
        .prop_map(|(capacity, items, sequenced)| MpmcConfig {
            capacity,
            items,
            sequenced,
        })
}

fn mpmc_action() -> impl Strategy<Value = MpmcAction> {
    prop_oneof![10 => (0usize..5).prop_map(MpmcAction::Step), 1 => Just(MpmcAction::Steal)]
}

fn rcu_action(free_now: bool) -> BoxedStrategy<RcuAction> {
    let r = 0usize..5;
    let base = prop_oneof![
        3 => r.clone().prop_map(RcuAction::Lock),
        3 => r.clone().prop_map(RcuAction::Deref),
        3 => r.clone().prop_map(RcuAction::Use),
        3 => r.prop_map(RcuAction::Unlock),
        2 => Just(RcuAction::Publish),
        1 => Just(RcuAction::Synchronize),
        1 => Just(RcuAction::CallRcu),
    ];
    if free_now {
        prop_oneof![12 => base, 1 => Just(RcuAction::FreeNow)].boxed()
    } else {
        base.boxed()
    }
}

/// Runs a schedule (thread choices and outside writes), then finishes every thread.
fn run_cas(config: CasConfig, schedule: &[Option<usize>]) -> Cas {
    let mut t = Timeline::<Cas>::new(config);
    for choice in schedule {
        let _ = match choice {
            Some(thread) => t.apply(CasAction::Step(*thread)),
            None => t.apply(CasAction::Inject),
        };
    }
    while t.step().is_ok() {}
    t.model().clone()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn cas_obeys_the_laws(config in cas_config(), actions in prop::collection::vec(cas_action(), 0..120)) {
        prop_assert_eq!(check_laws::<Cas>(config, &actions), Ok(()));
    }

    /// CAS loop and fetch_add: once every thread is done, the counter is the
    /// initial value plus every increment plus every outside write. Plain:
    /// the shortfall is exactly the number of lost updates.
    #[test]
    fn finished_counts_add_up(
        threads in 2usize..=4,
        increments in 1u8..=5,
        method in method(),
        initial in 0u32..=1000,
        schedule in prop::collection::vec(prop_oneof![8 => (0usize..4).prop_map(Some), 1 => Just(None)], 0..80),
    ) {
        let m = run_cas(CasConfig { threads, increments, method, initial }, &schedule);
        prop_assert!(m.finished());
        let total = initial + threads as u32 * u32::from(increments) + u32::from(m.injected);
        prop_assert_eq!(m.expected(), total);
        if method == Method::Plain {
            prop_assert_eq!(m.expected() - m.value, m.lost().count_ones());
        } else {
            prop_assert_eq!(m.value, total);
            if method == Method::FetchAdd {
                prop_assert_eq!(m.retries(), 0);
            }
        }
    }

    #[test]
    fn aba_obeys_the_laws(config in aba_config(), actions in prop::collection::vec(aba_action(true), 0..120)) {
        prop_assert_eq!(check_laws::<Aba>(config, &actions), Ok(()));
    }

    /// With either fix on, no schedule corrupts the stack; every node stays
    /// exactly one of linked, free, retired or being pushed.
    #[test]
    fn aba_with_a_fix_is_never_corrupted(
        fix in prop_oneof![Just((true, false)), Just((false, true)), Just((true, true))],
        actions in prop::collection::vec(aba_action(false), 0..200),
    ) {
        let mut t = Timeline::<Aba>::new(AbaConfig { tagged: fix.0, deferred: fix.1 });
        for a in actions {
            let _ = t.apply(a);
            prop_assert!(!t.model().corrupted(), "damage: {:?}", t.model().damage);
        }
        while t.step().is_ok() {}
        prop_assert!(!t.model().corrupted());
    }

    /// What the Break it note promises is what Step does: `damage_ahead`
    /// names the Step that finds the next damage, and `None` means Step
    /// finds none before it stops.
    #[test]
    fn aba_damage_ahead_is_what_step_reaches(
        config in aba_config(),
        actions in prop::collection::vec(aba_action(true), 0..60),
    ) {
        let mut t = Timeline::<Aba>::new(config);
        for a in actions {
            let _ = t.apply(a);
        }
        let before = t.model().damage.len();
        let ahead = t.model().damage_ahead();
        let mut steps = 0;
        while t.model().damage.len() == before && steps < 64 && t.step().is_ok() {
            steps += 1;
        }
        let found = t.model().damage.get(before).map(|&d| (steps, d));
        prop_assert_eq!(found, ahead);
    }

    #[test]
    fn mpmc_obeys_the_laws(config in mpmc_config(), actions in prop::collection::vec(mpmc_action(), 0..150)) {
        prop_assert_eq!(check_laws::<Mpmc>(config, &actions), Ok(()));
    }

    /// With sequence numbers, any schedule followed by draining delivers every
    /// value exactly once, each producer's values in the order it sent them.
    #[test]
    fn mpmc_with_sequence_numbers_loses_and_duplicates_nothing(
        capacity in prop::sample::select(vec![2usize, 4, 8]),
        items in 1u8..=6,
        actions in prop::collection::vec(mpmc_action(), 0..200),
    ) {
        let mut t = Timeline::<Mpmc>::new(MpmcConfig { capacity, items, sequenced: true });
        for a in actions {
            let _ = t.apply(a);
        }
        while t.step().is_ok() {}
        let m = t.model();
        let mut by_pos = m.dequeued.clone();
        by_pos.sort_unstable();
        let positions: Vec<u32> = by_pos.iter().map(|d| d.0).collect();
        prop_assert_eq!(positions, (0..2 * u32::from(items)).collect::<Vec<_>>());
        for p in [10u32, 20] {
            let sent: Vec<u32> = by_pos.iter().map(|d| d.1).filter(|v| v / 10 * 10 == p).collect();
            prop_assert_eq!(sent, (1..=u32::from(items)).map(|k| p + k).collect::<Vec<_>>());
        }
        prop_assert!(m.torn.is_empty());
    }

    #[test]
    fn rcu_obeys_the_laws(readers in 1usize..=5, actions in prop::collection::vec(rcu_action(true), 0..150)) {
        prop_assert_eq!(check_laws::<Rcu>(RcuConfig { readers }, &actions), Ok(()));
    }

    /// Without "free at once", no reader ever reads freed memory, and no
    /// reader inside a critical section ever holds a freed node.
    #[test]
    fn rcu_without_free_now_never_reads_freed_memory(
        readers in 2usize..=4,
        actions in prop::collection::vec(rcu_action(false), 0..200),
    ) {
        let mut t = Timeline::<Rcu>::new(RcuConfig { readers });
        for a in actions {
            let _ = t.apply(a);
            let m = t.model();
            prop_assert!(m.damage.is_empty());
            for r in &m.readers {
                if let Some(n) = r.held() {
                    prop_assert!(m.nodes[usize::from(n)] != NodeState::Freed);
                }
            }
        }
        while t.step().is_ok() {}
        prop_assert!(t.model().damage.is_empty());
    }
}
