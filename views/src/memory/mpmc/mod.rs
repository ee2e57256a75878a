//! MPMC ring: Vyukov's slots in a row, each with its data and its sequence
//! number; the two shared positions pointing into the ring; producers above,
//! consumers below (click one to step it). A table sets the CAS this run
//! needed against SPSC's none.

mod lesson;

use super::kit::{mono, panel, panel_height, text, Line};
use crate::control::Control;
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::{Command, Ui, View};
use crate::scene::{Cell as TableCell, Figure, Item, List, Scene, Shape, Size, Table};
use demos::memory::mpmc::{
    agent_name, Agent, Mpmc, MpmcAction, MpmcConfig, Phase, AGENTS, CAPACITIES, ITEMS,
};
use demos::text::plural;
use demos::Quantity;

const W: f32 = 960.0;
const PANEL_W: f32 = 455.0;
const LINES: usize = 3;
const TOP_Y: f32 = 10.0;
const RING_Y: f32 = 202.0;
const CELL_H: f32 = 110.0;
/// From the ring's edge to the panels past its position labels.
const RING_MARGIN: f32 = 72.0;
const CELL_MAX_W: f32 = 110.0;
/// On a phone a ring of 16 slots wraps into rows of this many, so a slot
/// stays wide enough for its `seq 13`.
const NARROW_SLOTS_PER_ROW: usize = 8;
/// Between two rows of the wrapped ring: room for one position's label
/// under the first row and the other's over the second, apart.
const RING_ROW_GAP: f32 = 136.0;
/// A slot narrower than this has no room for `seq 13` on one line.
const SEQ_ONE_LINE_W: f32 = 60.0;

/// Where the figure puts the slots and the agents.
struct Geo {
    width: f32,
    height: f32,
    /// Slots a row, their width, and the first's left edge.
    per_row: usize,
    cell_w: f32,
    ring_x: f32,
    ring_y: f32,
    /// A slot's `seq` word over its number, in slots too narrow for both.
    seq_two_lines: bool,
    /// Each agent's panel: x, y; their width.
    agents: [(f32, f32); AGENTS],
    panel_w: f32,
}

impl Geo {
    /// Wide: producers side by side above the ring, consumers below.
    /// Narrow: the same order, but each agent's panel full width, one under
    /// the other, and a ring of 16 in two rows.
    fn new(layout: Layout, capacity: usize) -> Self {
        let panel_h = panel_height(LINES);
        match layout {
            Layout::Wide => {
                let cell_w = (880.0 / capacity as f32).min(CELL_MAX_W);
                let bottom = RING_Y + CELL_H + RING_MARGIN;
                let x = |a: usize| 16.0 + (a % 2) as f32 * (W - 32.0 - PANEL_W);
                Geo {
                    width: W,
                    height: bottom + panel_h + 8.0,
                    per_row: capacity,
                    cell_w,
                    ring_x: (W - cell_w * capacity as f32) / 2.0,
                    ring_y: RING_Y,
                    seq_two_lines: false,
                    agents: [(x(0), TOP_Y), (x(1), TOP_Y), (x(2), bottom), (x(3), bottom)],
                    panel_w: PANEL_W,
                }
            }
            Layout::Narrow => {
                let per_row = capacity.min(NARROW_SLOTS_PER_ROW);
                let rows = capacity.div_ceil(per_row);
                let cell_w = ((NARROW_WIDTH - 32.0) / per_row as f32).min(CELL_MAX_W);
                let pitch = panel_h + 12.0;
                let ring_y = TOP_Y + 2.0 * pitch + (RING_Y - TOP_Y - panel_h - 12.0);
                let ring_end = ring_y + rows as f32 * CELL_H + (rows - 1) as f32 * RING_ROW_GAP;
                let bottom = ring_end + RING_MARGIN;
                Geo {
                    width: NARROW_WIDTH,
                    height: bottom + 2.0 * pitch - 12.0 + 8.0,
                    per_row,
                    cell_w,
                    ring_x: (NARROW_WIDTH - cell_w * per_row as f32) / 2.0,
                    ring_y,
                    seq_two_lines: cell_w < SEQ_ONE_LINE_W,
                    agents: [
                        (12.0, TOP_Y),
                        (12.0, TOP_Y + pitch),
                        (12.0, bottom),
                        (12.0, bottom + pitch),
                    ],
                    panel_w: NARROW_WIDTH - 24.0,
                }
            }
        }
    }

