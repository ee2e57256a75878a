//! NUMA local vs remote: the sockets with their cores, memory controller and
//! DRAM holding the thread's pages, the interconnect links with their load,
//! the latest access's path; each recent access's latency; the cost of every
//! socket-to-node path.

mod lesson;

use crate::control::Control;
use crate::draw::chart::Plot;
use crate::draw::geometry::PathData;
use crate::knob::bounded;
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::{Command, Ui, View};
use crate::scene::{Cell, Figure, Scene, Shape, Size, Table};
use demos::cpu::numa::{
    farthest, link_count, link_ends, route, Numa, NumaAction as A, NumaConfig, Order, Policy,
    ACCESSES, FILL_BUFFERS, HOP_NS, IN_FLIGHT, LINE_BYTES, LINK_GBS, LOCAL_GBS, LOCAL_NS, PAGES,
    RECENT_KEPT,
};
use demos::text::{fixed, grouped, tenths};
use demos::Model;
use demos::{Bound, Quantity};

const W: f32 = 960.0;
const CHIP: f32 = 30.0;
const PER_ROW: usize = 12;
/// Where the cores of a socket's panel start, from its left edge.
const CORES_X: f32 = 16.0;

/// Where the machine figure puts the sockets. Wide: side by side for two,
/// a ring 0–1–2–3 clockwise from the top left for four. A phone: one under
/// another in socket order, each link between neighbours vertical, and the
/// ring's closing link 3–0 down the left margin.
struct Machine {
    narrow: bool,
    sockets: u8,
    width: f32,
    /// A socket panel's width and height, the gap between panels, and the
    /// left of a phone's column (right of the 3–0 link when there is one).
    pw: f32,
    ph: f32,
    gap: f32,
    column_x: f32,
    /// A core's width and the pitch of the cores (the thread badge is a core).
    core_w: f32,
    core_pitch: f32,
    /// Half the length of a vertical link's wire.
    wire: f32,
    /// Untouched pages side by side in the strip under the sockets.
    strip_per_row: usize,
}

/// How a link runs between its sockets' panels.
#[derive(Clone, Copy, PartialEq)]
enum Run {
    Across,
    Down,
    /// A phone's closing link of the ring, down the left margin.
    Side,
}

impl Machine {
    fn new(m: &Numa, layout: Layout) -> Self {
        let sockets = m.config.sockets;
        let narrow = layout.is_narrow();
        let pw = layout.pick(400.0, 380.0);
        Machine {
            narrow,
            sockets,
            width: layout.pick(W, NARROW_WIDTH),
            pw,
            ph: 170.0 + m.config.pages.div_ceil(PER_ROW) as f32 * CHIP,
            gap: layout.pick(80.0, 64.0),
            // With four sockets the ring's 3–0 link needs the left margin.
            column_x: if sockets == 4 {
                NARROW_WIDTH - 8.0 - pw
            } else {
                (NARROW_WIDTH - pw) / 2.0
            },
            core_w: layout.pick(84.0, 80.0),
            core_pitch: layout.pick(92.0, 88.0),
            wire: layout.pick(40.0, 24.0),
            strip_per_row: layout.pick(28, PER_ROW),
        }
    }

    /// Where socket `s`'s panel sits.
    fn origin(&self, s: u8) -> (f32, f32) {
        if self.narrow {
            return (self.column_x, 20.0 + f32::from(s) * (self.ph + self.gap));
        }
        let right = s == 1 || s == 2;
        let low = self.sockets == 4 && s >= 2;
        (
            if right { W - 20.0 - self.pw } else { 20.0 },
            20.0 + if low { self.ph + self.gap } else { 0.0 },
        )
    }

    /// Rows of socket panels.
    fn rows(&self) -> f32 {
        match (self.narrow, self.sockets) {
            (true, n) => f32::from(n),
            (false, 4) => 2.0,
            _ => 1.0,
        }
    }

    /// The top left of the slot'th page chip in node `s`'s DRAM.
    fn chip_at(&self, s: u8, slot: usize) -> (f32, f32) {
        let (x, y) = self.origin(s);
        (
            x + 20.0 + (slot % PER_ROW) as f32 * CHIP,
            y + 158.0 + (slot / PER_ROW) as f32 * CHIP,
        )
    }

    /// The middle of socket `s`'s left edge, where a phone's 3–0 link
    /// meets it.
    fn side(&self, s: u8) -> (f32, f32) {
        let (x, y) = self.origin(s);
        (x, y + self.ph / 2.0)
    }

