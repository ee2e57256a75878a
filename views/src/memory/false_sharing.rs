//! False sharing: two cores, each cache holding the line(s) of `a` and `b`
//! as eight 8-byte words with the MESI state in front; the bus with the
//! latest request and where the line came from; memory. A table sets both
//! layouts' counts side by side.

use crate::control::Control;
use crate::draw::geometry::PathData;
use crate::live::{Command, Ui, View};
use crate::scene::{Cell, Figure, Scene, Shape, Size, Table};
use demos::coherence::{core_name, Access, Protocol, State, Supplier, System};
use demos::memory::false_sharing::{FalseSharing, FalseSharingConfig, FsAction, Layout, RUN};
use demos::text::{fixed, grouped, ratio};
use demos::Quantity;

const W: f32 = 760.0;
const PANEL_W: f32 = 350.0;
const TOP: f32 = 52.0;
const ROW: f32 = 62.0;
const WORD: f32 = 44.0;
const CELL: f32 = 34.0;
const BUS_Y: f32 = 320.0;
/// Memory hangs off the bus at the right, clear of the bus's text.
const MEM_X: f32 = W - 126.0;

fn core_x(core: usize) -> f32 {
    16.0 + core as f32 * (W - 32.0 - PANEL_W)
}

/// The class a state is drawn in: M is this core's to write, E and S are
/// clean valid copies, O is dirty and shared, I is nothing.
pub fn state_class(s: State) -> &'static str {
    match s {
        State::M => "driver",
        State::E | State::S => "done",
        State::O => "warn",
        State::I => "idle dashed",
    }
}

/// The two layouts in code.
fn layout_code(layout: Layout) -> &'static str {
    match layout {
        Layout::Shared => "struct { long a; long b; };   // a and b in one 64-byte line",
        Layout::Padded => "struct { alignas(64) long a; alignas(64) long b; };",
    }
}

/// Which variables line `l` holds in this layout: (word index, name, writer).
fn words(layout: Layout, l: usize) -> Vec<(usize, &'static str, usize)> {
    match (layout, l) {
        (Layout::Shared, _) => vec![(0, "a", 0), (1, "b", 1)],
        (Layout::Padded, 0) => vec![(0, "a", 0)],
        _ => vec![(0, "b", 1)],
    }
}

/// One cache line in one core's cache: state badge, then 8 words.
fn cache_line(m: &FalseSharing, s: &System, core: usize, l: usize) -> Shape {
    let (x, y) = (core_x(core) + 12.0, TOP + 52.0 + ROW * l as f32);
    let state = s.state(core, l);
    let mut shapes = vec![
        Shape::rect("badge", x, y, WORD, WORD).class(state_class(state)),
        Shape::text("letter", x + WORD / 2.0, y + 31.0, state.letter())
            .mono()
            .size(Size::Large),
    ];
    let held = words(m.layout, l);
    for w in 0..8 {
        let wx = x + WORD + 10.0 + w as f32 * CELL;
        let var = held.iter().find(|h| h.0 == w);
        shapes.push(
            Shape::rect(format!("w{w}"), wx, y, CELL, WORD)
                .rounded(0.0)
                .class(if var.is_some() && state.is_valid() {
                    "accent"
                } else {
                    "track"
                }),
        );
        if let Some(&(_, name, writer)) = var {
            let cx = wx + CELL / 2.0;
            shapes.push(Shape::text(format!("n{w}"), cx, y + 16.0, name).size(Size::Small));
            let value = if state.is_valid() {
                m.writes[writer].to_string()
            } else {
                "—".into()
            };
            shapes.push(Shape::text(format!("v{w}"), cx, y + 37.0, value).mono());
        }
    }
    let names: Vec<&str> = held.iter().map(|h| h.1).collect();
    Shape::group(format!("line-{core}-{l}"), shapes)
        .class_if(!state.is_valid(), "muted")
        .state(state.letter())
        .label(
            [
                &names.join(" and "),
                " in core ",
                &core_name(core).to_string(),
                ": ",
                state.name(),
            ]
            .concat(),
        )
        .focus(format!("core-{core}"))
}

