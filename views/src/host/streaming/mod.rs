//! Packetized vs streaming: host memory as each interface fills it (a row
//! of cache lines per classic buffer; the same bytes of Ensō's pipe), their
//! descriptors and notifications, the packet rates against frame size, and
//! what each costs a packet and has cost so far.

mod lesson;
mod memory;
mod tables;

use crate::control::Control;
use crate::draw::chart::Plot;
use crate::knob::bounded;
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::{Ui, View};
use crate::scene::{Figure, Scene, Shape};
use demos::host::streaming::cpu::{DEFAULT_STALL, STALL};
use demos::host::streaming::ethernet::FRAME;
use demos::host::streaming::{Streaming, StreamingAction, StreamingConfig, BATCH};
use demos::text::decimal;

/// Frame sizes the rate chart is drawn at: every 16 bytes, and both sides
/// of each 64-byte step, where Ensō's padding jumps.
fn chart_frames() -> Vec<u64> {
    let mut frames: Vec<u64> = (FRAME.min..=FRAME.max).step_by(16).collect();
    let mut edge = FRAME.min;
    while edge < FRAME.max {
        frames.extend([edge, edge + 1]);
        edge += 64;
    }
    frames.push(FRAME.max);
    frames.retain(|f| FRAME.contains(*f));
    frames.sort_unstable();
    frames.dedup();
    frames
}

/// The model with another frame size, for the chart.
fn at_frame(m: &Streaming, frame: u64) -> Streaming {
    Streaming {
        config: StreamingConfig {
            frame,
            ..m.config.clone()
        },
        delivered: 0,
    }
}

/// A rate as a share of the port's line rate, in percent.
fn share(rate: f64, line: f64) -> f64 {
    100.0 * rate / line
}

/// What the link lets each interface deliver, as a share of the port's
/// line rate, against frame size: under 100 % the link, not the port, sets
/// the pace.
fn rates(m: &Streaming, layout: Layout) -> Figure {
    let (width, plot_box) = layout.pick(
        (720.0, (64.0, 40.0, 700.0, 280.0)),
        (NARROW_WIDTH, (56.0, 40.0, 404.0, 280.0)),
    );
    let points: Vec<(f64, f64, f64)> = chart_frames()
        .iter()
        .map(|&f| {
            let p = at_frame(m, f);
            let line = p.line_rate();
            (
                f as f64,
                share(p.classic_rate(), line),
                share(p.enso_rate(), line),
            )
        })
        .collect();
    let top = points.iter().flat_map(|p| [p.1, p.2]).fold(150.0, f64::max);
    // Gridlines every 50 % up to a round top above every point.
    let step = if top > 600.0 {
        200.0
    } else if top > 300.0 {
        100.0
    } else {
        50.0
    };
    let top = (top / step).ceil() * step;
    let plot = Plot::new(
        plot_box,
        (FRAME.min as f64, FRAME.max as f64, false),
        (0.0, top, false),
    );
    let line = m.line_rate();
    let mut f = Figure::new(
        "rates",
        format!(
            "What the link lets each interface deliver, as a share of 100 GbE's line rate, against frame size. At {} bytes the port brings {} million packets a second; the classic NIC gets {} % of them through and Ensō {} %",
            m.config.frame,
            decimal(line / 1e6, 1),
            decimal(share(m.classic_rate(), line), 0),
            decimal(share(m.enso_rate(), line), 0)
        ),
        width,
        340.0,
    )
    .legend("accent dashed", "100 GbE line rate")
    .legend("driver", "classic over PCIe")
    .legend("nic", "Ensō over PCIe");
    let x_ticks: Vec<(f64, String)> = [64u64, 512, 1_024, 1_518]
        .iter()
        .map(|&v| (v as f64, format!("{v} B")))
        .collect();
    let steps = (top / step) as u32;
    let y_ticks: Vec<(f64, String)> = (0..=steps)
        .map(|i| {
            let v = f64::from(i) * step;
            (v, format!("{} %", decimal(v, 0)))
        })
        .collect();
    f.push(plot.axes(
        &x_ticks,
        &y_ticks,
        "Ethernet frame size",
        "share of line rate",
    ));
    let series = |pick: fn(&(f64, f64, f64)) -> f64| -> Vec<(f64, f64)> {
        points.iter().map(|p| (p.0, pick(p))).collect()
    };
    let full = [(FRAME.min as f64, 100.0), (FRAME.max as f64, 100.0)];
    f.push(
        Shape::group(
            "rate-lines",
            vec![
                plot.series("line-rate", &full, "accent dashed"),
                plot.series("classic-line", &series(|p| p.1), "driver"),
                plot.series("enso-line", &series(|p| p.2), "nic"),
            ],
        )
        .focus("rates"),
    );
    let x = m.config.frame as f64;
    f.push(plot.marker("frame-marker", x, format!("{} B", m.config.frame), ""));
    f.push(plot.dot("classic-dot", (x, share(m.classic_rate(), line)), "driver"));
    f.push(plot.dot("enso-dot", (x, share(m.enso_rate(), line)), "nic"));
    f
}

