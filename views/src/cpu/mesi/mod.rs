//! MESI coherence: the cores' caches with each line's state as a letter,
//! the snooping bus with the last request and who supplied the data, memory
//! and its freshness; the three protocols in lockstep; the textbook
//! sequence table; the bus traffic compared.

mod lesson;

use super::kit::{part, rect, text, LARGE, MONO, SMALL, START, STRONG, TITLE, TONE};
use crate::control::Control;
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::{Ui, View};
use crate::scene::{Cell, Figure, Scene, Shape, Table};
use demos::coherence::{core_name, Access, Protocol, State, Supplier, System, CORES};
use demos::cpu::mesi::{Mesi, MesiAction, MesiConfig, LINES, TOUR};
use demos::text::grouped;

/// The bus figure narrows with fewer cores, so two cores are drawn larger.
fn width(cores: usize) -> f32 {
    540.0 + 140.0 * cores as f32
}
/// From the top of a core's panel to its line tiles, and from the bus to
/// the memory box.
const TILES_DY: f32 = 36.0;
const BUS_TO_MEMORY: f32 = 46.0;

/// Where the bus figure puts things. Wide: every core side by side above
/// the bus, one row of line tiles in each. A phone: two cores to a row (a
/// third and fourth under the bus, their arrows pointing up to it), two
/// tiles to a row, and memory's lines on two text lines each.
struct BusGeometry {
    width: f32,
    per_row: usize,
    tiles_per_row: usize,
    /// A tile's height, and the baselines of its letter and value in it.
    tile_h: f32,
    letter_dy: f32,
    value_dy: f32,
    panel_h: f32,
    bus_y: f32,
    /// Top of the cores under the bus (a phone's third and fourth).
    under_y: f32,
    mem_y: f32,
    pill_w: f32,
    /// The memory arrow: left of the memory box, or a phone's gutter
    /// between the cores under the bus.
    mem_arrow_x: f32,
    /// Memory's line texts: where they start, the first one's baseline and
    /// their pitch; on a phone each is split after the freshness.
    mem_text_x: f32,
    mem_first_dy: f32,
    mem_pitch: f32,
    split_memory: bool,
}

impl BusGeometry {
    fn new(layout: Layout, cores: usize, lines: usize) -> Self {
        let narrow = layout.is_narrow();
        let per_row = if narrow { cores.min(2) } else { cores };
        let tiles_per_row = if narrow { lines.min(2) } else { lines };
        let tile_h = layout.pick(96.0, 56.0);
        let tile_rows = lines.div_ceil(tiles_per_row) as f32;
        let panel_h = TILES_DY + tile_rows * (tile_h + 6.0) + 30.0;
        // Room for the arrows between the panels and the bus.
        let arrows = layout.pick(60.0, 48.0);
        let bus_y = 8.0 + panel_h + arrows;
        let under_y = bus_y + arrows;
        let below_bus = if cores > per_row {
            under_y + panel_h
        } else {
            bus_y
        };
        BusGeometry {
            width: layout.pick(width(cores), NARROW_WIDTH),
            per_row,
            tiles_per_row,
            tile_h,
            letter_dy: layout.pick(46.0, 30.0),
            value_dy: layout.pick(80.0, 48.0),
            panel_h,
            bus_y,
            under_y,
            mem_y: below_bus + BUS_TO_MEMORY,
            pill_w: layout.pick(460.0, 340.0),
            mem_arrow_x: layout.pick(100.0, NARROW_WIDTH / 2.0),
            mem_text_x: layout.pick(130.0, 24.0),
            mem_first_dy: layout.pick(26.0, 52.0),
            mem_pitch: layout.pick(26.0, 48.0),
            split_memory: narrow,
        }
    }

    /// Core `c`'s panel: left, top, width.
    fn core(&self, c: usize) -> (f32, f32, f32) {
        let w = (self.width - 20.0) / self.per_row as f32;
        let (row, col) = (c / self.per_row, c % self.per_row);
        let top = if row == 0 { 8.0 } else { self.under_y };
        (10.0 + w * col as f32 + 8.0, top, w - 16.0)
    }

    /// An arrow from core panel `top`'s edge to the bus, at `x`.
    fn to_bus(&self, x: f32, top: f32) -> ((f32, f32), (f32, f32)) {
        if top < self.bus_y {
            ((x, top + self.panel_h + 2.0), (x, self.bus_y - 4.0))
        } else {
            ((x, top - 2.0), (x, self.bus_y + 20.0))
        }
    }