    /// The baseline of a slot's holders, under its sequence number.
    fn holders_y(&self) -> f32 {
        if self.seq_two_lines {
            104.0
        } else {
            101.0
        }
    }

    /// Slot `i`'s left edge and top.
    fn cell(&self, i: usize) -> (f32, f32) {
        (
            self.ring_x + (i % self.per_row) as f32 * self.cell_w,
            self.ring_y + (i / self.per_row) as f32 * (CELL_H + RING_ROW_GAP),
        )
    }
}

fn phase_word(m: &Mpmc, p: Phase) -> &'static str {
    match p {
        Phase::Idle => "idle",
        Phase::ReadSeq if m.sequenced => "read seq",
        Phase::ReadSeq => "check indices",
        Phase::Cas => "CAS",
        Phase::Write => "write",
        Phase::Publish => "publish",
        Phase::Read => "read",
        Phase::Release => "release",
        Phase::Done => "done",
    }
}

fn agent_lines(m: &Mpmc, a: usize, ag: &Agent) -> Vec<Line> {
    let opt = |v: Option<u32>| v.map_or("—".into(), |v| v.to_string());
    let pos = if m.sequenced {
        format!("pos = {} · seq = {}", opt(ag.pos), opt(ag.seq))
    } else {
        format!("pos = {}", opt(ag.pos))
    };
    let item = if a < 2 { "item" } else { "got" };
    vec![
        text(format!("next: {}", phase_word(m, ag.phase))),
        mono(format!("{pos} · {item} = {}", opt(ag.item))),
        text(format!(
            "{} {} · CAS {} · failed {}",
            if a < 2 { "sent" } else { "received" },
            ag.done,
            ag.cas_ops,
            ag.retries
        )),
    ]
}

/// A slot's state in words, its class, and whether its data is shown.
fn slot_state(m: &Mpmc, i: usize) -> (&'static str, &'static str, bool) {
    let mask = m.capacity() as u32 - 1;
    let cell = m.cells[i];
    let reading = m.agents[2..].iter().find_map(|ag| {
        ag.pos
            .filter(|p| p & mask == i as u32 && matches!(ag.phase, Phase::Read | Phase::Release))
    });
    if let Some(p) = reading {
        return if cell.written == Some(p) {
            ("reading", "accent", true)
        } else {
            ("unwritten", "fault", false)
        };
    }
    let claimed = (m.dequeue_pos..m.enqueue_pos).find(|p| p & mask == i as u32);
    match claimed {
        Some(p) if cell.written == Some(p) && (!m.sequenced || cell.seq == p + 1) => {
            ("full", "done", true)
        }
        Some(p) if cell.written == Some(p) => ("written", "warn", true),
        Some(_) => ("reserved", "warn", false),
        None => ("free", "idle", false),
    }
}

