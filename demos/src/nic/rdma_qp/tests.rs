use super::*;

fn qp() -> RdmaQp {
    RdmaQp::new(&RdmaConfig::default())
}

fn run_nic(m: &mut RdmaQp) -> usize {
    let mut steps = 0;
    while let Ok(action) = m.next_auto() {
        m.apply(&action).unwrap();
        m.check().unwrap();
        steps += 1;
    }
    steps
}

fn post(m: &mut RdmaQp, wr: WorkRequest) {
    m.apply(&RdmaAction::PostSend(wr)).unwrap();
}

#[test]
fn a_send_takes_three_nic_steps_and_no_syscall() {
    let mut m = qp();
    post(&mut m, WorkRequest::valid());
    assert_eq!(m.sq[0].stage, Stage::Posted);
    m.apply(&RdmaAction::NicStep).unwrap();
    assert_eq!((m.sq[0].stage, m.in_flight()), (Stage::Fetched, 1));
    m.apply(&RdmaAction::NicStep).unwrap();
    assert_eq!(m.sq[0].stage, Stage::Acked);
    assert_eq!(m.on_wire, Some((1, MSG_BYTES, Op::Send)));
    assert_eq!(m.peer_rq, RQ_PREPOSTED - 1, "the Send consumed a receive");
    m.apply(&RdmaAction::NicStep).unwrap();
    assert!(m.sq.is_empty());
    assert_eq!(m.cq[0].status, WcStatus::Success);
    assert!(m.next_auto().is_err());
    m.apply(&RdmaAction::PollCq).unwrap();
    assert_eq!(m.polled.len(), 1);
    assert_eq!((m.counters.data_syscalls, m.counters.copies), (0, 0));
}

#[test]
fn a_send_completion_has_no_byte_len_a_read_completion_does() {
    // On the send side the provider decides: mlx5's handle_good_req() sets
    // byte_len for an RDMA READ (and atomics), not for a Send.
    let mut m = qp();
    post(&mut m, WorkRequest::valid());
    post(&mut m, WorkRequest::read());
    run_nic(&mut m);
    assert_eq!(m.cq[0].byte_len, None);
    assert_eq!(m.cq[1].byte_len, Some(MSG_BYTES));
    assert_eq!(m.cq[1].opcode, Some(Op::Read));
}

#[test]
fn an_error_or_flush_completion_has_no_opcode_only_its_wr_id() {
    // ibv_poll_cq(3): when the status is not success, only wr_id, status,
    // qp_num and vendor_err are valid. The old model kept the opcode.
    let mut m = qp();
    post(&mut m, WorkRequest::valid());
    let good = WorkRequest::valid();
    post(
        &mut m,
        WorkRequest {
            lkey: 0xdead,
            ..good
        },
    );
    post(&mut m, WorkRequest::read());
    run_nic(&mut m);
    let got: Vec<_> = m.cq.iter().map(|c| (c.wr_id, c.status, c.opcode)).collect();
    assert_eq!(
        got,
        vec![
            (1, WcStatus::Success, Some(Op::Send)),
            (2, WcStatus::LocProtErr, None),
            (3, WcStatus::WrFlushErr, None),
        ]
    );
    let polled = m.apply(&RdmaAction::PollCq).unwrap();
    assert!(
        polled[0].text.contains("through wr_id"),
        "{}",
        polled[0].text
    );
}

#[test]
fn the_region_is_registered_with_local_write_for_rdma_read() {
    // ibv_reg_mr(3): local read is implied, local write is not; a READ
    // writes into the local region.
    assert_eq!(MR_ACCESS, "IBV_ACCESS_LOCAL_WRITE");
    assert!(qp()
        .intro()
        .text
        .contains("IBV_ACCESS_LOCAL_WRITE, which an RDMA READ needs"));
}

#[test]
fn an_empty_peer_rq_gets_rnr_naks_then_retry_exceeded() {
    let mut m = qp();
    for _ in 0..3 {
        post(&mut m, WorkRequest::valid());
    }
    run_nic(&mut m);
    let statuses: Vec<_> = m.cq.iter().map(|c| c.status).collect();
    assert_eq!(
        statuses,
        vec![
            WcStatus::Success,
            WcStatus::Success,
            WcStatus::RnrRetryExcErr
        ]
    );
    assert_eq!(
        m.counters.rnr_naks, 3,
        "rnr_retry 2: first try and two retries"
    );
    assert_eq!(m.qp, QpState::Err);
}