    /// The middle of link `l` and how it runs.
    fn link_mid(&self, l: usize) -> ((f32, f32), Run) {
        let (a, b) = link_ends(self.sockets, l);
        let (ax, ay) = self.origin(a);
        let (bx, by) = self.origin(b);
        let ph = self.ph;
        if self.narrow && a.abs_diff(b) > 1 {
            // Level with the gap between sockets 1 and 2, free of the
            // links 0–1 and 2–3.
            let (_, y1) = self.origin(1);
            return ((self.column_x / 2.0, y1 + ph + self.gap / 2.0), Run::Side);
        }
        if ay == by {
            (
                ((ax.max(bx) + ax.min(bx) + self.pw) / 2.0, ay + ph / 2.0),
                Run::Across,
            )
        } else {
            (
                (ax + self.pw / 2.0, (ay.max(by) + ay.min(by) + ph) / 2.0),
                Run::Down,
            )
        }
    }
}

/// The thread's badge: on the first core of its socket.
fn thread_at(g: &Machine, m: &Numa) -> (f32, f32) {
    let (x, y) = g.origin(m.thread);
    (x + CORES_X, y + 44.0)
}

fn socket(m: &Numa, s: u8, g: &Machine) -> Shape {
    let (x, y) = g.origin(s);
    let (ph, pw) = (g.ph, g.pw);
    let on_node = m.page_node.iter().filter(|&&n| n == Some(s)).count();
    let mut parts = vec![
        Shape::rect("box", x, y, pw, ph).class("panel"),
        Shape::text(
            "title",
            x + 16.0,
            y + 28.0,
            format!("socket {s} · node {s}"),
        )
        .start()
        .size(Size::Title),
    ];
    for c in 0..4 {
        let cx = x + CORES_X + c as f32 * g.core_pitch;
        parts.push(Shape::rect(format!("core-{c}"), cx, y + 44.0, g.core_w, 36.0).class("panel"));
        parts.push(
            Shape::text(
                format!("core-t{c}"),
                cx + g.core_w / 2.0,
                y + 68.0,
                format!("core {c}"),
            )
            .class("muted"),
        );
    }
    parts.push(Shape::rect("mc", x + 16.0, y + 92.0, pw - 32.0, 30.0).class("panel"));
    parts.push(Shape::text(
        "mc-t",
        x + pw / 2.0,
        y + 113.0,
        format!("memory controller · {} GB/s, all cores", m.config.local_gbs),
    ));
    parts.push(
        Shape::text(
            "dram",
            x + 16.0,
            y + 148.0,
            format!(
                "DRAM: {on_node} page{} of the thread",
                demos::text::plural(on_node)
            ),
        )
        .start()
        .class("strong"),
    );
    // The parts sit in their own group so a focus outlines only the box.
    Shape::group(
        format!("socket-{s}"),
        vec![
            Shape::rect("box", x, y, pw, ph).class("panel"),
            Shape::group("parts", parts),
        ],
    )
    .focus(format!("socket-{s}"))
    .state(format!("{on_node} pages"))
    .label(format!(
        "socket {s}: {on_node} of the thread's pages in its memory"
    ))
}

fn link(m: &Numa, l: usize, g: &Machine) -> Shape {
    let ((mx, my), run) = g.link_mid(l);
    let load = m.link_load_tenths(l);
    let (a, b) = link_ends(m.config.sockets, l);
    let (from, to, tx, ty1, ty2, anchor_start) = if run != Run::Across {
        (
            (mx, my - g.wire),
            (mx, my + g.wire),
            mx + 14.0,
            my - 4.0,
            my + 18.0,
            true,
        )
    } else {
        (
            (mx - 60.0, my),
            (mx + 60.0, my),
            mx,
            my - 14.0,
            my + 28.0,
            false,
        )
    };
    let t1 = Shape::text("bw", tx, ty1, format!("UPI {} GB/s", m.config.link_gbs)).mono();
    let t2 = Shape::text("load", tx, ty2, format!("load {}", tenths(load))).mono();
    let (t1, t2) = if anchor_start {
        (t1.start(), t2.start())
    } else {
        (t1, t2)
    };
    let wire = if run == Run::Side {
        // From socket b's (0's) side down the margin to socket a's (3's).
        let ((bx, by), (ax, ay)) = (g.side(b), g.side(a));
        let d = PathData::new()
            .move_to(bx - 2.0, by)
            .line_to(mx, by)
            .line_to(mx, ay)
            .line_to(ax - 2.0, ay);
        Shape::path("wire", d).class("line")
    } else {
        Shape::line("wire", from, to)
    };
    Shape::group(
        format!("link-{l}"),
        vec![wire.arrowhead(crate::scene::Arrow::Both), t1, t2],
    )
    .class(if m.link_bytes[l] > 0 {
        "nic thick"
    } else {
        "idle"
    })
    .state(tenths(load))
    .focus(format!("link-{l}"))
    .label(format!(
        "link {a}–{b}: {} bytes, load {}",
        grouped(m.link_bytes[l] as i64),
        tenths(load)
    ))
}