fn slot(g: &Geo, m: &Mpmc, i: usize) -> Shape {
    let ((x, ring_y), w) = (g.cell(i), g.cell_w);
    let cx = x + w / 2.0;
    let (word, class, shown) = slot_state(m, i);
    let cell = m.cells[i];
    let data = match cell.data {
        Some(v) if shown => v.to_string(),
        _ => "·".into(),
    };
    let mut shapes = vec![
        Shape::rect("box", x + 2.0, ring_y, w - 4.0, CELL_H).rounded(3.0),
        Shape::text("index", cx, ring_y + 20.0, format!("[{i}]")).size(Size::Small),
        Shape::text("data", cx, ring_y + 54.0, data.clone())
            .mono()
            .size(Size::Large),
    ];
    if m.sequenced && g.seq_two_lines {
        shapes.push(Shape::text("seq", cx, ring_y + 72.0, "seq").size(Size::Small));
        shapes.push(
            Shape::text("seq-n", cx, ring_y + 87.0, cell.seq.to_string())
                .mono()
                .size(Size::Small),
        );
    } else if m.sequenced {
        shapes.push(
            Shape::text("seq", cx, ring_y + 78.0, format!("seq {}", cell.seq))
                .mono()
                .size(Size::Small),
        );
    }
    // Who holds the slot, on its bottom line.
    let mask = m.capacity() as u32 - 1;
    let holders: Vec<&str> = (0..AGENTS)
        .filter(|&a| {
            let ag = &m.agents[a];
            ag.pos.is_some_and(|p| p & mask == i as u32)
                && !matches!(ag.phase, Phase::Idle | Phase::Done)
        })
        .map(agent_name)
        .collect();
    if !holders.is_empty() {
        shapes.push(
            Shape::text("by", cx, ring_y + g.holders_y(), holders.join(" "))
                .mono()
                .size(Size::Small)
                .class("strong"),
        );
    }
    Shape::group(format!("slot-{i}"), shapes)
        .class(class)
        .state(word)
        .label(["Slot ", &i.to_string(), ": ", word, ", ", &data].concat())
        .focus(format!("slot-{i}"))
}

/// "enqueue_pos = 5" with an arrow to its slot.
fn position(g: &Geo, m: &Mpmc, key: &str, label: &str, pos: u32, above: bool) -> Shape {
    let i = (pos & (m.capacity() as u32 - 1)) as usize;
    let (x, ring_y) = g.cell(i);
    let cx = x + g.cell_w / 2.0;
    let (ty, from, to) = if above {
        (ring_y - 44.0, ring_y - 36.0, ring_y - 2.0)
    } else {
        (
            ring_y + CELL_H + 56.0,
            ring_y + CELL_H + 36.0,
            ring_y + CELL_H + 2.0,
        )
    };
    let tx = demos::float::clamped(cx, 130.0, g.width - 130.0);
    Shape::group(
        key,
        vec![
            Shape::arrow("arrow", (cx, from), (cx, to)).class("thick"),
            Shape::text("text", tx, ty, format!("{label} = {pos} → [{i}]"))
                .mono()
                .class("tone"),
        ],
    )
    .class(if above { "driver" } else { "done" })
    .state(pos.to_string())
}

fn ring(m: &Mpmc, ui: &mut Ui<Mpmc>) -> Figure {
    let g = Geo::new(ui.layout(), m.capacity());
    let mut f = Figure::new(
        "mpmc-ring",
        format!(
            "Ring of {} slots, enqueue_pos {}, dequeue_pos {}",
            m.capacity(),
            m.enqueue_pos,
            m.dequeue_pos
        ),
        g.width,
        g.height,
    )
    .legend("done", "full: written and published")
    .legend("warn", "reserved or written, not yet published")
    .legend("accent", "being read")
    .legend("fault", "claimed by a consumer, never written")
    .legend("idle", "free");
    // Positions first, so agents' tags and panels draw over their text.
    f.push(position(
        &g,
        m,
        "enqueue-pos",
        "enqueue_pos",
        m.enqueue_pos,
        true,
    ));
    f.push(position(
        &g,
        m,
        "dequeue-pos",
        "dequeue_pos",
        m.dequeue_pos,
        false,
    ));
    for i in 0..m.capacity() {
        f.push(slot(&g, m, i));
    }
    for a in 0..AGENTS {
        let ag = &m.agents[a];
        let (x, y) = g.agents[a];
        let word = match ag.phase {
            Phase::Done => "done",
            Phase::Idle => "idle",
            Phase::Write | Phase::Publish | Phase::Read | Phase::Release => "holds a slot",
            _ => "claiming",
        };
        let class = match ag.phase {
            Phase::Done => "done",
            Phase::Idle => "idle",
            _ if a < 2 => "driver",
            _ => "nic",
        };
        f.push(
            panel(
                format!("agent-{a}"),
                (x, y, g.panel_w),
                &[
                    agent_name(a),
                    if a < 2 {
                        " · producer"
                    } else {
                        " · consumer"
                    },
                ]
                .concat(),
                word,
                &agent_lines(m, a, ag),
            )
            .class(class)
            .state(word)
            .label(word)
            .focus(format!("agent-{a}"))
            .on_click(ui.act(MpmcAction::Step(a))),
        );
    }
    f
}

