//! How deep a receive ring: the ring and its core, the ring's fill over
//! time against what it holds (the stall shaded, drops and reads from DRAM
//! marked), the LLC's ways against the rings' footprint, a frame's bytes on
//! the wire, and the sizes that work.

mod lesson;

use crate::control::Control;
use crate::draw::chart::Plot;
use crate::draw::geometry::PathData;
use crate::knob::bounded;
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::{Ui, View};
use crate::scene::{Cell, Figure, Scene, Shape, Size, Table};
use demos::host::ring_sizing::ddio::{
    footprint, written_per_frame, DDIO_WAYS, DEFAULT_DDIO_WAYS, LLC_KIB, LLC_WAYS,
    SKYLAKE_SP_LLC_WAYS, XEON_GOLD_6140_LLC_KIB,
};
use demos::host::ring_sizing::ring::{ENTRIES, MULTIPLE};
use demos::host::ring_sizing::run::{Sample, STALL_AT_US, STEP_TICKS};
use demos::host::ring_sizing::sizing::{absorbs_ps, Largest, Smallest};
use demos::host::ring_sizing::wire::{
    frame_ps, wire_bytes, FCS_BYTES, HEADER_BYTES, INTERFRAME_GAP_BYTES, PAYLOAD,
    PREAMBLE_SFD_BYTES, RATES,
};
use demos::host::ring_sizing::{
    mib, micros, nanos, RingSizing, RingSizingAction, CORE_NS, QUEUES, STALL_US,
};
use demos::text::grouped;

fn width(layout: Layout) -> f32 {
    layout.pick(720.0, NARROW_WIDTH)
}

fn count(n: u64) -> String {
    grouped(n as i64)
}

/// The ring as one bar (what it holds, filled as far as it is), and its
/// core.
fn ring_figure(m: &RingSizing, layout: Layout) -> Figure {
    let w = width(layout);
    let p = m.params();
    let r = &m.run;
    let inner = w - 16.0;
    let full = r.held >= p.holds;
    let mut f = Figure::new(
        "ring",
        format!(
            "The ring: {} of {} frames waiting, {} dropped; the core is {}",
            count(r.held),
            count(p.holds),
            count(r.dropped),
            if m.stalled_now() {
                "stalled"
            } else {
                "reading"
            }
        ),
        w,
        156.0,
    )
    .legend("driver", "frames waiting in the ring")
    .legend("fault", "the ring full")
    .legend("done", "the core reading")
    .legend("warn", "the core stalled");
    f.push(
        Shape::text(
            "title",
            8.0,
            22.0,
            format!(
                "{} entries, {} frames",
                count(u64::from(m.config.entries)),
                count(p.holds)
            ),
        )
        .start(),
    );
    f.push(
        Shape::text(
            "absorbs",
            w - 8.0,
            22.0,
            format!("absorbs {}", micros(m.absorbs_ps())),
        )
        .end()
        .mono()
        .size(Size::Small),
    );
    let filled = inner * r.held as f32 / p.holds.max(1) as f32;
    f.push(
        Shape::group(
            "ring-bar",
            vec![
                Shape::rect("track", 8.0, 34.0, inner, 34.0)
                    .class("track")
                    .rounded(3.0),
                Shape::rect("fill", 8.0, 34.0, filled.max(1.0), 34.0)
                    .class(if full { "fault" } else { "driver" })
                    .rounded(3.0),
            ],
        )
        .state(if full {
            "full"
        } else if r.held > 0 {
            "filling"
        } else {
            "empty"
        })
        .label(format!(
            "The ring holds {} of {} frames",
            count(r.held),
            count(p.holds)
        ))
        .focus("ring"),
    );
    f.push(
        Shape::text("held", 8.0, 88.0, format!("{} waiting", count(r.held)))
            .start()
            .mono()
            .size(Size::Small),
    );
    f.push(
        Shape::text(
            "dropped",
            w - 8.0,
            88.0,
            format!("{} dropped", count(r.dropped)),
        )
        .end()
        .mono()
        .size(Size::Small)
        .class_if(r.dropped > 0, "fault"),
    );
    let stalled = m.stalled_now();
    let core_text = if stalled {
        format!("Core stalled until {} µs", p.stall_ends_us())
    } else {
        format!("Core reads a frame per {} ns", m.config.core_ns)
    };
    f.push(
        Shape::group(
            "core",
            vec![
                Shape::rect("box", 8.0, 104.0, inner, 36.0)
                    .class(if stalled { "warn" } else { "done" })
                    .rounded(3.0),
                Shape::text("text", 16.0, 127.0, core_text).start(),
            ],
        )
        .state(if stalled { "stalled" } else { "reading" })
        .label(if stalled {
            "The core is stalled".to_string()
        } else {
            "The core is reading".to_string()
        })
        .focus("core"),
    );
    f
}

