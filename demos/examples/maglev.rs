//! `maglev`: Maglev's lookup table, entry by entry.
//!
//! ```text
//! cargo run -q --release -p demos --example maglev -- --size 7 \
//!     --backend B0:3:4 --backend B1:0:2 --backend B2:3:1 --remove B1
//! ```
//! prints `table` and the owner of each of the M entries, then, with
//! `--remove`, `after` and the owners once that backend is gone (the others
//! keep their offset, skip and order) and `moved` and how many entries
//! changed owner:
//!
//! ```text
//! table B1 B0 B1 B0 B2 B2 B0
//! after B0 B0 B0 B0 B2 B2 B2
//! moved 3
//! ```
//!
//! The table is populated as Pseudocode 1 of Eisenbud et al., "Maglev: A
//! Fast and Reliable Software Network Load Balancer" (NSDI 2016, §3.4)
//! does it: backend i prefers the entries `(offset_i + j·skip_i) mod M` for
//! j = 0, 1, …; the backends take turns in the order given, each claiming
//! the first entry of its list still empty, until all M are claimed (which
//! may be part-way through a round). The offset and skip are given instead
//! of hashed from the name, so any other implementation can be compared.
//!
//! Options (value after a space or `=`): `--size M` (a prime, at most
//! 2^24), `--backend NAME:OFFSET:SKIP` once per backend, in order (read
//! from the right, so a name may hold `:`; no whitespace in a name; any
//! u64 offset; skip 1 to M−1), `--remove NAME` (optional).
//!
//! Bad input (a size that is not prime, a skip of 0 or ≥ M, a duplicate
//! name, a malformed backend, an unknown option, a `--remove` that names no
//! backend or the only one, no backend, more than 2^32 backends × entries)
//! exits with status 2 and the reason on standard error; nothing is
//! printed. The work is done by `demos::fabric::maglev::cli`, whose tests
//! pin the output.

use demos::fabric::maglev::cli::maglev_command;
use std::process::ExitCode;

fn main() -> ExitCode {
    demos::cli::run("maglev", maglev_command)
}
