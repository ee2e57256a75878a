//! Runs a memory trace through a cache hierarchy and prints what each level
//! did, for checking the simulator against other cache simulators.
//!
//! `cargo run -q --release -p demos --example cachesim -- CONFIG TRACE [--each] [--detail]`
//! (`--help` prints the formats and the exact semantics). An unknown
//! `--option` exits with status 2. The arguments and the output are
//! `demos::cpu::cachesim::cli`, whose unit tests pin the exact text.

use demos::cpu::cachesim::cli::{parse_args, write_report, Command};
use demos::cpu::cachesim::parse::{parse_config, parse_trace, ParseError};
use demos::cpu::cachesim::Hierarchy;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

const HELP: &str = "\
usage: cachesim CONFIG TRACE [--each] [--detail]

Prints one line per cache level, innermost first:
  L1 hits=H misses=M wb=W
H and M count the demand accesses the level received (from the CPU for the
first level; the misses of the level above otherwise); W counts the dirty lines
it wrote back to the next level (or to memory, from the last level).
  --each    first print one line per access: the level that served it
            (its name, or MEM when every level missed)
  --detail  after the level lines, print per level the misses split into
            compulsory/capacity/conflict, evictions and write-backs received;
            then memory reads and writes, and the total cycles

CONFIG, one line per level, innermost first ('#' comments, blank lines ok):
  level L1 sets=64 ways=8 line=64 policy=lru latency=5
  level L2 sets=2048 ways=16 line=64 policy=plru latency=11
  memory latency=200
sets and line are powers of two; ways >= 1; policy is lru, fifo, plru (tree
pseudo-LRU, power-of-two ways) or random; these four are required. Optional:
latency=N (cycles the level's lookup adds, default 0), seed=N (the random
policy's seed, default 0), fill=miss|victim (default miss; see Victim levels
below), and one 'memory latency=N' line (default 0). Line sizes may not
shrink going outward. Numbers are decimal or 0x hex.

TRACE, one access per line: 'L 0x1f40' (load) or 'S 4096' (store), a byte
address in 0x hex or decimal.

Semantics:
- Lookup: the levels are looked up in order until one holds the line; each
  level consulted counts a hit or a miss. A hit updates LRU/PLRU state; FIFO
  and random ignore hits. A store hit sets the dirty bit in the first level.
- Fill (write-back, write-allocate, non-inclusive): the line is put into every
  level that missed, outermost first; dirty in the first level for a store,
  clean elsewhere. A new line takes the lowest-numbered empty way; only a full
  set evicts, by its policy (random: the level's SplitMix64 generator, one draw
  per eviction). No back-invalidation; no victim level unless fill=victim.
- Write-back: a fill that evicts a dirty line writes it to the next level at
  once, before the next fill. That is not a demand access: the next level
  counts neither a hit nor a miss. If the line is there it becomes dirty and
  keeps its place in the replacement order; if not it is allocated there dirty,
  which may evict and write back further out. The last level writes to memory.
- Cycles: an access costs the latencies of every level it looked up, plus the
  memory latency if memory served it; write-backs add nothing.
- Misses: compulsory = first access to the line in this level's demand stream;
  capacity = a fully associative LRU cache of the same number of lines, fed the
  same stream, misses too; conflict = the rest. Each miss is classified as it
  happens (not by subtracting three caches' miss totals), so the three counts
  are never negative and add up to the misses.
- Victim levels (opt-in, fill=victim, never the first level): the fill skips
  such a level; every line the level just inside it evicts, clean or dirty,
  is put into it instead (dirty ones as write-backs, clean ones counted as
  victims_in on its --detail line). A hit there fills the inner levels and
  leaves the line in place. Without fill=victim nothing above changes.

Bad input exits with status 2 and names the file, line and reason; so does
an unknown --option.
";

fn fail(message: String) -> ExitCode {
    eprintln!("cachesim: {message}");
    ExitCode::from(2)
}

fn read(path: &str) -> Result<String, String> {
    std::fs::read(path)
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .map_err(|e| format!("{path}: cannot read: {e}"))
}

fn located(path: &str, e: ParseError) -> String {
    format!("{path}:{}: {}", e.line, e.reason)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (config_path, trace_path, each, detail) = match parse_args(&args) {
        Ok(Command::Help) => {
            print!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Ok(Command::Run {
            config,
            trace,
            each,
            detail,
        }) => (config, trace, each, detail),
        Err(e) => return fail(e),
    };
    let config = match read(config_path)
        .and_then(|t| parse_config(&t).map_err(|e| located(config_path, e)))
    {
        Ok(c) => c,
        Err(e) => return fail(e),
    };
    let trace =
        match read(trace_path).and_then(|t| parse_trace(&t).map_err(|e| located(trace_path, e))) {
            Ok(t) => t,
            Err(e) => return fail(e),
        };
    let mut hierarchy = match Hierarchy::new(config.levels, config.memory_latency) {
        Ok(h) => h,
        Err(e) => return fail(format!("{config_path}: {e}")),
    };
    let mut out = BufWriter::new(io::stdout().lock());
    // A closed pipe (e.g. `| head`) ends the output quietly.
    let _ = write_report(&mut hierarchy, &trace, each, detail, &mut out).and_then(|_| out.flush());
    ExitCode::SUCCESS
}