/// Round tick spacing (µs) for a span, at most `most` steps.
fn tick_step(span: u64, most: u64) -> u64 {
    [10, 20, 50, 100, 200, 500, 1_000, 2_000]
        .into_iter()
        .find(|s| span / s <= most)
        .unwrap_or(5_000)
}

/// Segments over the Steps where `grew` says the count grew: at the value
/// `y`, or (`None`) just under the time axis.
fn marks(
    plot: &Plot,
    history: &[Sample],
    y: Option<f64>,
    grew: impl Fn(&Sample, &Sample) -> bool,
) -> Option<PathData> {
    let start = Sample {
        at_us: 0,
        peak: 0,
        dropped: 0,
        from_dram: 0,
    };
    let mut d = PathData::new();
    let mut any = false;
    let mut before = &start;
    for s in history {
        if grew(before, s) {
            let (x0, at) = plot.point(((s.at_us - STEP_TICKS) as f64, y.unwrap_or(0.0)));
            let (x1, _) = plot.point((s.at_us as f64, 0.0));
            let yy = if y.is_some() { at } else { plot.bottom + 5.0 };
            d = d.move_to(x0, yy).line_to(x1.max(x0 + 2.0), yy);
            any = true;
        }
        before = s;
    }
    any.then_some(d)
}

/// The most the ring held in each Step, against what it holds; the stall
/// shaded; drops on the ring's line, reads from DRAM under the time axis.
fn timeline(m: &RingSizing, layout: Layout) -> Figure {
    let w = width(layout);
    let p = m.params();
    let r = &m.run;
    let end = r.now_us.max(p.stall_ends_us() + 40);
    let x_end = end.div_ceil(50) * 50;
    let peak = r.history.iter().map(|s| s.peak).max().unwrap_or(0);
    let y_top = (p.holds.max(peak) as f64 * 1.15).max(10.0);
    let plot = Plot::new(
        (layout.pick(64.0, 60.0), 40.0, w - 16.0, 200.0),
        (0.0, x_end as f64, false),
        (0.0, y_top, false),
    );
    let step = tick_step(x_end, layout.pick(8, 4));
    let x_ticks: Vec<(f64, String)> = (0..=x_end / step)
        .map(|i| ((i * step) as f64, format!("{} µs", i * step)))
        .collect();
    let y_ticks: Vec<(f64, String)> = [0, p.holds / 2, p.holds]
        .into_iter()
        .map(|v| (v as f64, count(v)))
        .collect();
    let mut f = Figure::new(
        "timeline",
        format!(
            "Frames in the ring over time, up to {} µs: at most {} of {}; {} dropped, {} read from DRAM",
            r.now_us,
            count(peak),
            count(p.holds),
            count(r.dropped),
            count(r.from_dram)
        ),
        w,
        262.0,
    )
    .legend("driver line", "frames in the ring")
    .legend("idle line dashed", "what the ring holds")
    .legend("warn", "the core stalled")
    .legend("fault line thick", "frames dropped")
    .legend("nic line thick", "frames read from DRAM");
    if p.stall_us > 0 {
        let (x0, _) = plot.point((STALL_AT_US as f64, 0.0));
        let (x1, _) = plot.point((p.stall_ends_us() as f64, 0.0));
        f.push(
            Shape::group(
                "stall-band",
                vec![
                    Shape::rect(
                        "band",
                        x0,
                        plot.top,
                        (x1 - x0).max(1.0),
                        plot.bottom - plot.top,
                    )
                    .class("warn"),
                    Shape::text("label", x0 + 4.0, plot.bottom - 8.0, "stall")
                        .start()
                        .size(Size::Small),
                ],
            )
            .label(format!(
                "The core stalls from {} to {} µs",
                STALL_AT_US,
                p.stall_ends_us()
            )),
        );
    }
    f.push(plot.axes(&x_ticks, &y_ticks, "time", "frames in the ring"));
    f.push(plot.series(
        "holds",
        &[(0.0, p.holds as f64), (x_end as f64, p.holds as f64)],
        "idle dashed",
    ));
    let mut points = vec![(0.0, 0.0)];
    points.extend(r.history.iter().map(|s| (s.at_us as f64, s.peak as f64)));
    f.push(plot.series("fill", &points, "driver").focus("timeline"));
    let dropped = |a: &Sample, b: &Sample| b.dropped > a.dropped;
    if let Some(d) = marks(&plot, &r.history, Some(p.holds as f64), dropped) {
        f.push(Shape::path("drop-marks", d).class("line fault thick"));
    }
    let leaked = |a: &Sample, b: &Sample| b.from_dram > a.from_dram;
    if let Some(d) = marks(&plot, &r.history, None, leaked) {
        f.push(Shape::path("dram-marks", d).class("line nic thick"));
    }
    f.push(plot.marker("now", r.now_us as f64, format!("{} µs", r.now_us), ""));
    f
}