fn machine(m: &Numa, layout: Layout) -> Figure {
    let c = &m.config;
    let g = Machine::new(m, layout);
    let ph = g.ph;
    let rows = g.rows();
    let untouched: Vec<usize> = (0..c.pages).filter(|&p| m.page_node[p].is_none()).collect();
    let strip_y = 20.0 + rows * ph + (rows - 1.0) * g.gap + 24.0;
    let per_row = g.strip_per_row;
    let height = strip_y + 40.0 + c.pages.div_ceil(per_row) as f32 * CHIP;
    let mut f = Figure::new(
        "numa-machine",
        format!(
            "{} sockets; the thread runs on socket {}; {} of {} pages placed",
            c.sockets,
            m.thread,
            c.pages - untouched.len(),
            c.pages
        ),
        g.width,
        height,
    )
    .legend("done", "page local to the thread")
    .legend("warn", "page remote: across the interconnect")
    .legend("idle dashed", "page not yet touched")
    .legend("accent", "the thread");
    for s in 0..c.sockets {
        f.push(socket(m, s, &g));
    }
    for l in 0..link_count(c.sockets) {
        f.push(link(m, l, &g));
    }
    f.push(
        Shape::text(
            "untouched-title",
            20.0,
            strip_y + 6.0,
            if untouched.is_empty() {
                "every page has been touched and placed".to_string()
            } else {
                format!("not yet touched: {}", untouched.len())
            },
        )
        .start()
        .class("muted"),
    );
    // Pages: one chip each, in its node's DRAM or in the untouched strip.
    let mut slots = vec![0usize; usize::from(c.sockets)];
    for p in 0..c.pages {
        let ((x, y), class, state) = match m.page_node[p] {
            Some(n) => {
                let at = g.chip_at(n, slots[usize::from(n)]);
                slots[usize::from(n)] += 1;
                if n == m.thread {
                    (at, "done", "local")
                } else {
                    (at, "warn", "remote")
                }
            }
            None => {
                let k = untouched.iter().position(|&u| u == p).unwrap_or(0);
                (
                    (
                        20.0 + (k % per_row) as f32 * 33.0,
                        strip_y + 16.0 + (k / per_row) as f32 * CHIP,
                    ),
                    "idle dashed",
                    "untouched",
                )
            }
        };
        f.push(
            Shape::group(
                format!("page-{p}"),
                vec![
                    Shape::rect("r", 0.0, 0.0, CHIP - 3.0, CHIP - 3.0).rounded(3.0),
                    Shape::text("t", (CHIP - 3.0) / 2.0, 19.0, format!("{p}"))
                        .mono()
                        .size(Size::Small),
                ],
            )
            .at(x, y)
            .class(class)
            .state(state)
            .focus(format!("page-{p}"))
            .label(match m.page_node[p] {
                Some(n) => format!("page {p} on node {n}, {state}"),
                None => format!("page {p} not yet touched"),
            }),
        );
    }
    let (tx, ty) = thread_at(&g, m);
    f.push(
        Shape::group(
            "thread",
            vec![
                Shape::rect("r", 0.0, 0.0, g.core_w, 36.0),
                Shape::text("t", g.core_w / 2.0, 24.0, "thread").class("strong"),
            ],
        )
        .at(tx, ty)
        .class("accent")
        .state(format!("socket {}", m.thread))
        .focus("thread")
        .label(format!("the thread, on socket {}", m.thread)),
    );
    if let Some(a) = m.last() {
        let slot = (0..a.page)
            .filter(|&p| m.page_node[p] == Some(a.node))
            .count();
        let (px, py) = g.chip_at(a.node, slot);
        // Core → (links) → the node's memory controller → the page.
        let (sx, sy) = g.origin(a.from);
        let (nx, ny) = g.origin(a.node);
        let mut d = PathData::new().move_to(sx + CORES_X + g.core_w / 2.0, sy + 80.0);
        let mut on = a.from;
        for l in route(c.sockets, a.from, a.node) {
            let ((x, y), run) = g.link_mid(l);
            let (e0, e1) = link_ends(c.sockets, l);
            let next = if on == e0 { e1 } else { e0 };
            if run == Run::Side {
                // Along the margin's wire, not across the sockets between.
                let ((fx, fy), (tx, ty)) = (g.side(on), g.side(next));
                d = d
                    .line_to(fx, fy)
                    .line_to(x, fy)
                    .line_to(x, ty)
                    .line_to(tx, ty);
            } else {
                d = d.line_to(x, y);
            }
            on = next;
        }
        d = d
            .line_to(nx + g.pw / 2.0, ny + 107.0)
            .line_to(px + CHIP / 2.0 - 1.5, py);
        f.push(
            Shape::path("access", d)
                .arrowhead(crate::scene::Arrow::End)
                .class(if a.hops == 0 {
                    "done line"
                } else {
                    "warn line"
                })
                .state(if a.hops == 0 { "local" } else { "remote" })
                .label(format!(
                    "access {}: page {} on node {}, {} ns",
                    a.number, a.page, a.node, a.latency_ns
                )),
        );
    }
    f
}

