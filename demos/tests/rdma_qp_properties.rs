//! RDMA queue pair: the laws over random action sequences, and the
//! completion guarantees: every signaled or failed WR completes exactly
//! once, in order; an unsignaled success never writes a completion; and the
//! CQ never holds more than its depth.

use demos::laws::check_laws;
use demos::nic::rdma_qp::{
    Op, RdmaAction, RdmaConfig, RdmaQp, Stage, WcStatus, WorkRequest, LKEY, MR_ADDR, MR_LEN,
    PEER_MR_ADDR, RKEY,
};
use demos::{Model, Scenario, Timeline};
use proptest::prelude::*;

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![Just(Op::Send), Just(Op::Write), Just(Op::Read)]
}

fn work_request() -> impl Strategy<Value = WorkRequest> {
    let base = prop_oneof![
        3 => Just(WorkRequest::valid()),
        2 => Just(WorkRequest::write()),
        2 => Just(WorkRequest::read()),
        1 => Just(WorkRequest::outside()),
        1 => Just(WorkRequest::wrong_key()),
        1 => Just(WorkRequest::wrong_rkey()),
        1 => (op(), MR_ADDR - 64..MR_ADDR + MR_LEN + 64, 0u32..5000, prop_oneof![Just(LKEY), any::<u32>()],
              PEER_MR_ADDR - 64..PEER_MR_ADDR + 5000, prop_oneof![Just(RKEY), any::<u32>()])
            .prop_map(|(op, addr, len, lkey, remote_addr, rkey)| WorkRequest {
                op, addr, len, lkey, remote_addr, rkey, signaled: true,
            }),
        1 => (op(), any::<u64>(), any::<u32>(), any::<u32>(), any::<u64>(), any::<u32>())
            .prop_map(|(op, addr, len, lkey, remote_addr, rkey)| WorkRequest {
                op, addr, len, lkey, remote_addr, rkey, signaled: true,
            }),
    ];
    (base, prop::bool::weighted(0.7)).prop_map(|(wr, signaled)| WorkRequest { signaled, ..wr })
}

fn action() -> impl Strategy<Value = RdmaAction> {
    prop_oneof![
        4 => work_request().prop_map(RdmaAction::PostSend),
        5 => Just(RdmaAction::NicStep),
        2 => Just(RdmaAction::PollCq),
        1 => prop_oneof![Just(1024u32), any::<u32>()].prop_map(RdmaAction::SocketSend),
        1 => Just(RdmaAction::ResetQp),
        2 => Just(RdmaAction::PeerPostRecv),
    ]
}

fn config() -> impl Strategy<Value = RdmaConfig> {
    (1usize..=16, 1usize..=16, 0u8..=7).prop_map(|(sq_depth, cq_depth, rnr_retry)| RdmaConfig {
        sq_depth,
        cq_depth,
        rnr_retry,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn rdma_obeys_the_laws(config in config(), actions in prop::collection::vec(action(), 0..120)) {
        prop_assert_eq!(check_laws::<RdmaQp>(config, &actions), Ok(()));
    }

    /// Runs random actions, then lets the NIC, the peer and the app drain
    /// everything: each signaled or failed WR comes back exactly once, in
    /// posting order, an unsignaled success never does, and an error is
    /// followed only by flushes until a reset.
    #[test]
    fn every_signaled_or_failed_wr_completes_exactly_once(config in config(), actions in prop::collection::vec(action(), 0..150)) {
        let cq_depth = config.cq_depth;
        let mut m = RdmaQp::new(&config);
        let mut seen = Vec::new();
        let poll = |m: &mut RdmaQp, seen: &mut Vec<(u64, WcStatus)>| {
            let waiting: Vec<_> = m.cq.iter().map(|c| (c.wr_id, c.status)).collect();
            if m.apply(&RdmaAction::PollCq).is_ok() {
                seen.extend(waiting);
            }
        };
        // The first WR id posted after each successful reset.
        let mut epochs = Vec::new();
        for action in &actions {
            if *action == RdmaAction::PollCq {
                poll(&mut m, &mut seen);
            } else if m.apply(action).is_ok() && *action == RdmaAction::ResetQp {
                epochs.push(m.next_wr_id);
            }
            prop_assert!(m.cq.len() <= cq_depth);
        }
        loop {
            match m.next_auto() {
                Ok(a) => { m.apply(&a).unwrap(); }
                Err(_) if !m.cq.is_empty() => poll(&mut m, &mut seen),
                Err(_) if m.head().is_some_and(|(_, w)| matches!(w.stage, Stage::RnrWait(_))) => {
                    m.apply(&RdmaAction::PeerPostRecv).unwrap();
                }
                Err(_) => break,
            }
            prop_assert!(m.cq.len() <= cq_depth);
        }
        let ids: Vec<u64> = seen.iter().map(|(id, _)| *id).collect();
        prop_assert!(ids.windows(2).all(|p| p[0] < p[1]), "in posting order, once each");
        prop_assert_eq!(seen.len() as u64 + m.counters.silent, m.counters.posted);
        // After an error, every later WR up to the next reset is flushed:
        // none is sent, none fails on its own.
        for (k, status) in &seen {
            if !matches!(*status, WcStatus::Success | WcStatus::WrFlushErr) {
                let end = epochs.iter().copied().find(|e| e > k).unwrap_or(u64::MAX);
                for (j, later) in &seen {
                    if j > k && *j < end {
                        prop_assert_eq!(*later, WcStatus::WrFlushErr, "WR {} after error {}", j, k);
                    }
                }
            }
        }
        prop_assert!(m.sq.iter().all(|w| w.stage == Stage::Done));
        prop_assert_eq!(m.counters.data_syscalls, 0);
    }

    #[test]
    fn hostile_rdma_links_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        use base64::Engine;
        let text = format!("v1.{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&bytes));
        if let Ok(s) = Scenario::<RdmaQp>::decode(&text) {
            let _ = Timeline::<RdmaQp>::from_scenario(&s);
        }
    }
}

#[test]
fn an_error_flushes_everything_behind_it() {
    let mut m = RdmaQp::new(&RdmaConfig::default());
    m.apply(&RdmaAction::PostSend(WorkRequest::wrong_key()))
        .unwrap();
    for _ in 0..3 {
        m.apply(&RdmaAction::PostSend(WorkRequest::valid()))
            .unwrap();
    }
    while let Ok(a) = m.next_auto() {
        m.apply(&a).unwrap();
    }
    let statuses: Vec<_> = m.cq.iter().map(|c| c.status).collect();
    assert_eq!(
        statuses,
        vec![
            WcStatus::LocProtErr,
            WcStatus::WrFlushErr,
            WcStatus::WrFlushErr,
            WcStatus::WrFlushErr
        ]
    );
}
