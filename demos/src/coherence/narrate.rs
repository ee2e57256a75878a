//! One access told as narration lines, for every model built on the engine.
//!
//! Focus keys: `core-N` (core N's cache, N from 0), `line-N` (the line's row),
//! `bus` (the request on the bus) and `memory`.

use super::bus::{Access, Op, Supplier};
use super::core_name;
use super::protocol::State;
use crate::model::Event;

/// The narration for `a`; `line` names the line ("line 0", "the line of a and b").
pub fn narrate(a: &Access, line: &str) -> Vec<Event> {
    let who = core_name(a.core);
    let (from, to) = (a.before.letter(), a.after.letter());
    let supplier = match a.supplier {
        Some(Supplier::Cache(c)) => format!("core {}'s cache", core_name(c)),
        _ => "memory".to_string(),
    };
    let main = match (a.op, a.request) {
        (Op::Read, None) => format!(
            "Core {who} reads {line}: a hit in {from} (value {}), {} cycles.",
            a.value, a.cycles
        ),
        (Op::Read, Some(req)) => format!(
            "Core {who} reads {line}: a miss, so it sends {}; {supplier} supplies value {}; {who}: {from} → {to}{}, {} cycles.",
            req.label(),
            a.value,
            if a.after == State::E { " (no other copy)" } else { "" },
            a.cycles
        ),
        (Op::Write, None) => format!(
            "Core {who} writes {} to {line}: {}, {} cycles.",
            a.value,
            if a.before == State::E {
                "E → M without a bus transaction (no one else has a copy)"
            } else {
                "a hit in M"
            },
            a.cycles
        ),
        (Op::Write, Some(req)) => format!(
            "Core {who} writes {} to {line}: {}{}; {who}: {from} → M, {} cycles.",
            a.value,
            req.label(),
            if a.before.is_valid() {
                " (no data moves)".to_string()
            } else {
                format!(", {supplier} supplies the line")
            },
            a.cycles
        ),
        (Op::Evict, _) => format!(
            "Core {who} evicts {line} from {from}: {}.",
            if a.wrote_back {
                format!("it writes value {} back to memory", a.value)
            } else {
                "clean, so it is dropped silently".to_string()
            }
        ),
    };
    let mut main = Event::info(main).at(format!("core-{}", a.core));
    main = main.at(format!("line-{}", a.line));
    if a.request.is_some() {
        main = main.at("bus");
    }
    if a.supplier == Some(Supplier::Memory) || a.wrote_back {
        main = main.at("memory");
    }
    let mut events = vec![main];
    let req = a.request.map_or("request", |r| r.label());
    for s in &a.snoops {
        let how = match (s.flushed, s.to) {
            (true, State::O) if s.from == State::O => ", supplies the line and stays the owner",
            (true, State::O) => ", supplies the line; memory stays stale",
            (true, State::S) => ", flushes the line and memory picks it up",
            (true, _) => ", handing the line over",
            (false, State::I) => " (invalidated)",
            _ => "",
        };
        events.push(
            Event::info(format!(
                "Core {} snoops the {req}: {} → {}{how}.",
                core_name(s.core),
                s.from.letter(),
                s.to.letter()
            ))
            .at(format!("core-{}", s.core)),
        );
    }
    for &c in &a.ignored {
        events.push(
            Event::warn(format!(
                "Core {} ignores the {req} (invalidation off) and keeps its stale copy.",
                core_name(c)
            ))
            .at(format!("core-{c}")),
        );
    }
    if let Some(why) = &a.broke_swmr {
        events.push(Event::fault(why.clone()).at(format!("line-{}", a.line)));
    }
    if let Some(latest) = a.stale {
        events.push(
            Event::fault(format!(
                "Stale read: core {who} got {}, but the last write to {line} stored {latest}.",
                a.value
            ))
            .at(format!("core-{}", a.core)),
        );
    }
    events
}
