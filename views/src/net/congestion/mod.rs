//! TCP congestion control: the senders, the bottleneck buffer packet by
//! packet (click one to lose it), and cwnd, ssthresh and the queue over time.

mod lesson;

use crate::control::Control;
use crate::draw::chart::{time_ticks, Plot};
use crate::draw::lanes::{wrapped, Axis};
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::{Command, Ui, View};
use crate::scene::{Cell, Figure, Scene, Shape, Size, Table};
use demos::net::congestion::sender::{Algorithm, Sender};
use demos::net::congestion::{
    segments_tenths, Congestion, CongestionAction, CongestionConfig, MarkKind, BLOATED_BUFFER,
    BUFFER, LINK_MBPS, RTT_MS,
};
use demos::text::{duration, fixed};
use demos::Quantity;

/// Buffers up to this many packets are drawn cell by cell.
const CELLS: usize = 48;
/// A buffer cell: a finger's width, so a phone can lose a packet too.
const CELL: f32 = 30.0;
/// From one row of cells to the next.
const CELL_ROW: f32 = CELL + 6.0;
const SENDER_H: f32 = 78.0;
/// From flow 1's sender box to flow 2's.
const SENDER_PITCH: f32 = 86.0;
const RECEIVER: (f32, f32) = (130.0, 52.0);
/// A bloated buffer's fill bar, drawn this far below the cells' top.
const FILL_H: f32 = 40.0;
const FILL_INSET: f32 = 4.0;
/// Between two lines of one caption on a phone.
const LINE: f32 = 20.0;

/// Where the path's parts sit. On a laptop they make one row, left to right:
/// the senders, the buffer, the link, the receiver. On a phone they stack:
/// the senders across the width, the buffer under them (fewer cells a row,
/// captions on two lines), then the link and the receiver.
#[derive(Clone, Copy)]
struct PathGeometry {
    width: f32,
    height: f32,
    sender_w: f32,
    /// The buffer's left edge, its title's baseline, its first row of cells.
    buf_x: f32,
    title_y: f32,
    cells_y: f32,
    per_row: usize,
    /// A bloated buffer's fill bar.
    fill_w: f32,
    into_buffer: ((f32, f32), (f32, f32)),
    /// The link arrow from (x0, y) to (x1, y).
    link: (f32, f32, f32),
    /// The receiver box's top-left corner.
    receiver: (f32, f32),
    /// The first line of flow 1's round trip.
    rtt: (f32, f32),
}

impl PathGeometry {
    fn of(layout: Layout, flows: usize, buffer: usize) -> PathGeometry {
        let senders_bottom = 30.0 + SENDER_PITCH * (flows - 1) as f32 + SENDER_H;
        match layout {
            Layout::Wide => {
                let (buf_x, per_row) = (262.0, 16);
                let height = if flows == 2 { 200.0 } else { 160.0 };
                PathGeometry {
                    width: 960.0,
                    height,
                    sender_w: 222.0,
                    buf_x,
                    title_y: 24.0,
                    cells_y: 40.0,
                    per_row,
                    fill_w: 480.0,
                    into_buffer: ((232.0, 69.0), (buf_x - 6.0, 60.0)),
                    link: (buf_x + CELL * per_row as f32 + 6.0, 818.0, 56.0),
                    receiver: (822.0, 30.0),
                    rtt: (buf_x, height - 12.0),
                }
            }
            Layout::Narrow => {
                let (buf_x, per_row) = (30.0, 12);
                let title_y = senders_bottom + 30.0;
                let cells_y = title_y + LINE + 16.0;
                let drawn = if buffer <= CELLS {
                    CELL_ROW * buffer.div_ceil(per_row).max(1) as f32
                } else {
                    FILL_INSET + FILL_H + 6.0
                };
                let link_y = cells_y + drawn + 34.0;
                let receiver = (NARROW_WIDTH - 8.0 - RECEIVER.0, link_y - RECEIVER.1 / 2.0);
                let rtt_y = receiver.1 + RECEIVER.1 + 26.0;
                PathGeometry {
                    width: NARROW_WIDTH,
                    height: rtt_y + LINE + 12.0,
                    sender_w: NARROW_WIDTH - 16.0,
                    buf_x,
                    title_y,
                    cells_y,
                    per_row,
                    fill_w: CELL * per_row as f32,
                    into_buffer: ((16.0, senders_bottom + 4.0), (buf_x - 6.0, cells_y + 20.0)),
                    link: (buf_x, receiver.0 - 4.0, link_y),
                    receiver,
                    rtt: (8.0, rtt_y),
                }
            }
        }
    }
}
const ALGORITHMS: [Algorithm; 3] = [Algorithm::Reno, Algorithm::NewReno, Algorithm::Cubic];
/// The two flows' classes, everywhere: flow 1 blue, flow 2 amber.
const FLOW_CLASS: [&str; 2] = ["driver", "nic"];

