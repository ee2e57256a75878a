//! TCP congestion control: the senders, the bottleneck buffer packet by
//! packet (click one to lose it), and cwnd, ssthresh and the queue over time.

use crate::control::Control;
use crate::draw::chart::{time_ticks, Plot};
use crate::draw::lanes::Axis;
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
const PER_ROW: usize = 16;
const CELL: f32 = 30.0;
const BUF_X: f32 = 262.0;
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

fn sender_box(m: &Congestion, f: usize, y: f32) -> Shape {
    let flow = &m.path.flows[f];
    let s = &flow.sender;
    let lines = [
        format!("cwnd {} · ssthresh {}", segs(s.cwnd), segs(s.ssthresh)),
        phase(s).to_string(),
    ];
    let mut parts = vec![
        Shape::rect("box", 8.0, y, 222.0, 78.0),
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
fn buffer(m: &Congestion, ui: &mut Ui<Congestion>) -> Shape {
    let p = &m.path;
    let mut parts = vec![Shape::text(
        "title",
        BUF_X,
        24.0,
        format!(
            "bottleneck buffer {}/{} · queueing delay {}",
            p.queue.len(),
            p.buffer,
            duration(p.queue_delay())
        ),
    )
    .start()
    .class("strong")];
    if p.buffer <= CELLS {
        for i in 0..p.buffer {
            let (x, y) = (
                BUF_X + CELL * (i % PER_ROW) as f32,
                40.0 + (CELL + 6.0) * (i / PER_ROW) as f32,
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
        let w = 480.0;
        let full = w * p.queue.len() as f32 / p.buffer as f32;
        parts.push(Shape::rect("track", BUF_X, 44.0, w, 40.0).class("track"));
        parts.push(Shape::rect("fill", BUF_X, 44.0, full, 40.0).class("bar"));
        parts.push(
            Shape::text(
                "count",
                BUF_X + 10.0,
                70.0,
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
    let height = if two { 200.0 } else { 160.0 };
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
        960.0,
        height,
    )
    .legend("driver", "flow 1's packets")
    .legend("nic", "flow 2's packets")
    .legend("idle", "free place");
    f.push(sender_box(m, 0, 30.0));
    if two {
        f.push(sender_box(m, 1, 116.0));
    }
    f.push(Shape::arrow(
        "into-buffer",
        (232.0, 69.0),
        (BUF_X - 6.0, 60.0),
    ));
    f.push(buffer(m, ui));
    let end = BUF_X + CELL * PER_ROW as f32 + 6.0;
    f.push(
        Shape::group(
            "link",
            vec![
                Shape::arrow("a", (end, 56.0), (818.0, 56.0)).class("thick"),
                Shape::text(
                    "t",
                    (end + 818.0) / 2.0,
                    44.0,
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
                Shape::rect("box", 822.0, 30.0, 130.0, 52.0),
                Shape::text("t", 887.0, 62.0, "receiver"),
            ],
        )
        .class("idle")
        .focus("receiver-1"),
    );
    let s = &p.flows[0].sender;
    f.push(
        Shape::text(
            "rtt-line",
            BUF_X,
            height - 12.0,
            format!(
                "flow 1: last RTT {} = base {} + {} of queueing",
                duration(s.last_rtt),
                duration(p.flows[0].base_rtt),
                duration(s.last_rtt.saturating_sub(p.flows[0].base_rtt))
            ),
        )
        .start()
        .size(Size::Small),
    );
    f
}

/// cwnd, ssthresh and the queue over time, with the losses marked.
fn chart(m: &Congestion) -> Figure {
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
    let plot = Plot::new(
        (90.0, 40.0, 930.0, 300.0),
        (t0 as f64, t1 as f64, false),
        (0.0, y_hi, false),
    );
    let x_ticks = time_ticks(t0, t1 - t0, 6.0);
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
        960.0,
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
                a.label().to_lowercase(),
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
        .figure(chart(self))
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
