use super::*;

fn model_with(c: HandshakeConfig) -> Handshake {
    Handshake::validate(&c).expect("valid config");
    Handshake::new(&c)
}

fn model() -> Handshake {
    model_with(HandshakeConfig::default())
}

/// Applies an action, checks the invariants, returns the narration.
fn act(m: &mut Handshake, a: HandshakeAction) -> Vec<String> {
    let events = m
        .apply(&a)
        .unwrap_or_else(|r| panic!("{a:?} refused: {}", r.reason));
    m.check().unwrap_or_else(|e| panic!("after {a:?}: {e}"));
    events.into_iter().map(|e| e.text).collect()
}

fn advance(m: &mut Handshake) -> Vec<String> {
    act(m, HandshakeAction::Advance)
}

fn drain(m: &mut Handshake) {
    while m.next_event().is_some() {
        advance(m);
    }
}

/// The last segment sent, as (from, seq, ack, flags, len, sent at).
fn last(m: &Handshake) -> (Side, u32, u32, u8, u32, u64) {
    let s = m.segments.last().expect("a segment");
    (s.from, s.seq, s.ack, s.flags, s.len, s.sent_ms)
}

fn states(m: &Handshake) -> (TcpState, TcpState) {
    (m.client.state, m.server.state)
}

fn established() -> Handshake {
    let mut m = model();
    act(&mut m, HandshakeAction::ActiveOpen(Side::Client));
    drain(&mut m);
    assert_eq!(states(&m), (TcpState::Established, TcpState::Established));
    m
}

use Side::{Client, Server};
use TcpState::*;

/// RFC 9293 §3.5, Figure 6, with its ISNs 100 and 300.
#[test]
fn three_way_handshake_has_the_numbers_of_figure_6() {
    let mut m = model();
    assert_eq!(m.next_auto(), Ok(HandshakeAction::ActiveOpen(Client)));
    act(&mut m, HandshakeAction::ActiveOpen(Client));
    assert_eq!(last(&m), (Client, 100, 0, SYN, 0, 0));
    assert_eq!(states(&m), (SynSent, Listen));
    advance(&mut m);
    assert_eq!(last(&m), (Server, 300, 101, SYN | ACK, 0, 50));
    assert_eq!(states(&m), (SynSent, SynReceived));
    advance(&mut m);
    assert_eq!(last(&m), (Client, 101, 301, ACK, 0, 100));
    assert_eq!(states(&m), (Established, SynReceived));
    advance(&mut m);
    assert_eq!((states(&m), m.now_ms), ((Established, Established), 150));
    // Both timers stopped: nothing is unacknowledged.
    assert!(m.next_event().is_none());
    // One RTT sample each: 100 ms, so RTO = 100 + 4·50 = 300, rounded up to 1 s.
    assert_eq!((m.client.srtt_ms, m.client.rto_ms), (Some(100), 1000));
    // The state log the sequence diagram writes beside the lanes.
    let log: Vec<(u64, Side, TcpState)> = m
        .changes
        .iter()
        .map(|c| (c.at_ms, c.side, c.state))
        .collect();
    assert_eq!(
        log,
        [
            (0, Client, SynSent),
            (50, Server, SynReceived),
            (100, Client, Established),
            (150, Server, Established)
        ]
    );
}

