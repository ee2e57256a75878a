//! False sharing: two cores, each cache holding the line(s) of `a` and `b`
//! as eight 8-byte words with the MESI state in front; the bus with the
//! latest request and where the line came from; memory. A table sets both
//! layouts' counts side by side.

mod lesson;

use crate::control::Control;
use crate::draw::geometry::PathData;
use crate::draw::text::line_key;
// `Layout` here is the struct's (one line or padded); the screen's is `Screen`.
use crate::layout::{Layout as Screen, NARROW_WIDTH};
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
const MEM_W: f32 = 220.0;
const MEM_H: f32 = 50.0;
const PANEL_H: f32 = 44.0 + 2.0 * ROW + 34.0;
/// A line of text under another.
const LEADING: f32 = 22.0;

/// Where the figure puts the code, the cores, the bus and memory.
struct Geo {
    width: f32,
    height: f32,
    /// Each core's panel, top-left; their width.
    cores: [(f32, f32); 2],
    panel_w: f32,
    /// Each core's tap on the bus: its x.
    taps: [f32; 2],
    bus_y: f32,
    /// The baseline of the bus's first line of text.
    bus_text_y: f32,
    /// Memory's box: x, y, width.
    memory: (f32, f32, f32),
    /// Wrap the code and the bus's text at their natural breaks.
    wrap: bool,
}

impl Geo {
    /// Wide: the code, both cores side by side, the bus under them with its
    /// text, memory hanging below it. Narrow: the code in two lines, core A,
    /// memory hanging above the bus on the right, the bus, core B, and the
    /// bus's text in lines under it all.
    fn new(screen: Screen) -> Self {
        match screen {
            Screen::Wide => {
                let x = |c: usize| 16.0 + c as f32 * (W - 32.0 - PANEL_W);
                Geo {
                    width: W,
                    height: BUS_Y + 104.0,
                    cores: [(x(0), TOP), (x(1), TOP)],
                    panel_w: PANEL_W,
                    taps: [x(0) + PANEL_W / 2.0, x(1) + PANEL_W / 2.0],
                    bus_y: BUS_Y,
                    bus_text_y: BUS_Y + 28.0,
                    memory: (MEM_X - MEM_W / 2.0, BUS_Y + 44.0, MEM_W),
                    wrap: false,
                }
            }
            Screen::Narrow => {
                let (x, w) = (12.0, NARROW_WIDTH - 24.0);
                let top = TOP + LEADING;
                let memory_y = top + PANEL_H + 16.0;
                let bus_y = memory_y + MEM_H + 24.0;
                let b_y = bus_y + 38.0;
                let bus_text_y = b_y + PANEL_H + 28.0;
                // Both taps left of memory, one over the other.
                let tap = x + 98.0;
                let mem_w = 180.0;
                Geo {
                    width: NARROW_WIDTH,
                    height: bus_text_y + 2.0 * LEADING + 12.0,
                    cores: [(x, top), (x, b_y)],
                    panel_w: w,
                    taps: [tap, tap],
                    bus_y,
                    bus_text_y,
                    memory: (x + w - mem_w, memory_y, mem_w),
                    wrap: true,
                }
            }
        }
    }