    fn memory_h(&self, lines: usize) -> f32 {
        self.mem_first_dy - 8.0 + self.mem_pitch * lines as f32
    }
}

/// A state's class: clean copies valid, dirty ones costly, a stale or
/// doubly-written copy broken.
fn class(line: &demos::coherence::Line, core: usize, broken: bool) -> &'static str {
    let s = line.states[core];
    match s {
        State::I => "idle",
        _ if line.values[core] != line.latest || (broken && s.is_exclusive()) => "fault",
        State::M | State::O => "warn",
        _ => "done",
    }
}

fn supplier(a: &Access) -> String {
    match a.supplier {
        Some(Supplier::Cache(c)) => format!("core {}", core_name(c)),
        Some(Supplier::Memory) => "memory".into(),
        None => "—".into(),
    }
}

/// Cores, bus and memory under the protocol shown.
fn bus(m: &Mesi, layout: Layout) -> Figure {
    let s = m.system();
    let cores = s.cores();
    let broken = s.swmr().is_err();
    let last = m.last_access();
    let g = BusGeometry::new(layout, cores, s.lines.len());
    let wide = g.width;
    let mut f = Figure::new(
        "bus",
        format!(
            "{cores} cores on a snooping bus under {}",
            m.protocol.label()
        ),
        wide,
        g.mem_y + g.memory_h(s.lines.len()) + 22.0,
    )
    .legend("done", "clean copy (E, S)")
    .legend("warn", "dirty copy (M, O): memory is stale")
    .legend("idle", "I: no copy")
    .legend("fault", "stale or a second writer");
    let lines = s.lines.len();
    for c in 0..cores {
        let (x, top, w) = g.core(c);
        let cx = x + w / 2.0;
        let name = core_name(c);
        let mut shapes = vec![
            rect("box", x, top, w, g.panel_h, "panel"),
            text("name", cx, top + 24.0, format!("Core {name}"), TITLE),
        ];
        let tile_w = (w - 20.0) / g.tiles_per_row as f32 - 6.0;
        for (l, line) in s.lines.iter().enumerate() {
            let (col, row) = (l % g.tiles_per_row, l / g.tiles_per_row);
            let tx = x + 10.0 + col as f32 * (tile_w + 6.0);
            let ty = top + TILES_DY + row as f32 * (g.tile_h + 6.0);
            let st = line.states[c];
            let value = if st.is_valid() {
                format!("value {}", line.values[c])
            } else {
                "no data".into()
            };
            let tile = vec![
                rect("r", tx, ty, tile_w, g.tile_h, ""),
                text(
                    "letter",
                    tx + tile_w / 2.0,
                    ty + g.letter_dy,
                    st.letter().into(),
                    LARGE | TONE,
                ),
                text(
                    "value",
                    tx + tile_w / 2.0,
                    ty + g.value_dy,
                    value,
                    MONO | SMALL,
                ),
            ];
            shapes.push(
                part(
                    format!("core-{c}-line-{l}"),
                    tile,
                    class(line, c, broken),
                    st.letter().into(),
                    false,
                )
                .label(format!("core {name} line {l}: {}", st.name())),
            );
        }
        // What this core did or saw in the last access.
        let note = last.map_or(String::new(), |a| {
            match a.snoops.iter().find(|sn| sn.core == c) {
                _ if a.core == c => format!(
                    "{} {} → {}",
                    a.op.verb(),
                    a.before.letter(),
                    a.after.letter()
                ),
                Some(sn) => format!(
                    "snoops {} → {}{}",
                    sn.from.letter(),
                    sn.to.letter(),
                    if sn.flushed { ", flushes" } else { "" }
                ),
                None if a.ignored.contains(&c) => "ignores the request".into(),
                None => String::new(),
            }
        });
        shapes.push(text(
            "note",
            cx,
            top + g.panel_h - 14.0,
            note,
            SMALL | STRONG,
        ));
        let requester = last.is_some_and(|a| a.core == c);
        f.push(
            Shape::group(format!("core-{c}"), shapes)
                .class_if(requester, "accent")
                .focus(format!("core-{c}")),
        );
        if requester && last.is_some_and(|a| a.request.is_some()) {
            let (from, to) = g.to_bus(cx - 12.0, top);
            f.push(Shape::arrow(format!("req-{c}"), from, to).class("accent"));
        }
        if last.is_some_and(|a| a.supplier == Some(Supplier::Cache(c))) {
            let (from, to) = g.to_bus(cx + 12.0, top);
            f.push(Shape::arrow(format!("flush-{c}"), from, to).class("warn"));
        }
    }
    let request = match last.and_then(|a| a.request.map(|r| (a, r))) {
        Some((a, r)) => format!(
            "{} from {} · data from {}",
            r.label(),
            core_name(a.core),
            supplier(a)
        ),
        None => "no bus transaction".into(),
    };
    let bus_y = g.bus_y;
    let bus_line = vec![
        Shape::line("wire", (10.0, bus_y), (wide - 10.0, bus_y)).class("thick"),
        text("name", 14.0, bus_y - 8.0, "bus".into(), START | SMALL),
        Shape::rect(
            "pill",
            (wide - g.pill_w) / 2.0,
            bus_y - 16.0,
            g.pill_w,
            32.0,
        )
        .rounded(16.0),
        text(
            "request",
            wide / 2.0,
            bus_y + 6.0,
            request.clone(),
            MONO | STRONG,
        ),
    ];
    let busy = if last.is_some_and(|a| a.request.is_some()) {
        "accent"
    } else {
        "idle"
    };
    f.push(part("bus-line".into(), bus_line, busy, request, false).focus("bus"));
    let from_memory = last.is_some_and(|a| a.supplier == Some(Supplier::Memory));
    if from_memory || last.is_some_and(|a| a.wrote_back) {
        let (from, to) = if from_memory {
            (g.mem_y, bus_y + 18.0)
        } else {
            (bus_y + 18.0, g.mem_y)
        };
        let x = g.mem_arrow_x;
        f.push(
            Shape::arrow("mem-arrow", (x, from), (x, to)).class(if from_memory {
                "idle"
            } else {
                "warn"
            }),
        );
    }
    let mem_y = g.mem_y;
    let mut shapes = vec![
        rect("box", 10.0, mem_y, wide - 20.0, g.memory_h(lines), "panel"),
        text("name", 24.0, mem_y + 26.0, "Memory".into(), START | STRONG),
    ];
    let mut fresh = Vec::new();
    for (l, line) in s.lines.iter().enumerate() {
        let word = if line.memory_fresh() {
            "fresh"
        } else {
            "stale"
        };
        fresh.push(word);
        let about = format!("line {l}: value {} · {word}", line.memory);
        let stored = format!("(last write stored {})", line.latest);
        let y = mem_y + g.mem_first_dy + g.mem_pitch * l as f32;
        let key = format!("memory-{l}");
        if g.split_memory {
            shapes.push(text(&key, g.mem_text_x, y, about, START | MONO));
            shapes.push(text(
                &format!("{key}-stored"),
                g.mem_text_x,
                y + 22.0,
                stored,
                START | MONO,
            ));
        } else {
            shapes.push(text(
                &key,
                g.mem_text_x,
                y,
                format!("{about} {stored}"),
                START | MONO,
            ));
        }
    }
    f.push(part("memory".into(), shapes, "", fresh.join(" "), false).focus("memory"));
    f
}

