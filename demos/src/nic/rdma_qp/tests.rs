use super::*;

fn qp() -> RdmaQp {
    RdmaQp::new(&RdmaConfig::default())
}

fn run_nic(m: &mut RdmaQp) -> usize {
    let mut steps = 0;
    while let Ok(action) = m.next_auto() {
        m.apply(&action).unwrap();
        steps += 1;
    }
    steps
}

#[test]
fn a_send_takes_three_nic_steps_and_no_syscall() {
    let mut m = qp();
    m.apply(&RdmaAction::PostSend(WorkRequest::valid()))
        .unwrap();
    assert_eq!(m.sq[0].stage, Stage::Posted);
    m.apply(&RdmaAction::NicStep).unwrap();
    assert_eq!((m.sq[0].stage, m.in_flight()), (Stage::Fetched, 1));
    m.apply(&RdmaAction::NicStep).unwrap();
    assert_eq!(m.sq[0].stage, Stage::Sent);
    assert_eq!(m.on_wire, Some((1, MSG_BYTES)));
    m.apply(&RdmaAction::NicStep).unwrap();
    assert!(m.sq.is_empty());
    assert_eq!(m.cq[0].status, WcStatus::Success);
    assert!(m.next_auto().is_err());
    m.apply(&RdmaAction::PollCq).unwrap();
    assert_eq!(m.polled.len(), 1);
    assert_eq!((m.counters.data_syscalls, m.counters.copies), (0, 0));
    assert_eq!(m.counters.bytes_sent, u64::from(MSG_BYTES));
}

#[test]
fn socket_sends_cost_a_syscall_and_a_copy_each() {
    let mut m = qp();
    for _ in 0..3 {
        m.apply(&RdmaAction::SocketSend(MSG_BYTES)).unwrap();
    }
    assert_eq!(m.counters.sock_syscalls, 3);
    assert_eq!(m.counters.sock_copies, 3);
    assert_eq!(m.counters.sock_bytes_copied, 3 * u64::from(MSG_BYTES));
    assert!(m.apply(&RdmaAction::SocketSend(0)).is_err());
}

#[test]
fn a_buffer_outside_the_region_errors_and_flushes_the_rest() {
    let mut m = qp();
    m.apply(&RdmaAction::PostSend(WorkRequest::outside()))
        .unwrap();
    m.apply(&RdmaAction::PostSend(WorkRequest::valid()))
        .unwrap();
    m.apply(&RdmaAction::NicStep).unwrap();
    m.apply(&RdmaAction::NicStep).unwrap();
    assert_eq!(m.qp, QpState::Err);
    assert_eq!(m.counters.bytes_sent, 0);
    run_nic(&mut m);
    let statuses: Vec<_> = m.cq.iter().map(|c| c.status).collect();
    assert_eq!(statuses, vec![WcStatus::LocProtErr, WcStatus::WrFlushErr]);
    // Posting in ERR is accepted, then flushed.
    m.apply(&RdmaAction::PollCq).unwrap();
    m.apply(&RdmaAction::PostSend(WorkRequest::valid()))
        .unwrap();
    assert!(m.apply(&RdmaAction::ResetQp).is_err(), "must flush first");
    run_nic(&mut m);
    assert_eq!(m.cq[0].status, WcStatus::WrFlushErr);
    m.apply(&RdmaAction::ResetQp).unwrap();
    assert_eq!(m.qp, QpState::Rts);
    assert_eq!(m.counters.control_syscalls, RESET_MODIFY_CALLS);
    assert!(m.apply(&RdmaAction::ResetQp).is_err());
}

#[test]
fn a_wrong_lkey_is_a_protection_error_too() {
    let mut m = qp();
    m.apply(&RdmaAction::PostSend(WorkRequest::wrong_key()))
        .unwrap();
    run_nic(&mut m);
    assert_eq!(m.cq[0].status, WcStatus::LocProtErr);
    assert_eq!(m.qp, QpState::Err);
}

#[test]
fn posting_is_refused_when_the_sq_or_cq_could_overflow() {
    let mut m = qp();
    for _ in 0..4 {
        m.apply(&RdmaAction::PostSend(WorkRequest::valid()))
            .unwrap();
    }
    let full = m.apply(&RdmaAction::PostSend(WorkRequest::valid()));
    assert!(full.unwrap_err().reason.contains("ENOMEM"));
    run_nic(&mut m);
    assert_eq!(m.cq.len(), 4);
    let over = m.apply(&RdmaAction::PostSend(WorkRequest::valid()));
    assert!(over.unwrap_err().reason.contains("Poll the CQ"));
    m.apply(&RdmaAction::PollCq).unwrap();
    assert!(m.apply(&RdmaAction::PollCq).is_err());
}

#[test]
fn the_nic_waits_when_the_cq_is_full() {
    let mut m = RdmaQp::new(&RdmaConfig {
        sq_depth: 2,
        cq_depth: 1,
    });
    m.apply(&RdmaAction::PostSend(WorkRequest::valid()))
        .unwrap();
    assert!(m
        .apply(&RdmaAction::PostSend(WorkRequest::valid()))
        .is_err());
    assert_eq!(run_nic(&mut m), 3);
    assert_eq!(m.cq.len(), 1);
}

#[test]
fn protection_check_covers_key_start_and_end() {
    assert_eq!(WorkRequest::valid().protection_error(), None);
    assert!(WorkRequest::outside().protection_error().is_some());
    assert!(WorkRequest::wrong_key().protection_error().is_some());
    let before = WorkRequest {
        addr: MR_ADDR - 1,
        ..WorkRequest::valid()
    };
    assert!(before.protection_error().is_some());
    let exact = WorkRequest {
        addr: MR_ADDR + MR_LEN - 16,
        len: 16,
        lkey: LKEY,
    };
    assert_eq!(exact.protection_error(), None);
    let huge = WorkRequest {
        addr: u64::MAX - 4,
        len: 100,
        lkey: LKEY,
    };
    assert!(huge.protection_error().is_some());
}

#[test]
fn invalid_configs_are_rejected() {
    assert!(RdmaQp::validate(&RdmaConfig {
        sq_depth: 0,
        cq_depth: 4
    })
    .is_err());
    assert!(RdmaQp::validate(&RdmaConfig {
        sq_depth: 4,
        cq_depth: 17
    })
    .is_err());
}