/// The story: the SYN,ACK is lost. The client's timer, started
/// first, fires first (1,000 ms) and resends the SYN; the server's fires
/// at 1,050 ms, the very moment that SYN arrives, and resends the SYN,ACK,
/// which completes the handshake.
#[test]
fn a_lost_syn_ack_is_repaired_by_retransmission_and_both_sides_establish() {
    let mut m = model();
    act(&mut m, HandshakeAction::ActiveOpen(Client));
    advance(&mut m);
    act(&mut m, HandshakeAction::Drop { id: 2 });
    let text = advance(&mut m).join(" ");
    assert_eq!(m.now_ms, 1000);
    assert_eq!(last(&m), (Client, 100, 0, SYN, 0, 1000));
    assert!(text.contains("doubles its RTO to 2000 ms"));
    // 1,050 ms: the duplicate SYN arrives first and gets a bare ACK…
    advance(&mut m);
    assert_eq!(last(&m), (Server, 301, 101, ACK, 0, 1050));
    // …then, at the same instant, the server's own timer resends the SYN,ACK.
    advance(&mut m);
    assert_eq!(last(&m), (Server, 300, 101, SYN | ACK, 0, 1050));
    assert!(m.segments.last().unwrap().retransmission);
    advance(&mut m); // the bare ACK: ignored in SYN-SENT
    assert_eq!(states(&m), (SynSent, SynReceived));
    advance(&mut m);
    assert_eq!((states(&m), m.now_ms), ((Established, SynReceived), 1100));
    advance(&mut m);
    assert_eq!((states(&m), m.now_ms), ((Established, Established), 1150));
    assert_eq!(m.counters.retransmissions, 2);
    // RFC 6298 5.7: after a SYN timed out, data starts with RTO = 3 s.
    assert_eq!((m.client.rto_ms, m.server.rto_ms), (3000, 3000));
    assert!(m.next_event().is_none());
}

#[test]
fn a_lost_final_ack_leaves_the_server_half_open_until_its_syn_ack_is_resent() {
    let mut m = model();
    act(&mut m, HandshakeAction::ActiveOpen(Client));
    advance(&mut m);
    advance(&mut m);
    act(&mut m, HandshakeAction::Drop { id: 3 });
    assert_eq!(states(&m), (Established, SynReceived));
    advance(&mut m); // 1,050 ms: the server's timer resends the SYN,ACK
    assert_eq!(last(&m), (Server, 300, 101, SYN | ACK, 0, 1050));
    advance(&mut m); // the client, established, answers the old SYN,ACK with an ACK
    assert_eq!(last(&m), (Client, 101, 301, ACK, 0, 1100));
    advance(&mut m);
    assert_eq!(states(&m), (Established, Established));
}

#[test]
fn data_is_numbered_from_isn_plus_one_and_acknowledged_by_the_next_byte() {
    let mut m = established();
    act(
        &mut m,
        HandshakeAction::Send {
            side: Client,
            bytes: 100,
        },
    );
    assert_eq!(last(&m), (Client, 101, 301, PSH | ACK, 100, 150));
    advance(&mut m);
    assert_eq!(last(&m), (Server, 301, 201, ACK, 0, 200));
    advance(&mut m);
    assert_eq!(
        (m.client.snd_una, m.server.rcv_nxt, m.server.bytes_received),
        (201, 201, 100)
    );
    assert!(m.client.rtx.is_empty() && m.client.rtx_timer_ms.is_none());
}

#[test]
fn data_sent_before_the_handshake_completes_is_queued_until_established() {
    let mut m = model();
    act(&mut m, HandshakeAction::ActiveOpen(Client));
    let text = act(
        &mut m,
        HandshakeAction::Send {
            side: Client,
            bytes: 10,
        },
    )
    .join(" ");
    assert!(text.contains("queues"));
    assert_eq!(m.client.queued, 10);
    assert_eq!(m.segments.len(), 1, "no data leaves in SYN-SENT");
    advance(&mut m);
    advance(&mut m);
    // ESTABLISHED: the ACK of the SYN,ACK, then the queued data.
    let n = m.segments.len();
    let data = m.segments[n - 1];
    assert_eq!(
        (data.seq, data.len, m.segments[n - 2].flags),
        (101, 10, ACK)
    );
    drain(&mut m);
    assert_eq!(m.server.bytes_received, 10);
}