#[test]
fn a_receive_posted_during_the_retries_saves_the_send() {
    let mut m = RdmaQp::new(&RdmaConfig {
        rnr_retry: 7,
        ..RdmaConfig::default()
    });
    m.peer_rq = 0;
    post(&mut m, WorkRequest::valid());
    m.apply(&RdmaAction::NicStep).unwrap();
    m.apply(&RdmaAction::NicStep).unwrap();
    assert_eq!(m.sq[0].stage, Stage::RnrWait(1));
    let refusal = m.next_auto().unwrap_err();
    assert!(refusal.reason.contains("for ever"));
    m.apply(&RdmaAction::PeerPostRecv).unwrap();
    run_nic(&mut m);
    assert_eq!(m.cq[0].status, WcStatus::Success);
    assert_eq!(m.counters.peer_recvs, 1);
}

#[test]
fn rdma_write_and_read_move_bytes_without_the_peers_receives() {
    let mut m = qp();
    post(&mut m, WorkRequest::write());
    post(&mut m, WorkRequest::read());
    run_nic(&mut m);
    assert_eq!(m.peer_rq, RQ_PREPOSTED, "one-sided: no receive consumed");
    assert_eq!(m.counters.peer_recvs, 0);
    assert_eq!(
        (
            m.counters.bytes_written_remote,
            m.counters.bytes_read_remote
        ),
        (u64::from(MSG_BYTES), u64::from(MSG_BYTES))
    );
    assert_eq!(m.cq.len(), 2);
}

#[test]
fn a_wrong_rkey_is_a_remote_access_error() {
    let mut m = qp();
    post(&mut m, WorkRequest::wrong_rkey());
    post(&mut m, WorkRequest::write());
    run_nic(&mut m);
    let statuses: Vec<_> = m.cq.iter().map(|c| c.status).collect();
    assert_eq!(statuses, vec![WcStatus::RemAccessErr, WcStatus::WrFlushErr]);
    assert_eq!(m.counters.bytes_written_remote, 0);
}

#[test]
fn unsignaled_wrs_write_no_cqe_and_hold_their_slots_until_a_signaled_one() {
    let mut m = qp();
    post(&mut m, WorkRequest::write().unsignaled());
    post(&mut m, WorkRequest::write().unsignaled());
    run_nic(&mut m);
    assert!(m.cq.is_empty());
    assert_eq!(m.silent_done(), 2);
    assert_eq!(m.counters.silent, 2);
    post(&mut m, WorkRequest::write());
    run_nic(&mut m);
    assert_eq!(m.cq.len(), 1);
    assert!(m.sq.is_empty(), "the signaled completion retired all three");
}

#[test]
fn never_signalling_fills_the_sq() {
    let mut m = qp();
    for _ in 0..4 {
        post(&mut m, WorkRequest::write().unsignaled());
    }
    run_nic(&mut m);
    let refusal = m
        .apply(&RdmaAction::PostSend(WorkRequest::write()))
        .unwrap_err();
    assert!(refusal.reason.contains("ENOMEM"));
    assert!(refusal.reason.contains("unsignaled"));
}

#[test]
fn errors_complete_even_when_unsignaled() {
    let mut m = qp();
    post(&mut m, WorkRequest::wrong_key().unsignaled());
    post(&mut m, WorkRequest::valid().unsignaled());
    run_nic(&mut m);
    let statuses: Vec<_> = m.cq.iter().map(|c| c.status).collect();
    assert_eq!(statuses, vec![WcStatus::LocProtErr, WcStatus::WrFlushErr]);
}

#[test]
fn the_nic_never_waits_for_the_cq_the_post_budget_keeps_room() {
    let mut m = RdmaQp::new(&RdmaConfig {
        sq_depth: 2,
        cq_depth: 1,
        ..RdmaConfig::default()
    });
    post(&mut m, WorkRequest::valid());
    assert!(m
        .apply(&RdmaAction::PostSend(WorkRequest::valid()))
        .unwrap_err()
        .reason
        .contains("overrun"));
    assert_eq!(run_nic(&mut m), 3);
    assert_eq!(m.cq.len(), 1);
}

