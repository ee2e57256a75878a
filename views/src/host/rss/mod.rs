//! Many queues, many cores: the indirection table as a grid the learner can
//! edit, the queues and the cores of two NUMA nodes with the interrupts'
//! wiring between them, and every flow's path as a table row.

mod lesson;

use crate::control::Control;
use crate::knob::bounded;
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::{Ui, View};
use crate::scene::{Cell, Figure, Scene, Shape, Size, Table};
use demos::host::rss::flows::Flow;
use demos::host::rss::steering::{NIC_NODE, NODES};
use demos::host::rss::{Rss, RssAction, FLOWS, PER_NODE, QUEUES, TABLE_ENTRIES};
use demos::text::{decimal, plural};

/// The table is drawn as `ethtool -x` lists it: rows of consecutive
/// entries, 16 to a row on a wide screen. A phone gets 8 to a row, so each
/// cell is a finger's target: at least 24 CSS px each way (WCAG 2.5.8) when
/// the 420-unit figure is drawn 340 px wide.
const WIDE_COLUMNS: usize = 16;
const NARROW_COLUMNS: usize = 8;

/// Where things sit in the figure, in figure units.
struct Frame {
    width: f32,
    margin: f32,
    columns: usize,
    cell_w: f32,
    cell_h: f32,
    table_y: f32,
    /// Queue boxes per row, and the first row's top.
    queues_per_row: usize,
    queues_y: f32,
    /// Whether the two nodes stand side by side or one above the other.
    nodes_side_by_side: bool,
}

/// The table's top: below the two lines about the latest packet and the
/// table's title.
const TABLE_Y: f32 = 96.0;
const QUEUE_H: f32 = 40.0;
const QUEUE_PITCH: f32 = 52.0;
const CORE_H: f32 = 64.0;
const NODE_PAD: f32 = 8.0;
const NODE_HEAD: f32 = 26.0;

fn frame(layout: Layout) -> Frame {
    let width = layout.pick(720.0, NARROW_WIDTH);
    let margin = layout.pick(24.0, 18.0);
    let queues_per_row = layout.pick(16, 8);
    let columns = layout.pick(WIDE_COLUMNS, NARROW_COLUMNS);
    let cell_h = layout.pick(22.0, 30.0);
    Frame {
        width,
        margin,
        columns,
        cell_w: (width - 2.0 * margin) / columns as f32,
        cell_h,
        table_y: TABLE_Y,
        queues_per_row,
        queues_y: TABLE_Y + (TABLE_ENTRIES / columns) as f32 * cell_h + 40.0,
        nodes_side_by_side: layout == Layout::Wide,
    }
}

impl Frame {
    fn queue_rows(&self, queues: u32) -> usize {
        (queues as usize).div_ceil(self.queues_per_row)
    }

    /// The box of queue q: (x, y, w).
    fn queue_box(&self, q: u32, queues: u32) -> (f32, f32, f32) {
        let per_row = self.queues_per_row.min(queues as usize).max(1);
        let pitch = ((self.width - 2.0 * self.margin) / per_row as f32).min(90.0);
        let row = q as usize / self.queues_per_row;
        let col = q as usize % self.queues_per_row;
        (
            self.margin + col as f32 * pitch,
            self.queues_y + row as f32 * QUEUE_PITCH,
            pitch - 6.0,
        )
    }

    fn cores_y(&self, queues: u32) -> f32 {
        self.queues_y + self.queue_rows(queues) as f32 * QUEUE_PITCH + 40.0
    }

    /// The panel of node n: (x, y, w).
    fn node_panel(&self, node: u32, queues: u32) -> (f32, f32, f32) {
        let top = self.cores_y(queues);
        let inner = self.width - 2.0 * self.margin;
        if self.nodes_side_by_side {
            let w = (inner - 12.0) / NODES as f32;
            (self.margin + node as f32 * (w + 12.0), top, w)
        } else {
            (
                self.margin,
                top + node as f32 * (CORE_H + NODE_HEAD + 2.0 * NODE_PAD + 12.0),
                inner,
            )
        }
    }

    /// The box of core c: (x, y, w).
    fn core_box(&self, m: &Rss, core: u32) -> (f32, f32, f32) {
        let t = m.topology();
        let node = t.node_of(core);
        let (x, y, w) = self.node_panel(node, m.config.queues);
        let per = t.per_node as f32;
        let pitch = (w - 2.0 * NODE_PAD) / per;
        let i = (core - t.node_cores(node).start) as f32;
        (x + NODE_PAD + i * pitch, y + NODE_HEAD, pitch - 6.0)
    }