/// The LLC's ways, DDIO's among them, and the rings' footprint on the same
/// scale as the DDIO ways.
fn cache_figure(m: &RingSizing, layout: Layout) -> Figure {
    let w = width(layout);
    let c = &m.config;
    let (fp, ddio) = (m.footprint(), m.ddio_bytes());
    let inner = w - 16.0;
    let way = inner / c.llc_ways.max(1) as f32;
    let ddio_w = way * c.ddio_ways as f32;
    let leaky = fp > ddio;
    let mut f = Figure::new(
        "cache",
        format!(
            "The LLC's {} ways, {} of them DDIO's ({}), against the rings' footprint of {}",
            c.llc_ways,
            c.ddio_ways,
            mib(ddio),
            mib(fp)
        ),
        w,
        200.0,
    )
    .legend("accent", "ways DDIO may write")
    .legend("idle", "the LLC's other ways")
    .legend("done", "footprint that fits")
    .legend("fault", "footprint beyond the DDIO ways");
    f.push(
        Shape::text(
            "llc",
            8.0,
            20.0,
            format!(
                "LLC {}: {} ways, {} for DDIO",
                mib(u64::from(c.llc_kib) * 1_024),
                c.llc_ways,
                c.ddio_ways
            ),
        )
        .start()
        .size(Size::Small),
    );
    let ways: Vec<Shape> = (0..c.llc_ways)
        .map(|i| {
            Shape::rect(
                format!("way-{i}"),
                8.0 + i as f32 * way,
                30.0,
                (way - 2.0).max(1.0),
                26.0,
            )
            .class(if i < c.ddio_ways { "accent" } else { "idle" })
        })
        .collect();
    f.push(Shape::group("ways", ways).label(format!(
        "{} of the LLC's {} ways take DDIO's writes",
        c.ddio_ways, c.llc_ways
    )));
    f.push(
        Shape::text("ddio", 8.0, 76.0, format!("DDIO ways hold {}", mib(ddio)))
            .start()
            .size(Size::Small),
    );
    let scale = ddio_w as f64 / ddio.max(1) as f64;
    let fp_w = ((fp as f64 * scale) as f32).min(inner);
    let fits_w = fp_w.min(ddio_w);
    let mut bar = vec![
        Shape::rect("edge", 8.0 + ddio_w, 84.0, 1.5, 36.0).class("accent"),
        Shape::rect("fits", 8.0, 88.0, fits_w.max(1.0), 28.0).class("done"),
    ];
    if leaky {
        bar.push(
            Shape::rect("beyond", 8.0 + ddio_w, 88.0, (fp_w - ddio_w).max(1.0), 28.0)
                .class("fault"),
        );
    }
    f.push(
        Shape::group("footprint", bar)
            .state(if leaky { "leaks" } else { "fits" })
            .label(format!(
                "Footprint {} against {} of DDIO ways: {}",
                mib(fp),
                mib(ddio),
                if leaky { "it leaks to DRAM" } else { "it fits" }
            ))
            .focus("cache"),
    );
    f.push(
        Shape::text(
            "sum",
            8.0,
            142.0,
            format!(
                "Footprint {} × {} × {} B = {}",
                c.queues,
                count(u64::from(c.entries)),
                count(written_per_frame(c.payload)),
                mib(fp)
            ),
        )
        .start()
        .mono()
        .size(Size::Small),
    );
    f.push(
        Shape::text(
            "from-dram",
            8.0,
            172.0,
            format!("{} frames read from DRAM", count(m.run.from_dram)),
        )
        .start()
        .size(Size::Small)
        .class_if(m.run.from_dram > 0, "tone nic"),
    );
    f
}

