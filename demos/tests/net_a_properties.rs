//! Networking, part A: the wire bytes, the encapsulation model and the
//! handshake model against random inputs.

use demos::laws::check_laws;
use demos::net::encapsulation::{EncapAction, EncapConfig, Encapsulation};
use demos::net::handshake::seq::le;
use demos::net::handshake::{Handshake, HandshakeAction, HandshakeConfig, Side, TcpState};
use demos::net::wire::checksum::{add, verifies};
use demos::net::wire::crc32::{crc32, RESIDUE};
use demos::net::wire::ethernet;
use demos::net::wire::ipv4::Ipv4;
use demos::net::wire::parse;
use demos::net::wire::receive::{self, Check, Host};
use demos::net::wire::tcp::{self, checksum_ok, TcpHeader};
use demos::net::wire::FrameSpec;
use demos::Model;
use proptest::prelude::*;

fn spec() -> impl Strategy<Value = FrameSpec> {
    (
        (
            any::<[u8; 6]>(),
            any::<[u8; 6]>(),
            any::<[u8; 4]>(),
            any::<[u8; 4]>(),
        ),
        (any::<u16>(), 1u8..=255, any::<bool>()),
        (
            any::<u16>(),
            any::<u16>(),
            any::<u32>(),
            any::<u32>(),
            any::<u8>(),
            any::<u16>(),
        ),
    )
        .prop_map(
            |((dst_mac, src_mac, src, dst), (id, ttl, df), (sp, dp, seq, ack, flags, window))| {
                FrameSpec {
                    dst_mac,
                    src_mac,
                    ip: Ipv4 {
                        src,
                        dst,
                        id,
                        ttl,
                        df,
                    },
                    tcp: TcpHeader {
                        src_port: sp,
                        dst_port: dp,
                        seq,
                        ack,
                        flags,
                        window,
                    },
                }
            },
        )
}

/// Bytes on the wire for a TCP payload: Ethernet, IPv4 and TCP headers (no
/// options), padded to the 60-byte minimum (IEEE 802.3 §3.2.8), plus the FCS.
fn wire_len(payload: usize) -> usize {
    (ethernet::HEADER_LEN + 20 + 20 + payload).max(ethernet::MIN_FRAME) + ethernet::FCS_LEN
}

