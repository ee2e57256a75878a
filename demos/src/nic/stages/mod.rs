//! A pipeline of timed stages: the shared engine of the latency demos.
//!
//! A path (a send, a receive) is a fixed list of stages, each with a cost in
//! nanoseconds. Techniques (kernel bypass, busy polling, …) remove some stages
//! from the path or, rarely, add one of their own. The latency of the path is
//! the plain sum of the costs of the stages still on it: the model is serial,
//! with no overlap between stages. One packet can be walked through the active
//! stages with a running clock; any change to the path sends it back to the
//! start, so the clock always belongs to the path on screen.
//!
//! The stage tables (names, costs, which technique removes what, and the
//! sources) live with each demo; this module knows only the mechanics:
//! [`actions`] the learner's moves, [`waterfall`] what the view draws,
//! [`format`] how numbers are written.

mod actions;
#[cfg(test)]
mod tests;
mod waterfall;

pub use waterfall::{Row, RowWalk, Waterfall};

use crate::bound::Bound;
use serde::{Deserialize, Serialize};

/// What a learner may make one stage cost, in nanoseconds.
pub const COST: Bound<u32> = Bound::new("stage cost", " ns", 0, 10_000);
/// The longest, for the callers that only need the top of [`COST`].
pub const COST_MAX: u32 = COST.max;

/// One stage of a path, as a demo defines it.
#[derive(Debug)]
pub struct StageDef {
    /// Stable key for focus marks and test hooks, e.g. `syscall`.
    pub key: &'static str,
    pub name: &'static str,
    /// The default cost in nanoseconds.
    pub base_ns: u32,
    /// Bit mask of the techniques that take this stage off the path.
    pub removed_by: u8,
    /// Bit mask of techniques of which this stage is a part: non-zero means
    /// the stage is on the path only while one of them is on.
    pub only_with: u8,
    /// Whether the stage is work done by a CPU core (not by the NIC or the bus).
    pub cpu: bool,
}

impl StageDef {
    /// A stage that is on the path unless one of the `removed_by` techniques is on.
    pub const fn new(
        key: &'static str,
        name: &'static str,
        base_ns: u32,
        removed_by: u8,
        cpu: bool,
    ) -> StageDef {
        StageDef {
            key,
            name,
            base_ns,
            removed_by,
            only_with: 0,
            cpu,
        }
    }
}

/// A technique the learner can switch on.
#[derive(Debug)]
pub struct TechDef {
    pub key: &'static str,
    pub name: &'static str,
    /// Bit mask of the techniques this one cannot be used without.
    pub requires: u8,
    /// The sentence that explains the requirement, used when it is enforced.
    pub requires_why: &'static str,
    /// Bit mask of the techniques this one cannot run beside (either way).
    pub excludes: u8,
    /// The sentence that explains the exclusion, used when it is enforced.
    pub excludes_why: &'static str,
}

/// A whole path: its stages, its techniques, and what its ends are called.
#[derive(Debug)]
pub struct Spec {
    pub stages: &'static [StageDef],
    pub techniques: &'static [TechDef],
    /// What starts the walk, e.g. "the app calls send()".
    pub start: &'static str,
    /// What ends it, e.g. "the frame is on the wire".
    pub finish: &'static str,
}

/// Where the walked packet is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Walk {
    /// Not yet started: the clock reads 0.
    Ready,
    /// The packet has just finished this (active) stage.
    After(usize),
}

/// The learner's actions on a path (each demo may add its own).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StageAction {
    /// Move the packet through the next active stage (what Step does).
    Advance,
    /// Put a fresh packet at the start of the path.
    NewPacket,
    /// Change the cost of one stage.
    SetCost { stage: usize, ns: u32 },
    /// Give every stage its default cost again.
    RestoreCosts,
    /// Switch a technique on or off.
    Use { technique: usize, on: bool },
}

/// The state of a path: plain data, so it serialises into share links.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pipeline {
    pub costs: Vec<u32>,
    /// Bit mask of the techniques switched on.
    pub on: u8,
    pub walk: Walk,
}

/// The names of the techniques in `mask`, joined with "and".
fn names(spec: &Spec, mask: u8) -> String {
    joined(spec, mask, "and")
}

/// The names of the techniques in `mask`, joined with `word` ("and", "or").
fn joined(spec: &Spec, mask: u8, word: &str) -> String {
    let list: Vec<&str> = spec
        .techniques
        .iter()
        .enumerate()
        .filter(|(t, _)| mask & (1 << t) != 0)
        .map(|(_, def)| def.name)
        .collect();
    match list.as_slice() {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} {word} {last}", rest.join(", ")),
    }
}

impl Pipeline {
    pub fn new(spec: &Spec) -> Self {
        Pipeline {
            costs: spec.stages.iter().map(|s| s.base_ns).collect(),
            on: 0,
            walk: Walk::Ready,
        }
    }

    pub fn uses(&self, technique: usize) -> bool {
        self.on & (1 << technique) != 0
    }

    /// Whether stage `i` is on the path with the techniques in `on`.
    fn active_with(spec: &Spec, i: usize, on: u8) -> bool {
        let def = &spec.stages[i];
        (def.only_with == 0 || on & def.only_with != 0) && on & def.removed_by == 0
    }

