//! The `maglev` example's command line: a table size and backends in, the
//! lookup table's owners out (and, with `--remove`, the table rebuilt
//! without one backend and how many entries changed owner). Kept in the
//! library so its output is pinned by unit tests.
//!
//! Backends are taken in the order given: Pseudocode 1 (§3.4) gives them
//! turns in that order, so the order is part of the input.

use super::{check, moved, populate, without, Backend, MAX_SIZE};
use crate::cli::{self, Grammar};

/// The most preference-list steps a command line may ask for, counted as
/// backends × entries. Each backend reads at most its whole list (M steps),
/// so populating costs at most N·M steps: for random offsets and skips far
/// fewer, but N backends with the same list really do take about N·M/2.
/// The worst case of 2³² (256 identical backends on 16,777,213 entries,
/// about 2³¹ steps) took some ten seconds here; the bound still allows 256
/// backends on a 16-million-entry table, and M > 100·N, the ratio the paper
/// advises, at either of its table sizes.
pub const MAX_WORK: u64 = 1 << 32;

const GRAMMAR: Grammar = Grammar {
    valued: &["--size", "--remove"],
    repeated: &["--backend"],
    switches: &[],
};

/// What `maglev` prints for these arguments, or why it refuses (a sentence
/// naming the argument at fault).
pub fn maglev_command(args: &[String]) -> Result<String, String> {
    let opts = cli::parse(args, &GRAMMAR)?;
    let size = table_size(opts.need("--size")?)?;
    let given = opts.all("--backend");
    if given.is_empty() {
        return Err("at least one --backend NAME:OFFSET:SKIP is required.".to_string());
    }
    let backends = given
        .iter()
        .map(|text| backend(text, size))
        .collect::<Result<Vec<_>, _>>()?;
    no_duplicates(&backends)?;
    within_work(size, backends.len())?;
    check(size, &backends).map_err(|why| format!("--backend: {why}"))?;
    // Every refusal comes before any table is built.
    let gone = match opts.get("--remove") {
        Some(name) => Some(removable(name, &backends)?),
        None => None,
    };
    let table = populate(size, &backends);
    let mut out = line("table", &table, &backends);
    if let Some(gone) = gone {
        let after = without(size, &backends, gone);
        out.push_str(&line("after", &after, &backends));
        out.push_str(&format!("moved {}\n", moved(&table, &after)));
    }
    Ok(out)
}