    /// Where core `c`'s tap meets its panel: its bottom edge if the panel is
    /// above the bus, else its top.
    fn tap_end(&self, c: usize) -> f32 {
        let y = self.cores[c].1;
        if y < self.bus_y {
            y + PANEL_H
        } else {
            y
        }
    }
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

/// The two layouts in code, in two pieces: a phone shows them one under
/// the other.
fn layout_code(layout: Layout) -> [&'static str; 2] {
    match layout {
        Layout::Shared => [
            "struct { long a; long b; };",
            "   // a and b in one 64-byte line",
        ],
        Layout::Padded => ["struct { alignas(64) long a;", " alignas(64) long b; };"],
    }
}

/// The text at `(x, y)`: one line, or (`wrap`) each piece on its own line,
/// the later ones indented by `indent`. The first line keeps `key`.
fn lines(key: &str, (x, y): (f32, f32), pieces: &[&str], wrap: bool, indent: f32) -> Vec<Shape> {
    if !wrap {
        return vec![Shape::text(key.to_string(), x, y, pieces.concat()).start()];
    }
    pieces
        .iter()
        .enumerate()
        .map(|(i, piece)| {
            let (k, dx) = (line_key(key, i), if i == 0 { 0.0 } else { indent });
            Shape::text(k, x + dx, y + LEADING * i as f32, piece.trim_start()).start()
        })
        .collect()
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
fn cache_line(g: &Geo, m: &FalseSharing, s: &System, core: usize, l: usize) -> Shape {
    let (px, top) = g.cores[core];
    let (x, y) = (px + 12.0, top + 52.0 + ROW * l as f32);
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

fn core_panel(g: &Geo, m: &FalseSharing, s: &System, core: usize) -> Shape {
    let (x, top) = g.cores[core];
    let panel_w = g.panel_w;
    let var = if core == 0 { "a" } else { "b" };
    let mut shapes = vec![
        Shape::rect("box", x, top, panel_w, PANEL_H).class("panel"),
        Shape::text(
            "title",
            x + 12.0,
            top + 30.0,
            format!("Core {} · L1", core_name(core)),
        )
        .start()
        .size(Size::Title),
        Shape::text(
            "word",
            x + panel_w - 12.0,
            top + 30.0,
            format!("writes {var}"),
        )
        .end()
        .class("muted"),
        Shape::text(
            "cycles",
            x + 12.0,
            top + 44.0 + 2.0 * ROW + 20.0,
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
    shapes.extend((0..s.lines.len()).map(|l| cache_line(g, m, s, core, l)));
    if m.layout == Layout::Shared {
        shapes.push(
            Shape::text(
                "offsets",
                x + 12.0,
                top + 52.0 + WORD + 28.0,
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

fn machine(m: &FalseSharing, screen: Screen) -> Figure {
    let g = Geo::new(screen);
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
        g.width,
        g.height,
    )
    .legend("driver", "M: this core may write")
    .legend("done", "E or S: clean copy")
    .legend("idle dashed", "I: no copy")
    .legend("accent", "the variable's word");
    for code in lines("layout", (16.0, 30.0), &layout_code(m.layout), g.wrap, 16.0) {
        f.push(code.mono().class("strong"));
    }
    f.push(core_panel(&g, m, s, 0));
    f.push(core_panel(&g, m, s, 1));
    let mut bus = vec![
        Shape::line("wire", (16.0, g.bus_y), (g.width - 16.0, g.bus_y)).class("thick"),
        Shape::text("name", 16.0, g.bus_text_y, "bus")
            .start()
            .class("muted"),
    ];
    let latest = last.map_or("no traffic yet".to_string(), bus_text);
    // On a phone, one clause of the latest access a line.
    let clauses: Vec<String> = latest
        .split(" · ")
        .enumerate()
        .map(|(i, c)| {
            if i == 0 {
                c.to_string()
            } else {
                ["· ", c].concat()
            }
        })
        .collect();
    let clauses: Vec<&str> = clauses.iter().map(String::as_str).collect();
    let pieces: Vec<&str> = if g.wrap { clauses } else { vec![&latest] };
    bus.extend(
        lines("latest", (52.0, g.bus_text_y), &pieces, g.wrap, 0.0)
            .into_iter()
            .map(Shape::mono),
    );
    for c in 0..2 {
        let cx = g.taps[c];
        let active = last.is_some_and(|a| a.core == c && a.request.is_some());
        bus.push(
            Shape::line(format!("tap-{c}"), (cx, g.tap_end(c)), (cx, g.bus_y)).class(if active {
                "accent thick"
            } else {
                ""
            }),
        );
    }
    if let Some(Supplier::Cache(from)) = last.and_then(|a| a.supplier) {
        let d = match screen {
            // Under the panels, from one tap across to the other.
            Screen::Wide => {
                let panel_bottom = TOP + PANEL_H;
                let (x0, x1) = (g.taps[from] + 20.0, g.taps[1 - from] - 20.0);
                PathData::new().move_to(x0, panel_bottom + 4.0).quad_to(
                    (x0 + x1) / 2.0,
                    panel_bottom + 56.0,
                    x1,
                    panel_bottom + 4.0,
                )
            }
            // Across the bus, from one panel to the other, left of the taps.
            Screen::Narrow => {
                let toward = |c: usize| if g.cores[c].1 < g.bus_y { 4.0 } else { -4.0 };
                let x = g.taps[from] - 40.0;
                let (y0, y1) = (
                    g.tap_end(from) + toward(from),
                    g.tap_end(1 - from) + toward(1 - from),
                );
                PathData::new()
                    .move_to(x, y0)
                    .quad_to(x - 40.0, (y0 + y1) / 2.0, x, y1)
            }
        };
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
    let (mx, my, mw) = g.memory;
    let mem_x = mx + mw / 2.0;
    // Memory's tap meets the box on the side facing the bus.
    let mem_edge = if my > g.bus_y { my } else { my + MEM_H };
    f.push(
        Shape::group(
            "memory",
            vec![
                Shape::line("tap", (mem_x, g.bus_y), (mem_x, mem_edge)),
                Shape::rect("box", mx, my, mw, MEM_H).class("panel"),
                Shape::text(
                    "text",
                    mem_x,
                    my + 32.0,
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
        // A lesson can point at a row.
        row.focus(format!("cmp-{key}"));
        if key == "transfers" && m.shared.counts.flushes > 0 {
            row.class("warn");
        }
    }
    t
}

impl View for FalseSharing {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
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
        .figure(machine(self, ui.layout()))
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
                    p.label().to_ascii_lowercase(),
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
