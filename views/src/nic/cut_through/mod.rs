//! Cut-through (CTPIO): store-and-forward and cut-through on one time axis,
//! each with its PCIe lane, its wire lane and its chunks' states now; the
//! heading of the lane the CTPIO mode sends says so. The same facts as a
//! table of counts.

mod lesson;

use crate::control::Control;
use crate::draw::lanes::{heading, Axis, Bar};
use crate::knob::bounded;
use crate::layout::Layout;
use crate::live::{Ui, View};
use crate::scene::{Cell, Figure, Scene, Shape, Table};
use demos::nic::cut_through::{
    threshold_bound, ChunkState, CtAction, CtpioMode, CutThrough, Plan, CHUNKS, PCIE, WIRE_RATES,
};
use demos::text::decimal;

const LANE: f32 = 28.0;
/// Between a lane and the next row.
const LANE_GAP: f32 = 6.0;
/// From one timeline's first lane to the next one's, where the rows have
/// their names beside them; each of a timeline's three rows (PCIe, wire,
/// chunks) adds its name's room on a phone.
const GROUP: f32 = 166.0;
/// The first timeline's first lane, where lanes have their names beside them.
const TOP: f32 = 64.0;
const STRIP: f32 = 24.0;
/// Below the last marker's label, to the figure's foot.
const FOOT: f32 = 48.0;

/// The rows of one timeline whose first lane's top is at `y`: its first
/// marker's label (its heading above that), its wire lane, its strip of
/// chunks, and the last marker's label under the strip.
struct Rows {
    first_label: f32,
    wire: f32,
    strip: f32,
    last_label: f32,
}

impl Rows {
    fn at(y: f32, name_room: f32) -> Rows {
        let wire = y + LANE + LANE_GAP + name_room;
        let strip = wire + LANE + LANE_GAP + 16.0 + name_room;
        Rows {
            // Above the first lane and, on a phone, its name.
            first_label: y - 8.0 - name_room,
            wire,
            strip,
            last_label: strip + STRIP + 18.0,
        }
    }
}

/// Semantic class and glyph of a chunk's state (the glyph says it without colour).
fn look(state: ChunkState) -> (&'static str, &'static str) {
    match state {
        ChunkState::NotArrived => ("idle dashed", "·"),
        ChunkState::Arrived => ("nic", "+"),
        ChunkState::OnWire => ("driver thick", "▶"),
        ChunkState::Sent => ("done", "✓"),
        ChunkState::CutOff => ("fault", "✗"),
    }
}

/// A lane's heading: its name, and whether the mode sends it.
fn lane_name(m: &CutThrough, name: &str, cuts_through: bool) -> String {
    if m.mode.cuts_through() == cuts_through {
        format!("{name}: sent in {} mode", m.mode.env())
    } else {
        format!("{name}: for comparison")
    }
}

/// Test-hook name of a state: `not-arrived`, `cut-off`.
fn state_key(state: ChunkState) -> String {
    state.label().replace(' ', "-")
}

fn ns_text(m: &CutThrough, units: u64) -> String {
    format!("{} ns", decimal(m.ns(units), 1))
}

fn pcie_bars(m: &CutThrough, plan: &Plan) -> Vec<Bar> {
    let mut bars: Vec<Bar> = (0..plan.chunks)
        .map(|k| Bar {
            start: m.ns(plan.arrival(k) - plan.pcie_unit),
            end: m.ns(plan.arrival(k)),
            class: "nic",
            label: k.to_string(),
            track: 0,
        })
        .collect();
    if let Some((at, _)) = plan.stall.filter(|&(at, _)| at < plan.chunks) {
        // The gap the CPU stall leaves before chunk `at`.
        bars.push(Bar {
            start: m.ns(plan.arrival(at - 1)),
            end: m.ns(plan.arrival(at) - plan.pcie_unit),
            class: "idle dashed",
            label: "CPU stall".into(),
            track: 0,
        });
    }
    bars
}