/// Latency of each recent access against local and worst, with the run's
/// average.
fn latencies(m: &Numa, layout: Layout) -> Figure {
    let worst = f64::from(m.worst_latency_ns());
    let local = f64::from(m.config.local_ns);
    let plot = Plot::new(
        layout.pick((110.0, 40.0, 930.0, 210.0), (64.0, 58.0, 404.0, 228.0)),
        (0.0, RECENT_KEPT as f64, false),
        (0.0, worst * 1.15, false),
    );
    let mut f = Figure::new(
        "numa-latency",
        format!(
            "Latency of the last {} accesses; average of the run {} ns",
            m.recent.len(),
            fixed(m.avg_latency_tenths(), 1)
        ),
        layout.pick(W, NARROW_WIDTH),
        plot.bottom + 60.0,
    )
    .legend("done", "local access")
    .legend("warn", "remote access");
    // Tick labels from the integer figures: no float is ever formatted.
    let mut yt = vec![
        (0.0, "0".to_string()),
        (local, format!("{} ns", m.config.local_ns)),
    ];
    if worst > local {
        yt.push((worst, format!("{} ns", m.worst_latency_ns())));
    }
    let first = m.recent.first().map_or(1, |a| a.number);
    let xt: Vec<(f64, String)> = (0..RECENT_KEPT / 8)
        .map(|k| ((k * 8) as f64 + 0.5, format!("#{}", first + k * 8)))
        .collect();
    f.push(plot.axes(
        &xt,
        &yt,
        "recent accesses, oldest left",
        "latency per access",
    ));
    let bw = (plot.right - plot.left) / RECENT_KEPT as f32;
    for (k, a) in m.recent.iter().enumerate() {
        let x = plot.left + k as f32 * bw + 2.0;
        let top = plot.y.at(f64::from(a.latency_ns));
        f.push(
            Shape::group(
                format!("lat-{k}"),
                vec![Shape::rect("r", x, top, bw - 4.0, plot.bottom - top).rounded(2.0)],
            )
            .class(if a.hops == 0 { "done" } else { "warn" })
            .state(format!("{}", a.latency_ns))
            .label(format!(
                "access {}: page {} on node {} from socket {}, {} ns over {} GB/s",
                a.number, a.page, a.node, a.from, a.latency_ns, a.gbs
            )),
        );
    }
    if m.done > 0 {
        let avg = m.avg_latency_tenths() as f64 / 10.0;
        let y = plot.y.at(avg);
        f.push(
            Shape::group(
                "avg",
                vec![
                    Shape::line("l", (plot.left, y), (plot.right, y)).class("dashed"),
                    Shape::text(
                        "t",
                        plot.right,
                        // A phone has no room for it beside the axis title.
                        plot.top - layout.pick(12.0, 30.0),
                        format!("dashed: average {} ns", fixed(m.avg_latency_tenths(), 1)),
                    )
                    .end()
                    .mono()
                    .class("tone"),
                ],
            )
            .class("accent"),
        );
    }
    f
}