#[test]
fn send_and_close_without_a_connection_are_refused_and_change_nothing() {
    let mut m = model();
    let before = m.clone();
    for a in [
        HandshakeAction::Send {
            side: Client,
            bytes: 10,
        },
        HandshakeAction::Send {
            side: Server,
            bytes: 10,
        },
        HandshakeAction::Close(Client),
        HandshakeAction::Crash(Client),
        HandshakeAction::PassiveOpen(Server),
        HandshakeAction::Drop { id: 1 },
        HandshakeAction::Send {
            side: Client,
            bytes: 0,
        },
    ] {
        assert!(m.apply(&a).is_err(), "{a:?} accepted");
        assert_eq!(m, before);
    }
    let mut m = established();
    assert!(m.apply(&HandshakeAction::ActiveOpen(Client)).is_err());
    assert!(m
        .apply(&HandshakeAction::Send {
            side: Client,
            bytes: 8 * 1460 + 1
        })
        .is_err());
    assert!(m.apply(&HandshakeAction::Advance).is_err());
}

/// RFC 9293 §3.6, Figure 12: the normal close.
#[test]
fn normal_close_walks_through_fin_wait_close_wait_last_ack_and_time_wait() {
    let mut m = established();
    act(&mut m, HandshakeAction::Close(Client));
    assert_eq!(last(&m), (Client, 101, 301, FIN | ACK, 0, 150));
    assert_eq!(m.client.state, FinWait1);
    advance(&mut m);
    assert_eq!(last(&m), (Server, 301, 102, ACK, 0, 200));
    assert_eq!(m.server.state, CloseWait);
    advance(&mut m);
    assert_eq!(m.client.state, FinWait2);
    act(&mut m, HandshakeAction::Close(Server));
    assert_eq!(last(&m), (Server, 301, 102, FIN | ACK, 0, 250));
    assert_eq!(m.server.state, LastAck);
    advance(&mut m);
    assert_eq!(last(&m), (Client, 102, 302, ACK, 0, 300));
    assert_eq!(m.client.state, TimeWait);
    advance(&mut m);
    assert_eq!(m.server.state, Closed);
    // TIME-WAIT: 2·MSL = 240 s after the FIN arrived at 300 ms.
    advance(&mut m);
    assert_eq!((m.client.state, m.now_ms), (Closed, 300 + 240_000));
}

#[test]
fn a_lost_last_ack_makes_the_peer_resend_its_fin_and_restarts_time_wait() {
    let mut m = model_with(HandshakeConfig {
        msl_ms: 1000,
        ..HandshakeConfig::default()
    });
    act(&mut m, HandshakeAction::ActiveOpen(Client));
    drain(&mut m);
    act(&mut m, HandshakeAction::Close(Client));
    advance(&mut m);
    advance(&mut m);
    act(&mut m, HandshakeAction::Close(Server));
    advance(&mut m); // client: TIME-WAIT at 300 ms, sends the last ACK
    let id = m.segments.last().unwrap().id;
    act(&mut m, HandshakeAction::Drop { id });
    advance(&mut m); // 1,250 ms: the server's timer resends its FIN
    assert_eq!(last(&m), (Server, 301, 102, FIN | ACK, 0, 1250));
    advance(&mut m); // 1,300 ms: TIME-WAIT acknowledges it again and restarts
    assert_eq!(last(&m), (Client, 102, 302, ACK, 0, 1300));
    assert_eq!(m.client.time_wait_until_ms, Some(1300 + 2000));
    drain(&mut m);
    assert_eq!(states(&m), (Closed, Closed));
}

/// RFC 9293 §3.5, Figure 7.
#[test]
fn simultaneous_open_goes_through_syn_received_on_both_sides() {
    let mut m = model_with(HandshakeConfig {
        listen: false,
        ..HandshakeConfig::default()
    });
    act(&mut m, HandshakeAction::ActiveOpen(Client));
    act(&mut m, HandshakeAction::ActiveOpen(Server));
    advance(&mut m);
    advance(&mut m);
    assert_eq!(states(&m), (SynReceived, SynReceived));
    let answers: Vec<(u32, u32, u8)> = m.segments[2..]
        .iter()
        .map(|s| (s.seq, s.ack, s.flags))
        .collect();
    assert_eq!(answers, vec![(300, 101, SYN | ACK), (100, 301, SYN | ACK)]);
    advance(&mut m);
    advance(&mut m);
    assert_eq!((states(&m), m.now_ms), ((Established, Established), 100));
    assert_eq!(
        m.segments.len(),
        4,
        "no segment beyond the four of Figure 7"
    );
    assert!(m.next_event().is_none());
}

