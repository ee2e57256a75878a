//! Property tests for RSS: the laws over random settings and actions, and
//! the steering's own rules.

use demos::host::rss::steering::{reciprocal_scale, Topology};
use demos::host::rss::{Rss, RssAction, RssConfig, FLOWS, PER_NODE, QUEUES};
use demos::laws::check_laws;
use demos::Model;
use proptest::prelude::*;

fn config() -> impl Strategy<Value = RssConfig> {
    (
        QUEUES.min..=QUEUES.max,
        PER_NODE.min..=PER_NODE.max,
        FLOWS.min..=FLOWS.max,
        any::<u64>(),
        any::<(bool, bool, bool, bool, bool)>(),
    )
        .prop_map(
            |(queues, per_node, mice, seed, (elephants, rps, rfs, xps, remote_irqs))| RssConfig {
                // One queue per core at most, as validation asks.
                queues: queues.min(2 * per_node),
                per_node,
                mice,
                elephants,
                seed,
                rps,
                rfs,
                xps,
                remote_irqs,
            },
        )
}

fn action() -> impl Strategy<Value = RssAction> {
    prop_oneof![
        4 => Just(RssAction::Receive),
        1 => Just(RssAction::ReceiveRound),
        1 => (0u32..=20).prop_map(RssAction::SetQueues),
        1 => (0u32..=10).prop_map(RssAction::SetPerNode),
        1 => (0u32..=40).prop_map(RssAction::SetFlows),
        1 => Just(RssAction::NewFlows),
        1 => any::<bool>().prop_map(RssAction::SetElephants),
        1 => any::<bool>().prop_map(RssAction::SetRps),
        1 => any::<bool>().prop_map(RssAction::SetRfs),
        1 => any::<bool>().prop_map(RssAction::SetXps),
        1 => any::<bool>().prop_map(RssAction::SetRemoteIrqs),
        2 => any::<u8>().prop_map(RssAction::CycleEntry),
        1 => Just(RssAction::SpreadEvenly),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn rss_obeys_the_laws(config in config(), actions in prop::collection::vec(action(), 0..60)) {
        prop_assert_eq!(check_laws::<Rss>(config, &actions), Ok(()));
    }

    /// A whole round sends every flow exactly its weight, so the counters
    /// equal the load the status reports.
    #[test]
    fn a_round_matches_the_reported_load(config in config()) {
        let mut m = Rss::new(&config);
        m.apply(&RssAction::ReceiveRound).unwrap();
        prop_assert_eq!(m.stack_work(), m.stack_load());
        for (i, f) in m.flows().iter().enumerate() {
            prop_assert_eq!(m.per_flow[i], u64::from(f.weight()));
        }
    }

    /// RFS puts the processing on the reader's core; pinned interrupts put
    /// every packet on the far node; a flow's packets share one queue.
    #[test]
    fn steering_does_what_it_says(config in config()) {
        let rfs = Rss::new(&RssConfig { rfs: true, ..config.clone() });
        prop_assert_eq!(rfs.handover_share(), 0.0);
        let far = Rss::new(&RssConfig { remote_irqs: true, ..config.clone() });
        prop_assert_eq!(far.remote_share(), 100.0);
        let mut m = Rss::new(&config);
        let mut queue_of = vec![None; m.flows().len()];
        for _ in 0..64 {
            m.apply(&RssAction::Receive).unwrap();
            let i = m.last.unwrap();
            let q = m.path(i, &m.flows()[i]).queue;
            prop_assert!(queue_of[i].is_none_or(|seen| seen == q));
            queue_of[i] = Some(q);
        }
    }

    /// reciprocal_scale stays below its range, and the high bits decide.
    #[test]
    fn reciprocal_scale_is_in_range(hash in any::<u32>(), range in 1u32..=64) {
        let v = reciprocal_scale(hash, range);
        prop_assert!(v < range);
        prop_assert_eq!(v, reciprocal_scale(hash & !0x7f, range).max(v));
    }

    /// Every core is some spread index's, once per lap.
    #[test]
    fn local_spread_is_a_permutation(per_node in 1u32..=8, node in 0u32..2) {
        let t = Topology { per_node };
        let mut cores: Vec<u32> = (0..t.cores()).map(|i| t.local_spread(i, node)).collect();
        cores.sort_unstable();
        prop_assert_eq!(cores, (0..t.cores()).collect::<Vec<_>>());
    }
}