fn wire_bars(m: &CutThrough, plan: &Plan) -> Vec<Bar> {
    let mut bars: Vec<Bar> = (0..plan.sent_whole())
        .map(|k| Bar {
            start: m.ns(plan.wire_start(k)),
            end: m.ns(plan.wire_start(k) + plan.wire_unit),
            class: "done",
            label: k.to_string(),
            track: 0,
        })
        .collect();
    if plan.underrun.is_some() {
        // The poisoned end: a bad FCS where the next chunk should have been.
        let at = m.ns(plan.end);
        bars.push(Bar {
            start: at,
            end: at + m.ns(plan.wire_unit).max(m.ns(plan.pcie_unit) / 4.0),
            class: "fault thick",
            label: "bad FCS".into(),
            track: 0,
        });
    }
    bars
}

/// One timeline: PCIe lane, wire lane, and the strip of chunks now.
fn timeline(m: &CutThrough, axis: Axis, y: f32, plan: &Plan, name: &str, key: &str) -> Shape {
    let now_units = m.now_units();
    let now = m.ns(now_units);
    let (left, right, name_room) = (axis.span.left, axis.span.right, axis.span.name_room);
    let cell = ((right - left) / plan.chunks as f32).min(36.0);
    let Rows {
        first_label,
        wire: wire_y,
        strip: strip_y,
        last_label,
    } = Rows::at(y, name_room);
    let mut shapes = vec![
        // A line above the markers' labels ("first bit …"), which start
        // where the frame does and would run into a long heading.
        heading("heading", first_label - 16.0, name.to_string()),
        axis.lane("pcie", y, LANE, "PCIe → NIC", &pcie_bars(m, plan), now),
        axis.lane(
            &format!("{key}-wire"),
            wire_y,
            LANE,
            "NIC → wire",
            &wire_bars(m, plan),
            now,
        )
        .focus(key),
        axis.name("strip-name", strip_y, STRIP, "chunks now"),
    ];
    for k in 0..plan.chunks {
        let state = plan.state(k, now_units);
        let (class, glyph) = look(state);
        let x = left + k as f32 * cell;
        shapes.push(
            Shape::group(
                format!("{key}-chunk-{k}"),
                vec![
                    Shape::rect("r", x + 1.0, strip_y, cell - 2.0, STRIP).rounded(3.0),
                    Shape::text("g", x + cell / 2.0, strip_y + 17.0, glyph).class("strong"),
                ],
            )
            .class(class)
            .state(state.label())
            .label(format!("chunk {k}: {}", state.label())),
        );
    }
    shapes.push(axis.marker(
        "first",
        m.ns(plan.start),
        (first_label + 4.0, wire_y + LANE),
        first_label,
        format!("first bit {}", ns_text(m, plan.start)),
        "driver",
    ));
    let (last, class) = match plan.underrun {
        Some(_) => (format!("poisoned at {}", ns_text(m, plan.end)), "fault"),
        None => (format!("last bit {}", ns_text(m, plan.end)), "done"),
    };
    shapes.push(axis.marker(
        "last",
        m.ns(plan.end),
        (wire_y, strip_y + STRIP + 4.0),
        last_label,
        last,
        class,
    ));
    Shape::group(format!("{key}-timeline"), shapes)
}

fn timelines(m: &CutThrough, layout: Layout) -> Figure {
    let (sf, ct) = (m.store_and_forward(), m.cut_through());
    let end = m.ns(sf.end.max(ct.end).max(m.chunks as u64 * m.tick_units()));
    let axis = Axis::laid_out(end, layout);
    let name_room = axis.span.name_room;
    let top = TOP + name_room;
    // On a phone the second timeline's heading sits under the first one's
    // last label, not beside it: a little more room between them.
    let group = GROUP + 3.0 * name_room + layout.pick(0.0, 14.0);
    let height = Rows::at(top + group, name_room).last_label + FOOT;
    let mut f = Figure::new(
        "ct-timelines",
        format!(
            "Tick {}: store-and-forward first bit {}, last {}; cut-through first bit {}, {} {}",
            m.tick,
            ns_text(m, sf.start),
            ns_text(m, sf.end),
            ns_text(m, ct.start),
            if ct.underrun.is_some() {
                "poisoned at"
            } else {
                "last"
            },
            ns_text(m, ct.end)
        ),
        axis.span.width,
        height,
    )
    .legend("idle dashed", "· not yet arrived")
    .legend("nic", "+ arrived over PCIe")
    .legend("driver", "▶ transmitting on the wire")
    .legend("done", "✓ sent")
    .legend("fault", "✗ cut off (frame poisoned)");
    f.push(axis.ticks(18.0, height - 8.0, "ns"));
    let sf_name = lane_name(m, "Store-and-forward", false);
    let ct_name = lane_name(m, "Cut-through", true);
    f.push(timeline(m, axis, top, &sf, &sf_name, "sf"));
    f.push(timeline(m, axis, top + group, &ct, &ct_name, "ct"));
    f.push(axis.cursor(m.ns(m.now_units()), 22.0, height - 8.0));
    f
}