/// RFC 9293 §3.6, Figure 13.
#[test]
fn simultaneous_close_goes_through_closing_to_time_wait_on_both_sides() {
    let mut m = established();
    act(&mut m, HandshakeAction::Close(Client));
    act(&mut m, HandshakeAction::Close(Server));
    advance(&mut m);
    advance(&mut m);
    assert_eq!(states(&m), (Closing, Closing));
    advance(&mut m);
    advance(&mut m);
    assert_eq!(states(&m), (TimeWait, TimeWait));
    drain(&mut m);
    assert_eq!(states(&m), (Closed, Closed));
}

/// RFC 9293 §3.5.1, Figure 10: data reaches a host that lost its TCB.
#[test]
fn a_crashed_peer_answers_data_with_a_reset_that_closes_the_half_open_side() {
    let mut m = established();
    act(&mut m, HandshakeAction::Crash(Server));
    act(
        &mut m,
        HandshakeAction::Send {
            side: Client,
            bytes: 10,
        },
    );
    advance(&mut m);
    // <SEQ=SEG.ACK><CTL=RST>: the RST carries the sequence number the client expects.
    assert_eq!(last(&m), (Server, 301, 0, RST, 0, 200));
    advance(&mut m);
    assert_eq!(states(&m), (Closed, Closed));
    assert_eq!(m.client.ended, Some(Ending::Reset));
}

/// RFC 9293 §3.5.1, Figure 9: the rebooted side opens again; its SYN gets
/// an ACK that acknowledges nothing it sent, so it resets the old half.
#[test]
fn a_rebooted_client_reopening_resets_the_servers_stale_connection() {
    let mut m = established();
    act(&mut m, HandshakeAction::Crash(Client));
    act(&mut m, HandshakeAction::ActiveOpen(Client));
    // The ISN clock has run 150 ms × 250 ticks since ISN 100.
    assert_eq!(m.client.iss, 100 + 150 * 250);
    advance(&mut m);
    assert_eq!(last(&m), (Server, 301, 101, ACK, 0, 200));
    advance(&mut m);
    assert_eq!(last(&m), (Client, 101, 0, RST, 0, 250));
    advance(&mut m);
    assert_eq!(m.server.state, Closed);
    assert_eq!(m.client.state, SynSent);
}

#[test]
fn a_syn_that_never_gets_through_is_given_up_after_three_minutes() {
    let mut m = model();
    act(&mut m, HandshakeAction::ActiveOpen(Client));
    let mut sent_at = Vec::new();
    while m.client.state == SynSent {
        let id = m
            .segments
            .iter()
            .find(|s| s.fate == Fate::InFlight)
            .map(|s| s.id);
        if let Some(id) = id {
            sent_at.push(m.now_ms);
            act(&mut m, HandshakeAction::Drop { id });
        }
        advance(&mut m);
    }
    // Backoff 1, 2, 4 … capped at 60 s: sent at 0, 1, 3, 7, 15, 31, 63, 123 s.
    assert_eq!(
        sent_at,
        vec![0, 1000, 3000, 7000, 15000, 31000, 63000, 123_000]
    );
    assert_eq!(
        (m.now_ms, m.client.state, m.client.ended),
        (183_000, Closed, Some(Ending::TimedOut))
    );
}

#[test]
fn a_segment_that_arrives_ahead_of_a_gap_is_held_until_the_gap_fills() {
    let mut m = model_with(HandshakeConfig {
        mss: 100,
        ..HandshakeConfig::default()
    });
    act(&mut m, HandshakeAction::ActiveOpen(Client));
    drain(&mut m);
    act(
        &mut m,
        HandshakeAction::Send {
            side: Client,
            bytes: 300,
        },
    );
    let first = m.segments[m.segments.len() - 3].id;
    act(&mut m, HandshakeAction::Drop { id: first });
    advance(&mut m);
    advance(&mut m);
    assert_eq!(m.server.held.len(), 2);
    assert_eq!(
        last(&m),
        (Server, 301, 101, ACK, 0, 200),
        "a repeated ACK of 101"
    );
    drain(&mut m);
    assert_eq!((m.server.rcv_nxt, m.server.bytes_received), (401, 300));
    assert!(m.server.held.is_empty());
    assert_eq!(
        m.counters.retransmissions, 1,
        "only the missing segment was resent"
    );
}

