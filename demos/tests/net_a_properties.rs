//! Networking, part A: the wire bytes, the encapsulation model and the
//! handshake model against random inputs.

use demos::laws::check_laws;
use demos::net::encapsulation::{EncapAction, EncapConfig, Encapsulation};
use demos::net::wire::checksum::{add, verifies};
use demos::net::wire::crc32::{crc32, RESIDUE};
use demos::net::wire::ethernet;
use demos::net::wire::ipv4::Ipv4;
use demos::net::wire::parse;
use demos::net::wire::receive::{self, Check, Host};
use demos::net::wire::tcp::{self, checksum_ok, TcpHeader};
use demos::net::wire::FrameSpec;
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
    fn a_correct_frame_verifies(s in spec(), payload in prop::collection::vec(any::<u8>(), 0..1460)) {
        let wire = ethernet::with_fcs(&s.frame(&payload));
        prop_assert!(wire.len() >= 64);
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
