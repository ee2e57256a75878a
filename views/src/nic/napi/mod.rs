//! NAPI poll loop: the NIC, the RX ring, the interrupt line and the poll,
//! and the last few polls as bars against their budget.

mod lesson;

use crate::control::{Control, Field};
use crate::draw::geometry::PathData;
use crate::knob::bounded;
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::{Command, Ui, View};
use crate::scene::{Figure, Scene, Shape, Size};
use demos::nic::napi::{
    Line, Napi, NapiAction, NapiConfig, BUDGET, BURST, DEFER, RING, TIMEOUT_US,
};
use demos::Quantity;

const COLUMNS: usize = 8;
const CELL: f32 = 30.0;
/// The NIC's and the CPU's boxes.
const BOX_Y: f32 = 80.0;
const BOX_H: f32 = 108.0;
const NIC_X: f32 = 6.0;
const NIC_W: f32 = 150.0;
const CPU_W: f32 = 204.0;
/// Where the NIC's DMA arrow and the IRQ wire leave the NIC's box.
const NIC_MID: f32 = NIC_X + NIC_W / 2.0;

/// Where the ring figure's parts go. Wide, one row: the NIC, the ring it
/// fills, the CPU that polls it, the IRQ line over them. Narrow, the NIC
/// and the CPU side by side under their IRQ line, the ring below the NIC,
/// which DMAs down into it.
struct RingDims {
    width: f32,
    cpu_x: f32,
    /// The IRQ line's pill, on the wire between the NIC and the CPU.
    pill_x: f32,
    pill_w: f32,
    ring_x: f32,
    ring_y: f32,
    /// Start of the "RX ring n/m" label above the ring.
    occupancy_x: f32,
    /// The NIC's DMA arrow into the ring.
    flow: [(f32, f32); 2],
}

/// The IRQ pill's width when it reads "IRQ line MASKED: never unmasked"
/// (31 monospace characters at 16 units).
const STUCK_PILL_W: f32 = 318.0;

impl RingDims {
    fn of(layout: Layout, timer: bool) -> RingDims {
        match layout {
            Layout::Wide => {
                let ring_x = 200.0;
                RingDims {
                    width: 700.0,
                    cpu_x: 490.0,
                    pill_x: 236.0,
                    pill_w: 220.0,
                    ring_x,
                    ring_y: 108.0,
                    occupancy_x: ring_x,
                    flow: [(NIC_X + NIC_W, 134.0), (ring_x - 6.0, 134.0)],
                }
            }
            Layout::Narrow => {
                let cpu_x = NARROW_WIDTH - 6.0 - CPU_W;
                // Wide enough for the stuck line's words, so the wire comes
                // out of its underside; centred between the boxes.
                let pill_w = STUCK_PILL_W;
                let wires_mid = (NIC_MID + cpu_x + CPU_W / 2.0) / 2.0;
                // Under the boxes, and under the timer's pill when the
                // deferral has one (its settings restart the demo).
                let ring_y = if timer { 262.0 } else { 226.0 };
                RingDims {
                    width: NARROW_WIDTH,
                    cpu_x,
                    pill_x: wires_mid - pill_w / 2.0,
                    pill_w,
                    // The ring's first column under the NIC's arrow.
                    ring_x: NIC_MID - CELL / 2.0,
                    ring_y,
                    // Clear of the arrow, which comes down at the NIC's middle.
                    occupancy_x: NIC_MID + 19.0,
                    flow: [(NIC_MID, BOX_Y + BOX_H), (NIC_MID, ring_y - 6.0)],
                }
            }
        }
    }
}

/// A box with a title and a line under it.
fn unit(key: &str, x: f32, w: f32, title: &str, sub: Vec<String>, class: &str) -> Shape {
    let cx = x + w / 2.0;
    let mut shapes = vec![
        Shape::rect("box", x, BOX_Y, w, BOX_H).class("panel"),
        Shape::text("title", cx, 114.0, title).size(Size::Title),
    ];
    for (i, line) in sub.into_iter().enumerate() {
        shapes.push(Shape::text(format!("l{i}"), cx, 142.0 + 24.0 * i as f32, line).class("muted"));
    }
    Shape::group(key, shapes).class(class)
}