    fn height(&self, queues: u32) -> f32 {
        let (_, y, _) = self.node_panel(NODES - 1, queues);
        y + NODE_HEAD + CORE_H + 2.0 * NODE_PAD + 8.0
    }
}

/// The entries some flow's hash picks, and whether an elephant's does.
fn entry_use(m: &Rss, flows: &[Flow]) -> Vec<(bool, bool)> {
    let mut used = vec![(false, false); TABLE_ENTRIES];
    for (i, f) in flows.iter().enumerate() {
        let e = m.path(i, f).entry;
        used[e].0 = true;
        used[e].1 |= f.elephant;
    }
    used
}

fn steering_figure(m: &Rss, layout: Layout, ui: &mut Ui<Rss>) -> Figure {
    let fr = frame(layout);
    let flows = m.flows();
    let queues = m.config.queues;
    let last = m.last.map(|i| (i, flows[i], m.path(i, &flows[i])));
    let mut f = Figure::new(
        "steering",
        format!(
            "The indirection table's {TABLE_ENTRIES} entries, {queues} receive queue{} and the {} cores of two NUMA nodes, with each queue's interrupt wired to its core",
            plural(queues as usize),
            m.topology().cores()
        ),
        fr.width,
        fr.height(queues),
    )
    .legend("accent", "the latest packet's path")
    .legend("warn", "an elephant flow's entry, or work on the far node")
    .legend("done", "an entry some flow's hash picks")
    .legend("idle", "no flow lands here");

    // The latest packet, as the NIC sees it.
    let (line1, line2) = match &last {
        Some((_, flow, p)) => (
            format!("packet {}: {}", m.sent, flow.tuple()),
            format!(
                "hash {:#010x} · low 7 bits {} → queue {}",
                flow.hash, p.entry, p.queue
            ),
        ),
        None => (
            "no packet yet: Step receives one".to_string(),
            format!("{} flows wait", flows.len()),
        ),
    };
    f.push(
        Shape::text("packet", fr.margin, 22.0, line1)
            .start()
            .mono()
            .size(layout.pick(Size::Normal, Size::Small)),
    );
    f.push(
        Shape::text("hash", fr.margin, 48.0, line2)
            .start()
            .mono()
            .size(layout.pick(Size::Normal, Size::Small))
            .focus("hash"),
    );

    // The indirection table.
    let uses = entry_use(m, flows);
    f.push(
        Shape::rect(
            "table-frame",
            fr.margin - 3.0,
            fr.table_y - 3.0,
            fr.cell_w * fr.columns as f32 + 6.0,
            fr.cell_h * (TABLE_ENTRIES / fr.columns) as f32 + 6.0,
        )
        .class("panel")
        .focus("table"),
    );
    f.push(
        Shape::text(
            "table-title",
            fr.margin,
            fr.table_y - 10.0,
            "indirection table: select an entry to move it",
        )
        .start()
        .size(Size::Small),
    );
    let hit = last.as_ref().map(|(_, _, p)| p.entry);
    for (e, &(used, elephant)) in uses.iter().enumerate() {
        let x = fr.margin + (e % fr.columns) as f32 * fr.cell_w;
        let y = fr.table_y + (e / fr.columns) as f32 * fr.cell_h;
        let class = if hit == Some(e) {
            "accent"
        } else if elephant {
            "warn"
        } else if used {
            "done"
        } else {
            "idle"
        };
        let state = if hit == Some(e) {
            "hit"
        } else if used {
            "used"
        } else {
            "unused"
        };
        let queue = m.table[e];
        f.push(
            Shape::group(
                format!("entry-{e}"),
                vec![
                    Shape::rect("cell", x, y, fr.cell_w - 2.0, fr.cell_h - 2.0).class(class),
                    Shape::text(
                        "q",
                        x + fr.cell_w / 2.0 - 1.0,
                        y + fr.cell_h / 2.0 + 5.0,
                        queue.to_string(),
                    )
                    .mono()
                    .size(Size::Small),
                ],
            )
            .state(state)
            .focus(format!("entry-{e}"))
            .label(format!(
                "Entry {e}: queue {queue}{}",
                match (used, elephant) {
                    (_, true) => ", an elephant lands here",
                    (true, false) => ", a flow lands here",
                    _ => "",
                }
            ))
            .on_click(ui.act(RssAction::CycleEntry(e as u8))),
        );
    }

    // Queues, their packet counts, and their interrupts' wires.
    f.push(
        Shape::text(
            "queues-title",
            fr.margin,
            fr.queues_y - 10.0,
            "receive queues (packets)",
        )
        .start()
        .size(Size::Small),
    );
    let last_path = last.as_ref().map(|(_, _, p)| *p);
    let per_queue = m.per_queue();
    for q in 0..queues {
        let (x, y, w) = fr.queue_box(q, queues);
        let on_path = last_path.is_some_and(|p| p.queue == q);
        f.push(
            Shape::group(
                format!("queue-{q}"),
                vec![
                    Shape::rect("box", x, y, w, QUEUE_H).class(if on_path {
                        "accent"
                    } else {
                        "nic"
                    }),
                    Shape::text("name", x + w / 2.0, y + 17.0, format!("q{q}")).mono(),
                    Shape::text(
                        "count",
                        x + w / 2.0,
                        y + 34.0,
                        per_queue[q as usize].to_string(),
                    )
                    .mono()
                    .size(Size::Small),
                ],
            )
            .state(if on_path { "latest" } else { "waiting" })
            .focus("queues")
            .label(format!(
                "Queue {q}: {} packet{}, interrupts core {}",
                per_queue[q as usize],
                plural(per_queue[q as usize] as usize),
                m.irq_core(q)
            )),
        );
        let core = m.irq_core(q);
        let (cx, cy, cw) = fr.core_box(m, core);
        let far = m.topology().node_of(core) != NIC_NODE;
        f.push(
            Shape::line(
                format!("irq-{q}"),
                (x + w / 2.0, y + QUEUE_H),
                (cx + cw / 2.0, cy),
            )
            .class(if on_path {
                "accent"
            } else if far {
                "warn dashed"
            } else {
                "idle"
            }),
        );
    }

    // The cores of each node, with their share of the protocol processing.
    let load = m.stack_load();
    let stack_work = m.stack_work();
    let round = m.round().max(1);
    let busiest = m.busiest_core();
    for node in 0..NODES {
        let (x, y, w) = fr.node_panel(node, queues);
        f.push(
            Shape::group(
                format!("node-{node}"),
                vec![
                    Shape::rect("panel", x, y, w, NODE_HEAD + CORE_H + NODE_PAD).class("panel"),
                    Shape::text(
                        "name",
                        x + NODE_PAD,
                        y + 18.0,
                        if node == NIC_NODE {
                            format!("node {node}: the NIC's memory")
                        } else {
                            format!("node {node}")
                        },
                    )
                    .start()
                    .size(Size::Small),
                ],
            )
            .focus("cores"),
        );
    }
    for core in 0..m.topology().cores() {
        let (x, y, w) = fr.core_box(m, core);
        let share = load[core as usize] as f32 / round as f32;
        let on_path = last_path.is_some_and(|p| p.stack_core == core || p.irq_core == core);
        let far = m.topology().node_of(core) != NIC_NODE && load[core as usize] > 0;
        let bar_h = (CORE_H - 26.0) * share;
        f.push(
            Shape::group(
                format!("core-{core}"),
                vec![
                    Shape::rect("box", x, y, w, CORE_H - 4.0).class(if on_path {
                        "accent"
                    } else {
                        "driver"
                    }),
                    Shape::text("name", x + w / 2.0, y + 16.0, format!("cpu{core}"))
                        .mono()
                        .size(Size::Small),
                    Shape::rect(
                        "bar",
                        x + 4.0,
                        y + CORE_H - 8.0 - bar_h,
                        w - 8.0,
                        bar_h.max(0.5),
                    )
                    .class(if far { "warn bar" } else { "done bar" }),
                ],
            )
            .state(if core == busiest && load[core as usize] > 0 {
                "busiest"
            } else if load[core as usize] == 0 {
                "idle"
            } else {
                "working"
            })
            .focus("cores")
            .label(format!(
                "Core {core} on node {}: {} of every {round} packets, {} received so far",
                m.topology().node_of(core),
                load[core as usize],
                stack_work[core as usize]
            )),
        );
    }
    f
}

