//! The text formats of the `cachesim` example. Pure functions over hostile
//! text: any input gives a value or an error naming the line, never a panic.
//!
//! Configuration, one directive per line, levels innermost first; `#` starts
//! a comment; blank lines are ignored:
//! ```text
//! level L1 sets=64 ways=8 line=64 policy=lru latency=5
//! level L2 sets=1024 ways=16 line=64 policy=plru latency=11
//! memory latency=200
//! ```
//! `sets`, `ways`, `line` and `policy` (`lru`, `fifo`, `plru`, `random`) are
//! required. Optional: `latency=` (cycles the lookup adds, default 0),
//! `seed=` (the random policy's seed, default 0) and `fill=` (`miss`, the
//! default, or `victim`: filled only by the inner level's evictions, see the
//! module doc of `cachesim`). `memory latency=N` (at most
//! once, default 0) sets the cycles memory adds. Numbers are decimal or `0x`
//! hex.
//!
//! Trace, one access per line: `L 0x1f40` (load) or `S 4096` (store); the
//! address is a byte address, hex with `0x` or decimal. `#` comments and
//! blank lines are ignored here too.

use super::hierarchy::AccessKind;
use super::spec::{check_levels, Allocation, LevelSpec, Policy};
use std::fmt;

/// Largest latency accepted, in cycles.
pub const MAX_LATENCY: u64 = 1_000_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    pub reason: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub levels: Vec<LevelSpec>,
    pub memory_latency: u32,
}

/// The line without its comment and surrounding blanks, with its number.
fn meaningful(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter_map(|(i, raw)| {
        let body = raw.split('#').next().unwrap_or("").trim();
        (!body.is_empty()).then_some((i + 1, body))
    })
}

/// A decimal or `0x`-hex number.
pub fn parse_number(text: &str) -> Result<u64, String> {
    let (digits, radix) = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => (hex, 16),
        None => (text, 10),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(format!("'{text}' is not a number (use decimal or 0x hex)"));
    }
    u64::from_str_radix(digits, radix).map_err(|_| format!("{text} does not fit in 64 bits"))
}

fn parse_level(words: &[&str]) -> Result<LevelSpec, String> {
    let name = words
        .first()
        .filter(|w| !w.contains('='))
        .ok_or("a level needs a name after 'level', e.g. 'level L1 …'")?;
    let (mut sets, mut ways, mut line, mut policy) = (None, None, None, None);
    let (mut latency, mut seed, mut allocation) = (None, None, None);
    for word in &words[1..] {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| format!("expected key=value, found '{word}'"))?;
        let slot = match key {
            "sets" => &mut sets,
            "ways" => &mut ways,
            "line" => &mut line,
            "latency" => &mut latency,
            "seed" => &mut seed,
            "policy" => {
                if policy.is_some() {
                    return Err("policy is given twice".into());
                }
                policy = Some(Policy::from_key(value).ok_or_else(|| {
                    format!("unknown policy '{value}' (use lru, fifo, plru or random)")
                })?);
                continue;
            }
            "fill" => {
                if allocation.is_some() {
                    return Err("fill is given twice".into());
                }
                allocation = Some(
                    Allocation::from_key(value)
                        .ok_or_else(|| format!("unknown fill '{value}' (use miss or victim)"))?,
                );
                continue;
            }
            _ => {
                return Err(format!(
                    "unknown key '{key}' (use sets, ways, line, policy, latency, seed, fill)"
                ))
            }
        };
        if slot.is_some() {
            return Err(format!("{key} is given twice"));
        }
        *slot = Some(parse_number(value)?);
    }
    let need = |v: Option<u64>, key: &str| v.ok_or_else(|| format!("{name} needs {key}="));
    let (sets, ways, line) = (
        need(sets, "sets")?,
        need(ways, "ways")?,
        need(line, "line")?,
    );
    let policy = policy.ok_or_else(|| format!("{name} needs policy="))?;
    let latency = latency.unwrap_or(0);
    if latency > MAX_LATENCY {
        return Err(format!("latency is at most {MAX_LATENCY} cycles"));
    }
    let ways = usize::try_from(ways).unwrap_or(usize::MAX);
    let spec = LevelSpec::new(name, sets, ways, line, policy)
        .with_latency(latency as u32)
        .with_seed(seed.unwrap_or(0))
        .with_allocation(allocation.unwrap_or_default());
    spec.check()?;
    Ok(spec)
}

fn parse_memory(words: &[&str]) -> Result<u32, String> {
    match words {
        [word] => {
            let value = word
                .strip_prefix("latency=")
                .ok_or_else(|| format!("expected latency=N after 'memory', found '{word}'"))?;
            let cycles = parse_number(value)?;
            if cycles > MAX_LATENCY {
                return Err(format!("latency is at most {MAX_LATENCY} cycles"));
            }
            Ok(cycles as u32)
        }
        _ => Err("write the memory line as 'memory latency=N'".into()),
    }
}

