//! The `frame` example's command line: options in, exact bytes out. Kept
//! in the library so its output is pinned by unit tests.
//!
//! The frame printed is the one a packet library builds (scapy's
//! `bytes(Ether()/IP()/TCP())`): a bare SYN is 54 bytes. `--pad` appends
//! zero bytes up to 60, as an IEEE 802.3 MAC does before it computes the
//! FCS (§3.2.8: the pad comes "prior to calculating and appending the FCS
//! field"), so the frame printed is the one that goes on a wire. Either way
//! the FCS printed is the CRC-32 of exactly the bytes printed.
//!
//! Like a packet library, it refuses only what the header fields cannot
//! say: a datagram longer than IPv4's 16-bit Total Length allows. A link
//! MTU is checked only when `--mtu` names one.

use super::ethernet;
use super::ipv4::{Ipv4, HEADER_LEN as IP_LEN, MIN_MTU};
use super::parse::{endpoint, hex, mac, number, to_hex};
use super::tcp::{parse_flags, TcpHeader, HEADER_LEN as TCP_LEN, SYN};
use super::FrameSpec;
use crate::cli::{self, Grammar};

/// The largest jumbo-frame MTU switches commonly accept.
const MAX_MTU: u64 = 9216;
/// IPv4's Total Length is 16 bits and counts header and data (RFC 791 §3.1).
const MAX_DATAGRAM: usize = u16::MAX as usize;
const GRAMMAR: Grammar = Grammar {
    valued: &[
        "--src",
        "--dst",
        "--src-mac",
        "--dst-mac",
        "--seq",
        "--ack",
        "--flags",
        "--window",
        "--ttl",
        "--id",
        "--payload-hex",
        "--mtu",
    ],
    repeated: &[],
    switches: &["--df", "--pad"],
};

