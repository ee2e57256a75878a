//! What the simulator guarantees whatever the trace (see the semantics in
//! `mod.rs`): one home for the checks that every model on it (`check` of the
//! cache demos) and the property tests run.

use super::Hierarchy;
use std::collections::BTreeSet;

impl Hierarchy {
    /// L1 sees every access once and each level beyond it what the one
    /// inside missed; each level's misses are its three Cs; no level holds
    /// more lines than it has, or a line outside its set or twice; memory
    /// sees the last level's misses and write-backs.
    pub fn check(&self) -> Result<(), String> {
        if self.levels[0].stats.accesses() != self.accesses {
            return Err("L1 did not see every access exactly once".into());
        }
        for pair in self.levels.windows(2) {
            if pair[1].stats.accesses() != pair[0].stats.misses {
                return Err(format!(
                    "{} saw a different number of accesses than {} missed",
                    pair[1].spec.name, pair[0].spec.name
                ));
            }
        }
        for level in &self.levels {
            let s = &level.stats;
            if s.compulsory + s.capacity + s.conflict != s.misses {
                return Err(format!(
                    "{}'s three Cs do not add up to its misses",
                    level.spec.name
                ));
            }
            if level.occupancy() > level.spec.lines() {
                return Err(format!("{} holds more lines than it has", level.spec.name));
            }
            for (&set, s) in &level.sets {
                let mut bases = BTreeSet::new();
                for block in s.ways.iter().flatten() {
                    if level.spec.split(block.base).set != set
                        || level.spec.base_of(block.base) != block.base
                    {
                        return Err(format!(
                            "{} holds {:#x} in set {set}",
                            level.spec.name, block.base
                        ));
                    }
                    if !bases.insert(block.base) {
                        return Err(format!("{} holds {:#x} twice", level.spec.name, block.base));
                    }
                }
            }
        }
        let last = &self.levels[self.levels.len() - 1].stats;
        if (self.memory.reads, self.memory.writes) != (last.misses, last.writebacks) {
            return Err(
                "DRAM traffic does not match the last level's misses and write-backs".into(),
            );
        }
        Ok(())
    }
}