/// Where the lockstep figure puts its three panels: side by side, or on a
/// phone one under another, the protocol's name left of its tiles.
struct LockstepGeometry {
    size: (f32, f32),
    /// From one panel to the next, and a panel's size.
    step: (f32, f32),
    panel: (f32, f32),
    /// The name's baseline and the tiles' top left, from the panel's.
    name: (f32, f32),
    tiles: (f32, f32),
    /// The tiles' span, a tile's height and its text's baseline in it.
    span: f32,
    tile_h: f32,
    text_dy: f32,
}

impl LockstepGeometry {
    fn of(layout: Layout) -> Self {
        layout.pick(
            LockstepGeometry {
                size: (720.0, 112.0),
                step: (238.0, 0.0),
                panel: (232.0, 100.0),
                name: (14.0, 26.0),
                tiles: (14.0, 38.0),
                span: 204.0,
                tile_h: 48.0,
                text_dy: 32.0,
            },
            LockstepGeometry {
                size: (NARROW_WIDTH, 6.0 + 3.0 * 66.0),
                step: (0.0, 66.0),
                panel: (NARROW_WIDTH - 12.0, 60.0),
                name: (14.0, 37.0),
                tiles: (110.0, 8.0),
                span: NARROW_WIDTH - 12.0 - 110.0 - 4.0,
                tile_h: 44.0,
                text_dy: 28.0,
            },
        )
    }
}