/// One frame's bytes of line time.
fn wire_table(m: &RingSizing) -> Table {
    let c = &m.config;
    let mut t = Table::new(
        "wire",
        format!("One frame on the wire at {} Gb/s", c.rate_gbps),
        &["part", "bytes"],
    );
    for (key, part, bytes) in [
        (
            "preamble",
            "preamble and start delimiter",
            PREAMBLE_SFD_BYTES,
        ),
        ("header", "Ethernet header", HEADER_BYTES),
        ("packet", "packet", u64::from(c.payload)),
        ("fcs", "FCS", FCS_BYTES),
        ("gap", "gap before the next frame", INTERFRAME_GAP_BYTES),
    ] {
        t.row(
            format!("wire-{key}"),
            vec![Cell::text(part), Cell::mono(count(bytes))],
        )
        .focus("wire");
    }
    t.row(
        "wire-total",
        vec![
            Cell::text("line time"),
            Cell::mono(format!(
                "{} = {}",
                count(wire_bytes(c.payload)),
                nanos(frame_ps(c.payload, c.rate_gbps))
            ))
            .key("frame-time"),
        ],
    )
    .class("done")
    .focus("wire");
    t
}

/// This ring, the two ends, and whether any size does both.
fn answers(m: &RingSizing) -> Table {
    let c = &m.config;
    let p = m.params();
    let mut t = Table::new(
        "answers",
        "Which ring sizes drop nothing in this run and fit the DDIO ways",
        &["ring", "entries", "absorbs", "footprint"],
    );
    let row = |t: &mut Table, key: &str, name: &str, n: Option<u32>, class: &str| {
        let cells = match n {
            Some(n) => vec![
                Cell::text(name),
                Cell::mono(count(u64::from(n))).key(format!("{key}-entries")),
                Cell::mono(micros(absorbs_ps(&p, n))),
                Cell::mono(mib(footprint(c.queues, n, c.payload))),
            ],
            None => vec![
                Cell::text(name),
                Cell::mono("none").key(format!("{key}-entries")),
                Cell::text(""),
                Cell::text(""),
            ],
        };
        t.row(key, cells).class(class).focus("answers");
    };
    let mine = if m.run.dropped > 0 {
        "fault"
    } else if p.leaky {
        "warn"
    } else {
        ""
    };
    row(&mut t, "mine", "this ring", Some(c.entries), mine);
    let smallest = match m.smallest() {
        Smallest::Ring(n) => Some(n),
        _ => None,
    };
    row(&mut t, "smallest", "smallest with no drops", smallest, "");
    let largest = match m.largest() {
        Largest::Ring(n) => Some(n),
        Largest::NoneFits => None,
    };
    row(&mut t, "largest", "largest that fits", largest, "");
    let both = match m.both() {
        Some((lo, hi)) => format!("{} to {}", count(u64::from(lo)), count(u64::from(hi))),
        None => "none".into(),
    };
    t.row(
        "both",
        vec![
            Cell::text("both"),
            Cell::mono(both).key("both-entries"),
            Cell::text(""),
            Cell::text(""),
        ],
    )
    .class(if m.both().is_some() { "done" } else { "fault" })
    .focus("answers");
    t
}

