//! TCP incast: every server's answer and its fate, the switch port's queue,
//! and goodput against the number of servers for each set of fixes swept.

mod lesson;

use crate::control::Control;
use crate::draw::chart::Plot;
use crate::draw::text::line_key;
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::{Command, Ui, View};
use crate::scene::{Anchor, Cell, Figure, Scene, Shape, Size, Table};
use demos::net::incast::{
    mark_k_bound, Fate, Fix, Incast, IncastAction, IncastConfig, BUFFER, BURST, SENDERS,
    SENDERS_MAX,
};
use demos::text::{duration, fixed};
use demos::Quantity;

const COLS: usize = 8;
const BOX_H: f32 = 44.0;
/// Where the servers' grid starts.
const GRID_X: f32 = 8.0;
const GRID_Y: f32 = 40.0;

/// Where the topology's parts go. Wide, left to right: the servers, the
/// switch port, the link, the client. Narrow, the servers' grid (slimmer
/// boxes) above, and the port, link and client in a row under it, the
/// arrow into the port coming down from the grid.
struct Dims {
    width: f32,
    box_w: f32,
    gap: f32,
    port_x: f32,
    port_w: f32,
    client_x: f32,
    client_w: f32,
}

impl Dims {
    fn of(layout: Layout) -> Dims {
        layout.pick(
            Dims {
                width: 960.0,
                box_w: 52.0,
                gap: 6.0,
                port_x: 520.0,
                port_w: 220.0,
                client_x: 846.0,
                client_w: 106.0,
            },
            Dims {
                width: NARROW_WIDTH,
                // Eight columns still: "16/16" fits a 46-unit box.
                box_w: 46.0,
                gap: 5.0,
                port_x: GRID_X,
                port_w: 200.0,
                client_x: 310.0,
                client_w: 104.0,
            },
        )
    }
}

/// The goodput chart's words across the empty plot, one line wide or two
/// narrow.
const SWEEP_HINT: [&str; 2] = ["Sweep N to measure goodput", "for 1 to 64 servers"];
/// Room the "N = 64" label needs right of its line; with less, it goes to
/// the line's left instead (at the right end of the axis).
const NOW_LABEL_ROOM: f32 = 60.0;
/// One colour per swept curve, in the order the sweeps were made.
const CURVE_CLASS: [&str; 8] = [
    "fault",
    "done",
    "driver",
    "nic",
    "accent",
    "warn",
    "idle",
    "done dashed",
];
/// The break-it fan-in.
const MANY: usize = 64;

/// The word and class of a server's fate.
fn fate_look(fate: Fate) -> (&'static str, &'static str, &'static str) {
    match fate {
        Fate::Sending => ("sending", "send", "driver"),
        Fate::Delivered => ("delivered", "done", "done"),
        Fate::WaitingRto(_) => ("waiting for its RTO", "RTO", "fault"),
    }
}

fn servers(m: &Incast, d: &Dims) -> Vec<Shape> {
    let base = m.burst * u64::from(m.request.min(m.requests) - 1);
    (0..m.senders())
        .map(|f| {
            let (x, y) = (
                GRID_X + (d.box_w + d.gap) * (f % COLS) as f32,
                GRID_Y + (BOX_H + d.gap) * (f / COLS) as f32,
            );
            let fate = m.fate(f);
            let (word, short, class) = fate_look(fate);
            let got = m.path.flows[f].rcv_nxt.saturating_sub(base).min(m.burst);
            let when = match (fate, m.probe_at(f)) {
                (Fate::WaitingRto(at), Some(probe)) => format!(
                    ", its timer fires at {}; with SACK and a tail loss probe it would have probed at {}",
                    duration(at),
                    duration(probe)
                ),
                (Fate::WaitingRto(at), None) => format!(", its timer fires at {}", duration(at)),
                _ => String::new(),
            };
            Shape::group(
                format!("sender-{}", f + 1),
                vec![
                    Shape::rect("r", x, y, d.box_w, BOX_H).rounded(3.0),
                    Shape::text("n", x + d.box_w / 2.0, y + 18.0, format!("{got}/{}", m.burst))
                        .mono()
                        .size(Size::Small),
                    Shape::text("f", x + d.box_w / 2.0, y + 36.0, short).size(Size::Small),
                ],
            )
            .class(class)
            .state(word)
            .label(format!(
                "server {}: {got} of {} packets in, {} dropped so far, {word}{when}",
                f + 1,
                m.burst,
                m.path.flows[f].drops
            ))
            .focus(format!("sender-{}", f + 1))
        })
        .collect()
}

