//! Narration of a translation, one sentence per step, naming the numbers.

use super::paging::{Table, ADDR_MASK, PS};
use super::{Counters, Tlb, Translation};
use crate::model::Event;
use crate::text::{share_tenths, tenths};

pub fn translation(m: &Tlb, t: &Translation) -> Vec<Event> {
    let [a, b, c, d] = t.indices;
    let split = if t.huge {
        format!(
            "PML4 {a}, PDPT {b}, PD {c}, and a 21-bit offset {:#x}",
            t.offset
        )
    } else {
        format!("PML4 {a}, PDPT {b}, PD {c}, PT {d}, offset {:#x}", t.offset)
    };
    let mut events = vec![Event::info(format!(
        "Load {:#x}: the address splits into {split}.",
        t.va
    ))
    .at("va")];
    let key = format!("tlb-set-{}-way-{}", t.tlb_set, t.tlb_way);
    if t.tlb_hit {
        events.push(
            Event::done(format!(
                "TLB hit in set {} way {}: physical address {:#x}, no walk. The lookup ran alongside the L1 cache's, so it adds no cycles.",
                t.tlb_set, t.tlb_way, t.pa
            ))
            .at(key)
            .at("pa"),
        );
        return events;
    }
    events.push(
        Event::warn(format!(
            "TLB miss in set {}: the hardware walks the page table.",
            t.tlb_set
        ))
        .at(format!("tlb-set-{}", t.tlb_set)),
    );
    if let Some(cached) = t.pwc_hit {
        let skipped = cached.depth() + 1;
        events.push(
            Event::done(format!(
                "The page-walk cache holds the {} entry for this region: the walk skips {skipped} read{}.",
                cached.label(),
                crate::text::plural(skipped)
            ))
            .at("pwc"),
        );
    }
    for s in &t.steps {
        let target = match s.table {
            Table::Pt => "the page frame".to_string(),
            Table::Pd if s.entry & PS != 0 => "a 2 MiB page frame (PS set)".to_string(),
            next => format!("the {} table", super::Table::ALL[next.depth() + 1].label()),
        };
        events.push(
            Event::info(format!(
                "{}[{}] at {:#x} holds {:#x}: {target} at {:#x}.",
                s.table.label(),
                s.index,
                s.entry_addr,
                s.entry,
                s.entry & ADDR_MASK
            ))
            .at(s.table.key()),
        );
    }
    let reads = t.steps.len();
    events.push(
        Event::warn(format!(
            "Physical address {:#x} after {reads} memory read{}: {} cycles.",
            t.pa,
            crate::text::plural(reads),
            t.cycles
        ))
        .at("pa"),
    );
    let page = m.config.page_bytes();
    events.push(match t.evicted {
        Some(old) => Event::warn(format!(
            "The TLB caches the translation in set {} way {}, evicting the entry for page {:#x}: it was the least recently used.",
            t.tlb_set,
            t.tlb_way,
            old / page
        ))
        .at(key),
        None => Event::info(format!(
            "The TLB caches the translation in the empty way {} of set {}.",
            t.tlb_way, t.tlb_set
        ))
        .at(key),
    });
    events
}

pub fn reconfigured(before: &Counters, after: &Counters, what: String) -> Vec<Event> {
    let mut events = vec![Event::info(what).at("tlb")];
    if after.accesses > 0 {
        let rate = |c: &Counters| tenths(share_tenths(c.hits as i64, c.accesses as i64));
        events.push(
            Event::info(format!(
                "Replaying the {} loads so far: hit rate {} → {}, page-table reads {} → {}, cycles {} → {}.",
                after.accesses,
                rate(before),
                rate(after),
                before.reads,
                after.reads,
                before.cycles,
                after.cycles
            ))
            .at("tlb"),
        );
    }
    events
}