fn host(s: &FrameSpec) -> Host {
    Host {
        mac: s.dst_mac,
        ip: s.ip.dst,
        port: s.tcp.dst_port,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// A frame as built passes every check of the receiver.
    #[test]
    fn a_correct_frame_verifies(s in spec(), payload in prop_oneof![
        // Short payloads often, to cross the pad's edge at 6 bytes.
        prop::collection::vec(any::<u8>(), 0..12),
        prop::collection::vec(any::<u8>(), 0..1460),
    ]) {
        let wire = ethernet::with_fcs(&s.frame(&payload));
        // Exactly: headers, payload, pad up to 60 bytes only if short, FCS.
        prop_assert_eq!(wire.len(), wire_len(payload.len()));
        prop_assert_eq!(crc32(&wire), RESIDUE);
        let h = host(&s);
        let packet = receive::link(&wire, &h).unwrap();
        let d = receive::ip(packet, &h).unwrap();
        prop_assert_eq!(d.data.len(), 20 + payload.len());
        prop_assert_eq!(receive::tcp(d.src, d.dst, d.data, &h), Ok(()));
    }

    /// Any single flipped bit anywhere in the frame or its FCS is caught by
    /// the FCS.
    #[test]
    fn any_single_flipped_bit_is_caught_by_the_fcs(s in spec(), payload in prop::collection::vec(any::<u8>(), 0..200), pick in any::<prop::sample::Index>()) {
        let mut wire = ethernet::with_fcs(&s.frame(&payload));
        let bit = pick.index(wire.len() * 8);
        wire[bit / 8] ^= 0x80 >> (bit % 8);
        prop_assert_ne!(crc32(&wire), RESIDUE);
        prop_assert_eq!(receive::link(&wire, &host(&s)), Err(Check::Fcs));
    }

    /// A flipped bit in the IPv4 header is caught by its checksum; one in
    /// the TCP segment by the TCP checksum, even with the FCS recomputed.
    #[test]
    fn a_flipped_bit_is_caught_by_its_layers_checksum(s in spec(), payload in prop::collection::vec(any::<u8>(), 0..200), pick in any::<prop::sample::Index>()) {
        let segment = s.segment(&payload);
        let packet = s.ip.packet(&segment);
        let bit = pick.index(20 * 8);
        let mut header = packet[..20].to_vec();
        header[bit / 8] ^= 0x80 >> (bit % 8);
        prop_assert!(!verifies(add(0, &header)));
        let bit = pick.index(segment.len() * 8);
        let mut damaged = segment.clone();
        damaged[bit / 8] ^= 0x80 >> (bit % 8);
        prop_assert!(checksum_ok(s.ip.src, s.ip.dst, &segment));
        prop_assert!(!checksum_ok(s.ip.src, s.ip.dst, &damaged));
    }

    /// The parsers never panic, whatever they are given.
    #[test]
    fn parsers_never_panic(text in ".{0,80}") {
        let _ = parse::mac(&text);
        let _ = parse::ipv4(&text);
        let _ = parse::endpoint(&text);
        let _ = parse::number(&text, "n", u64::MAX);
        let _ = parse::hex(&text, 64);
        let _ = tcp::parse_flags(&text);
    }

    /// Printed values read back as themselves.
    #[test]
    fn printed_addresses_parse_back(mac in any::<[u8; 6]>(), ip in any::<[u8; 4]>(), bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        prop_assert_eq!(parse::mac(&ethernet::mac_text(&mac)), Ok(mac));
        prop_assert_eq!(parse::ipv4(&demos::net::wire::ipv4::addr_text(&ip)), Ok(ip));
        prop_assert_eq!(parse::hex(&parse::to_hex(&bytes), 64), Ok(bytes));
    }
}

fn encap_config() -> impl Strategy<Value = EncapConfig> {
    (
        (
            any::<[u8; 6]>(),
            any::<[u8; 6]>(),
            any::<[u8; 4]>(),
            any::<[u8; 4]>(),
        ),
        (
            any::<u16>(),
            any::<u16>(),
            any::<u32>(),
            any::<u32>(),
            any::<u8>(),
        ),
        (any::<u16>(), 0u8..=255, any::<u16>(), any::<bool>()),
        (prop_oneof![".{0,80}", "x{0,1100}"], 0u16..2000, 60u16..2000),
    )
        .prop_map(
            |(
                (src_mac, dst_mac, src_ip, dst_ip),
                (src_port, dst_port, seq, ack, flags),
                (window, ttl, id, df),
                (payload, mss, mtu),
            )| EncapConfig {
                src_mac,
                dst_mac,
                src_ip,
                dst_ip,
                src_port,
                dst_port,
                seq,
                ack,
                flags,
                window,
                ttl,
                id,
                payload,
                mss,
                mtu,
                df,
            },
        )
}

fn encap_action() -> impl Strategy<Value = EncapAction> {
    prop_oneof![
        6 => Just(EncapAction::Step),
        3 => (0usize..3, 0usize..1300).prop_map(|(frame, bit)| EncapAction::FlipBit { frame, bit }),
        1 => any::<bool>().prop_map(EncapAction::SetMiddlebox),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn encapsulation_obeys_the_laws(config in encap_config(), actions in prop::collection::vec(encap_action(), 0..100)) {
        prop_assert_eq!(check_laws::<Encapsulation>(config, &actions), Ok(()));
    }
}

fn handshake_config() -> impl Strategy<Value = HandshakeConfig> {
    (
        prop_oneof![Just(100u32), any::<u32>()],
        prop_oneof![Just(300u32), any::<u32>()],
        prop_oneof![Just(50u32), 0u32..6000],
        prop_oneof![Just(1000u32), 50u32..130_000],
        prop_oneof![Just(100u32), 0u32..1500],
        any::<bool>(),
    )
        .prop_map(
            |(client_isn, server_isn, delay_ms, msl_ms, mss, listen)| HandshakeConfig {
                client_isn,
                server_isn,
                delay_ms,
                msl_ms,
                mss,
                listen,
            },
        )
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::Client), Just(Side::Server)]
}