impl View for RingSizing {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        let layout = ui.layout();
        let c = &self.config;
        let r = &self.run;
        Scene::new(
            "Ring sizing",
            format!(
                "{} Gb/s of {}-byte packets over {} queue{}; a {}-entry ring absorbs {}. At {} µs: {} frames waiting, {} dropped, {} read from DRAM. Footprint {} against DDIO's {}.",
                c.rate_gbps,
                count(u64::from(c.payload)),
                c.queues,
                if c.queues == 1 { "" } else { "s" },
                count(u64::from(c.entries)),
                micros(self.absorbs_ps()),
                r.now_us,
                count(r.held),
                count(r.dropped),
                count(r.from_dram),
                mib(self.footprint()),
                mib(self.ddio_bytes())
            ),
        )
        .figure(ring_figure(self, layout))
        .figure(timeline(self, layout))
        .figure(cache_figure(self, layout))
        .table(wire_table(self))
        .table(answers(self))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let c = &self.config;
        let rates = RATES
            .iter()
            .map(|&r| {
                (
                    format!("{r}g"),
                    format!("{r} Gb/s"),
                    ui.act(RingSizingAction::SetRate(r)),
                )
            })
            .collect();
        let rate = RATES.iter().position(|&r| r == c.rate_gbps).unwrap_or(0);
        vec![
            bounded(
                ui,
                "entries",
                "Ring entries (ethtool -G rx)",
                &ENTRIES,
                c.entries,
                false,
                RingSizingAction::SetEntries,
            )
            .step(i64::from(MULTIPLE)),
            bounded(
                ui,
                "stall",
                "Core stall",
                &STALL_US,
                c.stall_us,
                false,
                RingSizingAction::SetStall,
            )
            .step(10),
            Control::button(
                "finish",
                "Run to the end",
                ui.act(RingSizingAction::Finish),
            ),
            Control::note(
                "Step moves the clock 10 µs. The stall starts at 20 µs. Every setting starts the run again.",
            ),
            Control::group(
                "Traffic and cores",
                vec![
                    Control::choice("rate", "Line rate", rate, rates),
                    bounded(
                        ui,
                        "payload",
                        "Packet size",
                        &PAYLOAD,
                        c.payload,
                        false,
                        RingSizingAction::SetPayload,
                    ),
                    bounded(
                        ui,
                        "queues",
                        "Queues (RSS)",
                        &QUEUES,
                        c.queues,
                        false,
                        RingSizingAction::SetQueues,
                    ),
                    bounded(
                        ui,
                        "core-ns",
                        "Core's time per frame",
                        &CORE_NS,
                        c.core_ns,
                        false,
                        RingSizingAction::SetCoreNs,
                    ),
                ],
            ),
            Control::group(
                "Cache",
                vec![
                    bounded(
                        ui,
                        "llc-kib",
                        "LLC size",
                        &LLC_KIB,
                        c.llc_kib,
                        true,
                        RingSizingAction::SetLlcKib,
                    ),
                    bounded(
                        ui,
                        "llc-ways",
                        "LLC ways",
                        &LLC_WAYS,
                        c.llc_ways,
                        false,
                        RingSizingAction::SetLlcWays,
                    ),
                    bounded(
                        ui,
                        "ddio-ways",
                        "DDIO ways (IIO LLC WAYS)",
                        &DDIO_WAYS,
                        c.ddio_ways,
                        false,
                        RingSizingAction::SetDdioWays,
                    ),
                    Control::note(
                        format!(
                            "Defaults: the Xeon Gold 6140's {} LLC, {} ways, DDIO's default {}.",
                            mib(u64::from(XEON_GOLD_6140_LLC_KIB) * 1_024),
                            SKYLAKE_SP_LLC_WAYS,
                            DEFAULT_DDIO_WAYS
                        ),
                    ),
                ],
            ),
            Control::danger_group(
                "Break it",
                vec![
                    Control::button(
                        "long-stall",
                        format!("Stall the core for {BREAK_STALL_US} µs"),
                        ui.act(RingSizingAction::SetStall(BREAK_STALL_US)),
                    )
                    .danger(),
                    Control::button(
                        "deep-ring",
                        format!("A ring of {} entries", count(u64::from(ENTRIES.max))),
                        ui.act(RingSizingAction::SetEntries(ENTRIES.max)),
                    )
                    .danger(),
                    Control::button(
                        "many-queues",
                        format!("{BREAK_QUEUES} queues"),
                        ui.act(RingSizingAction::SetQueues(BREAK_QUEUES)),
                    )
                    .danger(),
                    Control::button(
                        "slow-core",
                        format!("Slow the core to {BREAK_CORE_NS} ns a frame"),
                        ui.act(RingSizingAction::SetCoreNs(BREAK_CORE_NS)),
                    )
                    .danger(),
                ],
            ),
        ]
    }
}

