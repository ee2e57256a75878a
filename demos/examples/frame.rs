//! `frame`: one Ethernet frame carrying one TCP segment, as exact bytes.
//!
//! ```text
//! cargo run -q --release -p demos --example frame -- --src 10.0.0.1:40000 \
//!     --dst 10.0.0.2:80 --seq 1000 --ack 0 --flags S --window 64240 --ttl 64 \
//!     --id 1 --src-mac 02:00:00:00:00:01 --dst-mac 02:00:00:00:00:02 --payload-hex ""
//! ```
//! prints the frame without its FCS as lower-case hex on one line, then
//! `fcs=` and the CRC-32 of those bytes as 8 hex digits, the value zlib's
//! `crc32()` returns (on the wire its bytes go least significant first):
//!
//! ```text
//! 02000000000202000000000108004500002800010000400666cd0a0000010a0000029c400050000003e8000000005002faf000770000000000000000
//! fcs=dc3239dd
//! ```
//!
//! The frame: Ethernet II (destination MAC, source MAC, EtherType 0x0800),
//! IPv4 with no options (version 4, IHL 5, DSCP/ECN 0, total length, the
//! identification, DF only with `--df`, MF 0, fragment offset 0, TTL,
//! protocol 6, header checksum, addresses; RFC 791 §3.1), TCP with no
//! options (data offset 5, reserved 0, the flags, the window, checksum over
//! the pseudo-header, urgent pointer 0; RFC 9293 §3.1), then the data.
//!
//! **Short frames are padded to 60 bytes.** "The Ethernet frame without the
//! FCS" is, in IEEE 802.3's words, destination, source, type, client data
//! *and pad* (§3.1.1): a MAC pads any frame shorter than minFrameSize (64
//! bytes with the FCS, §4.4.2) with zero bytes "prior to calculating and
//! appending the FCS" (§3.2.8), and the FCS covers the pad (§3.2.9). So a
//! 54-byte SYN travels as 60 bytes plus an FCS computed over all 60, and
//! that is what this prints: the only FCS of this frame that ever exists on
//! a wire. A receiver's capture shows the same 60 bytes. Libraries differ
//! here: gopacket pads as above (`layers/ethernet.go`, `SerializeTo`); scapy
//! and dpkt leave the 54 bytes and let the NIC pad. `--no-pad` prints that
//! unpadded form and its CRC (what `zlib.crc32(bytes(pkt))` gives in scapy):
//! the bytes a host hands its NIC, whose CRC never reaches a wire when
//! they are shorter than 60. Frames of 60 bytes or more are the same in
//! both forms.
//!
//! Options (value after a space or `=`): `--src` and `--dst` ADDR:PORT,
//! `--src-mac` and `--dst-mac` (required); `--seq` and `--ack` (0–2³²−1,
//! default 0), `--flags` letters from `FSRPAUEC` in any order, empty for
//! none (default `S`), `--window` (default 8192), `--ttl` (1–255, default
//! 64), `--id` (default 1), `--payload-hex` (default empty), `--df`,
//! `--mtu` (68–9216, default 1500), `--no-pad`. The defaults are scapy's.
//!
//! Bad input (an address, port or number out of range, an unknown flag or
//! option, odd or non-hex payload, a datagram larger than the MTU) exits
//! with status 2 and the reason on standard error; nothing is printed.

use demos::net::wire::ethernet::{self, MIN_FRAME};
use demos::net::wire::ipv4::{Ipv4, HEADER_LEN as IP_LEN, MIN_MTU};
use demos::net::wire::parse::{endpoint, hex, mac, number, to_hex};
use demos::net::wire::tcp::{parse_flags, TcpHeader, HEADER_LEN as TCP_LEN, SYN};
use demos::net::wire::FrameSpec;
use std::collections::BTreeMap;
use std::io::Write;
use std::process::ExitCode;

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
const SWITCHES: [&str; 2] = ["--df", "--no-pad"];

fn main() -> ExitCode {
    match run() {
        Ok(out) => {
            // A closed pipe is not worth a panic.
            let _ = std::io::stdout().lock().write_all(out.as_bytes());
            ExitCode::SUCCESS
        }
        Err(reason) => {
            let _ = writeln!(std::io::stderr(), "frame: {reason}");
            ExitCode::from(2)
        }
    }
}

/// Options by name; a switch maps to an empty value.
fn options() -> Result<BTreeMap<String, String>, String> {
    let mut args = std::env::args_os().skip(1);
    let mut out = BTreeMap::new();
    while let Some(arg) = args.next() {
        let arg = arg
            .into_string()
            .map_err(|_| "an argument is not valid UTF-8.".to_string())?;
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) => (n.to_string(), Some(v.to_string())),
            None => (arg, None),
        };
        let value = if SWITCHES.contains(&name.as_str()) {
            if inline.is_some() {
                return Err(format!("{name} takes no value."));
            }
            String::new()
        } else if VALUED.contains(&name.as_str()) {
            match inline {
                Some(v) => v,
                None => args
                    .next()
                    .ok_or(format!("{name} needs a value."))?
                    .into_string()
                    .map_err(|_| format!("the value of {name} is not valid UTF-8."))?,
            }
        } else {
            return Err(format!("unknown option '{}'.", name.escape_default()));
        };
        if out.insert(name.clone(), value).is_some() {
            return Err(format!("{name} is given twice."));
        }
    }
    Ok(out)
}

fn run() -> Result<String, String> {
    let opts = options()?;
    let get = |name: &str| opts.get(name).map(String::as_str);
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
    let mut frame = spec.frame(&payload);
    if get("--no-pad").is_some() {
        frame.truncate(ethernet::HEADER_LEN + datagram);
    }
    debug_assert!(frame.len() >= MIN_FRAME || get("--no-pad").is_some());
    Ok(format!(
        "{}\nfcs={:08x}\n",
        to_hex(&frame),
        ethernet::fcs(&frame)
    ))
}