fn counts(m: &CutThrough) -> Table {
    let now = m.now_units();
    let mut columns = vec!["timeline"];
    columns.extend(ChunkState::ALL.iter().map(|s| s.label()));
    let mut t = Table::new("ct-counts", "Chunks in each state now", &columns);
    for (name, key, plan) in [
        ("Store-and-forward", "sf", m.store_and_forward()),
        ("Cut-through", "ct", m.cut_through()),
    ] {
        let mut cells = vec![Cell::text(name)];
        cells.extend(ChunkState::ALL.iter().map(|&s| {
            Cell::mono(plan.count(s, now).to_string())
                .key(format!("{key}-count-ct-{}", state_key(s)))
        }));
        t.row(format!("counts-{key}"), cells);
    }
    t
}

impl View for CutThrough {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        let (sf, ct) = (self.store_and_forward(), self.cut_through());
        Scene::new(
            "Cut-through (CTPIO)",
            format!(
                "A {}-chunk frame, PCIe at {} Gb/s, the wire at {} Gb/s, EF_CTPIO_MODE={}. Store-and-forward starts the wire at {}; cut-through after {} chunk(s), at {}{}.",
                self.chunks,
                self.pcie_gbps,
                self.wire_gbps,
                self.mode.env(),
                ns_text(self, sf.start),
                self.threshold,
                ns_text(self, ct.start),
                if ct.underrun.is_some() { ", and runs dry" } else { "" }
            ),
        )
        .figure(timelines(self, ui.layout()))
        .table(counts(self))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let mode = CtpioMode::ALL
            .iter()
            .position(|&m| m == self.mode)
            .unwrap_or(0);
        let modes = CtpioMode::ALL
            .iter()
            .map(|&m| {
                (
                    m.env().to_string(),
                    format!("{} ({})", m.env(), m.name()),
                    ui.act(CtAction::SetMode(m)),
                )
            })
            .collect();
        let wire = WIRE_RATES
            .iter()
            .position(|&g| g == self.wire_gbps)
            .unwrap_or(0);
        let wires = WIRE_RATES
            .iter()
            .map(|&g| {
                (
                    g.to_string(),
                    format!("{g} GbE"),
                    ui.act(CtAction::SetWire(g)),
                )
            })
            .collect();
        vec![
            Control::choice("mode", "EF_CTPIO_MODE", mode, modes),
            Control::note("Onload's default is sf-np. UG1586 supports ct at 10 Gb, not at 25 Gb: faster wires here show generic cut-through physics."),
            bounded(
                ui,
                "frame-size",
                "Frame size (64 B chunks)",
                &CHUNKS,
                self.chunks,
                false,
                CtAction::SetChunks,
            ),
            bounded(
                ui,
                "pcie-rate",
                "CPU writes reach the NIC at",
                &PCIE,
                self.pcie_gbps,
                false,
                CtAction::SetPcie,
            ),
            Control::choice("wire", "Wire rate", wire, wires),
            bounded(
                ui,
                "threshold",
                "Cut-through threshold (64 B chunks)",
                &threshold_bound(self.chunks),
                self.threshold,
                false,
                CtAction::SetThreshold,
            ),
            Control::group(
                "Threshold and clock",
                vec![
                    Control::button(
                        "use-safe",
                        format!("Use the safe threshold ({})", self.safe_threshold()),
                        ui.act(CtAction::UseSafeThreshold),
                    ),
                    Control::button("run-to-end", "Run to the end", ui.act(CtAction::RunToEnd)),
                ],
            ),
            Control::note(
                "Step delivers one more chunk over PCIe; changing a setting restarts the clock.",
            ),
            Control::danger_group(
                "Break it",
                vec![
                    Control::button(
                        "break",
                        "ct at 10 GbE, threshold 1, a CPU stall",
                        ui.act(CtAction::BreakIt),
                    )
                    .danger(),
                    Control::toggle(
                        "jitter",
                        "The CPU stalls mid-frame",
                        self.stall.is_some(),
                        ui.act(CtAction::SetJitter(self.stall.is_none())),
                    )
                    .danger(),
                    Control::note("A stalled write, not a slow bus, is the usual cause of a real underrun. In ct mode ef_vi has posted a fallback copy; the NIC sends it if the frame is poisoned."),
                ],
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::nic::cut_through::CutThroughConfig;
    use demos::Model;

    #[test]
    fn a_cpu_stall_shows_as_a_gap_on_the_pcie_lane() {
        let mut m = CutThrough::new(&CutThroughConfig::default());
        m.apply(&CtAction::SetJitter(true)).unwrap();
        m.apply(&CtAction::RunToEnd).unwrap();
        let scene = crate::build(&m, &()).0;
        let figure = match &scene.parts[0] {
            crate::scene::Part::Figure(f) => f,
            _ => panic!("the timelines come first"),
        };
        assert!(figure
            .walk()
            .iter()
            .any(|s| s.label.as_deref() == Some("CPU stall")));
    }

    #[test]
    fn the_heading_names_the_lane_the_mode_sends() {
        let mut m = CutThrough::new(&CutThroughConfig::default());
        let text = |m: &CutThrough| {
            let scene = crate::build(m, &()).0;
            let crate::scene::Part::Figure(figure) = &scene.parts[0] else {
                panic!("the timelines come first");
            };
            figure
                .walk()
                .iter()
                .filter_map(|s| s.text_content().map(str::to_string))
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert!(text(&m).contains("Cut-through: sent in ct mode"));
        m.apply(&CtAction::SetMode(CtpioMode::SfNp)).unwrap();
        assert!(text(&m).contains("Cut-through: for comparison"));
        let (_, controls, _) = crate::build(&m, &());
        let Some(Control::Choice(choice)) = Control::find(&controls, "mode") else {
            panic!("the mode is a choice");
        };
        assert_eq!(choice.selected, 2, "sf-np");
    }

    #[test]
    fn the_sliders_read_the_models_bounds() {
        let m = CutThrough::new(&CutThroughConfig::default());
        let (_, controls, _) = crate::build(&m, &());
        for (id, bound) in [
            ("frame-size", CHUNKS.control_range(m.chunks)),
            ("pcie-rate", PCIE.control_range(m.pcie_gbps)),
        ] {
            let Some(Control::Number(s)) = Control::find(&controls, id) else {
                panic!("{id} is a slider");
            };
            assert_eq!((s.value, s.min, s.max), bound);
        }
        let Some(Control::Number(t)) = Control::find(&controls, "threshold") else {
            panic!("threshold slider");
        };
        assert_eq!((t.min, t.max), (1, 12));
    }

    #[test]
    fn an_underrun_cuts_off_the_chunk_the_wire_wanted() {
        let mut m = CutThrough::new(&CutThroughConfig::default());
        m.apply(&CtAction::BreakIt).unwrap();
        m.apply(&CtAction::RunToEnd).unwrap();
        let scene = crate::build(&m, &()).0;
        assert_eq!(
            scene.find("ct-chunk-1").unwrap().state.as_deref(),
            Some("cut off")
        );
        assert_eq!(
            scene.find("sf-chunk-1").unwrap().state.as_deref(),
            Some("sent")
        );
        let table = scene.table_named("ct-counts").unwrap();
        let cut_off = table.cell("ct-count-ct-cut-off").unwrap();
        assert_ne!(cut_off.text, "0");
    }
}
