//! `frame`: one Ethernet frame carrying one TCP segment, as exact bytes.
//!
//! ```text
//! cargo run -q --release -p demos --example frame -- --src 10.0.0.1:40000 \
//!     --dst 10.0.0.2:80 --seq 1000 --ack 0 --flags S --window 64240 --ttl 64 \
//!     --id 1 --src-mac 02:00:00:00:00:01 --dst-mac 02:00:00:00:00:02 --payload-hex ""
//! ```
//! prints the frame without its FCS as lower-case hex on one line, then
//! `fcs=` and the CRC-32 of exactly those bytes as 8 hex digits, the value
//! zlib's `crc32()` returns (on the wire its bytes go least significant
//! first):
//!
//! ```text
//! 02000000000202000000000108004500002800010000400666cd0a0000010a0000029c400050000003e8000000005002faf000770000
//! fcs=d553d689
//! ```
//!
//! The frame: Ethernet II (destination MAC, source MAC, EtherType 0x0800),
//! IPv4 with no options (version 4, IHL 5, DSCP/ECN 0, total length, the
//! identification, DF only with `--df`, MF 0, fragment offset 0, TTL,
//! protocol 6, header checksum, addresses; RFC 791 §3.1), TCP with no
//! options (data offset 5, reserved 0, the flags, the window, checksum over
//! the pseudo-header, urgent pointer 0; RFC 9293 §3.1), then the data.
//!
//! **By default the frame is not padded**: it is what scapy's
//! `bytes(Ether()/IP()/TCP())` and other packet libraries build, and what
//! a host hands its NIC, so a bare SYN is 54 bytes and the CRC printed is
//! `zlib.crc32(bytes(pkt))`. **`--pad`** pads a frame shorter than 60
//! bytes with zeros, as an IEEE 802.3 MAC does before computing the FCS
//! (§3.2.8; minFrameSize is 64 bytes with the FCS, §4.4.2), and the FCS
//! printed then covers the pad (§3.2.9): the frame and FCS a wire carries.
//! Frames of 60 bytes or more are the same either way.
//!
//! Options (value after a space or `=`): `--src` and `--dst` ADDR:PORT,
//! `--src-mac` and `--dst-mac` (required); `--seq` and `--ack` (0–2³²−1,
//! default 0), `--flags` letters from `FSRPAUEC` in any order, empty for
//! none (default `S`), `--window` (default 8192), `--ttl` (0–255, default
//! 64), `--id` (default 1), `--payload-hex` (default empty), `--df`,
//! `--mtu` (68–9216, no default), `--pad`. The defaults are scapy's.
//!
//! TTL 0 is built: RFC 1122 §3.2.1.7 says a host must not *send* it, and
//! this example only prints bytes, as scapy's `IP(ttl=0)` does.
//!
//! **No MTU is assumed**: like a packet library, the example builds a
//! datagram of any length IPv4's 16-bit Total Length can state (RFC 791
//! §3.1), so up to 65,495 bytes of payload behind the two 20-byte headers.
//! Only with `--mtu` must the datagram fit a link, and one that does not is
//! refused (with `--df` IP must drop it; without, IP would fragment it,
//! RFC 791 §2.3; either way it is not one frame).
//!
//! Bad input (an address, port or number out of range, an unknown flag or
//! option, odd or non-hex payload, a datagram over 65,535 bytes, or larger
//! than the `--mtu` given) exits with status 2 and the reason on standard
//! error; nothing is printed.
//! The work is done by `demos::net::wire::cli`, whose tests pin the output.

use demos::net::wire::cli::frame_command;
use std::process::ExitCode;

fn main() -> ExitCode {
    demos::cli::run("frame", frame_command)
}