fn ring(m: &Napi, layout: Layout) -> Figure {
    let timer = m.gro_flush_timeout_us > 0 && m.defer_hard_irqs > 0;
    let d = RingDims::of(layout, timer);
    let rows = m.ring_size.div_ceil(COLUMNS) as f32;
    let height = (d.ring_y + rows * (CELL + 4.0) + 20.0).max(if timer { 236.0 } else { 206.0 });
    let armed = m.line == Line::Armed;
    let mut f = Figure::new(
        "napi",
        format!(
            "RX ring {} of {} full, interrupt line {}, {}",
            m.occupancy,
            m.ring_size,
            m.line.label(),
            if m.poll_scheduled {
                "poll scheduled"
            } else {
                "no poll pending"
            }
        ),
        d.width,
        height,
    )
    .legend("done", "packet waiting")
    .legend("driver", "empty descriptor")
    .legend("done", "ARMED: the next packet interrupts")
    .legend("idle dashed", "MASKED: polling, no interrupts");
    f.push(
        unit(
            "nic",
            NIC_X,
            NIC_W,
            "NIC",
            vec!["DMA into ring".into()],
            "nic",
        )
        .focus("ring"),
    );
    f.push(Shape::arrow("flow", d.flow[0], d.flow[1]));
    f.push(
        Shape::text(
            "napi-occupancy",
            d.occupancy_x,
            d.ring_y - 14.0,
            format!("RX ring {}/{}", m.occupancy, m.ring_size),
        )
        .start()
        .mono()
        .class("strong"),
    );
    let cells = (0..m.ring_size)
        .map(|i| {
            let x = d.ring_x + (i % COLUMNS) as f32 * (CELL + 4.0);
            let y = d.ring_y + (i / COLUMNS) as f32 * (CELL + 4.0);
            Shape::rect(format!("cell-{i}"), x, y, CELL, CELL)
                .rounded(3.0)
                .class(if i < m.occupancy { "done" } else { "driver" })
        })
        .collect();
    f.push(Shape::group("napi-ring", cells).focus("ring"));
    f.push(
        unit(
            "cpu",
            d.cpu_x,
            CPU_W,
            "CPU · softirq",
            vec![
                if m.poll_scheduled {
                    "poll scheduled"
                } else if m.timer_armed {
                    "re-poll timer running"
                } else if m.stuck() {
                    "no poll, ever: stuck"
                } else {
                    "no poll pending"
                }
                .into(),
                format!("drained {}/{}", m.drained_last, m.budget),
            ],
            "driver",
        )
        .focus("poll"),
    );
    let cpu_mid = d.cpu_x + CPU_W / 2.0;
    // A stuck line says so in the pill, which widens about its middle.
    let pill_mid = d.pill_x + d.pill_w / 2.0;
    let pill_w = if m.stuck() {
        d.pill_w.max(STUCK_PILL_W)
    } else {
        d.pill_w
    };
    let wire = PathData::new()
        .move_to(NIC_MID, BOX_Y)
        .line_to(NIC_MID, 36.0)
        .line_to(cpu_mid, 36.0)
        .line_to(cpu_mid, BOX_Y);
    f.push(
        Shape::group(
            "irq-line",
            vec![
                Shape::path("wire", wire).class("line thick"),
                Shape::rect("pill", pill_mid - pill_w / 2.0, 16.0, pill_w, 40.0).rounded(20.0),
                Shape::text(
                    "text",
                    pill_mid,
                    42.0,
                    if m.stuck() {
                        format!("IRQ line {}: never unmasked", m.line.label())
                    } else {
                        format!("IRQ line {}", m.line.label())
                    },
                )
                .mono()
                .class("strong"),
            ],
        )
        .class(if armed {
            "done"
        } else if m.stuck() {
            "fault dashed"
        } else {
            "idle dashed"
        })
        .state(m.line.label())
        .focus("irq-line"),
    );
    if timer {
        let text = if m.timer_armed {
            format!("timer {} µs: running", m.gro_flush_timeout_us)
        } else {
            format!("timer {} µs: idle", m.gro_flush_timeout_us)
        };
        f.push(
            Shape::group(
                "timer",
                vec![
                    Shape::rect("pill", d.cpu_x, 196.0, CPU_W, 30.0).rounded(15.0),
                    Shape::text("text", cpu_mid, 216.0, text)
                        .mono()
                        .size(Size::Small),
                ],
            )
            .class(if m.timer_armed { "warn" } else { "idle" })
            .state(if m.timer_armed { "running" } else { "idle" })
            .focus("timer"),
        );
    }
    f
}

