//! The tables: what each interface has put on the link and read so far,
//! and what it costs a packet.

use crate::scene::{Cell, Row, Table};
use demos::host::streaming::figures::PerPacket;
use demos::host::streaming::Streaming;
use demos::text::{decimal, grouped};

fn count(n: u64) -> String {
    grouped(n as i64)
}

/// Two cells, one per interface, with stable keys for the page's tests.
fn pair(key: &str, classic: String, enso: String) -> [Cell; 2] {
    [
        Cell::mono(classic).key(format!("classic-{key}")),
        Cell::mono(enso).key(format!("enso-{key}")),
    ]
}

fn row<'t>(t: &'t mut Table, key: &str, what: &str, cells: [Cell; 2], focus: &str) -> &'t mut Row {
    let [a, b] = cells;
    t.row(key, vec![Cell::text(what), a, b]).focus(focus)
}

/// The run so far, side by side.
pub fn so_far(m: &Streaming) -> Table {
    let (c, e) = (m.classic_so_far(), m.enso_so_far());
    let (cr, er) = (m.classic_reads(), m.enso_reads());
    let mut t = Table::new(
        "so-far",
        format!(
            "After {} packet{}: on the PCIe link, and in the core's reads",
            m.delivered,
            if m.delivered == 1 { "" } else { "s" }
        ),
        &["so far", "classic", "Ensō"],
    );
    let rows = [
        (
            "transactions",
            "PCIe transactions",
            c.transactions,
            e.transactions,
        ),
        ("tlps", "TLPs", c.tlps, e.tlps),
        ("up", "bytes up (NIC → host)", c.up, e.up),
        ("down", "bytes down (host → NIC)", c.down, e.down),
        ("lines", "cache lines read", cr.lines, er.lines),
        ("jumps", "jumps", cr.jumps, er.jumps),
    ];
    for (key, what, a, b) in rows {
        row(&mut t, key, what, pair(key, count(a), count(b)), "so-far");
    }
    if m.config.hold {
        row(
            &mut t,
            "pinned",
            "held behind packet 1",
            pair("pinned", count(m.classic_pinned()), count(m.enso_pinned())),
            "so-far",
        )
        .class("warn");
    }
    t
}

/// What a packet costs each interface in the steady state.
pub fn per_packet(m: &Streaming) -> Table {
    let (c, e) = (m.classic_per_packet(), m.enso_per_packet());
    let line = m.line_rate();
    let mut t = Table::new(
        "per-packet",
        format!(
            "Per {}-byte frame, on average (Ensō's batch of {} shares its notification)",
            m.config.frame, m.config.batch
        ),
        &["per packet", "classic", "Ensō"],
    );
    let averaged = |f: fn(&PerPacket) -> f64, places: u32| -> [String; 2] {
        [decimal(f(&c), places), decimal(f(&e), places)]
    };
    let pcie: [(&str, &str, [String; 2]); 4] = [
        (
            "pp-transactions",
            "PCIe transactions",
            averaged(|p| p.transactions, 2),
        ),
        ("pp-tlps", "TLPs", averaged(|p| p.tlps, 2)),
        ("pp-up", "bytes up", averaged(|p| p.up, 1)),
        ("pp-down", "bytes down", averaged(|p| p.down, 1)),
    ];
    for (key, what, [a, b]) in pcie {
        row(&mut t, key, what, pair(key, a, b), "pcie");
    }
    let million = |v: f64| format!("{} M", decimal(v / 1e6, 1));
    let keeps = |rate: f64| if rate >= line { "done" } else { "fault" };
    let [a, b] = pair("rate", million(m.classic_rate()), million(m.enso_rate()));
    t.row(
        "pp-rate",
        vec![
            Cell::text("packets a second over PCIe"),
            a.class(keeps(m.classic_rate())),
            b.class(keeps(m.enso_rate())),
        ],
    )
    .focus("pcie");
    row(
        &mut t,
        "pp-line",
        "100 GbE line rate",
        pair("line", million(line), million(line)),
        "pcie",
    );
    let cpu: [(&str, String, [String; 2]); 4] = [
        (
            "pp-lines",
            "cache lines read".into(),
            averaged(|p| p.lines, 2),
        ),
        ("pp-jumps", "jumps".into(), averaged(|p| p.jumps, 2)),
        (
            "pp-budget",
            "one core's cycles at line rate".into(),
            [decimal(m.budget(), 1), decimal(m.budget(), 1)],
        ),
        (
            "pp-stall",
            format!("cycles lost to jumps ({} each, assumed)", m.config.stall),
            [decimal(m.stall(&c), 0), decimal(m.stall(&e), 0)],
        ),
    ];
    for (key, what, [a, b]) in cpu {
        row(&mut t, key, &what, pair(key, a, b), "cpu");
    }
    t
}
