//! Every final state the operational machine can reach, by exhaustive
//! search over the scheduler's choices: which thread runs next and, under
//! TSO, which buffer drains. The property tests check that this set equals
//! the axiomatic model's allowed outcomes, so a learner scheduling by hand can
//! reach every allowed outcome and never a forbidden one.

use super::machine::Machine;
use crate::memory::litmus::{MemModel, Test};
use std::collections::{BTreeSet, HashSet};

/// An outcome key: every register, then the condition's locations.
pub type Outcome = (Vec<u8>, Vec<u8>);

/// The outcomes reachable under `model` (SC or TSO).
pub fn reachable(test: &Test, model: MemModel, mem_locs: &[u8]) -> BTreeSet<Outcome> {
    let mut out = BTreeSet::new();
    let start = Machine::new(test);
    let mut seen: HashSet<Machine> = HashSet::new();
    seen.insert(start.clone());
    let mut stack = vec![start];
    while let Some(m) = stack.pop() {
        if m.finished(test) {
            out.insert(m.outcome(mem_locs));
            continue;
        }
        for t in 0..test.threads.len() {
            let mut ran = m.clone();
            if ran.run(test, t, model).is_some() && seen.insert(ran.clone()) {
                stack.push(ran);
            }
            let mut drained = m.clone();
            if drained.drain(t).is_some() && seen.insert(drained.clone()) {
                stack.push(drained);
            }
        }
    }
    out
}