fn core_panel(m: &FalseSharing, s: &System, core: usize) -> Shape {
    let x = core_x(core);
    let var = if core == 0 { "a" } else { "b" };
    let mut shapes = vec![
        Shape::rect("box", x, TOP, PANEL_W, 44.0 + 2.0 * ROW + 34.0).class("panel"),
        Shape::text(
            "title",
            x + 12.0,
            TOP + 30.0,
            format!("Core {} · L1", core_name(core)),
        )
        .start()
        .size(Size::Title),
        Shape::text(
            "word",
            x + PANEL_W - 12.0,
            TOP + 30.0,
            format!("writes {var}"),
        )
        .end()
        .class("muted"),
        Shape::text(
            "cycles",
            x + 12.0,
            TOP + 44.0 + 2.0 * ROW + 20.0,
            format!(
                "{} write{} · {} cycles",
                m.writes[core],
                demos::text::plural(m.writes[core] as usize),
                grouped(s.core_cycles[core] as i64)
            ),
        )
        .start()
        .mono(),
    ];
    shapes.extend((0..s.lines.len()).map(|l| cache_line(m, s, core, l)));
    if m.layout == Layout::Shared {
        shapes.push(
            Shape::text(
                "offsets",
                x + 12.0,
                TOP + 52.0 + WORD + 28.0,
                "one 64-byte line: a at byte 0, b at byte 8",
            )
            .start()
            .class("muted"),
        );
    }
    Shape::group(format!("core-{core}"), shapes)
        .class("driver")
        .focus(format!("core-{core}"))
}

/// The latest access told on the bus.
fn bus_text(a: &Access) -> String {
    let who = core_name(a.core);
    match (a.request, a.supplier) {
        (None, _) => format!("{who}: hit in M, no bus traffic, {} cycles", a.cycles),
        (Some(r), Some(Supplier::Cache(c))) => format!(
            "{who}: {} · line moves {} → {who}, {} invalidated · {} cycles",
            r.label(),
            core_name(c),
            core_name(c),
            a.cycles
        ),
        (Some(r), _) => format!(
            "{who}: {} · line from memory · {} cycles",
            r.label(),
            a.cycles
        ),
    }
}

fn machine(m: &FalseSharing) -> Figure {
    let s = front(m);
    let last = m.last.as_ref().map(|(shared, padded)| match m.layout {
        Layout::Shared => shared,
        Layout::Padded => padded,
    });
    let mut f = Figure::new(
        "fs-machine",
        format!(
            "{}: core A's line{} {}, core B's {}",
            match m.layout {
                Layout::Shared => "One shared line",
                Layout::Padded => "Padded, a line each",
            },
            if s.lines.len() > 1 { "s" } else { "" },
            states(s, 0),
            states(s, 1)
        ),
        W,
        BUS_Y + 104.0,
    )
    .legend("driver", "M: this core may write")
    .legend("done", "E or S: clean copy")
    .legend("idle dashed", "I: no copy")
    .legend("accent", "the variable's word");
    f.push(
        Shape::text("layout", 16.0, 30.0, layout_code(m.layout))
            .start()
            .mono()
            .class("strong"),
    );
    f.push(core_panel(m, s, 0));
    f.push(core_panel(m, s, 1));
    let mut bus = vec![
        Shape::line("wire", (16.0, BUS_Y), (W - 16.0, BUS_Y)).class("thick"),
        Shape::text("name", 16.0, BUS_Y + 28.0, "bus")
            .start()
            .class("muted"),
        Shape::text(
            "latest",
            52.0,
            BUS_Y + 28.0,
            last.map_or("no traffic yet".to_string(), bus_text),
        )
        .start()
        .mono(),
    ];
    let panel_bottom = TOP + 44.0 + 2.0 * ROW + 34.0;
    for c in 0..2 {
        let cx = core_x(c) + PANEL_W / 2.0;
        let active = last.is_some_and(|a| a.core == c && a.request.is_some());
        bus.push(
            Shape::line(format!("tap-{c}"), (cx, panel_bottom), (cx, BUS_Y)).class(if active {
                "accent thick"
            } else {
                ""
            }),
        );
    }
    if let Some(Supplier::Cache(from)) = last.and_then(|a| a.supplier) {
        let (x0, x1) = (
            core_x(from) + PANEL_W / 2.0 + 20.0,
            core_x(1 - from) + PANEL_W / 2.0 - 20.0,
        );
        let d = PathData::new().move_to(x0, panel_bottom + 4.0).quad_to(
            (x0 + x1) / 2.0,
            panel_bottom + 56.0,
            x1,
            panel_bottom + 4.0,
        );
        bus.push(
            Shape::path("transfer", d)
                .arrowhead(crate::scene::Arrow::End)
                .class("warn line"),
        );
    }
    let bus = Shape::group("bus", bus).focus("bus");
    f.push(match last {
        Some(a) => bus.label(bus_text(a)),
        None => bus,
    });
    let fresh = s.lines.iter().all(|l| l.memory_fresh());
    f.push(
        Shape::group(
            "memory",
            vec![
                Shape::line("tap", (MEM_X, BUS_Y), (MEM_X, BUS_Y + 44.0)),
                Shape::rect("box", MEM_X - 110.0, BUS_Y + 44.0, 220.0, 50.0).class("panel"),
                Shape::text(
                    "text",
                    MEM_X,
                    BUS_Y + 76.0,
                    if fresh {
                        "memory: up to date"
                    } else {
                        "memory: stale"
                    },
                ),
            ],
        )
        .class(if fresh { "done" } else { "idle" })
        .state(if fresh { "fresh" } else { "stale" })
        .focus("memory"),
    );
    f
}

