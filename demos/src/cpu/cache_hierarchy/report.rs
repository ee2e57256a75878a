//! Invariants, status figures and "why it matters" for the hierarchy.

use super::narrate::place_name;
use super::{CacheHierarchy, HISTORY};
use crate::cpu::cachesim::{Hierarchy, Place};
use crate::model::Figure;
use crate::text::{fixed, plural, ratio};

const HITS: [&str; 3] = ["l1-hits", "l2-hits", "l3-hits"];
const MISSES: [&str; 3] = ["l1-misses", "l2-misses", "l3-misses"];
const HIT_LABELS: [&str; 3] = ["L1 hits", "L2 hits", "L3 hits"];
const MISS_LABELS: [&str; 3] = ["L1 misses", "L2 misses", "L3 misses"];

pub fn check(m: &CacheHierarchy) -> Result<(), String> {
    if m.sim.accesses != m.trace.len() as u64 {
        return Err("the simulator saw a different number of accesses than the trace holds".into());
    }
    m.sim.check()?;
    if m.history.len() > HISTORY || m.history.len() > m.trace.len() {
        return Err("the history holds accesses that never happened".into());
    }
    let limit = 1u64 << m.config.address_bits;
    if m.trace.iter().chain(&m.pending).any(|&(_, a)| a >= limit) {
        return Err("an access lies outside the address space".into());
    }
    if m.sim.levels.len() != m.config.levels.len() {
        return Err("the simulator and the configuration disagree on the levels".into());
    }
    Ok(())
}

/// Accesses served by each place: the levels in order, then DRAM.
fn served_counts(sim: &Hierarchy) -> Vec<u64> {
    let mut counts: Vec<u64> = sim.levels.iter().map(|l| l.stats.hits).collect();
    counts.push(sim.memory.reads);
    counts
}

pub fn status(m: &CacheHierarchy) -> Vec<Figure> {
    let sim = &m.sim;
    let mut figures = vec![
        Figure::new(
            "served",
            "served by",
            m.last()
                .map_or("—".to_string(), |r| place_name(sim, r.served).to_string()),
        ),
        Figure::new("cycles", "cycles", m.last().map_or(0, |r| r.cycles)),
        Figure::new("accesses", "accesses", sim.accesses),
    ];
    for (i, level) in sim.levels.iter().enumerate() {
        figures.push(Figure::new(HITS[i], HIT_LABELS[i], level.stats.hits));
        figures.push(Figure::new(MISSES[i], MISS_LABELS[i], level.stats.misses));
    }
    let l1 = &sim.levels[0].stats;
    figures.extend([
        Figure::new("l1-conflict", "L1 conflict misses", l1.conflict),
        Figure::new("dram", "DRAM reads", sim.memory.reads),
        Figure::new(
            "writebacks",
            "write-backs",
            sim.levels.iter().map(|l| l.stats.writebacks).sum::<u64>(),
        ),
        Figure::new(
            "avg-cycles",
            "cycles per access",
            fixed(ratio(sim.cycles, sim.accesses, 1), 1),
        ),
        Figure::new("queued", "queued", m.pending.len()),
    ]);
    figures
}

pub fn why(m: &CacheHierarchy) -> Vec<String> {
    let sim = &m.sim;
    let mut out = Vec::new();
    let l1_latency = u64::from(sim.levels[0].spec.latency);
    let dram_total: u64 = sim
        .levels
        .iter()
        .map(|l| u64::from(l.spec.latency))
        .sum::<u64>()
        + u64::from(sim.memory_latency);
    out.push(format!(
        "An L1 hit costs {l1_latency} cycles and a trip to DRAM {dram_total}: one miss all the way out costs as much as {} L1 hits.",
        dram_total / l1_latency.max(1)
    ));
    if sim.accesses > 0 {
        let served = served_counts(sim);
        let parts: Vec<String> = served
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let place = if i < sim.levels.len() {
                    Place::Level(i)
                } else {
                    Place::Memory
                };
                format!("{} {n}", place_name(sim, place))
            })
            .collect();
        out.push(format!(
            "{} access{} so far, served by {}: {} cycles per access on average.",
            sim.accesses,
            if sim.accesses == 1 { "" } else { "es" },
            parts.join(", "),
            fixed(ratio(sim.cycles, sim.accesses, 1), 1)
        ));
    }
    let l1 = &sim.levels[0];
    if l1.stats.conflict > 0 {
        out.push(format!(
            "{} of L1's {} miss{} were conflict misses: a fully associative L1 of the same {} lines would have kept those lines. They come from addresses sharing a set, not from L1 being full — it holds {} of {} lines now.",
            l1.stats.conflict,
            l1.stats.misses,
            if l1.stats.misses == 1 { "" } else { "es" },
            l1.spec.lines(),
            l1.occupancy(),
            l1.spec.lines()
        ));
    } else if l1.stats.capacity > 0 {
        out.push(format!(
            "{} of L1's misses were capacity misses: the lines in use do not fit in its {} bytes, however they are placed.",
            l1.stats.capacity,
            l1.spec.bytes()
        ));
    }
    if l1.stats.misses > 0 {
        out.push(format!(
            "The three Cs here are counted per miss: a miss is compulsory on a line's first touch, conflict if a fully associative LRU cache of {} lines would have hit that same access, capacity otherwise. Hennessy & Patterson count them by subtracting three caches' miss totals instead, which can differ and even make conflict negative; per miss, L1's {} compulsory, {} capacity and {} conflict add up to its {} misses.",
            l1.spec.lines(),
            l1.stats.compulsory,
            l1.stats.capacity,
            l1.stats.conflict,
            l1.stats.misses
        ));
    }
    let wb: u64 = sim.levels.iter().map(|l| l.stats.writebacks).sum();
    if wb > 0 {
        out.push(format!(
            "{wb} dirty line{} moved outward on eviction: with write-back caches a store reaches DRAM only when its line finally leaves the last level.",
            plural(wb as usize)
        ));
    }
    out
}