    pub fn is_active(&self, spec: &Spec, i: usize) -> bool {
        Self::active_with(spec, i, self.on)
    }

    pub fn active(&self, spec: &Spec) -> Vec<usize> {
        (0..spec.stages.len())
            .filter(|&i| self.is_active(spec, i))
            .collect()
    }

    /// Sum of the costs of the stages on the path with the techniques in `on`.
    pub fn total_with(&self, spec: &Spec, on: u8) -> u32 {
        (0..spec.stages.len())
            .filter(|&i| Self::active_with(spec, i, on))
            .map(|i| self.costs[i])
            .sum()
    }

    /// The path's latency now.
    pub fn total(&self, spec: &Spec) -> u32 {
        self.total_with(spec, self.on)
    }

    /// How much the techniques now on take off the baseline (negative when a
    /// technique's own stage costs more than what it removes).
    pub fn saving(&self, spec: &Spec) -> i64 {
        i64::from(self.baseline(spec)) - i64::from(self.total(spec))
    }

    /// Current cost of the stages that a technique in `mask` takes away.
    pub fn removable_ns(&self, spec: &Spec, mask: u8) -> u32 {
        spec.stages
            .iter()
            .zip(&self.costs)
            .filter(|(s, _)| s.removed_by & mask != 0)
            .map(|(_, c)| c)
            .sum()
    }

    /// The latency with no technique, at the same stage costs.
    pub fn baseline(&self, spec: &Spec) -> u32 {
        self.total_with(spec, 0)
    }

    /// Sum of the costs of the active stages that are CPU work.
    pub fn cpu_ns_with(&self, spec: &Spec, on: u8) -> u32 {
        (0..spec.stages.len())
            .filter(|&i| spec.stages[i].cpu && Self::active_with(spec, i, on))
            .map(|i| self.costs[i])
            .sum()
    }

    /// The running clock: the time at which the packet finished its stage.
    pub fn clock(&self, spec: &Spec) -> u32 {
        match self.walk {
            Walk::Ready => 0,
            Walk::After(stage) => (0..=stage)
                .filter(|&i| self.is_active(spec, i))
                .map(|i| self.costs[i])
                .sum(),
        }
    }

    /// The next active stage the packet will enter, if any.
    pub fn next_stage(&self, spec: &Spec) -> Option<usize> {
        let from = match self.walk {
            Walk::Ready => 0,
            Walk::After(stage) => stage + 1,
        };
        (from..spec.stages.len()).find(|&i| self.is_active(spec, i))
    }

    /// True once the packet has left the last active stage.
    pub fn walk_done(&self, spec: &Spec) -> bool {
        matches!(self.walk, Walk::After(_)) && self.next_stage(spec).is_none()
    }

    /// Why a stage is off the path, if it is.
    pub fn off_reason(&self, spec: &Spec, i: usize) -> Option<String> {
        let def = &spec.stages[i];
        if def.only_with != 0 && self.on & def.only_with == 0 {
            // Any one of them puts the stage on the path: "or", not "and".
            return Some(format!("only with {}", joined(spec, def.only_with, "or")));
        }
        let removers = self.on & def.removed_by;
        (removers != 0).then(|| format!("removed by {}", names(spec, removers)))
    }

    /// Invariants of any path; `Err` names the first one broken.
    pub fn check(&self, spec: &Spec) -> Result<(), String> {
        if self.costs.len() != spec.stages.len() {
            return Err("one cost per stage".into());
        }
        if self.costs.iter().any(|&c| !COST.contains(c)) {
            return Err("a stage costs more than the maximum".into());
        }
        if u32::from(self.on) >> spec.techniques.len() != 0 {
            return Err("a technique that does not exist is on".into());
        }
        for (t, def) in spec.techniques.iter().enumerate() {
            if self.uses(t) && def.requires & !self.on != 0 {
                return Err(format!("{} is on without what it requires", def.name));
            }
            if self.uses(t) && actions::clashes(spec, t) & self.on != 0 {
                return Err(format!("{} is on beside a technique it excludes", def.name));
            }
        }
        if let Walk::After(stage) = self.walk {
            if stage >= spec.stages.len() || !self.is_active(spec, stage) {
                return Err("the packet sits at a stage that is off the path".into());
            }
        }
        if self.clock(spec) > self.total(spec) {
            return Err("the clock ran past the end of the path".into());
        }
        let removed: u32 = (0..spec.stages.len())
            .filter(|&i| Self::active_with(spec, i, 0) && !self.is_active(spec, i))
            .map(|i| self.costs[i])
            .sum();
        let added: u32 = (0..spec.stages.len())
            .filter(|&i| !Self::active_with(spec, i, 0) && self.is_active(spec, i))
            .map(|i| self.costs[i])
            .sum();
        if i64::from(self.baseline(spec)) - i64::from(removed) + i64::from(added)
            != i64::from(self.total(spec))
        {
            return Err("the total is not the baseline minus removed plus added stages".into());
        }
        Ok(())
    }
}
