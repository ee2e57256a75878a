//! The `toeplitz` example's command line: two endpoints (and optionally a
//! key) in, one RSS hash out. Kept in the library so its output is pinned
//! by unit tests.
//!
//! It prints `hash=0x` and the hash as 8 lower-case hex digits. The input
//! is what [`super::tuple_input`] lays out (source address, destination
//! address, source port, destination port, network byte order), or only
//! the two addresses with `--ip-only`. Endpoints are `A.B.C.D:PORT` or
//! `[IPv6]:PORT`, both of one family.

use super::{hash, key_bytes_needed, tuple_input, STANDARD_KEY};
use crate::cli::{self, Grammar};
use crate::net::wire::parse;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// The longest key `--key` takes. A 40-byte key covers IPv6 with ports
/// (36 bytes of input); NICs hold 40 or 52 bytes. 256 leaves room to
/// experiment and bounds what a typo can make us read.
pub const MAX_KEY_BYTES: usize = 256;

const GRAMMAR: Grammar = Grammar {
    valued: &["--src", "--dst", "--key"],
    repeated: &[],
    switches: &["--ip-only"],
};

/// What `toeplitz` prints for these arguments (one line), or why it
/// refuses, naming the argument at fault.
pub fn toeplitz_command(args: &[String]) -> Result<String, String> {
    let opts = cli::parse(args, &GRAMMAR)?;
    let (src, src_port) = endpoint("--src", opts.need("--src")?)?;
    let (dst, dst_port) = endpoint("--dst", opts.need("--dst")?)?;
    let ports = (!opts.has("--ip-only")).then_some((src_port, dst_port));
    let input = tuple_input(src, dst, ports).ok_or_else(|| {
        format!(
            "--src is {} and --dst is {}: a packet's two addresses are of one family.",
            family(src),
            family(dst)
        )
    })?;
    let key = match opts.get("--key") {
        Some(text) => parse::hex(text, MAX_KEY_BYTES).map_err(|e| format!("--key: {e}"))?,
        None => STANDARD_KEY.to_vec(),
    };
    long_enough(&key, input.len())?;
    Ok(format!("hash=0x{:08x}\n", hash(&key, &input)))
}

/// An endpoint as written on the command line, or the reason it is not
/// one, prefixed with the option's name.
fn endpoint(name: &str, text: &str) -> Result<(IpAddr, u16), String> {
    let read = if text.starts_with('[') {
        ipv6_endpoint(text)
    } else {
        parse::endpoint(text).map(|(addr, port)| (IpAddr::V4(Ipv4Addr::from(addr)), port))
    };
    read.map_err(|reason| format!("{name}: {reason}"))
}

/// `[IPv6]:PORT`, as URLs and socket APIs write it. A zone (`%eth0`) is
/// refused: it names the host's interface and is not in the packet.
fn ipv6_endpoint(text: &str) -> Result<(IpAddr, u16), String> {
    let shown = || text.escape_default().to_string();
    if text.len() > parse::MAX_FIELD_CHARS {
        return Err(format!(
            "That is {} characters; an endpoint is at most {}.",
            text.len(),
            parse::MAX_FIELD_CHARS
        ));
    }
    let Some((addr, port)) = text.strip_prefix('[').and_then(|t| t.split_once("]:")) else {
        return Err(format!(
            "'{}' needs an IPv6 address in brackets and a port, like [2001:db8::1]:443.",
            shown()
        ));
    };
    if addr.contains('%') {
        return Err(format!(
            "'{}' has a zone (%…), which is not part of the packet's address: leave it out.",
            shown()
        ));
    }
    let addr: Ipv6Addr = addr
        .parse()
        .map_err(|_| format!("'{}' is not an IPv6 address.", addr.escape_default()))?;
    // number() has checked the port is at most u16::MAX.
    let port = parse::number(port, "port", u64::from(u16::MAX))? as u16;
    Ok((IpAddr::V6(addr), port))
}

fn family(addr: IpAddr) -> &'static str {
    if addr.is_ipv4() {
        "IPv4"
    } else {
        "IPv6"
    }
}

