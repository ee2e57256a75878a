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
//! sources) live with each demo; this file knows only the mechanics.

use crate::model::{Event, Outcome, Refusal};
use serde::{Deserialize, Serialize};

/// Longest a learner may make one stage, in nanoseconds.
pub const COST_MAX: u32 = 2_000;

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

/// A technique the learner can switch on.
#[derive(Debug)]
pub struct TechDef {
    pub key: &'static str,
    pub name: &'static str,
    /// Bit mask of the techniques this one cannot be used without.
    pub requires: u8,
    /// The sentence that explains the requirement, used when it is enforced.
    pub requires_why: &'static str,
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

/// Where a stage stands relative to the walked packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowWalk {
    Passed,
    Here,
    Ahead,
    OffPath,
}

/// One row of the waterfall, every number computed here for the view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub index: usize,
    pub key: &'static str,
    pub name: &'static str,
    pub cost_ns: u32,
    pub base_ns: u32,
    /// CPU work (true) or NIC / bus work (false).
    pub cpu: bool,
    /// A stage a technique brings with it (not on the plain path).
    pub extra: bool,
    pub active: bool,
    /// Why the stage is off the path, e.g. "removed by kernel bypass".
    pub off_reason: Option<String>,
    /// Start on the current path's clock (for an inactive stage: where it would sit).
    pub start_ns: u32,
    /// Share of the current total, in tenths of a percent.
    pub share_tenths: u32,
    pub walk: RowWalk,
}

/// The waterfall as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waterfall {
    pub rows: Vec<Row>,
    pub total_ns: u32,
    pub baseline_ns: u32,
    /// Width of the time axis: the longer of the baseline and the total.
    pub scale_ns: u32,
    pub clock_ns: u32,
    pub walk_done: bool,
}

/// `1230` → `"1,230 ns"`.
pub fn ns(n: impl Into<i64>) -> String {
    let n: i64 = n.into();
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    let sign = if n < 0 { "−" } else { "" };
    format!("{sign}{out} ns")
}

/// Tenths of a percent as text: `73` → `"7.3 %"`.
pub fn tenths(t: i64) -> String {
    let sign = if t < 0 { "−" } else { "" };
    let t = t.unsigned_abs();
    format!("{sign}{}.{} %", t / 10, t % 10)
}

/// `part / whole` in tenths of a percent, rounded; 0 when `whole` is 0.
pub fn share_tenths(part: i64, whole: i64) -> i64 {
    if whole == 0 {
        return 0;
    }
    let scaled = part * 1000;
    let rounded = (scaled.abs() + whole.abs() / 2) / whole.abs();
    if (scaled < 0) != (whole < 0) {
        -rounded
    } else {
        rounded
    }
}

