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
//! C11 allowed|forbidden|undefined
//! ```
//!
//! `C11 undefined` means some RC11-consistent execution has a data race on a
//! non-atomic (`.na`) access — herd7 with `rc11.cat` prints `Undef` in place
//! of `Ok`/`No` for such a test (its `undefined_unless empty dr` check).
//!
//! With `--outcomes`, each model's line is followed by the final states that
//! model allows, one per line, indented by two spaces, in ascending order of
//! the registers (in the order the test loads them) and then of the
//! locations the condition names: `  r1=0; r2=1; x=2;`. Under C11 a racy
//! test also gets a line `  race: a d x` naming the two racing events (herd's
//! letters: a, b, c… in thread order) and the location.
//!
//! Bad input (unreadable file, parse error, a test too big to explore) prints
//! `FILE:line:col: reason` on standard error and exits with status 2.

use demos::memory::litmus::{explain::letter, parse, Analysis, MemModel, Verdict};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcomes = args.iter().any(|a| a == "--outcomes");
    let files: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let [file] = files[..] else {
        eprintln!("usage: litmus [--outcomes] FILE");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{file}:1:1: cannot read the file: {e}");
            return ExitCode::from(2);
        }
    };
    let test = match parse(&text) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{file}:{e}");
            return ExitCode::from(2);
        }
    };
    let analysis = match Analysis::of(&test) {
        Ok(a) => a,
        Err(reason) => {
            eprintln!("{file}:1:1: {reason}");
            return ExitCode::from(2);
        }
    };
    let mut out = String::new();
    for model in MemModel::ALL {
        let verdict = analysis.verdict(model);
        out.push_str(&format!("{} {}\n", model.label(), verdict.word()));
        if !outcomes {
            continue;
        }
        for row in analysis.allowed(model) {
            let regs = test.regs.iter().zip(&row.regs);
            let mem = analysis
                .mem_locs
                .iter()
                .map(|l| &test.locs[*l as usize])
                .zip(&row.mem);
            let state: String = regs.chain(mem).map(|(n, v)| format!("{n}={v}; ")).collect();
            out.push_str(&format!("  {}\n", state.trim_end()));
        }
        if let (Verdict::Undefined, Some((x, y))) = (verdict, analysis.race) {
            let sk = &analysis.skeleton;
            let loc = sk.events[x as usize].loc.unwrap_or(0);
            out.push_str(&format!(
                "  race: {} {} {}\n",
                letter(sk, x as usize),
                letter(sk, y as usize),
                test.locs[loc as usize]
            ));
        }
    }
    print!("{out}");
    ExitCode::SUCCESS
}