/// Refuses a key too short for the input rather than hash zeros in place
/// of the missing bits.
fn long_enough(key: &[u8], input_len: usize) -> Result<(), String> {
    let needed = key_bytes_needed(input_len);
    if key.len() >= needed {
        return Ok(());
    }
    Err(format!(
        "--key: the key is {} bytes, and hashing {input_len} bytes of input needs {needed}: the 32-bit window slides one bit per input bit, so the key must be 4 bytes longer than the input.",
        key.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(line: &str) -> Result<String, String> {
        let args: Vec<String> = line.split_whitespace().map(String::from).collect();
        toeplitz_command(&args)
    }

    /// Microsoft's verification table ("Verifying the RSS Hash
    /// Calculation"), first IPv4 row, with the ports and without.
    #[test]
    fn the_first_published_row_through_the_command_line() {
        let line = "--src 66.9.149.187:2794 --dst 161.142.100.80:1766";
        assert_eq!(run(line), Ok("hash=0x51ccc178\n".into()));
        assert_eq!(
            run(&format!("{line} --ip-only")),
            Ok("hash=0x323e8fc2\n".into())
        );
    }

    /// IPv6 rows of the same table. The last one's hash with ports,
    /// 0x02d1feef, starts with a zero digit: the output keeps all 8.
    #[test]
    fn ipv6_rows_and_the_eight_digits_kept() {
        let line = "--src [3ffe:1900:4545:3:200:f8ff:fe21:67cf]:44251 --dst [fe80::200:f8ff:fe21:67cf]:38024";
        assert_eq!(run(line), Ok("hash=0x02d1feef\n".into()));
        assert_eq!(
            run(&format!("{line} --ip-only")),
            Ok("hash=0x4b61e985\n".into())
        );
        let first = "--src [3ffe:2501:200:1fff::7]:2794 --dst [3ffe:2501:200:3::1]:1766";
        assert_eq!(run(first), Ok("hash=0x40207d3d\n".into()));
    }

    /// `--key` with the standard key, in upper case or lower, changes
    /// nothing; a key of exactly 16 bytes is enough for IPv4 with ports
    /// and gives the same hash, as only the first 16 bytes are read.
    #[test]
    fn an_explicit_key_and_the_shortest_that_suffices() {
        let line = "--src 66.9.149.187:2794 --dst 161.142.100.80:1766";
        let standard =
            "6d5a56da255b0ec24167253d43a38fb0d0ca2bcbae7b30b477cb2da38030f20c6a42b73bbeac01fa";
        for key in [standard.to_string(), standard.to_uppercase()] {
            assert_eq!(
                run(&format!("{line} --key {key}")),
                Ok("hash=0x51ccc178\n".into())
            );
        }
        let sixteen = &standard[..32];
        assert_eq!(
            run(&format!("{line} --key={sixteen}")),
            Ok("hash=0x51ccc178\n".into())
        );
        // An all-zero key hashes everything to 0.
        assert_eq!(
            run(&format!("{line} --key {}", "00".repeat(16))),
            Ok("hash=0x00000000\n".into())
        );
    }

    #[test]
    fn bad_input_is_refused_naming_the_argument() {
        let ok = "--src 10.0.0.1:1 --dst 10.0.0.2:2";
        for (line, reason) in [
            ("--src 10.0.0.256:1 --dst 10.0.0.2:2", "--src: "),
            ("--src 10.0.0.1:1 --dst 10.0.0.2:65536", "--dst: "),
            ("--src 10.0.0.1 --dst 10.0.0.2:2", "--src: "),
            ("--src 10.0.0.1:1", "--dst is required"),
            ("--dst 10.0.0.1:1", "--src is required"),
            (&format!("{ok} --ip-only=1"), "takes no value"),
            (&format!("{ok} --seed 1"), "unknown option"),
            (&format!("{ok} --key abc"), "--key: 3 hex digits is an odd"),
            (&format!("{ok} --key 0g"), "--key: 'g' is not a hex digit"),
            (&format!("{ok} --key {}", "00".repeat(15)), "needs 16"),
            (&format!("{ok} --key {}", "00".repeat(257)), "256 allowed"),
            (&format!("{ok} --src 10.0.0.3:3"), "given twice"),
            (
                "--src [::1]:1 --dst 10.0.0.2:2",
                "--src is IPv6 and --dst is IPv4",
            ),
            ("--src [fe80::1%eth0]:1 --dst [fe80::2]:2", "zone"),
            ("--src [fe80::1]:1 --dst [fe80::2]", "--dst: "),
            ("--src [fe80::1:1 --dst [fe80::2]:2", "--src: "),
            ("--src [fe80::g]:1 --dst [fe80::2]:2", "not an IPv6 address"),
            ("--src [fe80::1]:70000 --dst [fe80::2]:2", "at most 65535"),
        ] {
            let err = run(line).unwrap_err();
            assert!(err.contains(reason), "{line}: {err}");
        }
        // The empty key is a key of no bytes: too short for any input.
        let args: Vec<String> = ["--src", "10.0.0.1:1", "--dst", "10.0.0.2:2", "--key", ""]
            .map(String::from)
            .to_vec();
        assert!(toeplitz_command(&args).unwrap_err().contains("needs 16"));
    }

    /// IPv6 with ports is 36 bytes and needs 40 key bytes; without ports,
    /// 32 bytes and 36.
    #[test]
    fn the_key_needed_follows_the_input_length() {
        let v6 = "--src [::1]:1 --dst [::2]:2";
        let key39 = "ab".repeat(39);
        let err = run(&format!("{v6} --key {key39}")).unwrap_err();
        assert!(
            err.contains("hashing 36 bytes") && err.contains("needs 40"),
            "{err}"
        );
        assert!(run(&format!("{v6} --ip-only --key {key39}")).is_ok());
        let key11 = "ab".repeat(11);
        assert!(run(&format!(
            "--src 1.2.3.4:5 --dst 6.7.8.9:10 --ip-only --key {key11}"
        ))
        .is_err());
        let key12 = "ab".repeat(12);
        assert!(run(&format!(
            "--src 1.2.3.4:5 --dst 6.7.8.9:10 --ip-only --key {key12}"
        ))
        .is_ok());
    }
}