/// Where a poll's parts go in the history. Narrow, what the poll decided
/// goes under its bar instead of after it.
struct HistoryDims {
    width: f32,
    row_h: f32,
    track_x: f32,
    track_w: f32,
    /// Start and baseline (in the row) of the "drained/budget → outcome" text.
    text_x: f32,
    text_y: f32,
}

impl HistoryDims {
    fn of(layout: Layout) -> HistoryDims {
        layout.pick(
            HistoryDims {
                width: 700.0,
                row_h: 34.0,
                track_x: 90.0,
                track_w: 300.0,
                text_x: 404.0,
                text_y: 19.0,
            },
            HistoryDims {
                width: NARROW_WIDTH,
                row_h: 50.0,
                track_x: 80.0,
                track_w: 330.0,
                text_x: 80.0,
                text_y: 42.0,
            },
        )
    }
}

/// The last polls: how much of its budget each used, and what it decided.
fn history(m: &Napi, layout: Layout) -> Figure {
    let d = HistoryDims::of(layout);
    let rows = m.history.len().max(1) as f32;
    let mut f = Figure::new(
        "poll-history",
        "Recent polls",
        d.width,
        d.row_h * rows + 44.0,
    );
    f.push(
        Shape::text("title", 0.0, 22.0, "Recent polls")
            .start()
            .size(Size::Title),
    );
    if m.history.is_empty() {
        f.push(
            Shape::text("none", 0.0, 54.0, "no polls yet")
                .start()
                .class("muted"),
        );
    }
    for (i, p) in m.history.iter().enumerate() {
        let y = 40.0 + d.row_h * i as f32;
        let full = d.track_w * p.drained as f32 / p.budget.max(1) as f32;
        let outcome = match (p.completed, p.released, p.rearmed) {
            (true, true, true) => "re-armed",
            (true, true, false) => "released, line left MASKED",
            (true, false, _) => "deferred: timer",
            _ => "poll again",
        };
        f.push(
            Shape::group(
                format!("poll-{}", p.number),
                vec![
                    Shape::text("name", 0.0, y + 19.0, format!("poll {}", p.number)).start(),
                    Shape::rect("track", d.track_x, y + 4.0, d.track_w, 20.0).class("track"),
                    Shape::rect("fill", d.track_x, y + 4.0, full, 20.0).class("bar"),
                    Shape::text(
                        "text",
                        d.text_x,
                        y + d.text_y,
                        format!("{}/{} → {outcome}", p.drained, p.budget),
                    )
                    .start()
                    .mono(),
                ],
            )
            .class(if p.rearmed {
                "done"
            } else if p.released {
                "fault"
            } else {
                "driver"
            }),
        );
    }
    f
}

