//! What the `litmus` command prints for a test (`demos/examples/litmus.rs`),
//! here so that the exact text is unit-tested: the command is the contract
//! teachers and the herd7 comparison read, and a change to one character
//! of it would break a script that parses it.
//!
//! One line per model, in the order of [`MemModel::ALL`], for the test's
//! `exists` condition:
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
//! With `outcomes`, each model's line is followed by the final states that
//! model allows, one per line, indented by two spaces, in ascending order of
//! the registers (in the order the test loads them) and then of the
//! locations the condition names: `  r1=0; r2=1; x=2;`. Under RC11 a racy
//! test also gets a line `  race: a d x` naming the two racing events (herd's
//! letters: a, b, c… in thread order) and the location.

use super::explain::letter;
use super::{parse, Analysis, MemModel, ParseError, Verdict};

/// The command line, as the usage line shows it.
pub const USAGE: &str = "usage: litmus [--outcomes] FILE";

/// The command's arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Args<'a> {
    pub outcomes: bool,
    pub file: &'a str,
}

/// Reads the command's arguments (without the program name), or says on
/// which grounds it refuses them, ending with the usage line. An unknown
/// option is refused rather than ignored: `--outcome` silently printing
/// verdicts only would look like a model that allows nothing.
pub fn args(args: &[String]) -> Result<Args<'_>, String> {
    let mut outcomes = false;
    let mut files = Vec::new();
    for a in args {
        match a.as_str() {
            "--outcomes" => outcomes = true,
            o if o.starts_with('-') && o.len() > 1 => {
                return Err(format!("litmus: unknown option `{o}`\n{USAGE}"));
            }
            file => files.push(file),
        }
    }
    match files[..] {
        [file] => Ok(Args { outcomes, file }),
        _ => Err(USAGE.to_string()),
    }
}

/// The command's output for `text`, or why it cannot be checked: a parse
/// error at its line and column, or a test too big to explore (reported at
/// 1:1, since it is the whole test that is too big).
pub fn report(text: &str, outcomes: bool) -> Result<String, ParseError> {
    let test = parse(text)?;
    let analysis = Analysis::of(&test).map_err(|reason| ParseError {
        line: 1,
        col: 1,
        reason,
    })?;
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
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::litmus::catalogue::find;

    fn text(name: &str) -> &'static str {
        find(name).unwrap().text
    }

    #[test]
    fn sb_prints_one_verdict_line_per_model() {
        assert_eq!(
            report(text("SB"), false).unwrap(),
            "SC forbidden\nTSO allowed\nARMv8 allowed\nRC11 allowed\n"
        );
    }

    #[test]
    fn mp_prints_one_verdict_line_per_model() {
        assert_eq!(
            report(text("MP"), false).unwrap(),
            "SC forbidden\nTSO forbidden\nARMv8 allowed\nRC11 allowed\n"
        );
    }

    #[test]
    fn outcomes_follow_each_model_indented_registers_then_locations() {
        assert_eq!(
            report(text("SB"), true).unwrap(),
            "SC forbidden\n\
             \x20 r1=0; r2=1;\n\
             \x20 r1=1; r2=0;\n\
             \x20 r1=1; r2=1;\n\
             TSO allowed\n\
             \x20 r1=0; r2=0;\n\
             \x20 r1=0; r2=1;\n\
             \x20 r1=1; r2=0;\n\
             \x20 r1=1; r2=1;\n\
             ARMv8 allowed\n\
             \x20 r1=0; r2=0;\n\
             \x20 r1=0; r2=1;\n\
             \x20 r1=1; r2=0;\n\
             \x20 r1=1; r2=1;\n\
             RC11 allowed\n\
             \x20 r1=0; r2=0;\n\
             \x20 r1=0; r2=1;\n\
             \x20 r1=1; r2=0;\n\
             \x20 r1=1; r2=1;\n"
        );
        assert_eq!(
            report(text("MP"), true).unwrap(),
            "SC forbidden\n\
             \x20 r1=0; r2=0;\n\
             \x20 r1=0; r2=1;\n\
             \x20 r1=1; r2=1;\n\
             TSO forbidden\n\
             \x20 r1=0; r2=0;\n\
             \x20 r1=0; r2=1;\n\
             \x20 r1=1; r2=1;\n\
             ARMv8 allowed\n\
             \x20 r1=0; r2=0;\n\
             \x20 r1=0; r2=1;\n\
             \x20 r1=1; r2=0;\n\
             \x20 r1=1; r2=1;\n\
             RC11 allowed\n\
             \x20 r1=0; r2=0;\n\
             \x20 r1=0; r2=1;\n\
             \x20 r1=1; r2=0;\n\
             \x20 r1=1; r2=1;\n"
        );
        // Locations the condition names come after the registers.
        let s = report(text("R"), true).unwrap();
        assert!(s.starts_with("SC forbidden\n  r1=0; y=1;\n"), "{s}");
    }

    #[test]
    fn a_race_is_named_under_c11() {
        assert_eq!(
            report(text("MP+na"), true).unwrap(),
            "SC forbidden\n\
             \x20 r1=0; r2=0;\n\
             \x20 r1=0; r2=1;\n\
             \x20 r1=1; r2=1;\n\
             TSO forbidden\n\
             \x20 r1=0; r2=0;\n\
             \x20 r1=0; r2=1;\n\
             \x20 r1=1; r2=1;\n\
             ARMv8 forbidden\n\
             \x20 r1=0; r2=0;\n\
             \x20 r1=0; r2=1;\n\
             \x20 r1=1; r2=1;\n\
             RC11 undefined\n\
             \x20 r1=1; r2=1;\n\
             \x20 race: a d x\n"
        );
        assert!(report(text("MP+na"), false)
            .unwrap()
            .ends_with("\nRC11 undefined\n"));
    }

    #[test]
    fn unknown_options_are_refused_with_the_usage_line() {
        let v = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let ok = v(&["--outcomes", "mp.litmus"]);
        assert_eq!(
            args(&ok),
            Ok(Args {
                outcomes: true,
                file: "mp.litmus"
            })
        );
        let plain = v(&["mp.litmus"]);
        assert_eq!(
            args(&plain).unwrap(),
            Args {
                outcomes: false,
                file: "mp.litmus"
            }
        );
        // A misspelt flag once ran silently without the outcomes.
        assert_eq!(
            args(&v(&["--outcome", "mp.litmus"])).unwrap_err(),
            "litmus: unknown option `--outcome`\nusage: litmus [--outcomes] FILE"
        );
        assert!(args(&v(&["mp.litmus", "-h"])).unwrap_err().ends_with(USAGE));
        assert_eq!(args(&v(&[])).unwrap_err(), USAGE);
        assert_eq!(args(&v(&["a.litmus", "b.litmus"])).unwrap_err(), USAGE);
    }

    #[test]
    fn errors_carry_line_and_column_for_the_file_prefix() {
        // The command prints `FILE:` and then this, and exits with status 2.
        let e = report("thread W x 1\nthread Q\nexists x=1", false).unwrap_err();
        assert_eq!(
            format!("bad.litmus:{e}"),
            "bad.litmus:2:8: `Q` is not an operation: use W, R or F"
        );
        // A test too big to explore is the whole test's fault: 1:1.
        let big = "thread W x 1; W x 2; W x 3; W x 4; W x 5; W x 6\n".repeat(4) + "exists x=1";
        let e = report(&big, true).unwrap_err();
        assert_eq!((e.line, e.col), (1, 1));
        assert!(e.reason.contains("candidate executions"), "{}", e.reason);
    }
}