#[test]
fn sequence_numbers_wrap_modulo_two_to_the_32() {
    let mut m = model_with(HandshakeConfig {
        client_isn: u32::MAX,
        ..HandshakeConfig::default()
    });
    act(&mut m, HandshakeAction::ActiveOpen(Client));
    drain(&mut m);
    act(
        &mut m,
        HandshakeAction::Send {
            side: Client,
            bytes: 5,
        },
    );
    assert_eq!(last(&m).1, 0, "the first data byte after SYN 2³²−1 is 0");
    drain(&mut m);
    assert_eq!(m.server.rcv_nxt, 5);
}

#[test]
fn configs_out_of_bounds_are_rejected() {
    let d = HandshakeConfig::default;
    for c in [
        HandshakeConfig { delay_ms: 0, ..d() },
        HandshakeConfig {
            delay_ms: 5001,
            ..d()
        },
        HandshakeConfig { msl_ms: 99, ..d() },
        HandshakeConfig {
            msl_ms: 120_001,
            ..d()
        },
        HandshakeConfig { mss: 0, ..d() },
        HandshakeConfig { mss: 1461, ..d() },
    ] {
        assert!(Handshake::validate(&c).is_err(), "{c:?}");
    }
}

/// Found by the property tests: the client, mid simultaneous open, sends a
/// FIN, crashes and opens again in the same millisecond. The ISN clock has
/// not moved, so the new connection reuses ISN 37,600, and the server takes
/// the dead connection's FIN as if the new one had sent it: the confusion
/// RFC 9293 §3.4.3's quiet time exists to prevent. The model must keep the
/// two incarnations apart in its own bookkeeping.
#[test]
fn a_reboot_that_reuses_its_isn_at_once_confuses_the_peer_but_not_the_model() {
    use HandshakeAction::{ActiveOpen, Advance, Close, Crash};
    let mut m = model_with(HandshakeConfig {
        msl_ms: 1000,
        mss: 100,
        listen: false,
        ..HandshakeConfig::default()
    });
    let script = [
        ActiveOpen(Server),
        Close(Server),
        ActiveOpen(Client),
        Advance,
        Advance,
        Close(Client),
        Advance,
        ActiveOpen(Server),
        Advance,
        Advance,
        Advance,
        ActiveOpen(Client),
        Advance,
        Close(Client),
        Crash(Client),
        ActiveOpen(Client),
        Advance,
        Advance,
        Advance,
        Advance,
    ];
    for a in script {
        let _ = m.apply(&a);
        m.check().unwrap_or_else(|e| panic!("after {a:?}: {e}"));
    }
    assert_eq!((m.client.iss, m.client.state), (37_600, SynSent));
    assert_eq!((m.server.irs, m.server.state), (37_600, CloseWait));
    assert_ne!(m.server.peer_incarnation, Some(m.client.incarnation));
}

/// The configuration bounds are demos::Bound: one sentence for each.
#[test]
fn each_bound_is_refused_with_its_range() {
    let refused = |c: HandshakeConfig| Handshake::validate(&c).unwrap_err();
    assert_eq!(
        refused(HandshakeConfig {
            delay_ms: 0,
            ..HandshakeConfig::default()
        }),
        "The one-way delay is 1 to 5000 ms; 0 ms is out of range."
    );
    assert_eq!(
        refused(HandshakeConfig {
            mss: 1_461,
            ..HandshakeConfig::default()
        }),
        MSS.out_of_range(1_461)
    );
    assert_eq!(
        refused(HandshakeConfig {
            msl_ms: MSL_MS.max + 1,
            ..HandshakeConfig::default()
        }),
        MSL_MS.out_of_range(MSL_MS.max + 1)
    );
}
