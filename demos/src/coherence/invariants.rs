//! The two coherence invariants (Sorin, Hill & Wood §2.3, "Consistency-agnostic
//! coherence"): single writer / multiple readers, and data value.

use super::core_name;
use super::protocol::State;
use super::system::System;

impl System {
    /// Single writer, multiple readers, per line: at most one core in M or E,
    /// and then every other core in I; at most one O (which may coexist with S).
    /// Also rejects states the protocol does not have.
    pub fn swmr(&self) -> Result<(), String> {
        for (l, line) in self.lines.iter().enumerate() {
            let holders = |pick: fn(State) -> bool| -> Vec<usize> {
                (0..line.states.len())
                    .filter(|&c| pick(line.states[c]))
                    .collect()
            };
            let exclusive = holders(State::is_exclusive);
            let valid = holders(State::is_valid);
            let owners = holders(|s| s == State::O);
            if exclusive.len() > 1 || owners.len() > 1 {
                let cores = if exclusive.len() > 1 {
                    exclusive
                } else {
                    owners
                };
                return Err(format!(
                    "Cores {} each hold line {l} with write rights: the single-writer rule is broken.",
                    names(&cores)
                ));
            }
            if exclusive.len() == 1 && valid.len() > 1 {
                return Err(format!(
                    "Core {} holds line {l} in {} while {} still hold{} a copy: the single-writer rule is broken.",
                    core_name(exclusive[0]),
                    line.states[exclusive[0]].letter(),
                    others_named(&valid, exclusive[0]),
                    if valid.len() == 2 { "s" } else { "" }
                ));
            }
            let illegal = line.states.iter().find(|s| {
                (**s == State::E && !self.protocol.has_exclusive())
                    || (**s == State::O && !self.protocol.has_owned())
            });
            if let Some(s) = illegal {
                return Err(format!(
                    "Line {l} is in {}, a state {} does not have.",
                    s.letter(),
                    self.protocol.label()
                ));
            }
        }
        Ok(())
    }

    /// Data value: every valid copy holds the last value written, and memory
    /// does too whenever no cache holds the line dirty.
    pub fn data_value(&self) -> Result<(), String> {
        for (l, line) in self.lines.iter().enumerate() {
            for (c, state) in line.states.iter().enumerate() {
                if state.is_valid() && line.values[c] != line.latest {
                    return Err(format!(
                        "Core {}'s copy of line {l} holds {}, but the last write stored {}.",
                        core_name(c),
                        line.values[c],
                        line.latest
                    ));
                }
            }
            if !line.states.iter().any(|s| s.is_dirty()) && !line.memory_fresh() {
                return Err(format!(
                    "No cache holds line {l} dirty, yet memory holds {} instead of {}.",
                    line.memory, line.latest
                ));
            }
        }
        Ok(())
    }
}

/// "core B" or "cores B and C": everyone in `cores` but `except`.
fn others_named(cores: &[usize], except: usize) -> String {
    let rest: Vec<usize> = cores.iter().copied().filter(|&c| c != except).collect();
    let noun = if rest.len() == 1 { "core" } else { "cores" };
    format!("{noun} {}", names(&rest))
}

/// `[0, 1, 2]` → `"A, B and C"`.
fn names(cores: &[usize]) -> String {
    let mut out = String::new();
    for (i, &c) in cores.iter().enumerate() {
        if i > 0 {
            out.push_str(if i + 1 == cores.len() { " and " } else { ", " });
        }
        out.push(core_name(c));
    }
    out
}