fn front(m: &FalseSharing) -> &System {
    match m.layout {
        Layout::Shared => &m.shared,
        Layout::Padded => &m.padded,
    }
}

/// "M" or "M, I": a core's state in each line.
fn states(s: &System, core: usize) -> String {
    let all: Vec<&str> = s.lines.iter().map(|l| l.states[core].letter()).collect();
    all.join(", ")
}

/// One row of the comparison: a layout's figure, given the writes so far.
type Count = fn(&System, u64) -> String;

fn compare(m: &FalseSharing) -> Table {
    let mut t = Table::new(
        "fs-compare",
        "Both layouts, fed the same writes",
        &["", "one line", "padded"],
    );
    let n = u64::from(m.total_writes());
    let rows: [(&str, &str, Count); 5] = [
        ("transfers", "line transfers", |s, _| {
            s.counts.flushes.to_string()
        }),
        ("invalidations", "invalidations", |s, _| {
            s.counts.invalidations.to_string()
        }),
        ("requests", "bus requests", |s, _| {
            s.counts.bus_transactions().to_string()
        }),
        ("cycles", "cycles", |s, _| grouped(s.counts.cycles as i64)),
        ("per-write", "cycles per write", |s, n| {
            fixed(ratio(s.counts.cycles, n, 1), 1)
        }),
    ];
    for (key, name, value) in rows {
        let row = t.row(
            format!("cmp-{key}"),
            vec![
                Cell::text(name),
                Cell::mono(value(&m.shared, n)).key(format!("cmp-{key}-shared")),
                Cell::mono(value(&m.padded, n)).key(format!("cmp-{key}-padded")),
            ],
        );
        if key == "transfers" && m.shared.counts.flushes > 0 {
            row.class("warn");
        }
    }
    t
}

impl View for FalseSharing {
    type Look = ();