/// Every path's latency, bandwidth and SLIT-style distance.
fn paths(m: &Numa) -> Table {
    let n = m.config.sockets;
    let nodes: Vec<String> = (0..n).map(|d| format!("to node {d}")).collect();
    let mut columns = vec!["from"];
    columns.extend(nodes.iter().map(String::as_str));
    let mut t = Table::new(
        "numa-paths",
        "One line from memory: latency, bandwidth, distance (local = 10)",
        &columns,
    );
    for s in 0..n {
        let mut cells = vec![Cell::text(if s == m.thread {
            format!("socket {s} (thread)")
        } else {
            format!("socket {s}")
        })];
        cells.extend((0..n).map(|d| {
            Cell::mono(format!(
                "{} ns · {} GB/s · {}",
                m.latency_ns(s, d),
                m.path_gbs(s, d),
                m.distance(s, d)
            ))
            .key(format!("path-{s}-{d}"))
        }));
        t.row(format!("from-{s}"), cells)
            .class(if s == m.thread { "accent" } else { "" })
            .focus(format!("socket-{s}"));
    }
    t
}

/// One core against the socket: the lines its fill buffers keep in flight
/// and what that lets one thread pull (Little's law), beside the socket's
/// memory bandwidth, which takes many cores to reach.
fn core(m: &Numa) -> Table {
    let c = &m.config;
    let k = m.lines_in_flight();
    let far = farthest(c.sockets, m.thread);
    let mut t = Table::new(
        "numa-core",
        "One core: lines in flight × 64 B / latency (Little's law)",
        &["", "value"],
    );
    let offered = if m.fill_buffer_bound() {
        format!(
            "{k} of {} offered: {} fill buffers",
            c.in_flight, c.fill_buffers
        )
    } else {
        format!("{k} ({} fill buffers)", c.fill_buffers)
    };
    let rows = [
        ("core-in-flight", "lines in flight".to_string(), offered),
        (
            "core-local",
            format!("one thread, node {}", m.thread),
            format!(
                "{k} × {LINE_BYTES} B / {} ns = {} GB/s",
                m.latency_ns(m.thread, m.thread),
                fixed(m.thread_ceiling_tenths(m.thread, m.thread), 1)
            ),
        ),
        (
            "core-far",
            format!("one thread, node {far}"),
            format!(
                "at most {} GB/s",
                fixed(m.thread_ceiling_tenths(m.thread, far), 1)
            ),
        ),
        (
            "core-socket",
            "the socket's memory".to_string(),
            format!("{} GB/s, with all its cores", c.local_gbs),
        ),
    ];
    for (key, what, value) in rows {
        // The value cell carries the key a test reads; the row its own.
        t.row(
            format!("{key}-row"),
            vec![Cell::text(what), Cell::mono(value).key(key)],
        );
    }
    t
}

/// A number field for a machine setting: the run restarts with it.
fn field<T: Quantity + 'static>(
    ui: &mut Ui<Numa>,
    base: &NumaConfig,
    id: &str,
    label: &str,
    bound: &Bound<T>,
    value: T,
    set: fn(&mut NumaConfig, T),
) -> Control {
    let base = base.clone();
    Control::number(
        id,
        label,
        bound.control_range(value),
        bound.unit.trim_start(),
        ui.number(move |v| {
            let mut next = base.clone();
            set(&mut next, T::from_i64(v));
            Numa::validate(&next)?;
            Ok(Command::Restart(next))
        }),
    )
}

fn policy_value(p: Policy) -> String {
    match p {
        Policy::FirstTouch => "first-touch".into(),
        Policy::Interleave => "interleave".into(),
        Policy::Bind(n) => format!("bind-{n}"),
    }
}

