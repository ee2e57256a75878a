use super::*;
use crate::net::wire::parse::to_hex;
use crate::net::wire::tcp::{FIN, SYN};

fn model(c: EncapConfig) -> Encapsulation {
    Encapsulation::validate(&c).expect("valid config");
    Encapsulation::new(&c)
}

fn step_to(m: &mut Encapsulation, stage: Stage) {
    for _ in 0..200 {
        if m.stage == stage {
            return;
        }
        m.apply(&EncapAction::Step).expect("step");
        m.check().expect("invariants");
    }
    panic!("never reached {stage:?}");
}

fn run_to_done(m: &mut Encapsulation) {
    step_to(m, Stage::Done);
}

/// The bit index of byte `byte`, bit `bit` from the most significant.
fn bit(byte: usize, bit: usize) -> usize {
    byte * 8 + bit
}

#[test]
fn default_send_walks_down_the_stack_with_the_bytes_scapy_builds() {
    let mut m = model(EncapConfig::default());
    let expect = [
        Stage::Tcp,
        Stage::Ip,
        Stage::Ethernet,
        Stage::Wire,
        Stage::Received,
        Stage::Done,
    ];
    let mut lens = Vec::new();
    for stage in expect {
        m.apply(&EncapAction::Step).unwrap();
        assert_eq!(m.stage, stage);
        lens.push(m.buffers().iter().map(|b| b.len()).sum::<usize>());
    }
    // 34 bytes of data: +20 TCP, +20 IP, +14 Ethernet +4 FCS; then the payload again.
    assert_eq!(lens, vec![54, 74, 92, 92, 92, 34]);
    // Scapy 2.6.1: Ether()/IP(flags='DF', id=1, ttl=64)/TCP(seq=1001,
    // ack=5001, flags='PA', window=64240)/Raw(payload); zlib.crc32 = f87277b5.
    let sent = &m.frames[0];
    assert_eq!(
        to_hex(&sent[..88]),
        "02000000000202000000000108004500004a00014000400626ab0a0000010a0000029c400050000003e9000013895018faf04f430000474554202f20485454502f312e310d0a486f73743a2031302e302e302e320d0a0d0a"
    );
    assert_eq!(&sent[88..], &0xf872_77b5u32.to_le_bytes());
    assert_eq!(m.delivered, 34);
    assert!(m.next_auto().is_err());
}

#[test]
fn a_payload_larger_than_the_mss_becomes_several_segments_with_advancing_seq() {
    let mut m = model(EncapConfig {
        mss: 10,
        ..EncapConfig::default()
    });
    let mut segs = Vec::new();
    while m.stage != Stage::Done {
        m.apply(&EncapAction::Step).unwrap();
        if m.stage == Stage::Tcp {
            segs.push(m.segment.unwrap());
        }
    }
    let seqs: Vec<u32> = segs.iter().map(|s| s.seq).collect();
    let lens: Vec<usize> = segs.iter().map(|s| s.len).collect();
    assert_eq!(seqs, vec![1001, 1011, 1021, 1031]);
    assert_eq!(lens, vec![10, 10, 10, 4]);
    // PSH only on the last segment; ACK on all.
    assert!(segs[..3].iter().all(|s| s.flags == ACK));
    assert_eq!(segs[3].flags, PSH | ACK);
    assert_eq!(m.delivered, 34);
}

#[test]
fn syn_takes_a_sequence_number_before_the_data_and_fin_one_after() {
    let mut m = model(EncapConfig {
        flags: SYN | FIN,
        seq: u32::MAX,
        payload: "0123456789abcdef".into(),
        mss: 8,
        ..EncapConfig::default()
    });
    let mut segs = Vec::new();
    while m.stage != Stage::Done {
        m.apply(&EncapAction::Step).unwrap();
        if m.stage == Stage::Tcp {
            segs.push(m.segment.unwrap());
        }
    }
    // The SYN is number 2³² − 1; the data start one later, wrapping to 0.
    assert_eq!((segs[0].seq, segs[0].flags), (u32::MAX, SYN));
    assert_eq!((segs[1].seq, segs[1].flags), (8, FIN));
}

#[test]
fn a_flipped_bit_is_caught_by_the_fcs_at_the_receiving_nic() {
    let mut m = model(EncapConfig::default());
    step_to(&mut m, Stage::Wire);
    // Byte 22 is the TTL; flip its lowest bit: 64 becomes 65.
    m.apply(&EncapAction::FlipBit {
        frame: 0,
        bit: bit(22, 7),
    })
    .unwrap();
    assert_eq!(m.field_of_bit(0, bit(22, 7)).unwrap().value, "65");
    m.apply(&EncapAction::Step).unwrap();
    assert_eq!(
        m.verdict,
        Some(Verdict::Caught {
            frame: 0,
            check: Check::Fcs
        })
    );
}