fn segs(bytes: u64) -> String {
    match segments_tenths(bytes) {
        u32::MAX => "∞".into(),
        t => fixed(t as i64, 1),
    }
}

/// What the sender is doing, in a few words.
fn phase(s: &Sender) -> &'static str {
    if s.in_recovery {
        "fast recovery"
    } else if s.in_slow_start() {
        "slow start"
    } else {
        "congestion avoidance"
    }
}

fn sender_box(m: &Congestion, f: usize, y: f32, g: PathGeometry) -> Shape {
    let flow = &m.path.flows[f];
    let s = &flow.sender;
    let lines = [
        format!("cwnd {} · ssthresh {}", segs(s.cwnd), segs(s.ssthresh)),
        phase(s).to_string(),
    ];
    let mut parts = vec![
        Shape::rect("box", 8.0, y, g.sender_w, SENDER_H),
        Shape::text(
            "title",
            18.0,
            y + 24.0,
            format!(
                "Flow {} · {} · {} ms",
                f + 1,
                s.algorithm.label(),
                flow.base_rtt / 1_000_000
            ),
        )
        .start()
        .class("strong"),
    ];
    for (i, line) in lines.into_iter().enumerate() {
        parts.push(
            Shape::text(format!("l{i}"), 18.0, y + 46.0 + 20.0 * i as f32, line)
                .start()
                .mono()
                .size(Size::Small),
        );
    }
    Shape::group(format!("flow-{}", f + 1), parts)
        .class(FLOW_CLASS[f])
        .state(phase(s))
        .focus(format!("flow-{}", f + 1))
}

/// The bottleneck: one cell per place in the buffer (a click loses the
/// packet waiting there), or a fill bar for a bloated buffer.
fn buffer(m: &Congestion, ui: &mut Ui<Congestion>, g: PathGeometry, layout: Layout) -> Shape {
    let p = &m.path;
    let taken = format!("bottleneck buffer {}/{}", p.queue.len(), p.buffer);
    let delay = format!("queueing delay {}", duration(p.queue_delay()));
    let mut parts: Vec<Shape> = wrapped(
        "title",
        (g.buf_x, g.title_y),
        LINE,
        (&taken, " · ", &delay),
        layout,
    )
    .into_iter()
    .map(|line| line.class("strong"))
    .collect();
    if p.buffer <= CELLS {
        for i in 0..p.buffer {
            let (x, y) = (
                g.buf_x + CELL * (i % g.per_row) as f32,
                g.cells_y + CELL_ROW * (i / g.per_row) as f32,
            );
            let rect = Shape::rect("r", x, y, CELL - 4.0, CELL).rounded(3.0);
            let cell = match p.queue.get(i) {
                None => Shape::group(format!("queue-{i}"), vec![rect]).class("idle"),
                Some(pkt) => {
                    let on_wire = i == 0;
                    let shape = Shape::group(format!("queue-{i}"), vec![rect])
                        .class(FLOW_CLASS[pkt.flow.min(1)])
                        .class_if(pkt.ce, "dashed")
                        .state(if on_wire { "on the wire" } else { "waiting" });
                    if on_wire {
                        shape.label(format!(
                            "segment {} of flow {}, on the wire",
                            pkt.seq,
                            pkt.flow + 1
                        ))
                    } else {
                        shape
                            .label(format!(
                                "segment {} of flow {}: click to lose it",
                                pkt.seq,
                                pkt.flow + 1
                            ))
                            .on_click(ui.act(CongestionAction::DropQueued(i)))
                    }
                }
            };
            parts.push(cell.focus(format!("queue-{i}")));
        }
    } else {
        let w = g.fill_w;
        let full = w * p.queue.len() as f32 / p.buffer as f32;
        let y = g.cells_y + FILL_INSET;
        parts.push(Shape::rect("track", g.buf_x, y, w, FILL_H).class("track"));
        parts.push(Shape::rect("fill", g.buf_x, y, full, FILL_H).class("bar"));
        parts.push(
            Shape::text(
                "count",
                g.buf_x + 10.0,
                y + 26.0,
                format!("{} packets waiting", p.queue.len()),
            )
            .start()
            .mono(),
        );
    }
    let class = if p.queue.len() >= p.buffer {
        "fault"
    } else {
        "warn"
    };
    Shape::group("queue", parts)
        .class(class)
        .state(format!("{}/{}", p.queue.len(), p.buffer))
        .focus("queue")
}

