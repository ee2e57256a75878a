//! Interrupt moderation: the last 250 µs on a time axis (arrivals, the NIC
//! holding the interrupt back, the CPU's polls), the running totals, and
//! what other settings would give at this rate.

mod lesson;

use crate::control::Control;
use crate::draw::lanes::{heading, Axis, Bar};
use crate::knob::bounded;
use crate::layout::Layout;
use crate::live::{Ui, View};
use crate::scene::{Cell, Figure, Scene, Shape, Size, Table};
use demos::nic::coalescing::{
    Coalescing, CoalescingAction, Line, FRAMES, FRAME_SIZES, RATES, USECS, WINDOW_NS,
};
use demos::text::{duration, grouped, tenths};

const LANE: f32 = 34.0;
const TOP: f32 = 56.0;
/// Between one lane and the heading of the next.
const LANE_GAP: f32 = 16.0;

/// µs on the window's axis for an absolute time in ns.
fn at(from: u64, t: u64) -> f64 {
    t.saturating_sub(from) as f64 / 1_000.0
}

fn timeline(m: &Coalescing, layout: Layout) -> Figure {
    let from = m.now.saturating_sub(WINDOW_NS);
    let axis = Axis::laid_out(WINDOW_NS as f64 / 1_000.0, layout);
    let (left, right) = (axis.span.left, axis.span.right);
    // The lanes' headings name them; on a phone they sit over the lanes,
    // where the lanes' names would.
    let gap = LANE_GAP + axis.span.name_room;
    let now = at(from, m.now);
    let height = TOP + 3.0 * (LANE + gap) + 40.0;
    let mut f = Figure::new(
        "timeline",
        format!(
            "The last 250 µs up to t = {}: {} arrivals, {} interrupts in view",
            duration(m.now),
            m.recent_arrivals.len(),
            m.recent_irqs.len()
        ),
        axis.span.width,
        height,
    )
    .legend("nic", "a packet arrives at the NIC")
    .legend("idle dashed", "the NIC holds the interrupt")
    .legend("driver", "the CPU polls (packets per poll)");
    // Time labels every 50 µs of absolute time; every 100 µs on a phone,
    // where 50 µs is about one label's width.
    let every = layout.pick(50_000, 100_000);
    let mut ticks = Vec::new();
    let first = from.div_ceil(every) * every;
    for (i, t) in (first..=from + WINDOW_NS)
        .step_by(every as usize)
        .enumerate()
    {
        let x = axis.x(at(from, t));
        ticks.push(Shape::line(format!("g{i}"), (x, 28.0), (x, height - 24.0)).class("grid"));
        ticks.push(axis.tick_label(format!("t{i}"), x, 22.0, duration(t)));
    }
    f.push(Shape::group("axis", ticks));
    let arrivals: Vec<Shape> = m
        .recent_arrivals
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            let x = axis.x(at(from, t));
            Shape::line(format!("a{i}"), (x, TOP + 4.0), (x, TOP + LANE - 4.0)).class("thick")
        })
        .collect();
    f.push(heading("h-in", TOP - 6.0, "Packets in".into()));
    f.push(
        Shape::group(
            "arrivals",
            [
                vec![Shape::rect("track", left, TOP, right - left, LANE)
                    .class("track")
                    .rounded(2.0)],
                arrivals,
            ]
            .concat(),
        )
        .class("nic")
        .label(format!(
            "{} packets arrived in view",
            m.recent_arrivals.len()
        ))
        .focus("arrivals"),
    );
    let waits: Vec<Bar> = m
        .recent_irqs
        .iter()
        .map(|r| Bar {
            start: at(from, r.timer_start),
            end: at(from, r.at).max(at(from, r.timer_start) + 0.3),
            class: "idle dashed",
            label: if r.by_frames { "frames" } else { "usecs" }.into(),
            track: 0,
        })
        .collect();
    let y_nic = TOP + LANE + gap;
    f.push(heading("h-nic", y_nic - 6.0, "NIC holds IRQ".into()));
    f.push(
        axis.lane("nic-lane", y_nic, LANE, "", &waits, now + 0.001)
            .focus("timeline"),
    );
    let polls: Vec<Bar> = m
        .recent_irqs
        .iter()
        .map(|r| Bar {
            start: at(from, r.at),
            end: r.poll_end.map_or(now, |e| at(from, e)),
            class: "driver",
            label: r.batch.to_string(),
            track: 0,
        })
        .collect();
    let y_cpu = y_nic + LANE + gap;
    f.push(heading("h-cpu", y_cpu - 6.0, "CPU polls".into()));
    f.push(
        axis.lane("cpu-lane", y_cpu, LANE, "", &polls, now + 0.001)
            .focus("polls"),
    );
    let armed = m.line == Line::Armed;
    f.push(
        Shape::text(
            "line",
            right,
            height - 6.0,
            if armed {
                format!("IRQ armed, {} packet(s) waiting", m.coalesced)
            } else {
                "IRQ masked: a poll is running".into()
            },
        )
        .end()
        .mono()
        .size(Size::Small),
    );
    f.push(axis.cursor(now, 28.0, height - 24.0));
    f
}

