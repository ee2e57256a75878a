//! The `cachesim` example's command line and exact output, kept in the
//! library so that unit tests pin the text other simulators are compared
//! against (issue 9: `L1 hits=H misses=M wb=W` per level, and with
//! `--each` first one line per access naming the level that served it).

use super::hierarchy::{AccessKind, Hierarchy};
use std::io::{self, Write};

pub const USAGE: &str = "usage: cachesim CONFIG TRACE [--each] [--detail]";

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command<'a> {
    Help,
    Run {
        config: &'a str,
        trace: &'a str,
        each: bool,
        detail: bool,
    },
}

/// Reads the arguments: two paths and the switches. An unknown `--option`
/// is refused rather than ignored (or taken for a file name), so a typo
/// such as `--eachh` cannot silently change what is printed.
pub fn parse_args(args: &[String]) -> Result<Command<'_>, String> {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        return Ok(Command::Help);
    }
    let (mut each, mut detail, mut files) = (false, false, Vec::new());
    for arg in args {
        match arg.as_str() {
            "--each" => each = true,
            "--detail" => detail = true,
            flag if flag.starts_with("--") => {
                return Err(format!(
                    "unknown option {} (see --help)",
                    flag.escape_default()
                ))
            }
            file => files.push(file),
        }
    }
    match files[..] {
        [config, trace] => Ok(Command::Run {
            config,
            trace,
            each,
            detail,
        }),
        _ => Err(format!("{USAGE} (see --help)")),
    }
}