/// The names of the techniques in `mask`, joined with "and".
fn names(spec: &Spec, mask: u8) -> String {
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
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
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
            return Some(format!("only with {}", names(spec, def.only_with)));
        }
        let removers = self.on & def.removed_by;
        (removers != 0).then(|| format!("removed by {}", names(spec, removers)))
    }

    /// Everything the waterfall view draws.
    pub fn waterfall(&self, spec: &Spec) -> Waterfall {
        let total = self.total(spec);
        let baseline = self.baseline(spec);
        let clock = self.clock(spec);
        let done = self.walk_done(spec);
        let mut start = 0;
        let rows = spec
            .stages
            .iter()
            .enumerate()
            .map(|(i, def)| {
                let active = self.is_active(spec, i);
                let cost = self.costs[i];
                let walk = if !active {
                    RowWalk::OffPath
                } else {
                    match self.walk {
                        Walk::After(at) if i < at => RowWalk::Passed,
                        Walk::After(at) if i == at => RowWalk::Here,
                        _ => RowWalk::Ahead,
                    }
                };
                let row = Row {
                    index: i,
                    key: def.key,
                    name: def.name,
                    cost_ns: cost,
                    base_ns: def.base_ns,
                    cpu: def.cpu,
                    extra: def.only_with != 0,
                    active,
                    off_reason: self.off_reason(spec, i),
                    start_ns: start,
                    share_tenths: if active {
                        share_tenths(cost.into(), total.into()) as u32
                    } else {
                        0
                    },
                    walk,
                };
                if active {
                    start += cost;
                }
                row
            })
            .collect();
        Waterfall {
            rows,
            total_ns: total,
            baseline_ns: baseline,
            scale_ns: total.max(baseline).max(1),
            clock_ns: clock,
            walk_done: done,
        }
    }

    /// What Step does: the next move of the walked packet, or why none.
    pub fn next_auto(&self, spec: &Spec) -> Result<StageAction, Refusal> {
        if self.next_stage(spec).is_some() {
            Ok(StageAction::Advance)
        } else if matches!(self.walk, Walk::Ready) {
            Err(Refusal::new(
                "Every stage is off the path, so there is nothing for the packet to pass through.",
            ))
        } else {
            Err(Refusal::new(format!(
                "This packet is done: {} at t = {}. Send another packet to walk the path again.",
                spec.finish,
                ns(self.clock(spec))
            )))
        }
    }

    pub fn apply(&mut self, spec: &Spec, action: &StageAction) -> Outcome {
        match *action {
            StageAction::Advance => self.advance(spec),
            StageAction::NewPacket => self.new_packet(spec),
            StageAction::SetCost { stage, ns } => self.set_cost(spec, stage, ns),
            StageAction::RestoreCosts => self.restore(spec),
            StageAction::Use { technique, on } => self.set_technique(spec, technique, on),
        }
    }

    fn advance(&mut self, spec: &Spec) -> Outcome {
        let stage = self.next_stage(spec).ok_or_else(|| {
            self.next_auto(spec)
                .err()
                .unwrap_or_else(|| Refusal::new("The packet cannot move."))
        })?;
        let first = matches!(self.walk, Walk::Ready);
        self.walk = Walk::After(stage);
        let def = &spec.stages[stage];
        let clock = self.clock(spec);
        let mut events = Vec::new();
        if first {
            events.push(Event::info(format!(
                "t = 0: {}. The clock starts.",
                capitalised(spec.start)
            )));
        }
        events.push(
            Event::info(format!(
                "t = {}: {} done, {} of this path's {}.",
                ns(clock),
                def.name,
                ns(self.costs[stage]),
                ns(self.total(spec))
            ))
            .at(def.key),
        );
        if self.next_stage(spec).is_none() {
            events.push(
                Event::done(format!("{} after {}.", capitalised(spec.finish), ns(clock)))
                    .at(def.key),
            );
        }
        Ok(events)
    }

    fn new_packet(&mut self, spec: &Spec) -> Outcome {
        if self.walk == Walk::Ready {
            return Err(Refusal::new(
                "A packet is already waiting at the start: press Step to move it.",
            ));
        }
        self.walk = Walk::Ready;
        Ok(vec![Event::info(format!(
            "A fresh packet waits at the start; the clock is back to 0 and the path takes {}.",
            ns(self.total(spec))
        ))])
    }

    /// Sends a packet in flight back to the start after the path changed.
    fn recall(&mut self, events: &mut Vec<Event>) {
        if self.walk != Walk::Ready {
            self.walk = Walk::Ready;
            events.push(Event::info(
                "The path changed under the packet in flight, so it goes back to the start: Step walks the new path.",
            ));
        }
    }

    fn set_cost(&mut self, spec: &Spec, stage: usize, cost: u32) -> Outcome {
        let Some(def) = spec.stages.get(stage) else {
            return Err(Refusal::new(format!(
                "There is no stage {stage}: this path has {}.",
                spec.stages.len()
            )));
        };
        if cost > COST_MAX {
            return Err(Refusal::new(format!(
                "A stage may cost 0 to {}; {} is out of range.",
                ns(COST_MAX),
                ns(cost)
            )));
        }
        let old = self.costs[stage];
        if cost == old {
            return Err(Refusal::new(format!(
                "{} already costs {}.",
                def.name,
                ns(cost)
            )));
        }
        self.costs[stage] = cost;
        let total = self.total(spec);
        let mut events = vec![if self.is_active(spec, stage) {
            Event::info(format!(
                "{} now costs {} instead of {}: the path takes {} ({} of it).",
                def.name,
                ns(cost),
                ns(old),
                ns(total),
                tenths(share_tenths(cost.into(), total.into()))
            ))
            .at(def.key)
        } else {
            Event::info(format!(
                "{} now costs {}, but it is off the path ({}), so the total stays {}.",
                def.name,
                ns(cost),
                self.off_reason(spec, stage).unwrap_or_default(),
                ns(total)
            ))
            .at(def.key)
        }];
        self.recall(&mut events);
        Ok(events)
    }

    fn restore(&mut self, spec: &Spec) -> Outcome {
        let defaults: Vec<u32> = spec.stages.iter().map(|s| s.base_ns).collect();
        if self.costs == defaults {
            return Err(Refusal::new("Every stage already has its default cost."));
        }
        self.costs = defaults;
        let mut events = vec![Event::info(format!(
            "Every stage is back to its default cost: the path takes {}.",
            ns(self.total(spec))
        ))];
        self.recall(&mut events);
        Ok(events)
    }

    fn set_technique(&mut self, spec: &Spec, technique: usize, on: bool) -> Outcome {
        let Some(def) = spec.techniques.get(technique) else {
            return Err(Refusal::new(format!(
                "There is no technique {technique} on this path."
            )));
        };
        if self.uses(technique) == on {
            let state = if on { "on" } else { "off" };
            return Err(Refusal::new(format!("{} is already {state}.", def.name)));
        }
        let before = self.total(spec);
        let mut events = Vec::new();
        let mut next = self.on;
        if on {
            let missing = def.requires & !self.on;
            if missing != 0 {
                events.push(
                    Event::warn(format!(
                        "{} {}, so {} turns on too.",
                        def.name,
                        def.requires_why,
                        names(spec, missing)
                    ))
                    .at(spec.techniques[technique].key),
                );
                next |= missing;
            }
            next |= 1 << technique;
        } else {
            next &= !(1 << technique);
            let dependants: u8 = spec
                .techniques
                .iter()
                .enumerate()
                .filter(|(t, d)| next & (1 << t) != 0 && d.requires & (1 << technique) != 0)
                .fold(0, |mask, (t, _)| mask | (1 << t));
            if dependants != 0 {
                let why = spec
                    .techniques
                    .iter()
                    .enumerate()
                    .find(|(t, _)| dependants & (1 << t) != 0)
                    .map(|(_, d)| d.requires_why)
                    .unwrap_or_default();
                events.push(Event::warn(format!(
                    "{} {}, so turning {} off turns {} off too.",
                    names(spec, dependants),
                    why,
                    def.name,
                    names(spec, dependants)
                )));
                next &= !dependants;
            }
        }
        let old = self.on;
        self.on = next;
        events.push(self.path_change(spec, old, before, def.name, on));
        self.recall(&mut events);
        Ok(events)
    }

    /// Narrates which stages left or joined the path and what the total did.
    fn path_change(&self, spec: &Spec, old: u8, before: u32, name: &str, on: bool) -> Event {
        let mut left = Vec::new();
        let mut joined = Vec::new();
        for (i, def) in spec.stages.iter().enumerate() {
            match (
                Self::active_with(spec, i, old),
                Self::active_with(spec, i, self.on),
            ) {
                (true, false) => left.push(format!("{} ({})", def.name, ns(self.costs[i]))),
                (false, true) => joined.push(format!("{} ({})", def.name, ns(self.costs[i]))),
                _ => {}
            }
        }
        let after = self.total(spec);
        let mut text = format!("{name} {}.", if on { "on" } else { "off" });
        if !left.is_empty() {
            text.push_str(&format!(" Off the path: {}.", left.join("; ")));
        }
        if !joined.is_empty() {
            text.push_str(&format!(" On the path: {}.", joined.join("; ")));
        }
        text.push_str(&format!(
            " The path went from {} to {}.",
            ns(before),
            ns(after)
        ));
        let mut event = if after < before {
            Event::done(text)
        } else {
            Event::info(text)
        };
        for (i, def) in spec.stages.iter().enumerate() {
            if Self::active_with(spec, i, old) != Self::active_with(spec, i, self.on) {
                event = event.at(def.key);
            }
        }
        event
    }

    /// Invariants of any path; `Err` names the first one broken.
    pub fn check(&self, spec: &Spec) -> Result<(), String> {
        if self.costs.len() != spec.stages.len() {
            return Err("one cost per stage".into());
        }
        if self.costs.iter().any(|&c| c > COST_MAX) {
            return Err("a stage costs more than the maximum".into());
        }
        if u32::from(self.on) >> spec.techniques.len() != 0 {
            return Err("a technique that does not exist is on".into());
        }
        for (t, def) in spec.techniques.iter().enumerate() {
            if self.uses(t) && def.requires & !self.on != 0 {
                return Err(format!("{} is on without what it requires", def.name));
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

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: u8 = 1;
    const B: u8 = 2;
    static STAGES: &[StageDef] = &[
        StageDef {
            key: "one",
            name: "stage one",
            base_ns: 100,
            removed_by: A,
            only_with: 0,
            cpu: true,
        },
        StageDef {
            key: "two",
            name: "stage two",
            base_ns: 50,
            removed_by: 0,
            only_with: B,
            cpu: false,
        },
        StageDef {
            key: "three",
            name: "stage three",
            base_ns: 30,
            removed_by: 0,
            only_with: 0,
            cpu: true,
        },
    ];
    static TECHS: &[TechDef] = &[
        TechDef {
            key: "a",
            name: "alpha",
            requires: 0,
            requires_why: "",
        },
        TechDef {
            key: "b",
            name: "beta",
            requires: A,
            requires_why: "runs only under alpha",
        },
    ];
    static SPEC: Spec = Spec {
        stages: STAGES,
        techniques: TECHS,
        start: "it begins",
        finish: "it ends",
    };

    fn use_(p: &mut Pipeline, technique: usize, on: bool) -> Outcome {
        p.apply(&SPEC, &StageAction::Use { technique, on })
    }

    #[test]
    fn total_is_the_sum_of_active_stages() {
        let p = Pipeline::new(&SPEC);
        assert_eq!(p.total(&SPEC), 130);
        assert_eq!(p.baseline(&SPEC), 130);
        assert_eq!(p.cpu_ns_with(&SPEC, 0), 130);
    }

    #[test]
    fn a_technique_removes_its_stages_and_adds_its_own() {
        let mut p = Pipeline::new(&SPEC);
        use_(&mut p, 0, true).unwrap();
        assert_eq!(p.total(&SPEC), 30);
        use_(&mut p, 1, true).unwrap();
        assert_eq!(p.total(&SPEC), 80);
        assert_eq!(p.off_reason(&SPEC, 0).as_deref(), Some("removed by alpha"));
        p.check(&SPEC).unwrap();
    }

    #[test]
    fn requirements_are_enforced_both_ways() {
        let mut p = Pipeline::new(&SPEC);
        let events = use_(&mut p, 1, true).unwrap();
        assert!(p.uses(0) && p.uses(1));
        assert!(events[0].text.contains("alpha turns on too"));
        let events = use_(&mut p, 0, false).unwrap();
        assert!(!p.uses(0) && !p.uses(1));
        assert!(events[0].text.contains("beta off too"));
    }

    #[test]
    fn walk_runs_the_clock_through_active_stages_only() {
        let mut p = Pipeline::new(&SPEC);
        p.apply(&SPEC, &StageAction::Advance).unwrap();
        assert_eq!((p.walk, p.clock(&SPEC)), (Walk::After(0), 100));
        p.apply(&SPEC, &StageAction::Advance).unwrap();
        assert_eq!((p.walk, p.clock(&SPEC)), (Walk::After(2), 130));
        assert!(p.walk_done(&SPEC));
        assert!(p.next_auto(&SPEC).is_err());
        p.apply(&SPEC, &StageAction::NewPacket).unwrap();
        assert_eq!(p.next_auto(&SPEC), Ok(StageAction::Advance));
    }

    #[test]
    fn changing_the_path_recalls_the_packet() {
        let mut p = Pipeline::new(&SPEC);
        p.apply(&SPEC, &StageAction::Advance).unwrap();
        p.apply(&SPEC, &StageAction::SetCost { stage: 2, ns: 300 })
            .unwrap();
        assert_eq!(p.walk, Walk::Ready);
        assert_eq!(p.total(&SPEC), 400);
        let w = p.waterfall(&SPEC);
        assert_eq!(w.rows[2].share_tenths, 750);
        assert_eq!(w.rows[2].start_ns, 100);
    }

    #[test]
    fn bad_inputs_are_refused_without_change() {
        let mut p = Pipeline::new(&SPEC);
        let before = p.clone();
        for action in [
            StageAction::SetCost { stage: 9, ns: 10 },
            StageAction::SetCost {
                stage: 0,
                ns: COST_MAX + 1,
            },
            StageAction::SetCost { stage: 0, ns: 100 },
            StageAction::Use {
                technique: 7,
                on: true,
            },
            StageAction::Use {
                technique: 0,
                on: false,
            },
            StageAction::NewPacket,
            StageAction::RestoreCosts,
        ] {
            assert!(p.apply(&SPEC, &action).is_err(), "{action:?}");
            assert_eq!(p, before);
        }
    }

    #[test]
    fn formatting_helpers() {
        assert_eq!(ns(1230), "1,230 ns");
        assert_eq!(ns(-590), "−590 ns");
        assert_eq!(ns(0), "0 ns");
        assert_eq!(tenths(share_tenths(90, 1230)), "7.3 %");
        assert_eq!(tenths(share_tenths(-1, 3)), "−33.3 %");
    }
}