/// With the FCS recomputed by a middlebox, the checksum of the layer the
/// bit belongs to catches it: IP for its header, TCP for header and data.
#[test]
fn behind_a_middlebox_the_ip_or_tcp_checksum_catches_it() {
    let cases = [
        (bit(22, 7), Check::IpChecksum),  // TTL
        (bit(30, 0), Check::IpChecksum),  // destination address
        (bit(38, 3), Check::TcpChecksum), // sequence number
        (bit(60, 5), Check::TcpChecksum), // data
        (bit(0, 7), Check::MacFilter),    // destination MAC, multicast bit
        (bit(12, 7), Check::EtherType),   // 0x0800 becomes 0x0801
        (bit(14, 1), Check::IpHeader),    // version 4 becomes 6
        (bit(46, 1), Check::TcpHeader),   // data offset 5 becomes 1
    ];
    for (b, check) in cases {
        let mut m = model(EncapConfig::default());
        m.apply(&EncapAction::SetMiddlebox(true)).unwrap();
        step_to(&mut m, Stage::Wire);
        m.apply(&EncapAction::FlipBit { frame: 0, bit: b }).unwrap();
        m.apply(&EncapAction::Step).unwrap();
        assert_eq!(
            m.verdict,
            Some(Verdict::Caught { frame: 0, check }),
            "bit {b}"
        );
    }
}

#[test]
fn behind_a_middlebox_a_flip_in_the_pad_or_source_mac_goes_unnoticed() {
    for b in [bit(6, 6), bit(56, 0)] {
        let mut m = model(EncapConfig {
            payload: "hi".into(),
            ..EncapConfig::default()
        });
        m.apply(&EncapAction::SetMiddlebox(true)).unwrap();
        step_to(&mut m, Stage::Wire);
        assert_eq!(m.frames[0].len(), 64, "56 bytes padded to 60, plus FCS");
        m.apply(&EncapAction::FlipBit { frame: 0, bit: b }).unwrap();
        m.apply(&EncapAction::Step).unwrap();
        assert_eq!(m.verdict, Some(Verdict::Delivered { damaged: true }));
        assert_eq!(m.delivered, 2);
    }
}

/// Two flips of the same bit position in two different 16-bit words, one
/// 0→1 and one 1→0, leave the ones' complement sum unchanged.
#[test]
fn two_cancelling_flips_defeat_the_tcp_checksum_but_not_the_fcs() {
    for middlebox in [true, false] {
        let mut m = model(EncapConfig {
            payload: "@\u{0}\u{0}\u{0}".into(),
            ..EncapConfig::default()
        });
        if middlebox {
            m.apply(&EncapAction::SetMiddlebox(true)).unwrap();
        }
        step_to(&mut m, Stage::Wire);
        // Data starts at byte 54: word 54–55 is 0x4000, word 56–57 is 0x0000.
        // Move the 0x4000 from the first word to the second.
        m.apply(&EncapAction::FlipBit {
            frame: 0,
            bit: bit(54, 1),
        })
        .unwrap();
        m.apply(&EncapAction::FlipBit {
            frame: 0,
            bit: bit(56, 1),
        })
        .unwrap();
        m.apply(&EncapAction::Step).unwrap();
        let expect = if middlebox {
            Verdict::Delivered { damaged: true }
        } else {
            Verdict::Caught {
                frame: 0,
                check: Check::Fcs,
            }
        };
        assert_eq!(m.verdict, Some(expect));
    }
}

#[test]
fn a_lost_segment_is_sent_again_with_the_same_seq_and_a_new_ip_id() {
    let mut m = model(EncapConfig::default());
    step_to(&mut m, Stage::Wire);
    m.apply(&EncapAction::FlipBit { frame: 0, bit: 100 })
        .unwrap();
    m.apply(&EncapAction::Step).unwrap();
    let first = m.packets[0].clone();
    m.apply(&EncapAction::Step).unwrap();
    assert_eq!(m.stage, Stage::Tcp);
    assert_eq!(m.segment.unwrap().seq, 1001);
    assert_eq!(m.segment.unwrap().attempt, 1);
    m.apply(&EncapAction::Step).unwrap();
    assert_eq!(&m.packets[0][4..6], &2u16.to_be_bytes());
    assert_eq!(&first[4..6], &1u16.to_be_bytes());
    run_to_done(&mut m);
    assert_eq!(m.counters.retransmissions, 1);
}

#[test]
fn exceeding_the_mtu_with_df_set_is_dropped_and_tcp_lowers_its_mss() {
    // A 1,000-byte segment makes a 1,040-byte datagram: over a 576-byte MTU.
    let mut m = model(EncapConfig {
        payload: "x".repeat(1000),
        mtu: 576,
        ..EncapConfig::default()
    });
    m.apply(&EncapAction::Step).unwrap();
    m.apply(&EncapAction::Step).unwrap();
    assert_eq!(m.stage, Stage::Refused);
    assert_eq!(m.counters.df_drops, 1);
    m.apply(&EncapAction::Step).unwrap();
    assert_eq!(m.mss, 536);
    assert_eq!(m.segment.unwrap().len, 536);
    run_to_done(&mut m);
    assert_eq!(m.counters.segments, 2);
    assert_eq!(m.delivered, 1000);
}