fn contrast(m: &Mpmc) -> Table {
    let ops = m.enqueued.len() + m.dequeued.len();
    let mut t = Table::new(
        "mpmc-contrast",
        format!(
            "MPMC against SPSC, for the same {ops} operation{}",
            plural(ops)
        ),
        &["", "MPMC", "SPSC"],
    );
    let rows = [
        ("cas", "CAS on a position", m.cas_ops(), 0),
        ("failed", "failed CAS", m.retries(), 0),
        ("stores", "plain stores", 0, ops as u32),
    ];
    for (key, name, mpmc, spsc) in rows {
        t.row(
            format!("vs-{key}"),
            vec![
                TableCell::text(name),
                TableCell::mono(mpmc.to_string()).key(format!("vs-{key}-mpmc")),
                TableCell::mono(spsc.to_string()).key(format!("vs-{key}-spsc")),
            ],
        );
    }
    t
}

fn torn(m: &Mpmc) -> List {
    let mut list = List::new(
        "mpmc-torn",
        "Unwritten slots read",
        if m.sequenced {
            "None: a consumer waits until the slot's sequence says the data is published."
        } else {
            "None yet: let a consumer in between a producer's CAS and its write."
        },
    );
    for (i, t) in m.torn.iter().enumerate() {
        list = list.item(
            Item::new(
                format!("torn-{i}"),
                format!(
                    "{} claimed position {} and read {} before any producer wrote it",
                    agent_name(usize::from(t.consumer)),
                    t.pos,
                    t.got.map_or("nothing".into(), |v| format!("a stale {v}"))
                ),
            )
            .class("fault")
            .tag("Fault:"),
        );
    }
    list
}