/// The three protocols side by side, fed the same accesses; select one to show it.
fn lockstep(m: &Mesi, line: usize, ui: &mut Ui<Mesi>) -> Figure {
    let g = LockstepGeometry::of(ui.layout());
    let mut f = Figure::new(
        "lockstep",
        format!("Line {line} under the three protocols after the same accesses"),
        g.size.0,
        g.size.1,
    );
    for (i, p) in Protocol::ALL.into_iter().enumerate() {
        let s: &System = &m.systems[p.index()];
        let (x, y) = (6.0 + i as f32 * g.step.0, 6.0 + i as f32 * g.step.1);
        let shown = p == m.protocol;
        let l = &s.lines[line.min(s.lines.len() - 1)];
        let broken = s.swmr().is_err();
        let mut shapes = vec![
            Shape::rect("hit", x, y, g.panel.0, g.panel.1)
                .class("hit")
                .class_if(shown, "selected"),
            text(
                "name",
                x + g.name.0,
                y + g.name.1,
                p.label().into(),
                START | TITLE,
            ),
        ];
        let n = s.cores();
        let tile = g.span / n as f32;
        let mut states = Vec::new();
        for c in 0..n {
            let tx = x + g.tiles.0 + c as f32 * tile;
            let ty = y + g.tiles.1;
            let word = format!("{}: {}", core_name(c), l.states[c].letter());
            let cell = vec![
                rect("r", tx, ty, tile - 10.0, g.tile_h, ""),
                text(
                    "l",
                    tx + tile / 2.0 - 5.0,
                    ty + g.text_dy,
                    word.clone(),
                    MONO,
                ),
            ];
            shapes.push(Shape::group(format!("t-{c}"), cell).class(class(l, c, broken)));
            states.push(word);
        }
        let g = part(
            format!("proto-{}", p.label().to_ascii_lowercase()),
            shapes,
            if shown { "accent" } else { "" },
            states.join(" · "),
            false,
        )
        .focus("protocol");
        f.push(if shown {
            g
        } else {
            g.label(format!("{}: select to show it", p.label()))
                .on_click(ui.act(MesiAction::SetProtocol(p)))
        });
    }
    f
}

/// The textbook table: per access, the states after it, the bus request,
/// who supplied the data and memory's freshness (protocol shown).
fn sequence(m: &Mesi) -> Table {
    let cores = m.system().cores();
    let names: Vec<String> = (0..cores).map(|c| core_name(c).to_string()).collect();
    let mut columns = vec!["#", "action"];
    columns.extend(names.iter().map(String::as_str));
    columns.extend(["bus", "data from", "memory"]);
    let mut t = Table::new(
        "sequence",
        format!(
            "The accesses so far under {} (latest last)",
            m.protocol.label()
        ),
        &columns,
    );
    for entry in &m.log {
        let r = &entry[m.protocol.index()];
        let a = &r.access;
        let mut cells = vec![
            Cell::text(r.number.to_string()),
            Cell::text(format!(
                "{} {} line {}",
                core_name(a.core),
                a.op.verb(),
                a.line
            )),
        ];
        cells.extend(r.states.iter().map(|s| Cell::mono(s.letter())));
        cells.push(Cell::mono(a.request.map_or("—", |q| q.label())));
        cells.push(Cell::text(supplier(a)));
        cells.push(Cell::text(if r.memory_fresh { "fresh" } else { "stale" }));
        let bad = a.stale.is_some() || a.broke_swmr.is_some();
        t.row(format!("seq-{}", r.number), cells)
            .class(if bad { "fault" } else { "" })
            .state(if bad { "broken" } else { "ok" });
    }
    t
}

/// Bus traffic of the same accesses under each protocol.
fn traffic(m: &Mesi) -> Table {
    let mut t = Table::new(
        "traffic",
        "Bus traffic for the same accesses",
        &[
            "protocol",
            "BusRd",
            "BusRdX",
            "BusUpgr",
            "evict WB",
            "cache→cache",
            "mem writes",
            "bus total",
            "cycles",
        ],
    );
    for p in Protocol::ALL {
        let c = m.systems[p.index()].counts;
        let k = p.label().to_ascii_lowercase();
        let values = [
            ("rd", c.bus_rd),
            ("rdx", c.bus_rdx),
            ("upgr", c.bus_upgr),
            ("evict", c.eviction_write_backs),
            ("c2c", c.flushes),
            ("wb", c.write_backs),
            ("bus", c.bus_transactions()),
        ];
        let mut cells = vec![Cell::text(p.label())];
        cells.extend(
            values
                .iter()
                .map(|(id, v)| Cell::mono(v.to_string()).key(format!("{k}-{id}"))),
        );
        cells.push(Cell::mono(grouped(c.cycles as i64)).key(format!("{k}-cycles")));
        t.row(format!("traffic-{k}"), cells)
            .class(if p == m.protocol { "done" } else { "" });
    }
    t
}

