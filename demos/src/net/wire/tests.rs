//! The wire layer against bytes captured from real stacks and against an
//! independent packet library.

use super::checksum::{add, verifies};
use super::ethernet::{self, MIN_FRAME};
use super::ipv4::Ipv4;
use super::parse::{hex, to_hex};
use super::receive::{self, Check, Host};
use super::tcp::{checksum_ok, TcpHeader, SYN};
use super::FrameSpec;

/// Frame 1 of `http.cap`, Wireshark's sample capture (wiki.wireshark.org,
/// SampleCaptures): a Windows XP host, 145.254.160.237:3372, opens a
/// connection to 65.208.228.223:80. A SYN with the options MSS 1460, NOP,
/// NOP, SACK permitted; IP checksum 0x91eb, TCP checksum 0xc30c. Bytes as
/// `tshark -r http.cap -x` prints them.
const HTTP_CAP_SYN: &str = "feff200001000000010000000800450000300f414000800691eb91fea0ed41d0e4df0d2c005038affe130000000070022238c30c0000020405b401010402";

/// Frame 4 of the same capture: the GET request, PSH ACK, 479 bytes of
/// data (an odd length, so the checksum pads a zero byte); IP checksum
/// 0x9010, TCP checksum 0xa958. Bytes as `snort -r … -X` prints them.
const HTTP_CAP_GET: &str = concat!(
    "feff200001000000010000000800450002070f4540008006901091fea0ed41d0e4df0d2c005038affe14114c618c501825bca9580000",
    "474554202f646f776e6c6f61642e68746d6c20485454502f312e310d0a486f73743a207777772e657468657265616c2e636f6d0d0a",
    "557365722d4167656e743a204d6f7a696c6c612f352e30202857696e646f77733b20553b2057696e646f7773204e5420352e313b20",
    "656e2d55533b2072763a312e3629204765636b6f2f32303034303131330d0a4163636570743a20746578742f786d6c2c6170706c69",
    "636174696f6e2f786d6c2c6170706c69636174696f6e2f7868746d6c2b786d6c2c746578742f68746d6c3b713d302e392c74657874",
    "2f706c61696e3b713d302e382c696d6167652f706e672c696d6167652f6a7065672c696d6167652f6769663b713d302e322c2a2f2a",
    "3b713d302e310d0a4163636570742d4c616e67756167653a20656e2d75732c656e3b713d302e350d0a4163636570742d456e636f64",
    "696e673a20677a69702c6465666c6174650d0a4163636570742d436861727365743a2049534f2d383835392d312c7574662d383b71",
    "3d302e372c2a3b713d302e370d0a4b6565702d416c6976653a203330300d0a436f6e6e656374696f6e3a206b6565702d616c697665",
    "0d0a526566657265723a20687474703a2f2f7777772e657468657265616c2e636f6d2f646576656c6f706d656e742e68746d6c0d0a0d0a",
);

fn captured(text: &str) -> Vec<u8> {
    hex(text, 2000).expect("capture hex")
}

fn addrs(frame: &[u8]) -> ([u8; 4], [u8; 4]) {
    let a = |at: usize| [frame[at], frame[at + 1], frame[at + 2], frame[at + 3]];
    (a(26), a(30))
}

#[test]
fn captured_syn_checksums_verify() {
    let f = captured(HTTP_CAP_SYN);
    assert_eq!(f.len(), 62);
    assert!(verifies(add(0, &f[14..34])), "IPv4 header checksum 0x91eb");
    let (src, dst) = addrs(&f);
    assert!(checksum_ok(src, dst, &f[34..]), "TCP checksum 0xc30c");
}

#[test]
fn captured_get_checksums_verify_with_odd_length_data() {
    let f = captured(HTTP_CAP_GET);
    assert_eq!(f.len(), 533);
    assert_eq!(f.len() - 54, 479);
    assert!(verifies(add(0, &f[14..34])), "IPv4 header checksum 0x9010");
    let (src, dst) = addrs(&f);
    assert!(checksum_ok(src, dst, &f[34..]), "TCP checksum 0xa958");
}