impl View for Mpmc {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        Scene::new(
            "MPMC ring",
            format!(
                "Vyukov's bounded queue of {} slots{}: enqueue_pos {}, dequeue_pos {}; {} CAS so far, {} failed.",
                self.capacity(),
                if self.sequenced { "" } else { " without sequence numbers" },
                self.enqueue_pos,
                self.dequeue_pos,
                self.cas_ops(),
                self.retries()
            ),
        )
        .figure(ring(self, ui))
        .table(contrast(self))
        .list(torn(self))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let mut steps: Vec<Control> = (0..AGENTS)
            .map(|a| {
                let n = agent_name(a);
                Control::button(
                    &format!("step-{}", n.to_ascii_lowercase()),
                    format!("Step {n}"),
                    ui.act(MpmcAction::Step(a)),
                )
                .primary()
            })
            .collect();
        steps.push(Control::button(
            "steal",
            "P2 steals the head",
            ui.act(MpmcAction::Steal),
        ));
        let config = MpmcConfig {
            capacity: self.capacity(),
            items: self.items,
            sequenced: self.sequenced,
        };
        let sizes = CAPACITIES
            .iter()
            .map(|&c| {
                (
                    c.to_string(),
                    format!("{c} slots"),
                    ui.restart(MpmcConfig {
                        capacity: c,
                        ..config.clone()
                    }),
                )
            })
            .collect();
        let items = config.clone();
        vec![
            Control::group("Schedule", steps),
            Control::choice(
                "capacity",
                "Capacity (restarts)",
                CAPACITIES
                    .iter()
                    .position(|&c| c == self.capacity())
                    .unwrap_or(0),
                sizes,
            ),
            Control::slider(
                "items",
                "Items per producer (restarts)",
                ITEMS.control_range(self.items),
                ITEMS.unit,
                ui.number(move |v| {
                    Ok(Command::Restart(MpmcConfig {
                        items: Quantity::from_i64(v),
                        ..items.clone()
                    }))
                }),
            ),
            Control::danger_group(
                "Break it",
                vec![Control::toggle(
                    "no-seq",
                    "Drop the sequence numbers (restarts)",
                    !self.sequenced,
                    ui.restart(MpmcConfig {
                        sequenced: !self.sequenced,
                        ..config
                    }),
                )
                .danger()],
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::Model;

    fn run(config: MpmcConfig, order: &[usize]) -> Mpmc {
        let mut m = Mpmc::new(&config);
        for &a in order {
            m.apply(&MpmcAction::Step(a)).unwrap();
        }
        m
    }

    fn state(scene: &Scene, key: &str) -> String {
        scene.find(key).unwrap().state.clone().unwrap()
    }

    #[test]
    fn an_enqueue_reserves_writes_then_publishes_its_slot() {
        let m = run(MpmcConfig::default(), &[0, 0, 0]);
        let scene = crate::build(&m, &()).0;
        assert_eq!(state(&scene, "slot-0"), "reserved");
        assert_eq!(state(&scene, "enqueue-pos"), "1");
        let m = run(MpmcConfig::default(), &[0, 0, 0, 0]);
        assert_eq!(state(&crate::build(&m, &()).0, "slot-0"), "written");
        let m = run(MpmcConfig::default(), &[0, 0, 0, 0, 0]);
        let scene = crate::build(&m, &()).0;
        assert_eq!(state(&scene, "slot-0"), "full");
        let seq = scene
            .find("slot-0")
            .unwrap()
            .children()
            .iter()
            .any(|s| s.text_content() == Some("seq 1"));
        assert!(seq);
    }

    #[test]
    fn without_sequence_numbers_a_consumer_claims_an_unwritten_slot() {
        let config = MpmcConfig {
            sequenced: false,
            ..MpmcConfig::default()
        };
        let m = run(config, &[0, 0, 0, 2, 2, 2]);
        let scene = crate::build(&m, &()).0;
        assert_eq!(state(&scene, "slot-0"), "unwritten");
        assert!(scene.find("slot-0").unwrap().has_class("fault"));
        let m = run(m_config(), &[0, 0, 0, 2, 2, 2, 2]);
        let scene = crate::build(&m, &()).0;
        let list = scene.list_named("mpmc-torn").unwrap();
        assert_eq!(
            list.items[0].text,
            "C1 claimed position 0 and read nothing before any producer wrote it"
        );
    }

    fn m_config() -> MpmcConfig {
        MpmcConfig {
            sequenced: false,
            ..MpmcConfig::default()
        }
    }

    #[test]
    fn the_contrast_counts_this_runs_cas_against_none_for_spsc() {
        let mut m = Mpmc::new(&MpmcConfig::default());
        m.apply(&MpmcAction::Step(0)).unwrap();
        m.apply(&MpmcAction::Step(0)).unwrap();
        m.apply(&MpmcAction::Steal).unwrap();
        for _ in 0..5 {
            m.apply(&MpmcAction::Step(0)).unwrap();
        }
        let t = crate::build(&m, &()).0;
        let t = t.table_named("mpmc-contrast").unwrap();
        // P1: two CAS (one failed) for one enqueue; P2 reserved but has not finished.
        assert_eq!(t.caption, "MPMC against SPSC, for the same 1 operation");
        assert_eq!(t.rows[0].cells[1].text, "3");
        assert_eq!(t.rows[1].cells[1].text, "1");
        assert_eq!(t.rows[2].cells[2].text, "1");
    }
}
