//! The `frame` example's command line: options in, exact bytes out. Kept
//! in the library so its output is pinned by unit tests.
//!
//! The frame printed is the one a packet library builds (scapy's
//! `bytes(Ether()/IP()/TCP())`): a bare SYN is 54 bytes. `--pad` appends
//! zero bytes up to 60, as an IEEE 802.3 MAC does before it computes the
//! FCS (§3.2.8: the pad comes "prior to calculating and appending the FCS
//! field"), so the frame printed is the one that goes on a wire. Either way
//! the FCS printed is the CRC-32 of exactly the bytes printed.

use super::ethernet;
use super::ipv4::{Ipv4, HEADER_LEN as IP_LEN, MIN_MTU};
use super::parse::{endpoint, hex, mac, number, to_hex};
use super::tcp::{parse_flags, TcpHeader, HEADER_LEN as TCP_LEN, SYN};
use super::FrameSpec;
use std::collections::BTreeMap;

/// The largest jumbo-frame MTU switches commonly accept.
const MAX_MTU: u64 = 9216;
const VALUED: [&str; 12] = [
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
];
const SWITCHES: [&str; 2] = ["--df", "--pad"];

/// Options by name (value after a space or `=`); a switch maps to "".
fn options(args: &[String]) -> Result<BTreeMap<&str, &str>, String> {
    let mut args = args.iter();
    let mut out = BTreeMap::new();
    while let Some(arg) = args.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (arg.as_str(), None),
        };
        let value = if SWITCHES.contains(&name) {
            if inline.is_some() {
                return Err(format!("{name} takes no value."));
            }
            ""
        } else if VALUED.contains(&name) {
            match inline {
                Some(v) => v,
                None => args.next().ok_or(format!("{name} needs a value."))?,
            }
        } else {
            return Err(format!("unknown option '{}'.", name.escape_default()));
        };
        if out.insert(name, value).is_some() {
            return Err(format!("{name} is given twice."));
        }
    }
    Ok(out)
}

/// What `frame` prints for these arguments (two lines), or why it refuses.
pub fn frame_command(args: &[String]) -> Result<String, String> {
    let opts = options(args)?;
    let get = |name: &str| opts.get(name).copied();
    let need = |name: &str| get(name).ok_or(format!("{name} is required."));
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
    let ttl = num("--ttl", "TTL", u8::MAX.into(), 64)? as u8;
    if ttl == 0 {
        // RFC 1122 §3.2.1.7: "A host MUST NOT send a datagram with a
        // Time-to-Live (TTL) value of zero."
        return Err("a host must not send TTL 0 (RFC 1122 §3.2.1.7): use 1 to 255.".into());
    }
    let id = num("--id", "identification", u16::MAX.into(), 1)? as u16;
    let mtu = num("--mtu", "MTU", MAX_MTU, 1500)? as usize;
    if mtu < MIN_MTU {
        return Err(format!(
            "an MTU below {MIN_MTU} is not allowed: every IPv4 link must carry 68 bytes unfragmented (RFC 791 §3.2)."
        ));
    }
    let payload = hex(get("--payload-hex").unwrap_or(""), usize::from(u16::MAX))?;
    let df = get("--df").is_some();
    let datagram = IP_LEN + TCP_LEN + payload.len();
    if datagram > mtu {
        let what = if df {
            "DF is set, so IP must drop it (RFC 791 §2.3) and a router would answer ICMP \"fragmentation needed\" with its MTU (RFC 1191 §4)"
        } else {
            "IP would split it into fragments (RFC 791 §2.3)"
        };
        return Err(format!(
            "{} bytes of payload make a {datagram}-byte datagram, larger than the {mtu}-byte MTU: {what}, and this example prints one whole frame. Send at most {} bytes, or raise --mtu.",
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
            (&["--ttl", "0"], "TTL 0"),
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
}