/// Our builder, given the captured GET's header values (no TCP options),
/// reproduces the capture byte for byte: both checksums included.
#[test]
fn builder_reproduces_the_captured_get() {
    let f = captured(HTTP_CAP_GET);
    let spec = FrameSpec {
        dst_mac: [0xfe, 0xff, 0x20, 0x00, 0x01, 0x00],
        src_mac: [0x00, 0x00, 0x01, 0x00, 0x00, 0x00],
        ip: Ipv4 {
            src: [145, 254, 160, 237],
            dst: [65, 208, 228, 223],
            id: 0x0f45,
            ttl: 128,
            df: true,
        },
        tcp: TcpHeader {
            src_port: 3372,
            dst_port: 80,
            seq: 0x38af_fe14,
            ack: 0x114c_618c,
            flags: 0x18,
            window: 0x25bc,
        },
    };
    assert_eq!(to_hex(&spec.frame(&f[54..])), HTTP_CAP_GET);
}

/// The issue's example, `--src 10.0.0.1:40000 --dst 10.0.0.2:80 --seq 1000
/// --ack 0 --flags S --window 64240 --ttl 64 --id 1`.
fn issue_example() -> FrameSpec {
    FrameSpec {
        dst_mac: [2, 0, 0, 0, 0, 2],
        src_mac: [2, 0, 0, 0, 0, 1],
        ip: Ipv4 {
            src: [10, 0, 0, 1],
            dst: [10, 0, 0, 2],
            id: 1,
            ttl: 64,
            df: false,
        },
        tcp: TcpHeader {
            src_port: 40000,
            dst_port: 80,
            seq: 1000,
            ack: 0,
            flags: SYN,
            window: 64240,
        },
    }
}

/// The issue's example: the first 54 bytes are what scapy 2.6.1 builds for
/// `Ether()/IP()/TCP()` with these values (checked by hand: IP checksum 9932
/// complemented is 66cd), then the pad.
#[test]
fn the_issue_example_frame() {
    let spec = issue_example();
    let frame = spec.frame(b"");
    assert_eq!(frame.len(), MIN_FRAME);
    assert_eq!(
        to_hex(&frame),
        "02000000000202000000000108004500002800010000400666cd0a0000010a0000029c400050000003e8000000005002faf000770000000000000000"
    );
    // zlib.crc32 of those 60 bytes.
    assert_eq!(ethernet::fcs(&frame), 0xdc32_39dd);
    // Without the pad: scapy's 54 bytes, and zlib.crc32(bytes(pkt)).
    let bare = spec.bare_frame(b"");
    assert_eq!(bare, frame[..54]);
    assert_eq!(ethernet::fcs(&bare), 0xd553_d689);
}

/// The pad's edge (IEEE 802.3 §3.2.8, 60 bytes before the FCS): 6 payload
/// bytes make exactly the 64-byte minimum, 5 need one byte of pad, 7 make a
/// 65-byte frame with none.
#[test]
fn the_minimum_frame_edge_is_six_payload_bytes() {
    let spec = issue_example();
    let len = |n: usize| ethernet::with_fcs(&spec.frame(&vec![0xab; n])).len();
    assert_eq!((len(5), len(6), len(7)), (64, 64, 65));
    assert_eq!(ethernet::pad_len(20 + 20 + 5), 1);
    assert_eq!(ethernet::pad_len(20 + 20 + 6), 0);
}

/// The receiver accepts an intact frame and hands TCP its segment.
#[test]
fn an_intact_frame_passes_every_check() {
    let f = captured(HTTP_CAP_GET);
    let wire = ethernet::with_fcs(&f);
    let host = Host {
        mac: [0xfe, 0xff, 0x20, 0x00, 0x01, 0x00],
        ip: [65, 208, 228, 223],
        port: 80,
    };
    let packet = receive::link(&wire, &host).expect("link");
    let d = receive::ip(packet, &host).expect("ip");
    assert_eq!(d.data.len(), 499);
    assert_eq!(receive::tcp(d.src, d.dst, d.data, &host), Ok(()));
    let other = Host { port: 81, ..host };
    assert_eq!(
        receive::tcp(d.src, d.dst, d.data, &other),
        Err(Check::TcpPort)
    );
}