    fn scene(&self, _: &(), _: &mut Ui<Self>) -> Scene {
        let s = front(self);
        Scene::new(
            "False sharing",
            format!(
                "{} writes so far. One line: {} transfers, {} cycles. Padded: {} transfers, {} cycles. In front: {}.",
                self.total_writes(),
                self.shared.counts.flushes,
                grouped(self.shared.counts.cycles as i64),
                self.padded.counts.flushes,
                grouped(self.padded.counts.cycles as i64),
                if s.lines.len() == 1 { "one line" } else { "padded" }
            ),
        )
        .figure(machine(self))
        .table(compare(self))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let (a, b) = (self.a_run, self.b_run);
        let protocol = self.shared.protocol;
        let config = FalseSharingConfig {
            protocol,
            a_run: a,
            b_run: b,
            writes: self.limit,
        };
        let protocols = Protocol::ALL
            .iter()
            .map(|&p| {
                (
                    p.label().to_lowercase(),
                    p.label().to_string(),
                    ui.restart(FalseSharingConfig {
                        protocol: p,
                        ..config.clone()
                    }),
                )
            })
            .collect();
        let layouts = [
            (Layout::Shared, "shared", "a and b on one line"),
            (Layout::Padded, "padded", "alignas(64): a line each"),
        ];
        let options = layouts
            .iter()
            .map(|&(l, value, label)| (value, label.to_string(), ui.act(FsAction::SetLayout(l))))
            .collect();
        let run = <u8 as Quantity>::from_i64;
        vec![
            Control::group(
                "Out of turn",
                vec![
                    Control::button("write-a", "Core A writes a", ui.act(FsAction::Write(0))),
                    Control::button("write-b", "Core B writes b", ui.act(FsAction::Write(1))),
                ],
            ),
            Control::slider(
                "run-a",
                "A writes in a row",
                RUN.control_range(a),
                RUN.unit,
                ui.number(move |v| Ok(Command::Do(FsAction::SetRuns { a: run(v), b }))),
            ),
            Control::slider(
                "run-b",
                "then B writes in a row",
                RUN.control_range(b),
                RUN.unit,
                ui.number(move |v| Ok(Command::Do(FsAction::SetRuns { a, b: run(v) }))),
            ),
            Control::choice(
                "protocol",
                "Protocol (restarts)",
                protocol.index(),
                protocols,
            ),
            Control::danger_group(
                "Break it",
                vec![Control::choice(
                    "layout",
                    "Layout in front",
                    usize::from(self.layout == Layout::Padded),
                    options,
                )],
            ),
            Control::note(
                "Step makes the next write of the pattern; both layouts see every write.",
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::Model;

    fn after(n: usize) -> FalseSharing {
        let mut m = FalseSharing::new(&FalseSharingConfig::default());
        for _ in 0..n {
            m.apply(&FsAction::Next).unwrap();
        }
        m
    }

    #[test]
    fn after_b_writes_the_one_line_is_m_in_b_and_i_in_a_and_moved_over_the_bus() {
        let m = after(2);
        let scene = crate::build(&m, &()).0;
        assert_eq!(scene.find("line-0-0").unwrap().state.as_deref(), Some("I"));
        assert_eq!(scene.find("line-1-0").unwrap().state.as_deref(), Some("M"));
        assert!(scene.find("transfer").is_some(), "the line moved A → B");
        let bus = scene.find("latest").unwrap().text_content().unwrap();
        assert_eq!(
            bus,
            "B: BusRdX · line moves A → B, A invalidated · 175 cycles"
        );
        let t = scene.table_named("fs-compare").unwrap();
        assert_eq!(t.rows[0].cells[1].text, "1");
        assert_eq!(t.rows[0].cells[2].text, "0");
    }

    #[test]
    fn padded_each_core_keeps_its_own_line_in_m() {
        let mut m = after(4);
        m.apply(&FsAction::SetLayout(Layout::Padded)).unwrap();
        let scene = crate::build(&m, &()).0;
        for (key, state) in [
            ("line-0-0", "M"),
            ("line-0-1", "I"),
            ("line-1-0", "I"),
            ("line-1-1", "M"),
        ] {
            assert_eq!(
                scene.find(key).unwrap().state.as_deref(),
                Some(state),
                "{key}"
            );
        }
        assert!(scene.find("transfer").is_none());
        let bus = scene.find("latest").unwrap().text_content().unwrap();
        assert_eq!(bus, "B: hit in M, no bus traffic, 5 cycles");
        // 4 writes: 2 misses to memory (350) + 2 hits (5) padded.
        let t = scene.table_named("fs-compare").unwrap();
        assert_eq!(t.rows[3].cells[2].text, "710");
        assert_eq!(t.rows[4].cells[2].text, "177.5");
    }

    #[test]
    fn the_layout_choice_sits_in_the_break_it_zone() {
        let m = after(0);
        let (_, controls, ui) = crate::build(&m, &());
        let g = Control::danger_zone(&controls).expect("a danger group");
        let Some(Control::Choice(c)) = g.controls.first() else {
            panic!("the layout choice");
        };
        assert_eq!(c.selected, 0);
        assert_eq!(
            ui.resolve(c.options[1].send, &crate::Input::Press).unwrap(),
            Command::Do(FsAction::SetLayout(Layout::Padded))
        );
    }
}
