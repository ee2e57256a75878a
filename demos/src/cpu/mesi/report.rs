//! Status figures and "why it matters" for the MESI demo.

use super::Mesi;
use crate::coherence::{core_name, Counts, Protocol, Supplier, System};
use crate::model::Figure;
use crate::text::plural;

/// "A: M · B: I" for one line; lines separated by " | " ("A: M/I" would hide which is which).
fn states(s: &System) -> String {
    let lines: Vec<String> = s
        .lines
        .iter()
        .map(|line| {
            let cores: Vec<String> = line
                .states
                .iter()
                .enumerate()
                .map(|(c, st)| format!("{}: {}", core_name(c), st.letter()))
                .collect();
            cores.join(" · ")
        })
        .collect();
    lines.join(" | ")
}

fn traffic(c: &Counts) -> String {
    format!("{} bus · {} WB", c.bus_transactions(), c.write_backs)
}

pub fn status(m: &Mesi) -> Vec<Figure> {
    let s = m.system();
    let c = s.counts;
    let memory: Vec<&str> = s
        .lines
        .iter()
        .map(|l| if l.memory_fresh() { "fresh" } else { "stale" })
        .collect();
    let (op, supplier) = match m.last_access() {
        Some(a) => (
            a.request.map_or("none", |r| r.label()).to_string(),
            match a.supplier {
                Some(Supplier::Memory) => "memory".to_string(),
                Some(Supplier::Cache(c)) => format!("core {}", core_name(c)),
                None => "—".to_string(),
            },
        ),
        None => ("none".to_string(), "—".to_string()),
    };
    let by = |p: Protocol| traffic(&m.systems[p.index()].counts);
    vec![
        Figure::new("protocol", "protocol", m.protocol.label()),
        Figure::new("states", "states", states(s)),
        Figure::new("memory", "memory", memory.join(" | ")),
        Figure::new("bus-op", "last bus request", op),
        Figure::new("supplier", "data from", supplier),
        Figure::new("bus", "bus transactions", c.bus_transactions()),
        Figure::new("upgrades", "BusUpgr", c.bus_upgr),
        Figure::new("transfers", "cache-to-cache", c.flushes),
        Figure::new("write-backs", "memory writes", c.write_backs),
        Figure::new("invalidations", "invalidations", c.invalidations),
        Figure::new("cycles", "cycles", c.cycles),
        Figure::new("stale-reads", "stale reads", c.stale_reads),
        Figure::new("traffic-msi", "MSI", by(Protocol::Msi)),
        Figure::new("traffic-mesi", "MESI", by(Protocol::Mesi)),
        Figure::new("traffic-moesi", "MOESI", by(Protocol::Moesi)),
    ]
}

pub fn why(m: &Mesi) -> Vec<String> {
    let count = |p: Protocol| m.systems[p.index()].counts;
    let (msi, mesi, moesi) = (
        count(Protocol::Msi),
        count(Protocol::Mesi),
        count(Protocol::Moesi),
    );
    let mut out = Vec::new();
    if msi.accesses == 0 {
        out.push("A write needs the only copy: it first invalidates every other one. So a line has one writer or many readers, never both.".to_string());
        return out;
    }
    out.push(format!(
        "The same {} access{} cost {} bus transactions and {} memory writes under MSI, {} and {} under MESI, {} and {} under MOESI.",
        msi.accesses,
        if msi.accesses == 1 { "" } else { "es" },
        msi.bus_transactions(),
        msi.write_backs,
        mesi.bus_transactions(),
        mesi.write_backs,
        moesi.bus_transactions(),
        moesi.write_backs
    ));
    let c = m.system().costs;
    out.push(format!(
        "Each access costs what the CPU latency table says: a hit {} cycles, a BusUpgr {} (a round trip to the shared L3, where the other copies are found), a line from another core's cache {}, a line from memory {}. This model has no L3 to hold clean lines, so every clean miss pays memory.",
        c.hit, c.upgrade, c.cache_to_cache, c.memory
    ));
    let saved = msi.bus_upgr.saturating_sub(mesi.bus_upgr);
    if saved > 0 {
        out.push(format!(
            "MESI skipped {saved} BusUpgr that MSI needed: a line read while no other cache holds it arrives in E, and E can be written without asking anyone."
        ));
    }
    let saved = mesi.write_backs.saturating_sub(moesi.write_backs);
    if saved > 0 {
        out.push(format!(
            "MOESI wrote memory {saved} time{} less than MESI: a dirty line another core reads stays dirty in O, and its owner serves later readers.",
            plural(saved as usize)
        ));
    }
    let stale = m.system().counts.stale_reads;
    if stale > 0 {
        out.push(format!(
            "With invalidation off, {stale} read{} returned an old value: two caches held the line in M at once, exactly what the single-writer rule forbids.",
            plural(stale as usize)
        ));
    }
    out
}