/// One row per flow: its tuple, hash, entry and queue, and the cores its
/// packets visit.
fn flow_table(m: &Rss) -> Table {
    let mut t = Table::new(
        "flows",
        format!(
            "Each flow's path: hash → entry → queue, then the core its interrupt runs on, the core that runs TCP/IP, and the core its application reads on ({} packets a round)",
            m.round()
        ),
        &["flow", "hash", "entry → queue", "cores: irq → stack → app", "packets"],
    );
    for (i, f) in m.flows().iter().enumerate() {
        let p = m.path(i, f);
        let row = t.row(
            format!("flow-{i}"),
            vec![
                Cell::mono(f.tuple()),
                Cell::mono(format!("{:#010x}", f.hash)),
                Cell::mono(format!("{} → q{}", p.entry, p.queue)),
                Cell::mono(format!(
                    "{} → {} → {}",
                    p.irq_core, p.stack_core, p.app_core
                )),
                Cell::mono(format!("{} ×{}", m.per_flow[i], f.weight())),
            ],
        );
        row.focus("flows")
            .state(if f.elephant { "elephant" } else { "small" });
        if f.elephant {
            row.class("warn");
        }
        if m.last == Some(i) {
            row.class("accent");
        }
    }
    t
}

impl View for Rss {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        let layout = ui.layout();
        Scene::new(
            "Many queues, many cores",
            format!(
                "{} flows over {} queues and {} cores: {} packets received; over a round the busiest core processes {} % (an even share is {} %); {} % are handled on the far node; {} % are processed away from their application.",
                self.flows().len(),
                self.config.queues,
                self.topology().cores(),
                self.sent,
                decimal(self.busiest_share(), 1),
                decimal(100.0 / f64::from(self.topology().cores()), 1),
                decimal(self.remote_share(), 1),
                decimal(self.handover_share(), 1)
            ),
        )
        .figure(steering_figure(self, layout, ui))
        .table(flow_table(self))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let c = &self.config;
        vec![
            Control::button("round", "Receive a round", ui.act(RssAction::ReceiveRound)),
            Control::note("Step receives one packet; a round sends every flow its share."),
            bounded(
                ui,
                "queues",
                "Receive queues",
                &QUEUES,
                c.queues,
                false,
                RssAction::SetQueues,
            ),
            bounded(
                ui,
                "per-node",
                "Cores per node",
                &PER_NODE,
                c.per_node,
                false,
                RssAction::SetPerNode,
            ),
            bounded(
                ui,
                "flows",
                "Small flows",
                &FLOWS,
                c.mice,
                false,
                RssAction::SetFlows,
            ),
            Control::button("new-flows", "New flows", ui.act(RssAction::NewFlows)),
            Control::button(
                "spread",
                "Spread the table evenly",
                ui.act(RssAction::SpreadEvenly),
            ),
            Control::group(
                "Software steering",
                vec![
                    Control::toggle(
                        "rps",
                        "RPS: spread over the node's cores",
                        c.rps,
                        ui.act(RssAction::SetRps(!c.rps)),
                    ),
                    Control::toggle(
                        "rfs",
                        "RFS: process where the reader runs",
                        c.rfs,
                        ui.act(RssAction::SetRfs(!c.rfs)),
                    ),
                    Control::toggle(
                        "xps",
                        "XPS: reply from the sender's queue",
                        c.xps,
                        ui.act(RssAction::SetXps(!c.xps)),
                    ),
                ],
            ),
            Control::danger_group(
                "Break it",
                vec![
                    Control::toggle(
                        "elephants",
                        "Four elephant flows from one host",
                        c.elephants,
                        ui.act(RssAction::SetElephants(!c.elephants)),
                    )
                    .danger(),
                    Control::toggle(
                        "remote-irqs",
                        "Pin the interrupts to node 1",
                        c.remote_irqs,
                        ui.act(RssAction::SetRemoteIrqs(!c.remote_irqs)),
                    )
                    .danger(),
                    Control::note(
                        "Then select a hot entry in the table to move it to a quiet queue.",
                    ),
                ],
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::host::rss::RssConfig;
    use demos::Model;

    #[test]
    fn every_entry_is_a_cell_that_cycles_its_queue() {
        let m = Rss::new(&RssConfig::default());
        let (scene, _, ui) = crate::build(&m, &());
        for e in 0..TABLE_ENTRIES {
            assert!(scene.find(&format!("entry-{e}")).is_some());
        }
        let slot = scene.find("entry-5").unwrap().on_click.unwrap();
        assert_eq!(
            ui.resolve(slot, &crate::Input::Press),
            Ok(crate::Command::Do(RssAction::CycleEntry(5)))
        );
    }

    #[test]
    fn the_latest_packets_entry_is_marked_hit() {
        let mut m = Rss::new(&RssConfig::default());
        m.apply(&RssAction::Receive).unwrap();
        let flows = m.flows();
        let entry = m.path(m.last.unwrap(), &flows[m.last.unwrap()]).entry;
        let scene = crate::build(&m, &()).0;
        assert_eq!(
            scene
                .find(&format!("entry-{entry}"))
                .unwrap()
                .state
                .as_deref(),
            Some("hit")
        );
        let row = scene.table_named("flows").unwrap();
        assert_eq!(row.rows.len(), flows.len());
    }
}