/// What `frame` prints for these arguments (two lines), or why it refuses.
pub fn frame_command(args: &[String]) -> Result<String, String> {
    let opts = cli::parse(args, &GRAMMAR)?;
    let get = |name: &str| opts.get(name);
    let need = |name: &str| opts.need(name);
    let num = |name: &str, what: &str, max: u64, default: u64| {
        get(name).map_or(Ok(default), |v| number(v, what, max))
    };

    let (src_ip, src_port) = endpoint(need("--src")?)?;
    let (dst_ip, dst_port) = endpoint(need("--dst")?)?;
    let src_mac = mac(need("--src-mac")?)?;
    let dst_mac = mac(need("--dst-mac")?)?;
    let seq = num("--seq", "sequence number", u32::MAX.into(), 0)? as u32;
    let ack = num("--ack", "acknowledgment number", u32::MAX.into(), 0)? as u32;
    let flags = get("--flags").map_or(Ok(SYN), parse_flags)?;
    let window = num("--window", "window", u16::MAX.into(), 8192)? as u16;
    // RFC 1122 §3.2.1.7: "A host MUST NOT send a datagram with a
    // Time-to-Live (TTL) value of zero." That binds a host that *sends*;
    // this tool only builds bytes, as scapy's `IP(ttl=0)` does, so every
    // value the 8-bit field holds is accepted. (A router would not forward
    // it; a host it is addressed to "MUST NOT discard a datagram just
    // because it was received with TTL less than 2", the same section.)
    let ttl = num("--ttl", "TTL", u8::MAX.into(), 64)? as u8;
    let id = num("--id", "identification", u16::MAX.into(), 1)? as u16;
    // No MTU unless one is asked for: a packet library builds a datagram of
    // any length its Total Length field can state, and the issue's contract
    // names no link. With `--mtu`, the datagram must fit that link.
    let mtu = get("--mtu")
        .map(|v| number(v, "MTU", MAX_MTU))
        .transpose()?
        .map(|m| m as usize);
    if let Some(mtu) = mtu.filter(|&m| m < MIN_MTU) {
        return Err(format!(
            "an MTU of {mtu} is below {MIN_MTU}, which is not allowed: every IPv4 link must carry 68 bytes unfragmented (RFC 791 §3.2)."
        ));
    }
    let payload = hex(get("--payload-hex").unwrap_or(""), usize::from(u16::MAX))?;
    let df = get("--df").is_some();
    let datagram = IP_LEN + TCP_LEN + payload.len();
    if datagram > MAX_DATAGRAM {
        return Err(format!(
            "{} bytes of payload make a {datagram}-byte datagram, but IPv4's Total Length is a 16-bit field counting header and data (RFC 791 §3.1), so a datagram is at most {MAX_DATAGRAM} bytes: send at most {} bytes behind these 20-byte IPv4 and 20-byte TCP headers.",
            payload.len(),
            MAX_DATAGRAM - IP_LEN - TCP_LEN
        ));
    }
    if let Some(mtu) = mtu.filter(|&m| datagram > m) {
        let what = if df {
            "DF is set, so IP must drop it (RFC 791 §2.3) and a router would answer ICMP \"fragmentation needed\" with its MTU (RFC 1191 §4)"
        } else {
            "IP would split it into fragments (RFC 791 §2.3)"
        };
        return Err(format!(
            "{} bytes of payload make a {datagram}-byte datagram, larger than the {mtu}-byte MTU: {what}, and this example prints one whole frame. Send at most {} bytes, raise --mtu, or leave --mtu out to build the datagram without a link in mind.",
            payload.len(),
            mtu - IP_LEN - TCP_LEN
        ));
    }

    let spec = FrameSpec {
        dst_mac,
        src_mac,
        ip: Ipv4 {
            src: src_ip,
            dst: dst_ip,
            id,
            ttl,
            df,
        },
        tcp: TcpHeader {
            src_port,
            dst_port,
            seq,
            ack,
            flags,
            window,
        },
    };
    let frame = if get("--pad").is_some() {
        spec.frame(&payload)
    } else {
        spec.bare_frame(&payload)
    };
    Ok(format!(
        "{}\nfcs={:08x}\n",
        to_hex(&frame),
        ethernet::fcs(&frame)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The issue's command line.
    const ISSUE: &str = "--src 10.0.0.1:40000 --dst 10.0.0.2:80 --seq 1000 --ack 0 --flags S --window 64240 --ttl 64 --id 1 --src-mac 02:00:00:00:00:01 --dst-mac 02:00:00:00:00:02 --payload-hex";

    fn run(line: &str, extra: &[&str]) -> Result<String, String> {
        let mut args: Vec<String> = line.split(' ').map(String::from).collect();
        if line.ends_with("--payload-hex") {
            args.push(String::new());
        }
        args.extend(extra.iter().map(|s| s.to_string()));
        frame_command(&args)
    }

    /// scapy 2.6.1, `Ether(dst=…, src=…)/IP(src=…, dst=…, id=1, ttl=64)/
    /// TCP(sport=40000, dport=80, seq=1000, flags="S", window=64240)`:
    /// `bytes(pkt)` is these 54 bytes and `zlib.crc32(bytes(pkt))` is
    /// 0xd553d689.
    #[test]
    fn by_default_the_bare_54_byte_syn_and_its_crc() {
        let out = run(ISSUE, &[]).unwrap();
        assert_eq!(
            out,
            "02000000000202000000000108004500002800010000400666cd0a0000010a0000029c400050000003e8000000005002faf000770000\nfcs=d553d689\n"
        );
    }

    /// With `--pad`, six zero bytes make the 60-byte minimum, and the FCS
    /// covers them: zlib.crc32 of the 60 bytes is 0xdc3239dd.
    #[test]
    fn pad_makes_the_60_bytes_802_3_sends_and_the_fcs_covers_the_pad() {
        let out = run(ISSUE, &["--pad"]).unwrap();
        let (bytes, fcs) = out.trim_end().split_once('\n').unwrap();
        assert_eq!(bytes.len(), 120);
        assert!(bytes.ends_with("0000000000000000"));
        assert_eq!(fcs, "fcs=dc3239dd");
    }

    /// The FCS printed is always the CRC of exactly the bytes printed.
    #[test]
    fn the_fcs_is_over_exactly_the_bytes_printed() {
        for extra in [&[][..], &["--pad"], &["--payload-hex", "41"]] {
            let line = ISSUE.trim_end_matches(" --payload-hex");
            let mut extra: Vec<&str> = extra.to_vec();
            if !extra.contains(&"--payload-hex") {
                extra.extend(["--payload-hex", ""]);
            }
            let out = run(line, &extra).unwrap();
            let (bytes, fcs) = out.trim_end().split_once('\n').unwrap();
            let bytes = hex(bytes, 2000).unwrap();
            assert_eq!(fcs, format!("fcs={:08x}", ethernet::fcs(&bytes)));
        }
    }

    /// A frame of 60 bytes or more is the same with and without `--pad`.
    #[test]
    fn long_frames_need_no_pad() {
        let line = ISSUE.trim_end_matches(" --payload-hex");
        let data = ["--payload-hex", "000102030405"];
        let bare = run(line, &data).unwrap();
        let padded = run(line, &[data[0], data[1], "--pad"]).unwrap();
        assert_eq!(bare, padded);
        assert_eq!(bare.split('\n').next().unwrap().len(), 120);
    }

    #[test]
    fn bad_input_is_refused_with_the_reason() {
        let line = "--src 10.0.0.1:40000 --dst 10.0.0.2:80 --src-mac 02:00:00:00:00:01 --dst-mac 02:00:00:00:00:02";
        for (extra, reason) in [
            (&["--flags", "SX"][..], "flag"),
            (&["--ttl", "256"], "at most 255"),
            (&["--pad=1"], "takes no value"),
            (&["--no-pad"], "unknown option"),
            (&["--seq", "4294967296"], "out of range"),
            (&["--payload-hex", "abc"], ""),
            (&["--mtu", "60"], "68"),
        ] {
            let err = run(line, extra).unwrap_err();
            assert!(err.contains(reason), "{extra:?}: {err}");
        }
        assert!(frame_command(&[])
            .unwrap_err()
            .contains("--src is required"));
        let twice = run(ISSUE, &["--id", "2"]).unwrap_err();
        assert!(twice.contains("given twice"), "{twice}");
    }

    /// The issue's line without its empty `--payload-hex`, for tests that
    /// give their own.
    fn issue_with(extra: &[&str]) -> Result<String, String> {
        run(ISSUE.trim_end_matches(" --payload-hex"), extra)
    }

    /// The bytes printed and the FCS printed, as numbers.
    fn parts(out: &str) -> (Vec<u8>, u32) {
        let (bytes, fcs) = out.trim_end().split_once('\n').unwrap();
        let fcs = u32::from_str_radix(fcs.strip_prefix("fcs=").unwrap(), 16).unwrap();
        (hex(bytes, 70_000).unwrap(), fcs)
    }

    /// What the receiving host's checks say of the frame with the FCS
    /// printed appended in wire order (least significant byte first).
    fn received(frame: &[u8], fcs: u32) -> Result<(), super::super::receive::Check> {
        use super::super::receive::{ip, link, tcp, Host};
        let host = Host {
            mac: [2, 0, 0, 0, 0, 2],
            ip: [10, 0, 0, 2],
            port: 80,
        };
        let wire = [frame, &fcs.to_le_bytes()[..]].concat();
        let d = ip(link(&wire, &host)?, &host)?;
        tcp(d.src, d.dst, d.data, &host)
    }

    /// A 2000-byte payload builds, as scapy's `bytes(Ether()/IP()/TCP()/
    /// (b"\0" * 2000))` does: no MTU is assumed unless `--mtu` is given.
    /// The checksums, by hand from the 40-byte SYN above (IPv4 header
    /// checksum 66cd, TCP checksum 0077):
    /// - IPv4: only Total Length changes, 0x0028 → 0x07f8 (2040), so the
    ///   header's sum grows by 0x07d0: 0x9932 + 0x07d0 = 0xa102, and its
    ///   complement 0x5efd is the checksum.
    /// - TCP: zero data add nothing but the pseudo-header's TCP length,
    ///   20 → 2020, again +0x07d0: !0x0077 = 0xff88, + 0x07d0 = 0x10758,
    ///   folded 0x0759, complement 0xf8a6.
    #[test]
    fn a_payload_larger_than_an_ethernet_mtu_builds_without_mtu() {
        let zeros = "00".repeat(2000);
        let out = issue_with(&["--payload-hex", &zeros]).unwrap();
        let (frame, fcs) = parts(&out);
        assert_eq!(frame.len(), 14 + 2040);
        let ip = &frame[14..34];
        assert_eq!(u16::from_be_bytes([ip[2], ip[3]]), 2040, "Total Length");
        assert_eq!(u16::from_be_bytes([ip[10], ip[11]]), 0x5efd);
        let tcp = &frame[34..54];
        assert_eq!(u16::from_be_bytes([tcp[16], tcp[17]]), 0xf8a6);
        // The FCS printed is the one the receiving NIC accepts, and every
        // check of the receiving host passes.
        assert_eq!(fcs, ethernet::fcs(&frame));
        assert_eq!(received(&frame, fcs), Ok(()));
    }

    /// The longest datagram the 16-bit Total Length can state, 65535
    /// bytes, builds; one byte more is refused with the reason.
    #[test]
    fn the_datagram_may_be_as_long_as_total_length_can_say_and_no_longer() {
        let most = "ab".repeat(65_535 - 40);
        let (frame, fcs) = parts(&issue_with(&["--payload-hex", &most]).unwrap());
        assert_eq!(u16::from_be_bytes([frame[16], frame[17]]), 65_535);
        assert_eq!(received(&frame, fcs), Ok(()));
        let over = "ab".repeat(65_535 - 40 + 1);
        let err = issue_with(&["--payload-hex", &over]).unwrap_err();
        assert!(err.contains("16-bit") && err.contains("65495"), "{err}");
    }

    /// With `--mtu`, a datagram larger than that link is refused with the
    /// reason, DF or not; a datagram that fits is the same frame as without.
    #[test]
    fn an_explicit_mtu_still_refuses_a_datagram_that_does_not_fit() {
        let big = "00".repeat(2000);
        let err = issue_with(&["--payload-hex", &big, "--mtu", "1500"]).unwrap_err();
        assert!(
            err.contains("1500-byte MTU") && err.contains("fragments"),
            "{err}"
        );
        assert!(err.contains("at most 1460"), "{err}");
        let err = issue_with(&["--payload-hex", &big, "--mtu", "1500", "--df"]).unwrap_err();
        assert!(err.contains("DF is set"), "{err}");
        let fits = issue_with(&["--payload-hex", &big, "--mtu", "9000"]).unwrap();
        assert_eq!(fits, issue_with(&["--payload-hex", &big]).unwrap());
    }

    /// TTL 0 builds, as scapy's `IP(ttl=0)` does: RFC 1122 §3.2.1.7 forbids
    /// a host to *send* it, and this tool only builds bytes. Header checksum
    /// by hand: the SYN's sum 0x9932 less 0x4000 (TTL 64 in the high byte
    /// of the TTL/protocol word) is 0x5932, complement 0xa6cd.
    #[test]
    fn ttl_0_builds() {
        let out = run(&ISSUE.replace("--ttl 64", "--ttl 0"), &[]).unwrap();
        let (frame, fcs) = parts(&out);
        assert_eq!(frame[14 + 8], 0, "TTL");
        assert_eq!(u16::from_be_bytes([frame[24], frame[25]]), 0xa6cd);
        assert_eq!(received(&frame, fcs), Ok(()));
        let out = run(&ISSUE.replace("--ttl 64", "--ttl 255"), &[]).unwrap();
        assert_eq!(parts(&out).0[14 + 8], 255);
    }

    /// Every value of every header field the options set is accepted:
    /// port 0, window 0, all flags at once or none, the extremes of the
    /// sequence, acknowledgment and identification fields.
    #[test]
    fn every_value_a_header_field_holds_is_accepted() {
        let line = "--src 0.0.0.0:0 --dst 255.255.255.255:65535 --src-mac ff:ff:ff:ff:ff:ff --dst-mac 00:00:00:00:00:00";
        for extra in [
            &["--window", "0", "--flags", ""][..],
            &["--flags", "FSRPAUEC", "--window", "65535"],
            &["--flags", "SF"],
            &["--flags", "RA"],
            &[
                "--seq",
                "4294967295",
                "--ack",
                "4294967295",
                "--id",
                "65535",
            ],
            &["--seq", "0", "--ack", "0", "--id", "0"],
        ] {
            let out = run(line, extra);
            assert!(out.is_ok(), "{extra:?}: {out:?}");
        }
    }
}