impl View for Streaming {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        let layout = ui.layout();
        let (classic, enso) = (self.classic_so_far(), self.enso_so_far());
        Scene::new(
            "Packetized vs streaming",
            format!(
                "{} of {} packets of {} bytes delivered over a Gen{} ×{} link. Classic: {} transactions, {} bytes up. Ensō, a notification per {}: {} transactions, {} bytes up. The link allows {} million packets a second for the classic NIC and {} million for Ensō; 100 GbE brings {} million.",
                self.delivered,
                demos::host::streaming::RUN,
                self.config.frame,
                self.config.generation,
                self.config.lanes,
                classic.transactions,
                classic.up,
                self.config.batch,
                enso.transactions,
                enso.up,
                decimal(self.classic_rate() / 1e6, 1),
                decimal(self.enso_rate() / 1e6, 1),
                decimal(self.line_rate() / 1e6, 1)
            ),
        )
        .figure(memory::figure(self, layout))
        .table(tables::so_far(self))
        .figure(rates(self, layout))
        .table(tables::per_packet(self))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let c = &self.config;
        let link = super::link::link_controls(
            ui,
            c.generation,
            c.lanes,
            StreamingAction::SetGeneration,
            StreamingAction::SetLanes,
        );
        vec![
            bounded(
                ui,
                "frame",
                "Ethernet frame (with FCS)",
                &FRAME,
                c.frame,
                true,
                StreamingAction::SetFrame,
            ),
            bounded(
                ui,
                "batch",
                "Packets per Ensō notification",
                &BATCH,
                c.batch,
                false,
                StreamingAction::SetBatch,
            ),
            Control::button(
                "deliver-batch",
                "Deliver the rest of the batch",
                ui.act(StreamingAction::DeliverBatch),
            ),
            Control::note(
                "Step delivers the next packet to both interfaces. A change of setting starts the run again.",
            ),
            Control::group(
                "Link",
                link.to_vec(),
            ),
            Control::group(
                "Classic driver",
                vec![Control::toggle(
                    "interrupts",
                    "Interrupt and head-pointer read per packet",
                    c.interrupts,
                    ui.act(StreamingAction::SetInterrupts(!c.interrupts)),
                )],
            ),
            Control::group(
                "Assumption",
                vec![
                    bounded(
                        ui,
                        "stall",
                        "Cycles a jump costs the core",
                        &STALL,
                        c.stall,
                        false,
                        StreamingAction::SetStall,
                    ),
                    Control::note(format!(
                        "Assumed, not measured: a line next to the last one is prefetched; a jump costs this much. {DEFAULT_STALL} cycles is an L3 hit, where DDIO leaves what the NIC wrote."
                    )),
                ],
            ),
            Control::danger_group(
                "Break it",
                vec![
                    Control::button(
                        "notify-every",
                        "Notify every packet",
                        ui.act(StreamingAction::SetBatch(1)),
                    )
                    .danger(),
                    Control::toggle(
                        "hold",
                        "Hold packet 1 (an out-of-order segment)",
                        c.hold,
                        ui.act(StreamingAction::SetHold(!c.hold)),
                    )
                    .danger(),
                    Control::note(
                        "A notification per packet costs Ensō more than a classic write-back. A held packet holds Ensō's whole pipe behind it: it is freed only in order.",
                    ),
                ],
            ),
        ]
    }
}

#[cfg(test)]
mod tests;