/// The switch's egress port: its buffer's fill, K, and what it dropped.
fn port(m: &Incast, mid: f32, d: &Dims) -> Shape {
    let p = &m.path;
    let (port_x, port_w) = (d.port_x, d.port_w);
    let fill = port_w * p.queue.len() as f32 / p.buffer as f32;
    let top = mid - 24.0;
    let mut parts = vec![
        Shape::text("title", port_x, top - 30.0, "switch egress port")
            .start()
            .class("strong"),
        Shape::rect("track", port_x, top, port_w, 48.0).class("track"),
        Shape::rect("fill", port_x, top, fill, 48.0).class("bar"),
        Shape::text(
            "count",
            port_x + 8.0,
            top + 30.0,
            format!("{}/{} packets", p.queue.len(), p.buffer),
        )
        .start()
        .mono(),
        Shape::text(
            "drops",
            port_x,
            top + 74.0,
            format!("dropped {} · deepest {}", m.drops(), p.max_queue),
        )
        .start()
        .mono()
        .size(Size::Small),
    ];
    if let Some(k) = p.mark_above {
        let x = port_x + port_w * k as f32 / p.buffer as f32;
        parts.push(Shape::line("k", (x, top - 8.0), (x, top + 56.0)).class("dashed"));
        parts.push(
            Shape::text("k-label", x, top - 12.0, format!("K = {k}"))
                .mono()
                .size(Size::Small),
        );
    }
    let class = if p.queue.len() >= p.buffer {
        "fault"
    } else {
        "warn"
    };
    Shape::group("port", parts)
        .class(class)
        .state(format!("{}/{}", p.queue.len(), p.buffer))
        .focus("port")
}

fn topology(m: &Incast, layout: Layout) -> Figure {
    let d = Dims::of(layout);
    let rows = m.senders().div_ceil(COLS);
    let grid_h = (BOX_H + d.gap) * rows as f32;
    let grid_right = GRID_X + (d.box_w + d.gap) * m.senders().min(COLS) as f32;
    let grid_bottom = GRID_Y + grid_h;
    // `mid` is the port's middle. Wide, it is level with the grid's, and the
    // arrow runs right into the port. Narrow, the port sits under the grid
    // with room above it for its title, and the arrow comes down from the
    // grid right of the title, ending above where K's label may be.
    let (height, mid, into_port) = match layout {
        Layout::Wide => {
            let mid = (GRID_Y + grid_h / 2.0).max(110.0);
            let arrow = [(grid_right + 4.0, mid), (d.port_x - 8.0, mid)];
            ((grid_bottom + 40.0).max(220.0), mid, arrow)
        }
        Layout::Narrow => {
            let top = grid_bottom + 56.0;
            let x = d.port_x + d.port_w - 20.0;
            (
                top + 108.0,
                top + 24.0,
                [(x, grid_bottom + 2.0), (x, top - 24.0)],
            )
        }
    };
    let mut f = Figure::new(
        "incast",
        format!(
            "{} servers answer request {} through one port of {} packets",
            m.senders(),
            m.request.min(m.requests),
            m.path.buffer
        ),
        d.width,
        height,
    )
    .legend("driver", "sending")
    .legend("done", "answer delivered")
    .legend("fault", "waiting for its RTO");
    f.push(
        Shape::text(
            "servers-title",
            GRID_X,
            26.0,
            format!("{} servers", m.senders()),
        )
        .start()
        .class("strong"),
    );
    f.extend(servers(m, &d));
    f.push(Shape::arrow("into-port", into_port[0], into_port[1]));
    f.push(port(m, mid, &d));
    let link_end = d.client_x - 4.0;
    let client_mid = d.client_x + d.client_w / 2.0;
    f.push(
        Shape::group(
            "link",
            vec![
                Shape::arrow("a", (d.port_x + d.port_w + 4.0, mid), (link_end, mid)).class("thick"),
                Shape::text(
                    "t",
                    (d.port_x + d.port_w + link_end) / 2.0,
                    mid - 12.0,
                    format!("{} Mbit/s", m.link_mbps),
                )
                .mono()
                .size(Size::Small),
            ],
        )
        .focus("link"),
    );
    f.push(
        Shape::group(
            "client",
            vec![
                Shape::rect("r", d.client_x, mid - 30.0, d.client_w, 60.0),
                Shape::text("t", client_mid, mid - 6.0, "client"),
                Shape::text(
                    "req",
                    client_mid,
                    mid + 16.0,
                    format!("{}/{}", m.request.min(m.requests), m.requests),
                )
                .mono()
                .size(Size::Small),
            ],
        )
        .class(if m.all_done() { "done" } else { "idle" })
        .focus("client"),
    );
    f.push(
        Shape::text(
            "clock",
            d.port_x,
            height - 12.0,
            format!(
                "t = {} · RTO floor {}",
                duration(m.path.now),
                duration(m.path.flows[0].sender.rto_min)
            ),
        )
        .start()
        .mono()
        .size(Size::Small),
    );
    f
}

