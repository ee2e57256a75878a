//! Checks a litmus test under the four memory models, for teachers and for
//! comparing the models with herd7.
//!
//! ```text
//! cargo run -q --release -p demos --example litmus -- [--outcomes] FILE
//! ```
//!
//! Prints exactly one line per model, in this order, for the file's `exists`
//! condition:
//!
//! ```text
//! SC allowed|forbidden
//! TSO allowed|forbidden
//! ARMv8 allowed|forbidden
//! RC11 allowed|forbidden|undefined
//! ```
//!
//! `RC11 undefined` means some RC11-consistent execution has a data race on a
//! non-atomic (`.na`) access — herd7 with `rc11.cat` prints `Undef` in place
//! of `Ok`/`No` for such a test (its `undefined_unless empty dr` check).
//!
//! With `--outcomes`, each model's line is followed by the final states that
//! model allows, one per line, indented by two spaces, in ascending order of
//! the registers (in the order the test loads them) and then of the
//! locations the condition names: `  r1=0; r2=1; x=2;`. Under RC11 a racy
//! test also gets a line `  race: a d x` naming the two racing events (herd's
//! letters: a, b, c… in thread order) and the location.
//!
//! The text is made by `demos::memory::litmus::report`, where unit tests pin
//! it; this file only reads the arguments and the file and sets the status.
//!
//! Bad input (unreadable file, parse error, a test too big to explore) prints
//! `FILE:line:col: reason` on standard error and exits with status 2. So does
//! a bad command line (an unknown option, no file or two), with the usage
//! line.

use demos::memory::litmus::report::{args, report};
use std::process::ExitCode;

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let args = match args(&argv) {
        Ok(a) => a,
        Err(usage) => {
            eprintln!("{usage}");
            return ExitCode::from(2);
        }
    };
    let file = args.file;
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{file}:1:1: cannot read the file: {e}");
            return ExitCode::from(2);
        }
    };
    match report(&text, args.outcomes) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{file}:{e}");
            ExitCode::from(2)
        }
    }
}
