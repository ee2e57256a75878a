//! Narration: one sentence per thing an access did, naming the numbers.

use crate::cpu::cachesim::{
    AccessKind, AccessReport, Allocation, Hierarchy, Lookup, MissKind, Place,
};
use crate::model::Event;

/// The focus key of a level's box: `l1`, `l2`, `l3`, or `dram`.
pub fn level_key(place: Place) -> String {
    match place {
        Place::Level(i) => format!("l{}", i + 1),
        Place::Memory => "dram".into(),
    }
}

/// Who served an access, as the learner reads it: `L1`…`L3`, or `DRAM`
/// (the simulator's own name for memory is `MEM`, as its trace tools print).
pub fn place_name(sim: &Hierarchy, place: Place) -> &str {
    match place {
        Place::Memory => "DRAM",
        level => sim.name(level),
    }
}

fn set_key(level: usize, set: u64) -> String {
    format!("l{}-set-{set}", level + 1)
}

fn way_key(level: usize, set: u64, way: usize) -> String {
    format!("l{}-set-{set}-way-{way}", level + 1)
}

fn lookup_event(sim: &Hierarchy, l: &Lookup) -> Event {
    let level = &sim.levels[l.level];
    let name = &level.spec.name;
    match (l.way, l.miss) {
        (Some(way), _) => Event::done(format!(
            "{name}: set {}, tag {:#x} found in way {way}: a hit.",
            l.set, l.tag
        ))
        .at(way_key(l.level, l.set, way)),
        (None, kind) => {
            let why = match kind {
                Some(MissKind::Compulsory) => "a compulsory miss (first touch of this line)",
                Some(MissKind::Capacity) => {
                    "a capacity miss (even a fully associative cache this size would miss)"
                }
                _ => "a conflict miss (a fully associative cache this size would have hit)",
            };
            Event::warn(format!(
                "{name}: no way of set {} holds tag {:#x}: {why}.",
                l.set, l.tag
            ))
            .at(set_key(l.level, l.set))
        }
    }
}

pub fn access(sim: &Hierarchy, r: &AccessReport) -> Vec<Event> {
    let mut events = Vec::new();
    if let Some(first) = r.lookups.first() {
        events.push(
            Event::info(format!(
                "{} {:#x}: L1 reads tag {:#x}, set {}, offset {}.",
                crate::text::capitalised(r.kind.verb()),
                r.addr,
                first.tag,
                first.set,
                first.offset
            ))
            .at("addr"),
        );
    }
    events.extend(r.lookups.iter().map(|l| lookup_event(sim, l)));
    if r.served == Place::Memory {
        events.push(Event::warn("Every level missed: DRAM supplies the line.").at("dram"));
    }
    for l in r.lookups.iter().filter(|l| !l.hit() && l.level > 0) {
        let level = &sim.levels[l.level];
        if level.spec.allocation == Allocation::Victims {
            events.push(
                Event::info(format!(
                    "{} is not filled on the way in: it takes only the lines {} evicts.",
                    level.spec.name,
                    sim.levels[l.level - 1].spec.name
                ))
                .at(level_key(Place::Level(l.level))),
            );
        }
    }
    for fill in &r.fills {
        let level = &sim.levels[fill.level];
        let p = fill.placed;
        let key = way_key(fill.level, p.set, p.way);
        let text = match p.evicted {
            None => format!(
                "{} set {} way {} was empty and takes the line.",
                level.spec.name, p.set, p.way
            ),
            Some(e) => format!(
                "{} set {} way {} takes the line, evicting {:#x}{}: {}.",
                level.spec.name,
                p.set,
                p.way,
                e.block.base,
                if e.block.dirty { " (dirty)" } else { "" },
                level.spec.policy.reason()
            ),
        };
        events.push(if p.evicted.is_some() {
            Event::warn(text).at(key)
        } else {
            Event::info(text).at(key)
        });
    }
    for wb in &r.writebacks {
        let from = &sim.levels[wb.from].spec.name;
        let text = match (wb.to, wb.was_present) {
            (Place::Memory, _) => format!("{from} writes dirty line {:#x} back to DRAM.", wb.base),
            (to, true) if !wb.dirty => format!(
                "{from} evicts clean line {:#x}; {}, which takes {from}'s victims, still holds it.",
                wb.base,
                sim.name(to)
            ),
            (to, false) if !wb.dirty => format!(
                "{from} evicts clean line {:#x} into {}, which takes {from}'s victims rather than lines on their way in.",
                wb.base,
                sim.name(to)
            ),
            (to, true) => format!(
                "{from} writes dirty line {:#x} back into {}, which still held it: now dirty there.",
                wb.base,
                sim.name(to)
            ),
            (to, false) => format!(
                "{from} writes dirty line {:#x} back into {}, which allocates it dirty.",
                wb.base,
                sim.name(to)
            ),
        };
        events.push(Event::warn(text).at(level_key(wb.to)));
    }
    if r.kind == AccessKind::Store {
        events.push(
            Event::info("The store dirties L1's copy only; the levels beyond stay stale until it is written back.")
                .at("l1"),
        );
    }
    let mut parts: Vec<String> = r
        .lookups
        .iter()
        .map(|l| sim.levels[l.level].spec.latency.to_string())
        .collect();
    if r.served == Place::Memory {
        parts.push(sim.memory_latency.to_string());
    }
    let sum = if parts.len() > 1 {
        format!(" ({})", parts.join(" + "))
    } else {
        String::new()
    };
    let text = format!(
        "Served by {} in {} cycle{}{sum}.",
        place_name(sim, r.served),
        r.cycles,
        crate::text::plural(r.cycles as usize)
    );
    events.push(
        match r.served {
            Place::Level(0) => Event::done(text),
            Place::Level(_) => Event::info(text),
            Place::Memory => Event::warn(text),
        }
        .at("cycles")
        .at(level_key(r.served)),
    );
    events
}

/// After a change of geometry, policy or latency: what changed, and the
/// counts of the same trace before and after.
pub fn reconfigured(before: &Hierarchy, after: &Hierarchy, what: String) -> Vec<Event> {
    let mut events = vec![Event::info(what)];
    if after.accesses == 0 {
        return events;
    }
    for (i, (b, a)) in before.levels.iter().zip(&after.levels).enumerate() {
        let (b, a) = (&b.stats, &a.stats);
        if (b.misses, b.conflict) == (a.misses, a.conflict) && i > 0 {
            continue;
        }
        events.push(
            Event::info(format!(
                "Replaying the {} accesses so far: {} misses {} → {} (conflict misses {} → {}).",
                after.accesses,
                after.levels[i].spec.name,
                b.misses,
                a.misses,
                b.conflict,
                a.conflict
            ))
            .at(level_key(Place::Level(i))),
        );
    }
    events.push(
        Event::info(format!(
            "Total cycles for the same accesses: {} → {}.",
            before.cycles, after.cycles
        ))
        .at("cycles"),
    );
    events
}