/// The other settings at this rate, each run for 1 ms from scratch.
fn trade_off(m: &Coalescing) -> Table {
    let mut t = Table::new(
        "trade-off",
        format!(
            "At {} k pkt/s, each setting run alone for 1 ms",
            m.rate_pps / 1_000
        ),
        &["setting", "interrupts/s", "average wait", "CPU"],
    );
    for (key, usecs, frames) in [
        ("off", 0, 1),
        ("u10", 10, 0),
        ("u50", 50, 0),
        ("u125", 125, 0),
    ] {
        let s = m.summary(usecs, frames);
        let name = if frames == 1 {
            "rx-usecs 0, rx-frames 1 (off)".to_string()
        } else {
            format!("rx-usecs {usecs}")
        };
        t.row(
            format!("try-{key}"),
            vec![
                Cell::text(name),
                Cell::mono(grouped(s.irqs_per_s as i64)).key(format!("try-{key}-irqs")),
                Cell::mono(duration(s.avg_latency_ns)).key(format!("try-{key}-wait")),
                Cell::mono(tenths(s.cpu_tenths)),
            ],
        )
        .focus("trade-off");
    }
    t
}

impl View for Coalescing {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        Scene::new(
            "Interrupt moderation",
            format!(
                "At t = {}, {} k pkt/s, {}: {} interrupts, {} packets each, an average wait of {}, {} of a core.",
                duration(self.now),
                self.rate_pps / 1_000,
                self.setting_label(),
                self.totals.irqs,
                demos::text::fixed(demos::text::ratio(self.totals.done, self.totals.irqs.max(1), 1), 1),
                duration(self.avg_latency_ns()),
                tenths(self.cpu_tenths())
            ),
        )
        .figure(timeline(self, ui.layout()))
        .table(trade_off(self))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let rate = RATES.iter().position(|&r| r == self.rate_pps).unwrap_or(0);
        let rates = RATES
            .iter()
            .map(|&r| {
                (
                    format!("{}k", r / 1_000),
                    format!("{} k", r / 1_000),
                    ui.act(CoalescingAction::SetRate(r)),
                )
            })
            .collect();
        let sizes = FRAME_SIZES
            .iter()
            .map(|&b| {
                (
                    b.to_string(),
                    format!("{b} B"),
                    ui.act(CoalescingAction::SetFrameBytes(b)),
                )
            })
            .collect();
        let size = usize::from(self.frame_bytes != FRAME_SIZES[0]);
        vec![
            Control::choice("rate", "Packets per second", rate, rates),
            Control::choice("frame-size", "Frame size", size, sizes),
            Control::group(
                "ethtool -C",
                vec![
                    bounded(
                        ui,
                        "rx-usecs",
                        "rx-usecs",
                        &USECS,
                        self.rx_usecs,
                        false,
                        CoalescingAction::SetUsecs,
                    )
                    .step(5),
                    bounded(
                        ui,
                        "rx-frames",
                        "rx-frames",
                        &FRAMES,
                        self.rx_frames,
                        false,
                        CoalescingAction::SetFrames,
                    ),
                    Control::toggle(
                        "adaptive",
                        "ixgbe dynamic mode (rx-usecs 1)",
                        self.adaptive,
                        ui.act(CoalescingAction::SetAdaptive(!self.adaptive)),
                    ),
                ],
            ),
            Control::button(
                "run-to-end",
                "Run to 2 ms",
                ui.act(CoalescingAction::RunToEnd),
            ),
            Control::note("Step moves the clock 50 µs; settings apply from now on."),
            Control::danger_group(
                "Break it",
                vec![Control::button(
                    "frames-only",
                    "Count packets only (rx-usecs 0, rx-frames 32) at 10 k pkt/s",
                    ui.act(CoalescingAction::FramesOnly),
                )
                .danger()],
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::nic::coalescing::CoalescingConfig;
    use demos::Model;

    #[test]
    fn the_first_interrupt_shows_its_wait_and_its_poll() {
        let mut m = Coalescing::new(&CoalescingConfig::default());
        m.apply(&CoalescingAction::Advance).unwrap();
        let scene = crate::build(&m, &()).0;
        let nic = scene.find("nic-lane").unwrap();
        assert!(nic
            .children()
            .iter()
            .any(|c| c.label.as_deref() == Some("usecs")));
        let cpu = scene.find("cpu-lane").unwrap();
        assert!(cpu
            .children()
            .iter()
            .any(|c| c.label.as_deref() == Some("4")));
    }

    #[test]
    fn the_trade_off_table_has_four_settings() {
        let m = Coalescing::new(&CoalescingConfig::default());
        let scene = crate::build(&m, &()).0;
        let t = scene.table_named("trade-off").unwrap();
        assert_eq!(t.rows.len(), 4);
        assert_eq!(
            t.rows[0].cells[1].text, "100,000",
            "one interrupt per packet"
        );
    }
}