impl View for Numa {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        Scene::new(
            "NUMA local vs remote",
            format!(
                "A thread on socket {} of {}: {} local and {} remote accesses, average {} ns, policy {}.",
                self.thread,
                self.config.sockets,
                self.local,
                self.remote,
                fixed(self.avg_latency_tenths(), 1),
                self.config.policy.label()
            ),
        )
        .figure(machine(self, ui.layout()))
        .figure(latencies(self, ui.layout()))
        .table(paths(self))
        .table(core(self))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let c = self.config.clone();
        let left = c.accesses - self.done;
        let mut policies = vec![Policy::FirstTouch, Policy::Interleave];
        policies.extend((0..c.sockets).map(Policy::Bind));
        let selected = policies.iter().position(|&p| p == c.policy).unwrap_or(0);
        let policies = policies
            .into_iter()
            .map(|p| (policy_value(p), p.label(), ui.act(A::SetPolicy(p))))
            .collect();
        let moves = (0..c.sockets)
            .map(|s| {
                Control::button(
                    &format!("move-{s}"),
                    format!("To socket {s}"),
                    ui.act(A::Migrate(s)),
                )
            })
            .collect();
        let machine = vec![
            field(
                ui,
                &c,
                "pages",
                "Pages of the thread",
                &PAGES,
                c.pages,
                |c, v| c.pages = v,
            ),
            field(
                ui,
                &c,
                "accesses",
                "Accesses in a run",
                &ACCESSES,
                c.accesses,
                |c, v| c.accesses = v,
            ),
            field(
                ui,
                &c,
                "local-ns",
                "Local latency",
                &LOCAL_NS,
                c.local_ns,
                |c, v| c.local_ns = v,
            ),
            field(
                ui,
                &c,
                "hop-ns",
                "Extra per hop",
                &HOP_NS,
                c.hop_ns,
                |c, v| c.hop_ns = v,
            ),
            field(
                ui,
                &c,
                "local-gbs",
                "Local bandwidth (the socket's)",
                &LOCAL_GBS,
                c.local_gbs,
                |c, v| c.local_gbs = v,
            ),
            field(
                ui,
                &c,
                "link-gbs",
                "Link bandwidth",
                &LINK_GBS,
                c.link_gbs,
                |c, v| c.link_gbs = v,
            ),
            field(
                ui,
                &c,
                "fill-buffers",
                "L1D fill buffers of the core",
                &FILL_BUFFERS,
                c.fill_buffers,
                |c, v| c.fill_buffers = v,
            ),
        ];
        vec![
            Control::group(
                "Run",
                vec![
                    Control::button("run-16", "Run 16 accesses", ui.act(A::Run(left.min(16))))
                        .primary(),
                    Control::button("finish", "Run to the end", ui.act(A::Finish)),
                    Control::button("restart", "Restart", ui.act(A::Restart)),
                ],
            ),
            Control::choice("policy", "Placement of new pages", selected, policies),
            Control::group("Move the thread", moves),
            Control::choice(
                "sockets",
                "Sockets",
                usize::from(c.sockets == 4),
                vec![
                    ("2", "2".into(), ui.act(A::SetSockets(2))),
                    ("4", "4 (ring)".into(), ui.act(A::SetSockets(4))),
                ],
            ),
            Control::choice(
                "order",
                "Page order",
                usize::from(c.order == Order::Random),
                vec![
                    (
                        "sequential",
                        "in order".into(),
                        ui.act(A::SetOrder(Order::Sequential)),
                    ),
                    (
                        "random",
                        "random".into(),
                        ui.act(A::SetOrder(Order::Random)),
                    ),
                ],
            ),
            bounded(
                ui,
                "in-flight",
                "Independent misses the code offers",
                &IN_FLIGHT,
                c.in_flight,
                false,
                A::SetInFlight,
            ),
            Control::group("Machine (restarts the run)", machine),
            Control::danger_group(
                "Break it",
                vec![Control::toggle(
                    "break",
                    "Move the thread to the far socket once every page is placed",
                    c.migrate_after_touch,
                    ui.act(A::SetBreakIt(!c.migrate_after_touch)),
                )
                .danger()],
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(edit: impl FnOnce(&mut NumaConfig), actions: &[A]) -> Numa {
        let mut c = NumaConfig::default();
        edit(&mut c);
        let mut m = Numa::new(&c);
        for a in actions {
            m.apply(a).unwrap();
        }
        m
    }

    #[test]
    fn first_touch_places_every_page_on_the_threads_node() {
        let m = run(|_| {}, &[A::Run(20)]);
        let scene = crate::build(&m, &()).0;
        assert_eq!(
            scene.find("socket-0").unwrap().state.as_deref(),
            Some("16 pages")
        );
        assert_eq!(
            scene.find("page-15").unwrap().state.as_deref(),
            Some("local")
        );
        assert_eq!(
            scene.find("access").unwrap().state.as_deref(),
            Some("local")
        );
        assert_eq!(
            scene.find("link-0").unwrap().state.as_deref(),
            Some("0.0 %")
        );
        let t = scene.table_named("numa-paths").unwrap();
        let cell = |k: &str| t.cell(k).unwrap().text.clone();
        assert_eq!(cell("path-0-0"), "90 ns · 104 GB/s · 10");
        assert_eq!(cell("path-0-1"), "144 ns · 34 GB/s · 16");
    }

    #[test]
    fn break_it_leaves_every_page_remote_and_loads_the_link() {
        let m = run(|c| c.migrate_after_touch = true, &[A::Run(40)]);
        let scene = crate::build(&m, &()).0;
        assert_eq!(
            scene.find("thread").unwrap().state.as_deref(),
            Some("socket 1")
        );
        assert!((0..16).all(|p| {
            scene.find(&format!("page-{p}")).unwrap().state.as_deref() == Some("remote")
        }));
        assert_eq!(
            scene.find("access").unwrap().state.as_deref(),
            Some("remote")
        );
        assert_eq!(scene.find("lat-31").unwrap().state.as_deref(), Some("144"));
        assert!(scene.find("link-0").unwrap().has_class("nic"));
    }

    #[test]
    fn four_sockets_draw_four_links_and_a_two_hop_path() {
        let m = run(
            |c| {
                c.sockets = 4;
                c.policy = Policy::Bind(2);
            },
            &[A::Access],
        );
        let scene = crate::build(&m, &()).0;
        assert!(scene.find("link-3").is_some());
        assert_eq!(scene.find("lat-0").unwrap().state.as_deref(), Some("198"));
        assert_eq!(
            scene.find("page-0").unwrap().state.as_deref(),
            Some("remote")
        );
        assert_eq!(
            scene.find("page-1").unwrap().state.as_deref(),
            Some("untouched")
        );
    }

    #[test]
    fn the_machine_fields_restart_with_the_new_figure() {
        let m = Numa::new(&NumaConfig::default());
        let (_, controls, ui) = crate::build(&m, &());
        let Some(Control::Number(n)) = Control::find(&controls, "hop-ns") else {
            panic!("hop field");
        };
        let Command::Restart(c) = ui.resolve(n.send, &crate::Input::Number(100)).unwrap() else {
            panic!("a restart");
        };
        assert_eq!((c.hop_ns, c.local_ns), (100, 90));
    }

    /// The e2e break-it walk with 64 misses offered: the core's 10 fill
    /// buffers keep 10 in flight, so the link carries an eighth of what it
    /// could, where 64 in flight used to fill most of it.
    #[test]
    fn the_core_table_shows_the_fill_buffers_capping_one_thread() {
        let mut m = run(|c| c.migrate_after_touch = true, &[A::Finish]);
        m.apply(&A::SetInFlight(64)).unwrap();
        m.apply(&A::Finish).unwrap();
        let fig = |k: &str| m.status().into_iter().find(|f| f.key == k).unwrap().value;
        assert_eq!(fig("bandwidth"), "4.6 GB/s");
        assert_eq!(fig("link-load"), "12.5 %");
        assert_eq!(fig("in-flight"), "10 of 64 (fill buffers)");
        let scene = crate::build(&m, &()).0;
        let t = scene.table_named("numa-core").unwrap();
        let cell = |k: &str| t.cell(k).unwrap().text.clone();
        assert_eq!(cell("core-in-flight"), "10 of 64 offered: 10 fill buffers");
        assert_eq!(cell("core-local"), "10 × 64 B / 90 ns = 7.1 GB/s");
        assert_eq!(cell("core-far"), "at most 4.4 GB/s");
        assert_eq!(cell("core-socket"), "104 GB/s, with all its cores");
    }

    #[test]
    fn the_numbers_take_their_range_and_unit_from_the_engines_bounds() {
        let m = run(|_| {}, &[]);
        let controls = crate::build(&m, &()).1;
        for (id, bound, value) in [
            ("hop-ns", HOP_NS, m.config.hop_ns),
            ("fill-buffers", FILL_BUFFERS, m.config.fill_buffers),
            ("in-flight", IN_FLIGHT, m.config.in_flight),
            ("link-gbs", LINK_GBS, m.config.link_gbs),
        ] {
            let Some(Control::Number(n)) = Control::find(&controls, id) else {
                panic!("{id}");
            };
            assert_eq!((n.value, n.min, n.max), bound.control_range(value), "{id}");
            assert_eq!(n.unit, bound.unit.trim_start(), "{id}");
        }
    }
}
