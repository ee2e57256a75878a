//! Invariants, status figures and "why it matters" for the TLB.

use super::forecast::LoopForecast;
use super::paging::{self, ADDR_MASK};
use super::{Tlb, HISTORY, PAGE};
use crate::model::Figure;
use crate::text::{fixed, ratio, share_tenths, tenths};

pub fn check(m: &Tlb) -> Result<(), String> {
    m.tlb.check()?;
    let c = &m.counters;
    let s = &m.tlb.levels[0].stats;
    if c.hits + c.misses != c.accesses || c.accesses != m.trace.len() as u64 {
        return Err("a load was neither a TLB hit nor a miss".into());
    }
    if (s.hits, s.misses) != (c.hits, c.misses) {
        return Err("the TLB's own counts disagree with the model's".into());
    }
    if m.tlb.levels[0].occupancy() > m.config.geometry().0 as u64 {
        return Err("the TLB holds more entries than it has".into());
    }
    let max_reads = if m.config.huge_pages { 3 } else { 4 };
    if c.reads + c.reads_saved != c.misses * max_reads {
        return Err("a walk read more or fewer entries than its depth".into());
    }
    if !m.config.pwc && c.reads_saved > 0 {
        return Err("reads were saved with no page-walk cache".into());
    }
    if m.history.len() > HISTORY {
        return Err("the history is too long".into());
    }
    for t in &m.history {
        if t.tlb_hit && t.cycles != 0 {
            return Err("a TLB hit was charged cycles it overlaps with the L1 lookup".into());
        }
        if t.pa != paging::translate(t.va, t.huge) {
            return Err(format!("{:#x} was translated wrongly", t.va));
        }
        if let Some(leaf) = t.steps.last() {
            if (leaf.entry & ADDR_MASK) + t.offset != t.pa {
                return Err("the walk's last entry does not give the physical address".into());
            }
        }
    }
    Ok(())
}

pub fn status(m: &Tlb) -> Vec<Figure> {
    let c = &m.counters;
    vec![
        Figure::new(
            "result",
            "last load",
            m.last()
                .map_or("—", |t| if t.tlb_hit { "hit" } else { "miss" }),
        ),
        Figure::new(
            "cycles",
            "translation cycles",
            m.last().map_or(0, |t| t.cycles),
        ),
        Figure::new("hits", "TLB hits", c.hits),
        Figure::new("misses", "TLB misses", c.misses),
        Figure::new(
            "hit-rate",
            "hit rate",
            tenths(share_tenths(c.hits as i64, c.accesses as i64)),
        ),
        Figure::new("reads", "page-table reads", c.reads),
        Figure::new("saved", "reads saved by PWC", c.reads_saved),
        Figure::new(
            "avg-cycles",
            "cycles per load",
            fixed(ratio(c.cycles, c.accesses, 1), 1),
        ),
        Figure::new("queued", "queued", m.pending.len()),
    ]
}

/// Bytes as whole MiB from 1 MiB up, else KiB.
fn size(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes >> 10)
    }
}

pub fn why(m: &Tlb) -> Vec<String> {
    let cfg = &m.config;
    let c = &m.counters;
    let (entries, ways) = cfg.geometry();
    let reach = entries as u64 * cfg.page_bytes();
    let full_walk = if cfg.huge_pages { 3 } else { 4 } * u64::from(cfg.read_cycles);
    let mut out = vec![format!(
        "The TLB for {} pages has {entries} entries: they cover {} of memory. A hit adds no cycles, since the lookup overlaps the L1 cache's; a miss adds a walk of up to {full_walk} cycles.",
        cfg.page_label(),
        size(reach),
    )];
    if c.accesses > 0 {
        out.push(format!(
            "{} of {} loads hit ({}), averaging {} cycles each.",
            c.hits,
            c.accesses,
            tenths(share_tenths(c.hits as i64, c.accesses as i64)),
            fixed(ratio(c.cycles, c.accesses, 1), 1)
        ));
    }
    if cfg.huge_pages {
        out.push(format!(
            "With 2 MiB pages one entry stands for {} small pages and the walk stops at the PD. Real cores hold fewer 2 MiB translations than 4 KiB ones ({entries} against {} here), yet these {entries} reach {}, where the {} entries for 4 KiB pages reach {}.",
            (2 << 20) / PAGE,
            cfg.entries,
            size(reach),
            cfg.entries,
            size(cfg.entries as u64 * PAGE)
        ));
    } else {
        let pages = entries + 1;
        let f = LoopForecast::new(cfg, pages);
        let verdict = match f.thrashing().as_slice() {
            [] => "no set gets more pages than ways, so every page stays".to_string(),
            sets => format!(
                "only {} over {ways} ways thrash{}, and rounds 2 and 3 still hit {} of {} loads",
                sets.iter()
                    .map(|(s, n)| format!("set {s} with {n} pages"))
                    .collect::<Vec<_>>()
                    .join(", "),
                if sets.len() == 1 { "es" } else { "" },
                f.later_hits(),
                f.later_loads()
            ),
        };
        out.push(format!(
            "A loop over {pages} pages, one more than the {entries} entries, loses only the pages of sets that get more pages than ways: here {verdict}. Only a fully associative TLB loses every page once a loop outgrows it. 2 MiB pages multiply each entry's reach by 512."
        ));
    }
    if cfg.pwc && c.misses > 0 {
        out.push(format!(
            "The page-walk cache saved {} of {} page-table reads: neighbouring pages share their upper-level entries.",
            c.reads_saved,
            c.reads + c.reads_saved
        ));
    }
    out
}