/// A decimal number, digits only (no sign, no spaces), that fits a u64.
fn number(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// `--size`: a prime from 2 to [`MAX_SIZE`].
fn table_size(text: &str) -> Result<usize, String> {
    let shown = text.escape_default();
    let n = number(text).ok_or_else(|| {
        format!("--size must be a decimal number of table entries, not '{shown}'.")
    })?;
    if n > MAX_SIZE as u64 {
        return Err(format!(
            "--size {shown}: a table has at most {MAX_SIZE} entries."
        ));
    }
    if !super::is_prime(n) {
        return Err(format!(
            "--size {shown}: the table size must be prime (then every skip reaches every entry)."
        ));
    }
    Ok(n as usize)
}

/// `--backend NAME:OFFSET:SKIP`, read from the right so the name may hold
/// colons. The name is non-empty with no whitespace (it is printed between
/// spaces); the offset is any u64; the skip is 1 to M−1.
fn backend(text: &str, size: usize) -> Result<Backend, String> {
    let shown = text.escape_default();
    let malformed = || format!("--backend '{shown}' is not NAME:OFFSET:SKIP.");
    let mut parts = text.rsplitn(3, ':');
    let (Some(skip), Some(offset), Some(name)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(malformed());
    };
    if name.is_empty() || name.chars().any(char::is_whitespace) {
        return Err(format!(
            "--backend '{shown}': the name must be non-empty, without whitespace."
        ));
    }
    let offset = number(offset).ok_or_else(|| {
        format!("--backend '{shown}': the offset must be a decimal number from 0 to 2^64-1.")
    })?;
    let max_skip = size as u64 - 1;
    let skip = number(skip)
        .filter(|s| (1..=max_skip).contains(s))
        .ok_or_else(|| {
            format!("--backend '{shown}': the skip must be from 1 to {max_skip} (M - 1).")
        })?;
    Ok(Backend::new(name, offset, skip))
}

/// Two backends with one name could not be told apart in the output.
fn no_duplicates(backends: &[Backend]) -> Result<(), String> {
    for (i, b) in backends.iter().enumerate() {
        if backends[..i].iter().any(|a| a.name == b.name) {
            return Err(format!(
                "--backend: the name '{}' is given twice.",
                b.name.escape_default()
            ));
        }
    }
    Ok(())
}

/// Refuses a table that could take more than [`MAX_WORK`] steps to fill.
fn within_work(size: usize, n: usize) -> Result<(), String> {
    let work = size as u128 * n as u128;
    if work > u128::from(MAX_WORK) {
        return Err(format!(
            "--backend: {n} backends on {size} entries could take {work} steps; this example does at most {MAX_WORK}."
        ));
    }
    Ok(())
}

/// The index of the backend `--remove` names; the last one cannot go, as a
/// table needs an owner for every entry.
fn removable(name: &str, backends: &[Backend]) -> Result<usize, String> {
    let shown = name.escape_default();
    let i = backends
        .iter()
        .position(|b| b.name == name)
        .ok_or_else(|| format!("--remove {shown}: no backend has that name."))?;
    if backends.len() == 1 {
        return Err(format!(
            "--remove {shown}: it is the only backend, and a table needs at least one."
        ));
    }
    Ok(i)
}

/// `label` and the owner of each entry, by name, on one line.
fn line(label: &str, table: &[usize], backends: &[Backend]) -> String {
    let mut out = String::from(label);
    for &owner in table {
        out.push(' ');
        out.push_str(&backends[owner].name);
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(line: &str) -> Result<String, String> {
        let args: Vec<String> = line.split_whitespace().map(String::from).collect();
        maglev_command(&args)
    }

    /// The paper's worked example, as the issue gives it.
    const PAPER: &str = "--size 7 --backend B0:3:4 --backend B1:0:2 --backend B2:3:1";

    #[test]
    fn the_papers_table() {
        assert_eq!(run(PAPER).unwrap(), "table B1 B0 B1 B0 B2 B2 B0\n");
    }

    #[test]
    fn removing_b1_prints_the_rebuilt_table_and_what_moved() {
        assert_eq!(
            run(&format!("{PAPER} --remove B1")).unwrap(),
            "table B1 B0 B1 B0 B2 B2 B0\nafter B0 B0 B0 B0 B2 B2 B2\nmoved 3\n"
        );
    }

    /// Order is input: the same backends listed the other way round take
    /// their turns the other way round.
    #[test]
    fn the_order_given_is_the_order_of_turns() {
        let out = run("--size 7 --backend B2:3:1 --backend B1:0:2 --backend B0:3:4").unwrap();
        // Round 1: B2 claims 3, B1 claims 0, B0 passes both and claims 4.
        // Round 2: B2 passes 4 and claims 5, B1 claims 2, B0 passes 0 and
        // claims 1. Round 3: B2 claims 6, the last.
        assert_eq!(out, "table B1 B0 B1 B2 B0 B2 B2\n");
    }

    #[test]
    fn names_may_hold_colons_and_offsets_any_u64() {
        let out = run("--size=7 --backend=a:b:18446744073709551615:6 --backend c::0:1").unwrap();
        assert!(out.starts_with("table ") && out.contains("a:b") && out.contains("c:"));
        assert_eq!(out.split_whitespace().count(), 8);
    }

    /// The paper's table sizes are accepted.
    #[test]
    fn the_papers_table_sizes() {
        for size in ["65537", "655373"] {
            let out = run(&format!("--size {size} --backend x:1:2 --backend y:5:3")).unwrap();
            assert_eq!(out.split(' ').count(), 1 + size.parse::<usize>().unwrap());
        }
    }

    #[test]
    fn bad_input_is_refused_naming_the_argument() {
        for (line, reason) in [
            ("--size 8 --backend a:0:1", "--size 8"),
            ("--size 1 --backend a:0:1", "prime"),
            ("--size 0x7 --backend a:0:1", "--size must be"),
            ("--size 16777259 --backend a:0:1", "at most 16777216"),
            ("--size 7 --backend a:0:0", "skip must be from 1 to 6"),
            ("--size 7 --backend a:0:7", "--backend 'a:0:7'"),
            ("--size 7 --backend a:0:-1", "skip"),
            ("--size 7 --backend a:x:1", "offset"),
            ("--size 7 --backend a:18446744073709551616:1", "offset"),
            ("--size 7 --backend a:1", "not NAME:OFFSET:SKIP"),
            ("--size 7 --backend :1:1", "name must be non-empty"),
            (
                "--size 7 --backend a:1:1 --backend a:2:2",
                "'a' is given twice",
            ),
            ("--size 7", "--backend"),
            ("--backend a:1:1", "--size is required"),
            (
                "--size 7 --backend a:1:1 --weight 2",
                "unknown option '--weight'",
            ),
            ("--size 7 --backend a:1:1 --remove b", "--remove b"),
            ("--size 7 --backend a:1:1 --remove a", "only backend"),
            ("--size 7 --size 7 --backend a:1:1", "given twice"),
        ] {
            let err = run(line).unwrap_err();
            assert!(err.contains(reason), "{line}: {err}");
        }
        let tab = maglev_command(&[
            "--size".into(),
            "7".into(),
            "--backend".into(),
            "a\tb:1:1".into(),
        ]);
        assert!(tab.unwrap_err().contains("without whitespace"));
    }

    #[test]
    fn too_much_work_is_refused_before_any_is_done() {
        // 16777213 is prime: 257 backends on it is over 2^32 steps.
        assert!(super::super::is_prime(16_777_213));
        let mut args: Vec<String> = vec!["--size".into(), "16777213".into()];
        for i in 0..257 {
            args.push("--backend".into());
            args.push(format!("b{i}:0:1"));
        }
        let err = maglev_command(&args).unwrap_err();
        assert!(err.contains("at most 4294967296"), "{err}");
    }
}