/// Runs `trace` through `h` and writes what the example prints: with
/// `each`, one line per access naming who served it (`L1`, `L2`, …, `MEM`);
/// then [`Hierarchy::summary`], one line per level; with `detail`,
/// [`Hierarchy::detail`].
pub fn write_report(
    h: &mut Hierarchy,
    trace: &[(AccessKind, u64)],
    each: bool,
    detail: bool,
    out: &mut impl Write,
) -> io::Result<()> {
    for &(kind, addr) in trace {
        let report = h.access(addr, kind);
        if each {
            writeln!(out, "{}", h.name(report.served))?;
        }
    }
    for line in h.summary() {
        writeln!(out, "{line}")?;
    }
    if detail {
        for line in h.detail() {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::cachesim::parse::{parse_config, parse_trace};

    /// L1: 2 sets × 1 way of 16-byte lines (direct-mapped, set = line mod
    /// 2); L2: 1 set × 2 ways (fully associative), LRU.
    const CONFIG: &str = "\
level L1 sets=2 ways=1 line=16 policy=lru latency=1
level L2 sets=1 ways=2 line=16 policy=lru latency=10
memory latency=100
";

    /// Lines: A = 0x00 (L1 set 0), B = 0x10 (set 1), C = 0x20 (set 0),
    /// E = 0x40 (set 0). By hand, L1 then L2 (contents after the access;
    /// `*` dirty; L2 listed least recently used first):
    /// 1. L A: L1 miss, L2 miss, MEM. L2 {A}, L1 set 0 A.
    /// 2. S C: L1 miss, L2 miss, MEM. L2 {A C}; L1 evicts A (clean), C*.
    /// 3. L A: L1 miss, L2 hit: L2. L2 {C A}; L1 evicts C*, written back to
    ///    L2, where C turns dirty and keeps its LRU place (L1 wb 1).
    /// 4. L B: L1 miss (set 1), L2 miss, MEM. L2 evicts C* to memory (L2
    ///    wb 1): {A B}; L1 set 1 B.
    /// 5. S E: L1 miss, L2 miss, MEM. L2 evicts A: {B E}; L1 evicts A, E*.
    /// 6. L C: L1 miss, L2 miss, MEM. L2 evicts B: {E C}; L1 evicts E*,
    ///    written back to L2 where E turns dirty in place (L1 wb 2).
    /// 7. L A: L1 miss, L2 miss, MEM. L2 evicts E* to memory (L2 wb 2):
    ///    {C A}; L1 evicts C (clean), A.
    /// 8. L 0x08 (A): L1 hit. 9. S 0x0c (A): L1 hit, A* stays in L1.
    ///
    /// L1: 2 hits, 7 misses, 2 write-backs; L2: 1 hit, 6 misses, 2.
    const TRACE: &str = "L 0x00\nS 0x20\nL 0x04\nL 0x10\nS 0x40\nL 0x20\nL 0x00\nL 8\nS 0xc\n";

    fn output(each: bool, detail: bool) -> String {
        let config = parse_config(CONFIG).unwrap();
        let trace = parse_trace(TRACE).unwrap();
        let mut h = Hierarchy::new(config.levels, config.memory_latency).unwrap();
        let mut out = Vec::new();
        write_report(&mut h, &trace, each, detail, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_level_lines_are_exact() {
        assert_eq!(
            output(false, false),
            "L1 hits=2 misses=7 wb=2\nL2 hits=1 misses=6 wb=2\n"
        );
    }

    /// `--each`: who served accesses 1–9, from the walk-through above.
    #[test]
    fn each_names_who_served_every_access_first() {
        assert_eq!(
            output(true, false),
            "MEM\nMEM\nL2\nMEM\nMEM\nMEM\nMEM\nL1\nL1\nL1 hits=2 misses=7 wb=2\nL2 hits=1 misses=6 wb=2\n"
        );
    }

    /// `--detail`, by hand. The 3Cs compare with a fully associative LRU
    /// cache of the level's two lines fed the same demand stream.
    /// - L1 stream A C A B E C A A A: A, C, B, E compulsory; A (3) was still
    ///   in the shadow {A C}: conflict; C (6) and A (7) had left the shadow
    ///   ({B E}, then {E C}): capacity. Evictions at 2, 3, 5, 6, 7.
    /// - L2 stream (L1's misses) A C A B E C A: A, C, B, E compulsory; C and
    ///   A capacity, as above; fully associative, so no conflict. Evictions
    ///   at 4, 5, 6, 7; write-backs received: C (3) and E (6).
    /// - Memory: reads at 1, 2, 4, 5, 6, 7; writes of C and E.
    /// - Cycles: six accesses to memory at 1 + 10 + 100, one L2 hit at
    ///   1 + 10, two L1 hits at 1: 666 + 11 + 2 = 679.
    #[test]
    fn detail_adds_the_3cs_memory_traffic_and_cycles() {
        assert_eq!(
            output(false, true),
            "L1 hits=2 misses=7 wb=2\n\
             L2 hits=1 misses=6 wb=2\n\
             L1 compulsory=4 capacity=2 conflict=1 evictions=5 wb_in=0\n\
             L2 compulsory=4 capacity=2 conflict=0 evictions=4 wb_in=2\n\
             MEM reads=6 writes=2\n\
             accesses=9 cycles=679\n"
        );
    }

    #[test]
    fn arguments_are_read_and_unknown_options_refused() {
        let args = |s: &str| -> Vec<String> { s.split_whitespace().map(String::from).collect() };
        let a = args("c.txt t.txt --each");
        assert_eq!(
            parse_args(&a),
            Ok(Command::Run {
                config: "c.txt",
                trace: "t.txt",
                each: true,
                detail: false
            })
        );
        assert_eq!(parse_args(&args("c t --help")), Ok(Command::Help));
        for bad in ["c t --eachh", "c t --each=1", "--verbose c t", "c t --"] {
            let err = parse_args(&args(bad)).unwrap_err();
            assert!(err.contains("unknown option"), "{bad}: {err}");
        }
        for bad in ["c", "c t u", ""] {
            let err = parse_args(&args(bad)).unwrap_err();
            assert!(err.starts_with(USAGE), "{bad}: {err}");
        }
    }
}