impl View for Mesi {
    /// The line the core buttons act on.
    type Look = usize;

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, line: &usize, ui: &mut Ui<Self>) -> Scene {
        let s = self.system();
        let states: Vec<String> = (0..s.cores())
            .map(|c| format!("core {} {}", core_name(c), s.lines[0].states[c].name()))
            .collect();
        Scene::new(
            "MESI coherence",
            format!(
                "Under {}, line 0 is {}; memory is {}. {} bus transactions so far.",
                self.protocol.label(),
                states.join(", "),
                if s.lines[0].memory_fresh() {
                    "fresh"
                } else {
                    "stale"
                },
                s.counts.bus_transactions()
            ),
        )
        .figure(bus(self, ui.layout()))
        .figure(lockstep(self, *line, ui))
        .table(sequence(self))
        .table(traffic(self))
    }

    fn controls(&self, look: &usize, ui: &mut Ui<Self>) -> Vec<Control> {
        let s = self.system();
        let (cores, lines) = (s.cores(), s.lines.len());
        let line = (*look).min(lines - 1);
        let config = |cores: usize, lines: usize, protocol: Protocol| MesiConfig {
            cores,
            lines,
            protocol,
        };
        let mut out = Vec::new();
        if lines > 1 {
            let options = (0..lines)
                .map(|l| (l.to_string(), format!("line {l}"), ui.look(l)))
                .collect();
            out.push(Control::choice("line", "The buttons act on", line, options));
        }
        for c in 0..cores {
            let n = core_name(c);
            let id = n.to_ascii_lowercase();
            out.push(Control::group(
                format!("Core {n}"),
                vec![
                    Control::button(
                        &format!("read-{id}"),
                        format!("{n} reads"),
                        ui.act(MesiAction::Read { core: c, line }),
                    ),
                    Control::button(
                        &format!("write-{id}"),
                        format!("{n} writes"),
                        ui.act(MesiAction::Write { core: c, line }),
                    ),
                    Control::button(
                        &format!("evict-{id}"),
                        format!("{n} evicts"),
                        ui.act(MesiAction::Evict { core: c, line }),
                    ),
                ],
            ));
        }
        let protocols = Protocol::ALL
            .into_iter()
            .map(|p| {
                (
                    p.label().to_ascii_lowercase(),
                    p.label().to_string(),
                    ui.act(MesiAction::SetProtocol(p)),
                )
            })
            .collect();
        let p = self.protocol;
        out.extend([
            Control::choice("protocol", "Protocol shown", p.index(), protocols),
            Control::note(
                "Step plays a tour: A reads and writes, B reads and writes, A reads, both evict.",
            ),
            Control::danger_group("Break it", {
                let mut zone = vec![Control::toggle(
                    "invalidation",
                    "Other caches obey BusRdX and BusUpgr (invalidation)",
                    self.invalidation,
                    ui.act(MesiAction::SetInvalidation(!self.invalidation)),
                )
                .danger()];
                // Any action off the tour leaves it, and Step plays only the tour.
                if self.tour.is_some_and(|i| i < TOUR.len()) {
                    zone.push(Control::note(
                        "Switching this leaves the tour: Step then has nothing to play.",
                    ));
                }
                zone
            }),
            Control::slider(
                "cores",
                "Cores (restarts)",
                CORES.control_range(cores),
                "",
                ui.number(move |v| {
                    Ok(crate::Command::Restart(config(
                        v.clamp(CORES.min as i64, CORES.max as i64) as usize,
                        lines,
                        p,
                    )))
                }),
            ),
            Control::slider(
                "lines",
                "Lines (restarts)",
                LINES.control_range(lines),
                "",
                ui.number(move |v| {
                    Ok(crate::Command::Restart(config(
                        cores,
                        v.clamp(LINES.min as i64, LINES.max as i64) as usize,
                        p,
                    )))
                }),
            ),
        ]);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::Model;

    fn state(scene: &Scene, key: &str) -> String {
        scene
            .find(key)
            .and_then(|s| s.state.clone())
            .unwrap_or_default()
    }

    #[test]
    fn read_read_write_leaves_m_and_i_and_the_table_tells_it() {
        let mut m = Mesi::new(&MesiConfig::default());
        for core in [0, 1] {
            m.apply(&MesiAction::Read { core, line: 0 }).unwrap();
        }
        let scene = crate::build(&m, &0).0;
        assert_eq!(
            (
                state(&scene, "core-0-line-0"),
                state(&scene, "core-1-line-0")
            ),
            ("S".into(), "S".into())
        );
        m.apply(&MesiAction::Write { core: 0, line: 0 }).unwrap();
        let scene = crate::build(&m, &0).0;
        assert_eq!(
            (
                state(&scene, "core-0-line-0"),
                state(&scene, "core-1-line-0")
            ),
            ("M".into(), "I".into())
        );
        assert_eq!(state(&scene, "bus-line"), "BusUpgr from A · data from —");
        assert_eq!(state(&scene, "memory"), "stale");
        assert_eq!(state(&scene, "proto-msi"), "A: M · B: I");
        let seq = scene.table_named("sequence").unwrap();
        let cells: Vec<&str> = seq.rows[2].cells.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(
            cells,
            ["3", "A writes line 0", "M", "I", "BusUpgr", "—", "stale"]
        );
        let traffic = scene.table_named("traffic").unwrap();
        let bus: Vec<&str> = traffic
            .rows
            .iter()
            .map(|r| r.cells[7].text.as_str())
            .collect();
        assert_eq!(bus, ["3", "3", "3"]);
    }

    #[test]
    fn without_invalidation_two_modified_copies_show_as_faults() {
        let mut m = Mesi::new(&MesiConfig::default());
        m.apply(&MesiAction::SetInvalidation(false)).unwrap();
        for core in [0, 1] {
            m.apply(&MesiAction::Read { core, line: 0 }).unwrap();
        }
        for core in [0, 1] {
            m.apply(&MesiAction::Write { core, line: 0 }).unwrap();
        }
        m.apply(&MesiAction::Read { core: 0, line: 0 }).unwrap();
        let scene = crate::build(&m, &0).0;
        let tile = scene.find("core-0-line-0").unwrap();
        assert_eq!(tile.state.as_deref(), Some("M"));
        assert!(tile.has_class("fault"));
        let seq = scene.table_named("sequence").unwrap();
        assert_eq!(seq.rows.last().unwrap().state.as_deref(), Some("broken"));
    }

    #[test]
    fn the_lockstep_panels_switch_the_protocol_shown() {
        let m = Mesi::new(&MesiConfig::default());
        let (scene, _, ui) = crate::build(&m, &0);
        assert!(scene.find("proto-mesi").unwrap().on_click.is_none());
        let slot = scene.find("proto-moesi").unwrap().on_click.unwrap();
        assert_eq!(
            ui.resolve(slot, &crate::Input::Press),
            Ok(crate::Command::Do(MesiAction::SetProtocol(Protocol::Moesi)))
        );
    }

    /// The Break it zone's notes.
    fn zone_notes(m: &Mesi) -> Vec<String> {
        let (_, controls, _) = crate::build(m, &0);
        Control::danger_zone(&controls)
            .expect("a Break it zone")
            .notes()
    }

    #[test]
    fn break_it_says_it_leaves_the_tour_only_while_step_plays_it() {
        const NOTE: &str = "Switching this leaves the tour: Step then has nothing to play.";
        let mut m = Mesi::new(&MesiConfig::default());
        assert_eq!(zone_notes(&m), [NOTE], "at the start of the tour");
        m.apply(&m.next_auto().unwrap()).unwrap();
        assert_eq!(zone_notes(&m), [NOTE], "mid-tour");
        // The note is true: the toggle leaves the tour and Step is refused.
        let mut broken = m.clone();
        broken.apply(&MesiAction::SetInvalidation(false)).unwrap();
        assert!(broken.next_auto().is_err());
        assert!(zone_notes(&broken).is_empty(), "off the tour");
        // The tour played to its end: Step is refused either way.
        while let Ok(a) = m.next_auto() {
            m.apply(&a).unwrap();
        }
        assert!(zone_notes(&m).is_empty(), "after the tour");
    }
}