#[test]
fn socket_sends_cost_a_syscall_and_a_copy_each() {
    let mut m = qp();
    for _ in 0..3 {
        m.apply(&RdmaAction::SocketSend(MSG_BYTES)).unwrap();
    }
    assert_eq!(m.counters.sock_syscalls, 3);
    assert_eq!(m.counters.sock_copies, 3);
    assert!(m.apply(&RdmaAction::SocketSend(0)).is_err());
}

#[test]
fn a_buffer_outside_the_region_errors_and_flushes_the_rest() {
    let mut m = qp();
    post(&mut m, WorkRequest::outside());
    post(&mut m, WorkRequest::valid());
    m.apply(&RdmaAction::NicStep).unwrap();
    m.apply(&RdmaAction::NicStep).unwrap();
    assert_eq!(m.qp, QpState::Err);
    assert_eq!(m.counters.bytes_sent, 0);
    run_nic(&mut m);
    let statuses: Vec<_> = m.cq.iter().map(|c| c.status).collect();
    assert_eq!(statuses, vec![WcStatus::LocProtErr, WcStatus::WrFlushErr]);
    m.apply(&RdmaAction::PollCq).unwrap();
    post(&mut m, WorkRequest::valid());
    assert!(m.apply(&RdmaAction::ResetQp).is_err(), "must flush first");
    run_nic(&mut m);
    assert_eq!(m.cq[0].status, WcStatus::WrFlushErr);
    m.apply(&RdmaAction::ResetQp).unwrap();
    assert_eq!(m.qp, QpState::Rts);
    assert_eq!(m.counters.control_syscalls, RESET_MODIFY_CALLS);
    assert!(m.apply(&RdmaAction::ResetQp).is_err());
}

#[test]
fn the_why_text_blames_the_state_machine_not_reliability() {
    let mut m = qp();
    post(&mut m, WorkRequest::wrong_key());
    run_nic(&mut m);
    let why = m.why().join(" ");
    assert!(why.contains("QP state machine") && why.contains("UD"));
    assert!(!why.contains("cannot skip"));
}

#[test]
fn protection_checks_cover_keys_and_bounds() {
    assert_eq!(WorkRequest::valid().protection_error(), None);
    assert!(WorkRequest::outside().protection_error().is_some());
    assert!(WorkRequest::wrong_key().protection_error().is_some());
    assert_eq!(WorkRequest::write().remote_error(), None);
    assert!(WorkRequest::wrong_rkey().remote_error().is_some());
    let past = WorkRequest {
        remote_addr: PEER_MR_ADDR + PEER_MR_LEN - 16,
        ..WorkRequest::write()
    };
    assert!(past.remote_error().is_some());
}

#[test]
fn invalid_configs_are_rejected() {
    for bad in [
        RdmaConfig {
            sq_depth: 0,
            ..RdmaConfig::default()
        },
        RdmaConfig {
            cq_depth: 17,
            ..RdmaConfig::default()
        },
        RdmaConfig {
            rnr_retry: 8,
            ..RdmaConfig::default()
        },
    ] {
        assert!(RdmaQp::validate(&bad).is_err());
    }
}

#[test]
fn a_length_out_of_range_is_refused_with_the_bound() {
    let mut m = qp();
    let wr = WorkRequest {
        len: LEN.max + 1,
        ..WorkRequest::valid()
    };
    let refused = m.apply(&RdmaAction::PostSend(wr)).unwrap_err();
    assert_eq!(refused.reason, LEN.out_of_range(LEN.max + 1));
    let refused = m.apply(&RdmaAction::SocketSend(0)).unwrap_err();
    assert_eq!(refused.reason, LEN.out_of_range(0));
}

#[test]
fn a_depth_out_of_range_is_rejected_with_the_bound() {
    let config = RdmaConfig {
        sq_depth: SQ_DEPTH.max + 1,
        ..RdmaConfig::default()
    };
    assert_eq!(
        RdmaQp::validate(&config),
        Err(SQ_DEPTH.out_of_range(SQ_DEPTH.max + 1))
    );
}