/// Break it's settings.
pub const BREAK_STALL_US: u32 = 500;
pub const BREAK_QUEUES: u32 = 16;
pub const BREAK_CORE_NS: u32 = 150;

#[cfg(test)]
mod tests {
    use super::*;
    use demos::host::ring_sizing::RingSizingConfig;
    use demos::Model;

    fn at(change: impl FnOnce(&mut RingSizingConfig)) -> RingSizing {
        let mut c = RingSizingConfig::default();
        change(&mut c);
        RingSizing::new(&c)
    }

    #[test]
    fn the_wire_table_shows_the_issues_126_microseconds_parts() {
        let scene = crate::build(&at(|_| {}), &()).0;
        let t = scene.table_named("wire").unwrap();
        assert_eq!(t.cell("frame-time").unwrap().text, "1,538 = 123.04 ns");
        let ring = scene.find("absorbs").unwrap().text_content().unwrap();
        assert_eq!(ring, "absorbs 125.9 µs");
    }

    #[test]
    fn the_answers_table_names_both_ends() {
        let scene = crate::build(&at(|c| c.stall_us = 200), &()).0;
        let t = scene.table_named("answers").unwrap();
        assert_eq!(t.cell("smallest-entries").unwrap().text, "1,632");
        assert_eq!(t.cell("largest-entries").unwrap().text, "3,008");
        assert_eq!(t.cell("both-entries").unwrap().text, "1,632 to 3,008");
    }

    #[test]
    fn a_stall_greys_the_core_and_a_full_ring_turns_red() {
        // 160 µs: 140 of them stalled, 1,138 frames for 1,023 places.
        let mut m = at(|c| c.stall_us = 200);
        for _ in 0..16 {
            m.apply(&RingSizingAction::Step).unwrap();
        }
        let scene = crate::build(&m, &()).0;
        assert_eq!(
            scene.find("core").unwrap().state.as_deref(),
            Some("stalled")
        );
        assert_eq!(
            scene.find("ring-bar").unwrap().state.as_deref(),
            Some("full")
        );
        assert!(scene.find("drop-marks").is_some());
    }

    #[test]
    fn a_deep_ring_draws_its_footprint_past_the_ddio_ways() {
        let scene = crate::build(&at(|c| c.entries = 4_096), &()).0;
        let bar = scene.find("footprint").unwrap();
        assert_eq!(bar.state.as_deref(), Some("leaks"));
        assert!(bar.children().iter().any(|s| s.key == "beyond"));
    }
}