#[test]
fn exceeding_the_mtu_without_df_fragments_and_reassembles() {
    let mut m = model(EncapConfig {
        payload: "x".repeat(1000),
        mtu: 576,
        df: false,
        ..EncapConfig::default()
    });
    step_to(&mut m, Stage::Ip);
    // 1,020 bytes of segment: 552 + 468 data bytes in two fragments.
    let sizes: Vec<usize> = m.packets.iter().map(Vec::len).collect();
    assert_eq!(sizes, vec![572, 488]);
    assert_eq!(
        &m.packets[1][6..8],
        &69u16.to_be_bytes(),
        "offset 552/8 = 69, MF clear"
    );
    assert!(m.frame_shape(0).tcp && !m.frame_shape(1).tcp);
    step_to(&mut m, Stage::Received);
    assert_eq!(m.verdict, Some(Verdict::Delivered { damaged: false }));
    assert_eq!(m.delivered, 1000);
}

#[test]
fn fields_name_every_byte_of_the_frame_on_the_wire() {
    let mut m = model(EncapConfig::default());
    step_to(&mut m, Stage::Wire);
    let fields = m.fields(0);
    let keys: Vec<&str> = fields.iter().map(|f| f.key).collect();
    assert_eq!(keys.first(), Some(&"eth-dst"));
    assert!(keys.contains(&"ip-ttl") && keys.contains(&"tcp-seq") && keys.contains(&"payload"));
    assert_eq!(keys.last(), Some(&"eth-fcs"));
    let seq = fields.iter().find(|f| f.key == "tcp-seq").unwrap();
    assert_eq!((seq.offset, seq.value.as_str()), (38, "1001"));
    let covered: usize = fields.iter().map(|f| f.bits).sum();
    assert_eq!(covered, 92 * 8);
}

#[test]
fn impossible_actions_are_refused_and_change_nothing() {
    let mut m = model(EncapConfig::default());
    let before = m.clone();
    assert!(m.apply(&EncapAction::FlipBit { frame: 0, bit: 0 }).is_err());
    assert!(m.apply(&EncapAction::SetMiddlebox(false)).is_err());
    assert_eq!(m, before);
    step_to(&mut m, Stage::Wire);
    let before = m.clone();
    assert!(m.apply(&EncapAction::FlipBit { frame: 1, bit: 0 }).is_err());
    assert!(m
        .apply(&EncapAction::FlipBit {
            frame: 0,
            bit: 92 * 8
        })
        .is_err());
    assert_eq!(m, before);
    run_to_done(&mut m);
    assert!(m.apply(&EncapAction::Step).is_err());
}

#[test]
fn configs_out_of_bounds_are_rejected() {
    let bad = [
        EncapConfig {
            mss: 7,
            ..EncapConfig::default()
        },
        EncapConfig {
            mtu: 67,
            ..EncapConfig::default()
        },
        EncapConfig {
            mtu: 9001,
            ..EncapConfig::default()
        },
        EncapConfig {
            ttl: 0,
            ..EncapConfig::default()
        },
        EncapConfig {
            payload: "x".repeat(PAYLOAD_LEN.max + 1),
            ..EncapConfig::default()
        },
    ];
    for c in bad {
        assert!(Encapsulation::validate(&c).is_err(), "{c:?}");
    }
    assert!(Encapsulation::validate(&EncapConfig::default()).is_ok());
}

/// Issue 30: cut-through switches do not recompute the FCS; the why must
/// not say every switch does.
#[test]
fn the_why_says_a_cut_through_switch_forwards_the_fcs_it_received() {
    let m = Encapsulation::new(&EncapConfig::default());
    let why = m.why().join(" ");
    assert!(!why.contains("every switch recomputes it"), "{why}");
    assert!(
        why.contains("a cut-through switch starts sending before the frame has ended, so it forwards the FCS it received, a bad one is caught downstream"),
        "{why}"
    );
}

/// The configuration bounds are demos::Bound: one sentence for each.
#[test]
fn each_bound_is_refused_with_its_range() {
    let refused = |c: EncapConfig| Encapsulation::validate(&c).unwrap_err();
    assert_eq!(
        refused(EncapConfig {
            mtu: 9001,
            ..EncapConfig::default()
        }),
        "The MTU is 68 to 9000 bytes; 9001 bytes is out of range."
    );
    assert_eq!(
        refused(EncapConfig {
            ttl: 0,
            ..EncapConfig::default()
        }),
        TTL.out_of_range(0)
    );
    assert_eq!(
        refused(EncapConfig {
            mss: 7,
            ..EncapConfig::default()
        }),
        MSS.out_of_range(7)
    );
}