impl View for Napi {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        Scene::new(
            "NAPI poll loop",
            format!(
                "The RX ring holds {} of {} packets; the interrupt line is {}; {} hard IRQ(s) and {} poll(s) so far, at a budget of {} per poll.",
                self.occupancy,
                self.ring_size,
                self.line.label(),
                self.hard_irqs,
                self.polls,
                self.budget
            ),
        )
        .figure(ring(self, ui.layout()))
        .figure(history(self, ui.layout()))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let budget = self.budget;
        let config = NapiConfig {
            ring_size: self.ring_size,
            budget,
            defer_hard_irqs: self.defer_hard_irqs,
            gro_flush_timeout_us: self.gro_flush_timeout_us,
            never_unmasks: self.never_unmasks,
        };
        let driver = ui.restart(NapiConfig {
            never_unmasks: !self.never_unmasks,
            ..config.clone()
        });
        let (c1, c2, c3) = (config.clone(), config.clone(), config);
        vec![
            Control::form(
                "send-burst",
                "The wire",
                vec![Field::number(
                    "burst-size",
                    "Burst size (packets)",
                    6,
                    BURST.min as i64,
                    BURST.max as i64,
                )],
                "Send a burst",
                ui.form(|values| {
                    let text = values.first().map_or("", |v| v.trim());
                    let n = text.parse::<usize>().map_err(|_| {
                        format!("A burst is a whole number of packets; \"{text}\" is not.")
                    })?;
                    Ok(Command::Do(NapiAction::Burst(BURST.check(n)?)))
                }),
            ),
            bounded(
                ui,
                "budget",
                "Poll budget (packets per poll)",
                &BUDGET,
                budget,
                false,
                NapiAction::SetBudget,
            ),
            Control::slider(
                "ring-size",
                "Ring size (restarts)",
                RING.control_range(self.ring_size),
                RING.unit.trim_start(),
                ui.number(move |v| {
                    Ok(Command::Restart(NapiConfig {
                        ring_size: usize::from_i64(v).clamp(RING.min, RING.max),
                        ..c1.clone()
                    }))
                }),
            ),
            Control::group(
                "IRQ deferral: the device's sysfs files (restarts)",
                vec![
                    Control::slider(
                        "defer",
                        "napi_defer_hard_irqs",
                        DEFER.control_range(self.defer_hard_irqs),
                        DEFER.unit.trim_start(),
                        ui.number(move |v| {
                            Ok(Command::Restart(NapiConfig {
                                defer_hard_irqs: u32::from_i64(v).clamp(DEFER.min, DEFER.max),
                                ..c2.clone()
                            }))
                        }),
                    ),
                    Control::slider(
                        "gro-timeout",
                        "gro_flush_timeout",
                        TIMEOUT_US.control_range(self.gro_flush_timeout_us),
                        TIMEOUT_US.unit.trim_start(),
                        ui.number(move |v| {
                            Ok(Command::Restart(NapiConfig {
                                gro_flush_timeout_us: u32::from_i64(v)
                                    .clamp(TIMEOUT_US.min, TIMEOUT_US.max),
                                ..c3.clone()
                            }))
                        }),
                    )
                    .step(50),
                ],
            ),
            Control::note("Step runs one poll of the softirq, or fires the re-poll timer."),
            Control::danger_group(
                "Break it",
                vec![
                    Control::toggle(
                        "never-unmasks",
                        "Driver never unmasks the IRQ after napi_complete_done() (restarts)",
                        self.never_unmasks,
                        driver,
                    )
                    .danger(),
                    Control::note(
                        "Step still polls until a poll completes; after that it has nothing to run, and bursts fill the ring and then drop.",
                    ),
                ],
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::Model;

    #[test]
    fn a_burst_masks_the_line_and_fills_cells() {
        let mut m = Napi::new(&NapiConfig::default());
        m.apply(&NapiAction::Burst(6)).unwrap();
        let scene = crate::build(&m, &()).0;
        let line = scene.find("irq-line").unwrap();
        assert_eq!(line.state.as_deref(), Some("MASKED"));
        let ring = scene.find("napi-ring").unwrap();
        let full = ring
            .children()
            .iter()
            .filter(|c| c.has_class("done"))
            .count();
        assert_eq!(full, 6);
    }

    #[test]
    fn the_deferral_knobs_are_named_as_the_devices_sysfs_files_not_sysctls() {
        let (_, controls, _) = crate::build(&Napi::new(&NapiConfig::default()), &());
        let groups: Vec<&str> = controls
            .iter()
            .filter_map(|c| match c {
                crate::Control::Group(g) => Some(g.label.as_str()),
                _ => None,
            })
            .collect();
        let deferral = groups.iter().find(|l| l.contains("IRQ deferral")).unwrap();
        assert!(deferral.contains("sysfs") && !deferral.contains("sysctl"));
    }

    #[test]
    fn a_deferred_completion_keeps_the_line_masked_and_shows_the_timer() {
        let mut m = Napi::new(&NapiConfig {
            defer_hard_irqs: 2,
            gro_flush_timeout_us: 200,
            ..NapiConfig::default()
        });
        m.apply(&NapiAction::Burst(2)).unwrap();
        m.apply(&NapiAction::Poll).unwrap();
        let scene = crate::build(&m, &()).0;
        assert_eq!(
            scene.find("irq-line").unwrap().state.as_deref(),
            Some("MASKED")
        );
        assert_eq!(
            scene.find("timer").unwrap().state.as_deref(),
            Some("running")
        );
    }

    #[test]
    fn break_it_restarts_with_a_driver_that_never_unmasks_and_back() {
        let m = Napi::new(&NapiConfig {
            ring_size: 8,
            ..NapiConfig::default()
        });
        let (_, controls, ui) = crate::build(&m, &());
        let group = Control::danger_zone(&controls).expect("a Break it group");
        assert_eq!(group.label, "Break it");
        let Some(Control::Toggle(t)) = Control::find(&group.controls, "never-unmasks") else {
            panic!("the driver toggle");
        };
        assert!(!t.on);
        let broken = NapiConfig {
            ring_size: 8,
            never_unmasks: true,
            ..NapiConfig::default()
        };
        assert_eq!(
            ui.resolve(t.send, &crate::Input::Press).unwrap(),
            Command::Restart(broken.clone())
        );
        assert!(group
            .controls
            .iter()
            .any(|c| matches!(c, Control::Note(n) if n.contains("nothing to run"))));
        // Broken, the toggle is on and restarts with the fixed driver; the
        // other restarting knobs keep the bug.
        let m = Napi::new(&broken);
        let (_, controls, ui) = crate::build(&m, &());
        let Some(Control::Toggle(t)) = Control::find(&controls, "never-unmasks") else {
            panic!("the driver toggle");
        };
        assert!(t.on);
        assert_eq!(
            ui.resolve(t.send, &crate::Input::Press).unwrap(),
            Command::Restart(NapiConfig {
                ring_size: 8,
                ..NapiConfig::default()
            })
        );
        let Some(Control::Number(ring)) = Control::find(&controls, "ring-size") else {
            panic!("ring slider");
        };
        assert_eq!(
            ui.resolve(ring.send, &crate::Input::Number(16)).unwrap(),
            Command::Restart(NapiConfig {
                never_unmasks: true,
                ..NapiConfig::default()
            })
        );
    }

    #[test]
    fn the_stuck_line_is_drawn_as_a_fault_and_the_poll_as_released() {
        let mut m = Napi::new(&NapiConfig {
            never_unmasks: true,
            ..NapiConfig::default()
        });
        m.apply(&NapiAction::Burst(2)).unwrap();
        m.apply(&NapiAction::Poll).unwrap();
        m.apply(&NapiAction::Burst(5)).unwrap();
        let scene = crate::build(&m, &()).0;
        let line = scene.find("irq-line").unwrap();
        assert_eq!(line.state.as_deref(), Some("MASKED"));
        assert!(line.has_class("fault"));
        let text = line.children()[2].text_content().unwrap();
        assert_eq!(text, "IRQ line MASKED: never unmasked");
        let poll = scene.find("poll-1").unwrap();
        assert!(poll.has_class("fault"));
        assert_eq!(
            poll.children()[3].text_content(),
            Some("2/4 → released, line left MASKED")
        );
        let full = scene
            .find("napi-ring")
            .unwrap()
            .children()
            .iter()
            .filter(|c| c.has_class("done"))
            .count();
        assert_eq!(full, 5, "the ring holds what no poll will reach");
    }

    #[test]
    fn the_burst_form_refuses_a_size_out_of_range() {
        let m = Napi::new(&NapiConfig::default());
        let (_, controls, ui) = crate::build(&m, &());
        let Some(Control::Form(form)) = Control::find(&controls, "send-burst") else {
            panic!("burst form");
        };
        let input = crate::Input::Fields(vec!["0".into()]);
        assert!(ui.resolve(form.send, &input).is_err());
        let input = crate::Input::Fields(vec!["6".into()]);
        assert_eq!(
            ui.resolve(form.send, &input).unwrap(),
            Command::Do(NapiAction::Burst(6))
        );
    }
}