fn path(m: &Congestion, ui: &mut Ui<Congestion>) -> Figure {
    let p = &m.path;
    let two = p.flows[1].active;
    let layout = ui.layout();
    let g = PathGeometry::of(layout, if two { 2 } else { 1 }, p.buffer);
    let mut f = Figure::new(
        "path",
        format!(
            "{} sender{} into a {}-packet buffer on a {} Mbit/s link; {} packets queued",
            if two { 2 } else { 1 },
            if two { "s" } else { "" },
            p.buffer,
            m.link_mbps,
            p.queue.len()
        ),
        g.width,
        g.height,
    )
    .legend("driver", "flow 1's packets")
    .legend("nic", "flow 2's packets")
    .legend("idle", "free place");
    f.push(sender_box(m, 0, 30.0, g));
    if two {
        f.push(sender_box(m, 1, 30.0 + SENDER_PITCH, g));
    }
    let (from, to) = g.into_buffer;
    f.push(Shape::arrow("into-buffer", from, to));
    f.push(buffer(m, ui, g, layout));
    let (x0, x1, y) = g.link;
    f.push(
        Shape::group(
            "link",
            vec![
                Shape::arrow("a", (x0, y), (x1, y)).class("thick"),
                Shape::text(
                    "t",
                    (x0 + x1) / 2.0,
                    y - 12.0,
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
            "receiver",
            vec![
                Shape::rect("box", g.receiver.0, g.receiver.1, RECEIVER.0, RECEIVER.1),
                Shape::text(
                    "t",
                    g.receiver.0 + RECEIVER.0 / 2.0,
                    g.receiver.1 + 32.0,
                    "receiver",
                ),
            ],
        )
        .class("idle")
        .focus("receiver-1"),
    );
    let s = &p.flows[0].sender;
    let last = format!("flow 1: last RTT {}", duration(s.last_rtt));
    let parts = format!(
        "= base {} + {} of queueing",
        duration(p.flows[0].base_rtt),
        duration(s.last_rtt.saturating_sub(p.flows[0].base_rtt))
    );
    f.extend(
        wrapped("rtt-line", g.rtt, LINE, (&last, " ", &parts), layout)
            .into_iter()
            .map(|line| line.size(Size::Small)),
    );
    f
}

/// The chart's width, its plot's box (left, top, right, bottom) and at most
/// how many time ticks: on a phone, room on the left for the y ticks'
/// labels ("1,200") and on the right for half of the last time's ("12.0 s").
fn chart_geometry(layout: Layout) -> (f32, (f32, f32, f32, f32), f64) {
    layout.pick(
        (960.0, (90.0, 40.0, 930.0, 300.0), 6.0),
        (NARROW_WIDTH, (60.0, 40.0, 392.0, 300.0), 4.0),
    )
}

/// cwnd, ssthresh and the queue over time, with the losses marked.
fn chart(m: &Congestion, layout: Layout) -> Figure {
    let (width, plot_box, max_ticks) = chart_geometry(layout);
    let h = &m.history;
    let t0 = h.first().map_or(0, |s| s.t_ns);
    // At least one round trip of flow 1: before the first step the run has
    // no length, and an axis of one nanosecond says nothing.
    let t1 = h
        .last()
        .map_or(t0, |s| s.t_ns)
        .max(t0 + m.path.flows[0].base_rtt.max(1));
    let two = m.path.flows[1].active;
    let bdp = m.bdp_tenths(0) as f64 / 10.0;
    let limit = bdp + m.path.buffer as f64;
    let finite = |v: u32| v != u32::MAX;
    let top = h
        .iter()
        .flat_map(|s| {
            [s.cwnd[0], s.cwnd[1], s.queue * 10]
                .into_iter()
                .chain(s.ssthresh.into_iter().filter(|&v| finite(v)))
        })
        .max()
        .unwrap_or(10) as f64
        / 10.0;
    let y_hi = (top.max(limit) * 1.1).max(4.0);
    let plot = Plot::new(plot_box, (t0 as f64, t1 as f64, false), (0.0, y_hi, false));
    let x_ticks = time_ticks(t0, t1 - t0, max_ticks);
    let y_step = Axis::new(y_hi).tick_step(5.0);
    let y_ticks: Vec<(f64, String)> = (0..=(y_hi / y_step) as usize)
        .map(|i| (i as f64 * y_step, fixed((i as f64 * y_step) as i64, 0)))
        .collect();
    let mut f = Figure::new(
        "chart",
        format!(
            "cwnd, ssthresh and queue in segments over {}; the buffer overflows above BDP + buffer = {} segments",
            duration(t1 - t0),
            fixed((limit * 10.0) as i64, 1)
        ),
        width,
        350.0,
    )
    .legend("driver", "flow 1 cwnd")
    .legend("driver dashed", "flow 1 ssthresh")
    .legend("warn", "queue")
    .legend("fault dashed", "BDP + buffer: losses above");
    if two {
        f = f.legend("nic", "flow 2 cwnd");
    }
    f.push(plot.axes(&x_ticks, &y_ticks, "time", "segments"));
    f.push(plot.series(
        "limit",
        &[(t0 as f64, limit), (t1 as f64, limit)],
        "fault dashed",
    ));
    let points =
        |pick: &dyn Fn(&demos::net::congestion::Sample) -> Option<u32>| -> Vec<(f64, f64)> {
            h.iter()
                .filter_map(|s| pick(s).map(|v| (s.t_ns as f64, v as f64 / 10.0)))
                .collect()
        };
    f.push(plot.steps("queue-line", &points(&|s| Some(s.queue * 10)), "warn"));
    let ss = points(&|s| Some(s.ssthresh[0]).filter(|&v| finite(v)));
    if ss.len() > 1 {
        f.push(plot.steps("ssthresh-line", &ss, "driver dashed"));
    }
    f.push(plot.series("cwnd-line", &points(&|s| Some(s.cwnd[0])), "driver"));
    if two {
        let second = points(&|s| Some(s.cwnd[1]).filter(|&v| v > 0));
        f.push(plot.series("cwnd-2-line", &second, "nic"));
    }
    let marks = m
        .marks
        .iter()
        .filter(|k| k.t_ns >= t0)
        .enumerate()
        .map(|(i, k)| {
            let (class, what) = match k.kind {
                MarkKind::Drop => ("fault", "lost"),
                MarkKind::FastRetransmit => ("warn", "fast retransmit"),
                MarkKind::Timeout => ("fault thick", "timeout"),
            };
            let (x, _) = plot.point((k.t_ns as f64, 0.0));
            let y = if k.kind == MarkKind::Drop { 52.0 } else { 68.0 };
            Shape::circle(format!("mark-{i}"), x, y, 6.0)
                .class(class)
                .label(format!(
                    "flow {} {what} at {}",
                    k.flow + 1,
                    duration(k.t_ns)
                ))
        })
        .collect();
    f.push(Shape::group("marks", marks).focus("chart"));
    f
}

fn flows_table(m: &Congestion) -> Table {
    let mut t = Table::new(
        "flows",
        "Each flow so far",
        &[
            "flow",
            "cwnd",
            "ssthresh",
            "phase",
            "last RTT",
            "goodput",
            "lost",
            "fast rexmit",
            "timeouts",
        ],
    );
    for (f, flow) in m.active() {
        let s = &flow.sender;
        t.row(
            format!("flow-row-{}", f + 1),
            vec![
                Cell::text(format!("{} · {}", f + 1, s.algorithm.label())),
                Cell::mono(segs(s.cwnd)).key(format!("cwnd-{}", f + 1)),
                Cell::mono(segs(s.ssthresh)),
                Cell::text(phase(s)),
                Cell::mono(duration(s.last_rtt)),
                Cell::mono(format!("{} Mbit/s", fixed(m.goodput_tenths(f) as i64, 1))),
                Cell::mono(flow.drops.to_string()),
                Cell::mono(s.fast_retransmits.to_string()),
                Cell::mono(s.timeouts.to_string()).key(format!("timeouts-{}", f + 1)),
            ],
        )
        .class(FLOW_CLASS[f])
        .focus(format!("flow-{}", f + 1));
    }
    t
}

/// A number control that restarts with one setting changed.
fn restart(
    ui: &mut Ui<Congestion>,
    base: &CongestionConfig,
    change: fn(&mut CongestionConfig, i64),
) -> crate::live::Slot {
    let base = base.clone();
    ui.number(move |v| {
        let mut next = base.clone();
        change(&mut next, v);
        Ok(Command::Restart(next))
    })
}

fn algorithm_choice(ui: &mut Ui<Congestion>, c: &CongestionConfig, f: usize) -> Control {
    let options = ALGORITHMS
        .iter()
        .map(|&a| {
            let mut next = c.clone();
            next.flows[f].algorithm = a;
            (
                a.label().to_ascii_lowercase(),
                a.label().to_string(),
                ui.restart(next),
            )
        })
        .collect();
    let chosen = ALGORITHMS
        .iter()
        .position(|&a| a == c.flows[f].algorithm)
        .unwrap_or(0);
    Control::choice(
        &format!("algorithm-{}", f + 1),
        format!("Flow {}'s algorithm (restarts)", f + 1),
        chosen,
        options,
    )
}

impl View for Congestion {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        let s = &self.path.flows[0].sender;
        Scene::new(
            "TCP congestion control",
            format!(
                "{} at {}: cwnd {} segments, ssthresh {}, {} of {} buffer places taken; the link has been busy {} of the time.",
                s.algorithm.label(),
                duration(self.path.now),
                segs(s.cwnd),
                segs(s.ssthresh),
                self.path.queue.len(),
                self.path.buffer,
                demos::text::tenths(self.utilisation_tenths())
            ),
        )
        .figure(path(self, ui))
        .figure(chart(self, ui.layout()))
        .table(flows_table(self))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let c = self.config();
        let bloated = c.buffer == BLOATED_BUFFER;
        let mut sane = c.clone();
        sane.buffer = if bloated {
            CongestionConfig::default().buffer
        } else {
            BLOATED_BUFFER
        };
        let mut two = c.clone();
        two.two_flows = !c.two_flows;
        let second = self.path.flows[1].active;
        let mut flow2 = vec![Control::button(
            "join",
            "Start flow 2 now",
            ui.act(CongestionAction::JoinSecond),
        )];
        if second {
            flow2.push(Control::button(
                "drop-2",
                "Lose flow 2's next packet",
                ui.act(CongestionAction::DropNext(1)),
            ));
        }
        flow2.extend([
            Control::toggle(
                "two-flows",
                "Both flows from the start (restarts)",
                c.two_flows,
                ui.restart(two),
            ),
            algorithm_choice(ui, &c, 1),
            Control::slider(
                "rtt-2",
                "Flow 2's base RTT (restarts)",
                RTT_MS.control_range(c.flows[1].rtt_ms),
                "ms",
                restart(ui, &c, |c, v| c.flows[1].rtt_ms = u64::from_i64(v)),
            ),
        ]);
        vec![
            algorithm_choice(ui, &c, 0),
            Control::button("event", "Next event only", ui.act(CongestionAction::Event)),
            Control::button(
                "drop-1",
                "Lose flow 1's next packet",
                ui.act(CongestionAction::DropNext(0)),
            ),
            Control::note("Step runs one round trip of flow 1; click a waiting packet in the buffer to lose it."),
            Control::group("Second flow", flow2),
            Control::group(
                "Link (restarts)",
                vec![
                    Control::slider(
                        "rate",
                        "Bottleneck rate",
                        LINK_MBPS.control_range(c.link_mbps),
                        "Mbit/s",
                        restart(ui, &c, |c, v| c.link_mbps = u64::from_i64(v)),
                    ),
                    Control::slider(
                        "rtt",
                        "Flow 1's base RTT",
                        RTT_MS.control_range(c.flows[0].rtt_ms),
                        "ms",
                        restart(ui, &c, |c, v| c.flows[0].rtt_ms = u64::from_i64(v)),
                    ),
                    Control::slider(
                        "buffer",
                        "Buffer",
                        BUFFER.control_range(c.buffer),
                        "packets",
                        restart(ui, &c, |c, v| c.buffer = usize::from_i64(v)),
                    ),
                ],
            ),
            Control::danger_group(
                "Break it",
                vec![Control::toggle(
                    "bufferbloat",
                    format!("A {BLOATED_BUFFER}-packet buffer, ~30 BDPs (restarts)"),
                    bloated,
                    ui.restart(sane),
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

    /// The time axis's labels, left to right, and where they sit.
    fn time_labels(m: &Congestion) -> Vec<(f32, String)> {
        let scene = crate::build(m, &()).0;
        let chart = scene.figures().find(|f| f.key == "chart").unwrap().clone();
        chart
            .walk()
            .iter()
            .filter(|s| s.key.starts_with("xt"))
            .map(|s| match s.kind {
                crate::Kind::Text { x, .. } => (x, s.text_content().unwrap().to_string()),
                _ => unreachable!(),
            })
            .collect()
    }

    #[test]
    fn the_time_axis_is_sensible_from_step_zero_on() {
        let mut m = Congestion::new(&CongestionConfig::default());
        let at_start = time_labels(&m);
        assert_eq!(at_start.first().unwrap().1, "0 ns");
        // One round trip of flow 1, not one nanosecond.
        assert_eq!(
            at_start.last().unwrap().1,
            duration(m.path.flows[0].base_rtt)
        );
        for step in 0..40 {
            let labels = time_labels(&m);
            assert!(labels.len() >= 2, "step {step}: {labels:?}");
            for pair in labels.windows(2) {
                assert!(pair[0].0 < pair[1].0, "step {step}: {labels:?}");
                assert_ne!(pair[0].1, pair[1].1, "step {step}: {labels:?}");
            }
            m.apply(&CongestionAction::Rtt).unwrap();
        }
    }

    #[test]
    fn packets_fill_the_buffer_cells_and_a_click_loses_one() {
        let mut m = Congestion::new(&CongestionConfig::default());
        for _ in 0..6 {
            m.apply(&CongestionAction::Rtt).unwrap();
        }
        let queued = m.path.queue.len();
        assert!(queued > 2);
        let (scene, _, ui) = crate::build(&m, &());
        let wire = scene.find("queue-0").unwrap();
        assert_eq!(wire.state.as_deref(), Some("on the wire"));
        assert!(
            wire.on_click.is_none(),
            "the packet on the wire cannot be recalled"
        );
        let waiting = scene.find("queue-1").unwrap();
        let command = ui
            .resolve(waiting.on_click.unwrap(), &crate::Input::Press)
            .unwrap();
        assert_eq!(command, Command::Do(CongestionAction::DropQueued(1)));
        let last = scene.find(&format!("queue-{}", m.path.buffer - 1)).unwrap();
        assert_eq!(last.state.is_some(), queued == m.path.buffer);
    }

    #[test]
    fn bufferbloat_draws_a_bar_and_the_chart_its_limit() {
        let mut m = Congestion::new(&CongestionConfig::bufferbloat());
        for _ in 0..20 {
            m.apply(&CongestionAction::Rtt).unwrap();
        }
        let scene = crate::build(&m, &()).0;
        assert!(scene.find("queue-0").is_none());
        assert!(scene.find("fill").is_some());
        let chart = scene.figures().find(|f| f.key == "chart").unwrap();
        assert!(
            chart.label.contains("BDP + buffer = 1,033.3 segments"),
            "{}",
            chart.label
        );
    }

    #[test]
    fn a_drop_shows_as_a_mark_and_the_table_counts_it() {
        let mut m = Congestion::new(&CongestionConfig::default());
        for _ in 0..5 {
            m.apply(&CongestionAction::Rtt).unwrap();
        }
        m.apply(&CongestionAction::DropNext(0)).unwrap();
        for _ in 0..3 {
            m.apply(&CongestionAction::Rtt).unwrap();
        }
        let scene = crate::build(&m, &()).0;
        let marks = scene.find("marks").unwrap();
        assert!(marks.children().iter().any(|k| k.has_class("fault")));
        let row = &scene.table_named("flows").unwrap().rows[0];
        assert_eq!(row.cells[6].text, m.path.flows[0].drops.to_string());
        assert!(m.path.flows[0].drops >= 1);
    }

    #[test]
    fn the_bufferbloat_switch_restarts_with_a_thousand_places() {
        let m = Congestion::new(&CongestionConfig::default());
        let (_, controls, ui) = crate::build(&m, &());
        let Some(Control::Toggle(t)) = Control::find(&controls, "bufferbloat") else {
            panic!("toggle");
        };
        assert!(!t.on);
        match ui.resolve(t.send, &crate::Input::Press).unwrap() {
            Command::Restart(c) => assert_eq!(c.buffer, BLOATED_BUFFER),
            other => panic!("{other:?}"),
        }
    }
}
