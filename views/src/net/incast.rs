//! TCP incast: every server's answer and its fate, the switch port's queue,
//! and goodput against the number of servers for each set of fixes swept.

use crate::control::Control;
use crate::draw::chart::Plot;
use crate::live::{Command, Ui, View};
use crate::scene::{Cell, Figure, Scene, Shape, Size, Table};
use demos::net::incast::{
    mark_k_bound, Fate, Fix, Incast, IncastAction, IncastConfig, BUFFER, BURST, SENDERS,
    SENDERS_MAX,
};
use demos::text::{duration, fixed};
use demos::Quantity;

const COLS: usize = 8;
const BOX_W: f32 = 52.0;
const BOX_H: f32 = 44.0;
const GAP: f32 = 6.0;
const PORT_X: f32 = 520.0;
const PORT_W: f32 = 220.0;
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

fn servers(m: &Incast) -> Vec<Shape> {
    let base = m.burst * u64::from(m.request.min(m.requests) - 1);
    (0..m.senders())
        .map(|f| {
            let (x, y) = (
                8.0 + (BOX_W + GAP) * (f % COLS) as f32,
                40.0 + (BOX_H + GAP) * (f / COLS) as f32,
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
                    Shape::rect("r", x, y, BOX_W, BOX_H).rounded(3.0),
                    Shape::text("n", x + BOX_W / 2.0, y + 18.0, format!("{got}/{}", m.burst))
                        .mono()
                        .size(Size::Small),
                    Shape::text("f", x + BOX_W / 2.0, y + 36.0, short).size(Size::Small),
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
fn port(m: &Incast, mid: f32) -> Shape {
    let p = &m.path;
    let fill = PORT_W * p.queue.len() as f32 / p.buffer as f32;
    let top = mid - 24.0;
    let mut parts = vec![
        Shape::text("title", PORT_X, top - 30.0, "switch egress port")
            .start()
            .class("strong"),
        Shape::rect("track", PORT_X, top, PORT_W, 48.0).class("track"),
        Shape::rect("fill", PORT_X, top, fill, 48.0).class("bar"),
        Shape::text(
            "count",
            PORT_X + 8.0,
            top + 30.0,
            format!("{}/{} packets", p.queue.len(), p.buffer),
        )
        .start()
        .mono(),
        Shape::text(
            "drops",
            PORT_X,
            top + 74.0,
            format!("dropped {} · deepest {}", m.drops(), p.max_queue),
        )
        .start()
        .mono()
        .size(Size::Small),
    ];
    if let Some(k) = p.mark_above {
        let x = PORT_X + PORT_W * k as f32 / p.buffer as f32;
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

fn topology(m: &Incast) -> Figure {
    let rows = m.senders().div_ceil(COLS);
    let height = (40.0 + (BOX_H + GAP) * rows as f32 + 40.0).max(220.0);
    let mid = (40.0 + (BOX_H + GAP) * rows as f32 / 2.0).max(110.0);
    let grid_right = 8.0 + (BOX_W + GAP) * m.senders().min(COLS) as f32;
    let mut f = Figure::new(
        "incast",
        format!(
            "{} servers answer request {} through one port of {} packets",
            m.senders(),
            m.request.min(m.requests),
            m.path.buffer
        ),
        960.0,
        height,
    )
    .legend("driver", "sending")
    .legend("done", "answer delivered")
    .legend("fault", "waiting for its RTO");
    f.push(
        Shape::text(
            "servers-title",
            8.0,
            26.0,
            format!("{} servers", m.senders()),
        )
        .start()
        .class("strong"),
    );
    f.extend(servers(m));
    f.push(Shape::arrow(
        "into-port",
        (grid_right + 4.0, mid),
        (PORT_X - 8.0, mid),
    ));
    f.push(port(m, mid));
    f.push(
        Shape::group(
            "link",
            vec![
                Shape::arrow("a", (PORT_X + PORT_W + 4.0, mid), (842.0, mid)).class("thick"),
                Shape::text(
                    "t",
                    (PORT_X + PORT_W + 842.0) / 2.0,
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
                Shape::rect("r", 846.0, mid - 30.0, 106.0, 60.0),
                Shape::text("t", 899.0, mid - 6.0, "client"),
                Shape::text(
                    "req",
                    899.0,
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
            PORT_X,
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
fn chart(m: &Incast) -> Figure {
    let link = m.link_mbps as f64;
    let plot = Plot::new(
        (90.0, 40.0, 930.0, 290.0),
        (1.0, 64.0, true),
        (0.0, link * 1.1, false),
    );
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
        960.0,
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
        f.push(
            Shape::text(
                "empty",
                510.0,
                210.0,
                "Sweep N to measure goodput for 1 to 64 servers",
            )
            .class("muted"),
        );
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
    let x = plot.x.at(m.senders() as f64);
    let label = Shape::text(
        "label",
        x + 6.0,
        plot.bottom - 10.0,
        format!("N = {}", m.senders()),
    )
    .start()
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

    fn scene(&self, _: &(), _: &mut Ui<Self>) -> Scene {
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
        .figure(topology(self))
        .figure(chart(self))
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