/// The fewest servers whose bursts overflow the port: N·S − (S − 1) > B.
fn overflow_n(m: &Incast) -> u64 {
    (m.path.buffer as u64).div_ceil(m.burst) + 1
}

/// Goodput against N, one line per set of fixes swept.
/// Narrow, the N axis is shorter: its seven ticks still have room.
fn chart(m: &Incast, layout: Layout) -> Figure {
    let link = m.link_mbps as f64;
    let (width, plot_box) = layout.pick(
        (960.0, (90.0, 40.0, 930.0, 290.0)),
        (NARROW_WIDTH, (56.0, 40.0, 404.0, 290.0)),
    );
    let plot = Plot::new(plot_box, (1.0, 64.0, true), (0.0, link * 1.1, false));
    let x_ticks: Vec<(f64, String)> = [1u32, 2, 4, 8, 16, 32, 64]
        .iter()
        .map(|&n| (f64::from(n), n.to_string()))
        .collect();
    let y_ticks: Vec<(f64, String)> = (0..=4)
        .map(|i| (link * i as f64 / 4.0, (m.link_mbps * i / 4).to_string()))
        .collect();
    let mut f = Figure::new(
        "chart",
        format!(
            "Goodput against the number of servers, {} curve{} swept",
            m.sweeps.len(),
            if m.sweeps.len() == 1 { "" } else { "s" }
        ),
        width,
        340.0,
    );
    for (i, s) in m.sweeps.iter().enumerate() {
        f = f.legend(CURVE_CLASS[i % CURVE_CLASS.len()], m.fixes_label(s.fixes));
    }
    f.push(plot.axes(
        &x_ticks,
        &y_ticks,
        "servers answering at once, N (log)",
        "goodput, Mbit/s",
    ));
    for (i, s) in m.sweeps.iter().enumerate() {
        let class = CURVE_CLASS[i % CURVE_CLASS.len()];
        let points: Vec<(f64, f64)> = s
            .points
            .iter()
            .map(|p| (p.senders as f64, p.goodput_tenths as f64 / 10.0))
            .collect();
        let mut parts = vec![plot.series("line", &points, class)];
        for (j, p) in s.points.iter().enumerate() {
            parts.push(plot.dot(&format!("p{j}"), points[j], class).label(format!(
                "N = {}: {} Mbit/s, {} lost, {} timeouts",
                p.senders,
                fixed(p.goodput_tenths as i64, 1),
                p.drops,
                p.timeouts
            )));
        }
        f.push(Shape::group(format!("curve-{i}"), parts).state(m.fixes_label(s.fixes)));
    }
    if m.sweeps.is_empty() {
        let hint = SWEEP_HINT.join(" ");
        let lines = layout.pick(vec![hint.as_str()], SWEEP_HINT.to_vec());
        for (i, line) in lines.into_iter().enumerate() {
            let key = line_key("empty", i);
            f.push(
                Shape::text(
                    key,
                    (plot.left + plot.right) / 2.0,
                    210.0 + 22.0 * i as f32,
                    line,
                )
                .class("muted"),
            );
        }
    }
    let edge = overflow_n(m);
    if edge <= SENDERS_MAX as u64 {
        f.push(plot.marker(
            "edge",
            edge as f64,
            format!("N·S − (S−1) > B from N = {edge}"),
            "fault",
        ));
    }
    // The N running now, labelled low so it never meets the edge's label.
    // At the right end of the axis the label goes left of its line.
    let x = plot.x.at(m.senders() as f64);
    let leftward = plot.right - x < NOW_LABEL_ROOM;
    let label = Shape::text(
        "label",
        if leftward { x - 6.0 } else { x + 6.0 },
        plot.bottom - 10.0,
        format!("N = {}", m.senders()),
    )
    .anchor(if leftward { Anchor::End } else { Anchor::Start })
    .class("tone")
    .size(Size::Small);
    f.push(
        Shape::group(
            "now",
            vec![
                Shape::line("line", (x, plot.top), (x, plot.bottom)).class("dashed"),
                label,
            ],
        )
        .class("accent")
        .focus("chart"),
    );
    f
}

