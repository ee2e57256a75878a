//! `toeplitz`: the RSS Toeplitz hash of one flow, as a NIC computes it to
//! choose a receive queue.
//!
//! ```text
//! cargo run -q --release -p demos --example toeplitz -- \
//!     --src 66.9.149.187:2794 --dst 161.142.100.80:1766
//! ```
//! prints one line, `hash=0x` and the hash as 8 lower-case hex digits:
//!
//! ```text
//! hash=0x51ccc178
//! ```
//!
//! (the first row of Microsoft's "Verifying the RSS Hash Calculation"
//! table). The bytes hashed are the source address, the destination
//! address, the source port and the destination port, each in network
//! byte order; with `--ip-only`, only the two addresses (0x323e8fc2 for
//! the line above). The hash is the one Microsoft's "RSS hashing
//! functions" defines: for each input bit that is 1, left-most first, XOR
//! the key's left-most 32 bits into the result; after every bit, shift the
//! key left by one.
//!
//! Options (value after a space or `=`): `--src` and `--dst`, each
//! `A.B.C.D:PORT` or `[IPv6]:PORT` (required, both of one family);
//! `--ip-only`; `--key HEX`, the key as hex digit pairs, at most 256
//! bytes, by default the standard 40-byte key
//! `6d5a56da255b0ec24167253d43a38fb0d0ca2bcbae7b30b477cb2da38030f20c6a42b73bbeac01fa`.
//! The key must be at least 4 bytes longer than the input (16 bytes for
//! IPv4 with ports, 12 without; 40 and 36 for IPv6), since the 32-bit
//! window slides one bit per input bit.
//!
//! Bad input (an address or port out of range, an unknown option, odd or
//! non-hex key, a key too short for the input or over 256 bytes, endpoints
//! of different families) exits with status 2 and the reason, naming the
//! argument, on standard error; nothing is printed on standard output.
//! The work is done by `demos::host::toeplitz::cli`, whose tests pin the
//! output.

use demos::host::toeplitz::cli::toeplitz_command;
use std::process::ExitCode;

fn main() -> ExitCode {
    demos::cli::run("toeplitz", toeplitz_command)
}
