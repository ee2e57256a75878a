//! The learner's moves on a path: walk the packet, change a cost, switch a
//! technique (with what it requires), each narrated from the live numbers.

use super::{names, Pipeline, Spec, StageAction, Walk, COST};
use crate::model::{Event, Outcome, Refusal};
use crate::text::{capitalised, ns, share_tenths, tenths};

impl Pipeline {
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
        COST.admit(cost)?;
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
                    .at(def.key),
                );
                next |= missing;
            }
            next |= 1 << technique;
            // What the new techniques (this one and its requirements) exclude.
            let added = next & !self.on;
            for (t, added_def) in spec.techniques.iter().enumerate() {
                let clash = clashes(spec, t) & next & !added;
                if added & (1 << t) != 0 && clash != 0 {
                    let why = if added_def.excludes_why.is_empty() {
                        spec.techniques
                            .iter()
                            .enumerate()
                            .find(|(c, _)| clash & (1 << c) != 0)
                            .map(|(_, d)| d.excludes_why)
                            .unwrap_or_default()
                    } else {
                        added_def.excludes_why
                    };
                    events.push(
                        Event::warn(format!(
                            "{} {why}, so {} turns off.",
                            added_def.name,
                            names(spec, clash)
                        ))
                        .at(added_def.key),
                    );
                    next &= !clash;
                }
            }
        } else {
            next &= !(1 << technique);
        }
        // Anything whose requirement just went away goes with it.
        let orphans = unmet(spec, next);
        if orphans != 0 {
            let why = spec
                .techniques
                .iter()
                .enumerate()
                .find(|(t, _)| orphans & (1 << t) != 0)
                .map(|(_, d)| d.requires_why)
                .unwrap_or_default();
            let cause = if on {
                String::new()
            } else {
                format!("turning {} off turns ", def.name)
            };
            events.push(Event::warn(format!(
                "{} {why}, so {cause}{} off too.",
                names(spec, orphans),
                names(spec, orphans)
            )));
            next &= !orphans;
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
}

/// The techniques that cannot run beside `technique`, in either direction.
pub(super) fn clashes(spec: &Spec, technique: usize) -> u8 {
    let own = spec.techniques[technique].excludes;
    spec.techniques
        .iter()
        .enumerate()
        .filter(|(_, d)| d.excludes & (1 << technique) != 0)
        .fold(own, |mask, (t, _)| mask | (1 << t))
}

/// Techniques in `on` whose requirements `on` does not meet, transitively.
pub(super) fn unmet(spec: &Spec, on: u8) -> u8 {
    let mut left = on;
    loop {
        let orphans = spec
            .techniques
            .iter()
            .enumerate()
            .filter(|(t, d)| left & (1 << t) != 0 && d.requires & !left != 0)
            .fold(0u8, |mask, (t, _)| mask | (1 << t));
        if orphans == 0 {
            return on & !left;
        }
        left &= !orphans;
    }
}