fn requests(m: &Incast) -> Table {
    let mut t = Table::new(
        "requests",
        format!("Requests answered ({} of {})", m.finished.len(), m.requests),
        &["request", "took", "goodput", "lost", "timeouts"],
    );
    for r in &m.finished {
        t.row(
            format!("request-{}", r.number),
            vec![
                Cell::text(r.number.to_string()),
                Cell::mono(duration(r.duration_ns)),
                Cell::mono(format!("{} Mbit/s", fixed(m.goodput_tenths(r) as i64, 1))),
                Cell::mono(r.drops.to_string()),
                Cell::mono(r.timeouts.to_string()),
            ],
        )
        .class(if r.timeouts > 0 { "fault" } else { "done" });
    }
    t
}

fn restart(
    ui: &mut Ui<Incast>,
    base: &IncastConfig,
    change: fn(&mut IncastConfig, i64),
) -> crate::live::Slot {
    let base = base.clone();
    ui.number(move |v| {
        let mut next = base.clone();
        change(&mut next, v);
        next.mark_k = next.mark_k.min(next.buffer - 1);
        next.big_buffer = next.big_buffer.max(next.buffer);
        Ok(Command::Restart(next))
    })
}

impl View for Incast {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        let waiting = (0..self.senders())
            .filter(|&f| matches!(self.fate(f), Fate::WaitingRto(_)))
            .count();
        Scene::new(
            "TCP incast",
            format!(
                "{} servers answer {} packets each into a {}-packet port; request {} of {}, {} servers waiting for their RTO, {} packets dropped so far.",
                self.senders(),
                self.burst,
                self.path.buffer,
                self.request.min(self.requests),
                self.requests,
                waiting,
                self.drops()
            ),
        )
        .figure(topology(self, ui.layout()))
        .figure(chart(self, ui.layout()))
        .table(requests(self))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let c = self.config();
        let fx = self.fixes;
        let many = c.senders == MANY;
        let mut fan = c.clone();
        fan.senders = if many {
            IncastConfig::default().senders
        } else {
            MANY
        };
        vec![
            Control::button(
                "sweep",
                format!("Sweep N = 1 to {SENDERS_MAX} with these fixes"),
                ui.act(IncastAction::Sweep),
            )
            .primary(),
            Control::button("event", "Next event only", ui.act(IncastAction::Event)),
            Control::note(
                "Step runs one base RTT, or jumps to the next event when nothing moves before it.",
            ),
            Control::group(
                "Fixes",
                vec![
                    Control::toggle(
                        "big-buffer",
                        format!("Bigger buffer: {} packets", c.big_buffer),
                        fx.big_buffer,
                        ui.act(IncastAction::Toggle(Fix::BigBuffer)),
                    ),
                    Control::toggle(
                        "fine-rto",
                        "RTO floor 1 ms instead of 200 ms",
                        fx.fine_rto,
                        ui.act(IncastAction::Toggle(Fix::FineRto)),
                    ),
                    Control::toggle(
                        "dctcp",
                        format!("DCTCP: mark CE above K = {}", c.mark_k),
                        fx.dctcp,
                        ui.act(IncastAction::Toggle(Fix::Dctcp)),
                    ),
                ],
            ),
            Control::group(
                "Workload (restarts)",
                vec![
                    Control::slider(
                        "servers",
                        "Servers N",
                        SENDERS.control_range(c.senders),
                        "",
                        restart(ui, &c, |c, v| c.senders = usize::from_i64(v)),
                    ),
                    Control::slider(
                        "burst",
                        "Answer size S",
                        BURST.control_range(c.burst),
                        "packets",
                        restart(ui, &c, |c, v| c.burst = u64::from_i64(v)),
                    ),
                    // A field, not a slider: the bound spans 4 to 4,096 packets.
                    Control::number(
                        "buffer",
                        "Port buffer B",
                        BUFFER.control_range(c.buffer),
                        "packets",
                        restart(ui, &c, |c, v| c.buffer = usize::from_i64(v)),
                    ),
                    Control::slider(
                        "mark-k",
                        "DCTCP threshold K",
                        mark_k_bound(c.buffer).control_range(c.mark_k),
                        "packets",
                        restart(ui, &c, |c, v| c.mark_k = usize::from_i64(v)),
                    ),
                ],
            ),
            Control::danger_group(
                "Break it",
                vec![Control::toggle(
                    "fan-in",
                    format!("{MANY} servers answer at once (restarts)"),
                    many,
                    ui.restart(fan),
                )
                .danger()],
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::net::incast::CURVE_SENDERS;
    use demos::Model;

    #[test]
    fn the_collapse_leaves_servers_waiting_for_their_timers() {
        let mut m = Incast::new(&IncastConfig::default());
        // Until nobody sends any more: the lucky are done, the rest wait.
        while (0..16).any(|f| m.fate(f) == Fate::Sending) {
            m.apply(&IncastAction::Slice).unwrap();
        }
        let scene = crate::build(&m, &()).0;
        let waiting = (1..=16)
            .filter(|i| {
                scene.find(&format!("sender-{i}")).unwrap().state.as_deref()
                    == Some("waiting for its RTO")
            })
            .count();
        assert!(waiting > 0);
        assert!(scene.find("sender-17").is_none());
        let port = scene.find("port").unwrap();
        assert_eq!(port.state.as_deref(), Some("0/64"), "the port idles");
    }

    #[test]
    fn a_sweep_adds_a_curve_and_the_edge_marks_n_5() {
        let mut m = Incast::new(&IncastConfig::default());
        let scene = crate::build(&m, &()).0;
        assert!(scene.find("empty").is_some());
        m.apply(&IncastAction::Sweep).unwrap();
        let scene = crate::build(&m, &()).0;
        let curve = scene.find("curve-0").unwrap();
        assert_eq!(curve.state.as_deref(), Some("no fix"));
        assert_eq!(curve.children().len(), 1 + CURVE_SENDERS.len());
        let edge = scene.find("edge").unwrap().children()[1]
            .text_content()
            .unwrap()
            .to_string();
        assert_eq!(edge, "N·S − (S−1) > B from N = 5");
    }

    #[test]
    fn dctcp_draws_k_on_the_port() {
        let mut m = Incast::new(&IncastConfig::default());
        m.apply(&IncastAction::Toggle(Fix::Dctcp)).unwrap();
        let scene = crate::build(&m, &()).0;
        let k = scene.find("k-label").unwrap();
        assert_eq!(k.text_content(), Some("K = 20"));
    }

    #[test]
    fn a_smaller_buffer_pulls_k_below_it() {
        let m = Incast::new(&IncastConfig::default());
        let (_, controls, ui) = crate::build(&m, &());
        let Some(Control::Number(b)) = Control::find(&controls, "buffer") else {
            panic!("buffer slider");
        };
        match ui.resolve(b.send, &crate::Input::Number(8)).unwrap() {
            Command::Restart(c) => {
                assert_eq!((c.buffer, c.mark_k), (8, 7));
                assert!(Incast::validate(&c).is_ok());
            }
            other => panic!("{other:?}"),
        }
    }
}