fn handshake_action(crash: bool) -> impl Strategy<Value = HandshakeAction> {
    let crash = if crash {
        side().prop_map(HandshakeAction::Crash).boxed()
    } else {
        Just(HandshakeAction::Advance).boxed()
    };
    prop_oneof![
        10 => Just(HandshakeAction::Advance),
        2 => side().prop_map(HandshakeAction::PassiveOpen),
        3 => side().prop_map(HandshakeAction::ActiveOpen),
        3 => (side(), prop_oneof![1u32..300, 0u32..13_000]).prop_map(|(side, bytes)| HandshakeAction::Send { side, bytes }),
        2 => side().prop_map(HandshakeAction::Close),
        3 => (0u32..60).prop_map(|id| HandshakeAction::Drop { id }),
        1 => crash,
    ]
}

fn other(side: Side) -> Side {
    match side {
        Side::Client => Side::Server,
        Side::Server => Side::Client,
    }
}

/// Advances until nothing is pending: every segment delivered, every timer run out.
fn drain(m: &mut Handshake) {
    for _ in 0..10_000 {
        if m.apply(&HandshakeAction::Advance).is_err() {
            return;
        }
    }
    panic!("still busy after 10,000 events");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn handshake_obeys_the_laws(config in handshake_config(), actions in prop::collection::vec(handshake_action(true), 0..100)) {
        prop_assert_eq!(check_laws::<Handshake>(config, &actions), Ok(()));
    }

    /// An endpoint never acknowledges a byte its peer has not sent: every
    /// ACK field, when it is sent, lies at or below the peer's SND.NXT, and
    /// RCV.NXT never runs ahead of it.
    #[test]
    fn no_byte_is_acknowledged_before_it_was_sent(config in handshake_config(), actions in prop::collection::vec(handshake_action(true), 0..150)) {
        let config = if Handshake::validate(&config).is_ok() { config } else { HandshakeConfig::default() };
        let mut m = Handshake::new(&config);
        let mut seen = 0;
        for a in &actions {
            let _ = m.apply(a);
            for s in m.segments.iter().filter(|s| s.id > seen) {
                let peer = m.endpoint(other(s.from));
                if s.flags & 0x10 != 0 && s.acks_incarnation == Some(peer.incarnation) && peer.state.has_connection() {
                    prop_assert!(le(s.ack, peer.snd_nxt), "segment {} acknowledges {} but the peer sent only up to {}", s.id, s.ack, peer.snd_nxt);
                }
            }
            seen = m.segments.last().map_or(seen, |s| s.id.max(seen));
            for side in [Side::Client, Side::Server] {
                let (e, peer) = (m.endpoint(side), m.endpoint(other(side)));
                if e.state.synchronized() && peer.state.has_connection() && e.peer_incarnation == Some(peer.incarnation) {
                    prop_assert!(le(e.rcv_nxt, peer.snd_nxt));
                }
            }
        }
    }

    /// With no crash and no connection given up, once every segment has
    /// landed and every timer run out the two machines rest in a pair RFC
    /// 9293 allows: both without a connection, both ESTABLISHED, or one
    /// half closed (FIN-WAIT-2 facing CLOSE-WAIT); and an open connection
    /// has each side expecting exactly what the other sent.
    #[test]
    fn at_rest_the_two_machines_agree(config in handshake_config(), actions in prop::collection::vec(handshake_action(false), 0..120)) {
        let config = if Handshake::validate(&config).is_ok() { config } else { HandshakeConfig::default() };
        let mut m = Handshake::new(&config);
        for a in &actions {
            let _ = m.apply(a);
        }
        drain(&mut m);
        prop_assert!(m.check().is_ok());
        if m.counters.timeouts == 0 {
            use TcpState::*;
            let pair = (m.client.state, m.server.state);
            let idle = |s: TcpState| matches!(s, Closed | Listen);
            let allowed = (idle(pair.0) && idle(pair.1))
                || matches!(pair, (Established, Established) | (FinWait2, CloseWait) | (CloseWait, FinWait2));
            prop_assert!(allowed, "at rest in {:?}", pair);
            if !idle(pair.0) {
                prop_assert_eq!(m.client.snd_nxt, m.server.rcv_nxt);
                prop_assert_eq!(m.server.snd_nxt, m.client.rcv_nxt);
                prop_assert_eq!(m.client.bytes_sent, m.server.bytes_received);
                prop_assert_eq!(m.server.bytes_sent, m.client.bytes_received);
            }
        }
    }
}