pub fn parse_config(text: &str) -> Result<Config, ParseError> {
    let mut levels: Vec<LevelSpec> = Vec::new();
    let mut memory_latency = None;
    for (line, body) in meaningful(text) {
        let at = |reason: String| ParseError { line, reason };
        let words: Vec<&str> = body.split_whitespace().collect();
        match words[0] {
            "level" => {
                levels.push(parse_level(&words[1..]).map_err(at)?);
                check_levels(&levels).map_err(at)?;
            }
            "memory" => {
                if memory_latency.is_some() {
                    return Err(at("the memory line is given twice".into()));
                }
                memory_latency = Some(parse_memory(&words[1..]).map_err(at)?);
            }
            other => {
                return Err(at(format!(
                    "unknown directive '{other}' (expected 'level' or 'memory')"
                )))
            }
        }
    }
    if levels.is_empty() {
        return Err(ParseError {
            line: text.lines().count().max(1),
            reason: "no cache level: add a line like 'level L1 sets=64 ways=8 line=64 policy=lru'"
                .into(),
        });
    }
    Ok(Config {
        levels,
        memory_latency: memory_latency.unwrap_or(0),
    })
}

pub fn parse_trace(text: &str) -> Result<Vec<(AccessKind, u64)>, ParseError> {
    meaningful(text)
        .map(|(line, body)| {
            let at = |reason: String| ParseError { line, reason };
            let mut words = body.split_whitespace();
            let kind = match words.next() {
                Some("L" | "l") => AccessKind::Load,
                Some("S" | "s") => AccessKind::Store,
                Some(other) => {
                    return Err(at(format!(
                        "unknown access '{other}' (use L for a load, S for a store)"
                    )))
                }
                None => return Err(at("empty access".into())),
            };
            let addr = words
                .next()
                .ok_or_else(|| at("missing address after the access type".into()))?;
            let addr = parse_number(addr).map_err(at)?;
            if let Some(extra) = words.next() {
                return Err(at(format!("unexpected '{extra}' after the address")));
            }
            Ok((kind, addr))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_issue_example_parses() {
        let c = parse_config("# two levels\n\nlevel L1 sets=64 ways=8 line=64 policy=lru\nlevel L2 sets=512 ways=16 line=64 policy=plru latency=12 # c\nmemory latency=0x64\n").unwrap();
        assert_eq!(c.levels.len(), 2);
        assert_eq!(c.levels[0], LevelSpec::new("L1", 64, 8, 64, Policy::Lru));
        assert_eq!(c.levels[1].latency, 12);
        assert_eq!(c.memory_latency, 100);
        let t = parse_trace("L 0x1f40\nS 4096\n  # nothing\n").unwrap();
        assert_eq!(
            t,
            vec![(AccessKind::Load, 0x1f40), (AccessKind::Store, 4096)]
        );
    }

    #[test]
    fn fill_victim_is_opt_in_and_never_the_first_level() {
        let text = "level L1 sets=2 ways=1 line=16 policy=lru\nlevel L2 sets=1 ways=4 line=16 policy=lru fill=victim\n";
        let c = parse_config(text).unwrap();
        assert_eq!(c.levels[0].allocation, Allocation::OnMiss);
        assert_eq!(c.levels[1].allocation, Allocation::Victims);
        let first = parse_config("level L1 sets=2 ways=1 line=16 policy=lru fill=victim\n");
        assert!(first
            .unwrap_err()
            .reason
            .contains("cannot be the first level"));
        let odd = parse_config("level L1 sets=2 ways=1 line=16 policy=lru fill=inclusive\n");
        assert_eq!(
            odd.unwrap_err().reason,
            "unknown fill 'inclusive' (use miss or victim)"
        );
    }

    #[test]
    fn errors_name_the_line_and_the_reason() {
        let bad = |text: &str| parse_config(text).unwrap_err();
        assert_eq!(bad("\nlevel L1 sets=3 ways=1 line=64 policy=lru").line, 2);
        assert!(bad("level L1 sets=4 ways=3 line=64 policy=plru")
            .reason
            .contains("power-of-two"));
        assert!(bad("level L1 sets=4 ways=1 line=64")
            .reason
            .contains("policy="));
        assert!(bad("level L1 sets=4 ways=1 line=64 policy=mru")
            .reason
            .contains("unknown policy"));
        assert!(bad("level L1 sets=4 sets=4 ways=1 line=64 policy=lru")
            .reason
            .contains("twice"));
        assert!(bad(
            "level L1 sets=4 ways=1 line=64 policy=lru\nlevel L2 sets=4 ways=1 line=32 policy=lru"
        )
        .reason
        .contains("shrink"));
        assert!(bad("cache L1").reason.contains("unknown directive"));
        assert!(bad("# only a comment").reason.contains("no cache level"));
        let t = parse_trace("L 1\nX 2").unwrap_err();
        assert_eq!(t.line, 2);
        assert!(parse_trace("L 0x1g").is_err());
        assert!(parse_trace("L 0x10000000000000000").is_err());
        assert!(parse_trace("L").is_err());
        assert!(parse_trace("L 1 2").is_err());
    }
}
