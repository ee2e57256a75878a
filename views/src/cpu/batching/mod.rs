//! Batching: arrivals, batches filling and flushing, and the consumer on one
//! time axis; then throughput, fixed-cost share and simulated latency
//! against batch size, the trade-off a batch size (or coalescing setting)
//! picks a point on.

mod lesson;

use crate::control::Control;
use crate::draw::chart::{decades, Plot};
use crate::draw::lanes::{wrapped, Axis, Bar};
use crate::knob::bounded;
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::{Ui, View};
use crate::scene::{Cell, Figure, Scene, Shape, Size, Table};
use demos::cpu::batching::{
    arrival_times, BatchAction as A, Batching, Flush, SweepPoint, BATCH, BATCH_MAX, CURVE_SIZES,
    FIXED, GAP, HISTORY_KEPT, ITEMS, PER_ITEM, TIMEOUT,
};
use demos::text::{duration, grouped, tenths};

/// The window of the time axis: the whole run when it fits the batches the
/// model keeps, else from the oldest kept batch to now.
fn window(m: &Batching) -> (u64, u64) {
    let end = m.run_end();
    if end.batches as usize <= HISTORY_KEPT {
        return (0, end.at_ns.max(m.now).max(1));
    }
    let t0 = match m.history.first() {
        Some(b) if b.number > 1 => b.first_arrival,
        _ => 0,
    };
    (t0, m.now.max(t0 + 1))
}

/// Height of the arrivals' row of ticks, and of a lane.
const ARRIVALS: f32 = 28.0;
const LANE: f32 = 34.0;
/// Between one row and the next (and its name, on a phone).
const ROW_GAP: f32 = 12.0;
/// Between two lines of text.
const LINE: f32 = 20.0;

fn timeline(m: &Batching, layout: Layout) -> Figure {
    let c = &m.config;
    let (t0, t1) = window(m);
    let axis = Axis::laid_out((t1 - t0) as f64, layout);
    let rel = |t: u64| t.saturating_sub(t0) as f64;
    let now = rel(m.now);
    // Top to bottom: arrivals, the batches filling, the consumer, each with
    // room for its name above it on a phone; then the summary.
    let name_room = axis.span.name_room;
    let arrivals_y = 36.0 + name_room;
    let fill_y = arrivals_y + ARRIVALS + ROW_GAP + name_room;
    let consumer_y = fill_y + LANE + ROW_GAP + name_room;
    let lanes_bottom = consumer_y + LANE + 10.0;
    let summary_y = lanes_bottom + 54.0;
    // One line, or two on a phone.
    let height = summary_y + 16.0 + layout.pick(0.0, LINE);
    let mut f = Figure::new(
        "batching-timeline",
        format!(
            "At {}: {} items arrived, {} wait in the open batch, {} batches left",
            duration(m.now),
            m.arrived,
            m.open.len(),
            m.batches_left
        ),
        axis.span.width,
        height,
    )
    .legend("accent", "open batch, filling")
    .legend("done", "left full")
    .legend("warn", "left on the timer")
    .legend("driver", "consumer processing");
    // Ticks at round times inside the window.
    // Durations make long labels ("500.0 µs"): on a phone, at most four.
    let step = axis.tick_step(layout.pick(6.0, 4.0)).max(1.0) as u64;
    let ticks = (t0.div_ceil(step)..=t1 / step)
        .enumerate()
        .flat_map(|(i, k)| {
            let x = axis.x(rel(k * step));
            [
                Shape::line(format!("g{i}"), (x, 24.0), (x, lanes_bottom)).class("grid"),
                Shape::text(format!("t{i}"), x, 18.0, duration(k * step))
                    .mono()
                    .size(Size::Small),
            ]
        })
        .collect();
    f.push(Shape::group("axis", ticks));
    // Every batch still on the picture, in the order its items arrived:
    // (number, size, class, first arrival, when it left).
    let class = |r: Flush| if r == Flush::Full { "done" } else { "warn" };
    let batches: Vec<(u32, u32, &str, u64, u64)> = m
        .history
        .iter()
        .map(|b| {
            (
                b.number,
                b.size,
                class(b.reason),
                b.first_arrival,
                b.left_at,
            )
        })
        .chain(
            m.serving
                .iter()
                .map(|(b, _, _)| b)
                .chain(m.ready.iter())
                .map(|b| {
                    let size = b.arrivals.len() as u32;
                    (b.number, size, class(b.reason), b.arrivals[0], b.left_at)
                }),
        )
        .collect();
    // Arrivals: one tick per item in its batch's colour, alternate batches
    // drawn shorter so neighbours stay apart.
    let times = arrival_times(c, m.arrived as usize);
    let mut owner = Vec::with_capacity(times.len());
    let kept: u32 = batches.iter().map(|b| b.1).sum::<u32>() + m.open.len() as u32;
    owner.resize((m.arrived - kept) as usize, ("idle", 0));
    for &(n, size, class, _, _) in &batches {
        owner.extend((0..size).map(|_| (class, n)));
    }
    owner.extend(m.open.iter().map(|_| ("accent", m.batches_left + 1)));
    let ticks = times
        .iter()
        .zip(&owner)
        .enumerate()
        .filter(|(_, (&t, _))| t >= t0)
        .map(|(i, (&t, &(class, n)))| {
            let inset = if n % 2 == 0 { 6.0 } else { 0.0 };
            let x = axis.x(rel(t));
            Shape::line(
                format!("i{}", i + 1),
                (x, arrivals_y + inset),
                (x, arrivals_y + ARRIVALS - inset),
            )
            .class(class)
        })
        .collect();
    f.push(axis.name("arr-name", arrivals_y, ARRIVALS, "arrivals"));
    f.push(Shape::group("arrivals", ticks));
    // Batches: filling spans, then processing spans.
    let mut fills: Vec<Bar> = batches
        .iter()
        .map(|&(n, size, class, from, to)| Bar {
            start: rel(from),
            end: rel(to),
            class,
            label: format!("#{n} {size}"),
            track: 0,
        })
        .collect();
    if let Some(&first) = m.open.first() {
        fills.push(Bar {
            start: rel(first),
            end: now,
            class: "accent",
            label: format!("{}/{}", m.open.len(), c.batch),
            track: 0,
        });
    }
    // No focus on this lane: nearly every step fills it.
    let mut lane = axis.lane(
        "fill-lane",
        fill_y,
        LANE,
        "batch filling",
        &fills,
        now + 1.0,
    );
    lane.focus = None;
    f.push(lane);
    let work: Vec<Bar> = m
        .history
        .iter()
        .map(|b| (b.number, b.start, b.done))
        .chain(m.serving.iter().map(|(b, s, d)| (b.number, *s, *d)))
        .map(|(n, s, d)| Bar {
            start: rel(s),
            end: rel(d),
            class: "driver",
            label: format!("#{n}"),
            track: 0,
        })
        .collect();
    f.push(
        axis.lane(
            "consumer-lane",
            consumer_y,
            LANE,
            "consumer",
            &work,
            now + 1.0,
        )
        .focus("consumer"),
    );
    if let Some(d) = m.deadline {
        f.push(
            axis.marker(
                "timer",
                rel(d),
                (30.0, lanes_bottom),
                lanes_bottom + 16.0,
                format!("timer fires {}", duration(d)),
                "warn",
            )
            .focus("timer"),
        );
    }
    f.push(axis.cursor(now, 24.0, lanes_bottom));
    let (first, rest) = if m.latencies.is_empty() {
        (
            "no item done yet".to_string(),
            format!("{} waiting in the open batch", m.open.len()),
        )
    } else {
        (
            format!(
                "{} of {} done · mean latency {}",
                m.latencies.len(),
                c.items,
                duration(m.mean_latency_ns())
            ),
            format!(
                "p99 {} · longest fill wait {}",
                duration(m.p99_latency_ns()),
                duration(m.max_fill_wait)
            ),
        )
    };
    let summary = wrapped(
        "lat-summary",
        (axis.span.left, summary_y),
        LINE,
        (&first, " · ", &rest),
        layout,
    );
    f.extend(summary.into_iter().map(|line| line.class("strong")));
    f
}

/// The chart's size and its three plots' boxes (left, top, right, bottom).
struct ChartBoxes {
    width: f32,
    height: f32,
    throughput: (f32, f32, f32, f32),
    overhead: (f32, f32, f32, f32),
    latency: (f32, f32, f32, f32),
}

impl ChartBoxes {
    /// Throughput and fixed-cost share side by side, latency under both;
    /// on a phone, the three under one another, as wide as it is.
    fn of(layout: Layout) -> ChartBoxes {
        layout.pick(
            ChartBoxes {
                width: 960.0,
                height: 560.0,
                throughput: (110.0, 40.0, 450.0, 200.0),
                overhead: (580.0, 40.0, 930.0, 200.0),
                latency: (110.0, 300.0, 930.0, 490.0),
            },
            // Room on the left for the y ticks' labels ("12,000", "100 µs"),
            // on the right for half of the last x tick's ("256").
            ChartBoxes {
                width: NARROW_WIDTH,
                height: 770.0,
                throughput: (72.0, 40.0, 400.0, 200.0),
                overhead: (72.0, 280.0, 400.0, 440.0),
                latency: (72.0, 520.0, 400.0, 710.0),
            },
        )
    }
}

/// A round tick step for values up to `hi`.
fn ticks(hi: f64, label: impl Fn(u64) -> String) -> Vec<(f64, String)> {
    let step = Axis::new(hi).tick_step(4.0).max(1.0) as u64;
    (0..=(hi as u64) / step)
        .map(|k| ((k * step) as f64, label(k * step)))
        .collect()
}

fn chart(m: &Batching, sweep: &[SweepPoint], layout: Layout) -> Figure {
    let c = &m.config;
    let boxes = ChartBoxes::of(layout);
    let curve = m.curve();
    let b = f64::from(c.batch);
    let x_ticks: Vec<(f64, String)> = CURVE_SIZES
        .iter()
        .map(|&s| (f64::from(s), s.to_string()))
        .collect();
    let xs = (1.0, f64::from(BATCH_MAX), true);
    let mut f = Figure::new(
        "batching-chart",
        format!(
            "Against batch size: throughput, fixed-cost share, and latency at one item every {}",
            duration(u64::from(c.gap_ns))
        ),
        boxes.width,
        boxes.height,
    )
    .legend("done", "max throughput / mean latency")
    .legend("warn dashed", "arrival rate / p99 latency")
    .legend("driver", "fixed-cost share");
    let offered = 1_000_000 / u64::from(c.gap_ns);
    let top = curve
        .iter()
        .map(|p| p.throughput_kps)
        .max()
        .unwrap_or(1)
        .max(offered);
    let tp = Plot::new(boxes.throughput, xs, (0.0, top as f64 * 1.1, false));
    f.push(Shape::group(
        "tp-axes",
        vec![tp.axes(
            &x_ticks,
            &ticks(top as f64 * 1.1, |v| grouped(v as i64)),
            "batch size",
            "max throughput, k items/s",
        )],
    ));
    let pts: Vec<(f64, f64)> = curve
        .iter()
        .map(|p| (f64::from(p.batch), p.throughput_kps as f64))
        .collect();
    f.push(tp.series("tp-line", &pts, "done"));
    let y = tp.y.at(offered as f64);
    f.push(
        Shape::group(
            "offered",
            vec![
                Shape::line("l", (tp.left, y), (tp.right, y)).class("dashed"),
                Shape::text(
                    "t",
                    tp.right,
                    y - 8.0,
                    format!("arrivals {} k/s", grouped(offered as i64)),
                )
                .end()
                .class("tone")
                .size(Size::Small),
            ],
        )
        .class("warn"),
    );
    let oh = Plot::new(boxes.overhead, xs, (0.0, 100.0, false));
    let pct: Vec<(f64, String)> = (0..=4)
        .map(|k| (f64::from(k * 25), format!("{} %", k * 25)))
        .collect();
    f.push(Shape::group(
        "oh-axes",
        vec![oh.axes(&x_ticks, &pct, "batch size", "fixed-cost share")],
    ));
    let pts: Vec<(f64, f64)> = curve
        .iter()
        .map(|p| (f64::from(p.batch), p.overhead_tenths as f64 / 10.0))
        .collect();
    f.push(oh.series("oh-line", &pts, "driver"));
    // Latency, log scale over what the sweep measured.
    let done: Vec<&SweepPoint> = sweep.iter().filter(|p| p.done > 0).collect();
    let lo = done.iter().map(|p| p.mean_ns).min().unwrap_or(100).max(1) as f64;
    let hi = done.iter().map(|p| p.p99_ns).max().unwrap_or(1000).max(10) as f64;
    let (lo, hi) = (
        10f64.powf(lo.log10().floor()),
        10f64.powf(hi.log10().ceil()),
    );
    let lat = Plot::new(boxes.latency, xs, (lo, hi, true));
    f.push(Shape::group(
        "lat-axes",
        vec![lat.axes(
            &x_ticks,
            &decades(lo, hi, |v| duration(v as u64)),
            "batch size",
            "latency, arrival to done (log)",
        )],
    ));
    let mean: Vec<(f64, f64)> = done
        .iter()
        .map(|p| (f64::from(p.batch), p.mean_ns as f64))
        .collect();
    let p99: Vec<(f64, f64)> = done
        .iter()
        .map(|p| (f64::from(p.batch), p99_of(p)))
        .collect();
    f.push(lat.series("mean-line", &mean, "done"));
    f.push(lat.series("p99-line", &p99, "warn dashed"));
    for p in &done {
        let short = p.done < c.items;
        f.push(
            Shape::group(
                format!("pt-{}", p.batch),
                vec![
                    lat.dot(
                        "m",
                        (f64::from(p.batch), p.mean_ns as f64),
                        if short { "miss" } else { "done" },
                    ),
                    lat.dot("p", (f64::from(p.batch), p99_of(p)), "warn"),
                ],
            )
            .state(format!("{} {}", p.mean_ns, p.p99_ns))
            .label(format!(
                "batch {}: mean {}, p99 {}{}",
                p.batch,
                duration(p.mean_ns),
                duration(p.p99_ns),
                if short {
                    format!(", {} items never leave", c.items - p.done)
                } else {
                    String::new()
                }
            )),
        );
    }
    let stuck: Vec<String> = sweep
        .iter()
        .filter(|p| p.done < c.items)
        .map(|p| p.batch.to_string())
        .collect();
    if !stuck.is_empty() {
        let at = format!("at batch {}", stuck.join(", "));
        let lines = wrapped(
            "stuck",
            (lat.left + 10.0, lat.top + 18.0),
            16.0,
            ("no timer: some items never leave", " ", &at),
            layout,
        );
        f.extend(
            lines
                .into_iter()
                .map(|line| line.class("miss tone").size(Size::Small)),
        );
    }
    for (key, plot) in [("m-tp", &tp), ("m-oh", &oh), ("m-lat", &lat)] {
        f.push(plot.marker(key, b, format!("B = {}", c.batch), "accent"));
    }
    f
}

fn p99_of(p: &SweepPoint) -> f64 {
    p.p99_ns as f64
}

fn table(m: &Batching, sweep: &[SweepPoint]) -> Table {
    let mut t = Table::new(
        "batching-curve",
        format!(
            "Each batch size on the same {} arrivals (latency simulated)",
            m.config.items
        ),
        &[
            "batch",
            "max throughput",
            "fixed-cost share",
            "longest fill wait",
            "mean latency",
            "p99 latency",
        ],
    );
    for (p, s) in m.curve().iter().zip(sweep) {
        let b = p.batch;
        let lat = |v: u64| {
            if s.done == 0 {
                "never".to_string()
            } else {
                duration(v)
            }
        };
        t.row(
            format!("curve-{b}"),
            vec![
                Cell::mono(b.to_string()),
                Cell::mono(format!("{} k/s", grouped(p.throughput_kps as i64)))
                    .key(format!("curve-{b}-tp")),
                Cell::mono(tenths(p.overhead_tenths)).key(format!("curve-{b}-oh")),
                Cell::mono(lat(s.first_wait_ns)).key(format!("curve-{b}-wait")),
                Cell::mono(lat(s.mean_ns)).key(format!("curve-{b}-mean")),
                Cell::mono(lat(s.p99_ns)).key(format!("curve-{b}-p99")),
            ],
        )
        .class(if b == m.config.batch { "accent" } else { "" })
        .focus(format!("curve-{b}"));
    }
    t
}

impl View for Batching {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        let sweep = self.sweep();
        Scene::new(
            "Batching",
            format!(
                "Batches of {} at one item every {}: {} of {} items done, mean latency {}, p99 {}.",
                self.config.batch,
                duration(u64::from(self.config.gap_ns)),
                self.latencies.len(),
                self.config.items,
                duration(self.mean_latency_ns()),
                duration(self.p99_latency_ns())
            ),
        )
        .figure(timeline(self, ui.layout()))
        .figure(chart(self, &sweep, ui.layout()))
        .table(table(self, &sweep))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let c = &self.config;
        vec![
            bounded(
                ui,
                "batch",
                "Batch size",
                &BATCH,
                c.batch,
                false,
                A::SetBatch,
            ),
            bounded(
                ui,
                "timeout",
                "Flush timer (0 = none)",
                &TIMEOUT,
                c.timeout_ns,
                true,
                A::SetTimeout,
            ),
            bounded(
                ui,
                "gap",
                "Mean gap between items",
                &GAP,
                c.gap_ns,
                true,
                A::SetGap,
            ),
            Control::toggle(
                "poisson",
                "Poisson arrivals (else evenly spaced)",
                c.poisson,
                ui.act(A::SetPoisson(!c.poisson)),
            ),
            bounded(
                ui,
                "fixed",
                "Fixed cost per batch",
                &FIXED,
                c.fixed_ns,
                true,
                A::SetFixed,
            ),
            bounded(
                ui,
                "per-item",
                "Cost per item",
                &PER_ITEM,
                c.per_item_ns,
                true,
                A::SetPerItem,
            ),
            bounded(
                ui,
                "items",
                "Items in the run",
                &ITEMS,
                c.items,
                true,
                A::SetItems,
            ),
            Control::group(
                "Run",
                vec![Control::button("finish", "Run to the end", ui.act(A::Finish)).primary()],
            ),
            Control::note("Step runs the next event: an arrival, a flush or a batch done."),
            Control::danger_group(
                "Break it",
                vec![Control::button(
                    "break",
                    "Batch 256, no timer, an item every 10 µs",
                    ui.act(A::BreakIt),
                )
                .danger()],
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::cpu::batching::BatchConfig;
    use demos::Model;

    fn run(edit: impl FnOnce(&mut BatchConfig), steps: usize) -> Batching {
        let mut c = BatchConfig::default();
        edit(&mut c);
        let mut m = Batching::new(&c);
        for _ in 0..steps {
            m.apply(&A::Step).unwrap();
        }
        m
    }

    #[test]
    fn even_arrivals_fill_a_batch_of_four_and_the_consumer_takes_it() {
        let m = run(
            |c| {
                c.batch = 4;
                c.poisson = false;
                c.items = 8;
            },
            4,
        );
        let scene = crate::build(&m, &()).0;
        // Four arrivals at 1..4 µs: the fourth fills the batch.
        let arrivals = scene.find("arrivals").unwrap().children();
        assert_eq!(arrivals.len(), 4);
        assert!(arrivals.iter().all(|t| t.has_class("done")));
        let batch = scene.find("fill-lane").unwrap();
        assert_eq!(batch.children()[2].label.as_deref(), Some("#1 4"));
        assert!(batch.children()[2].has_class("done"));
        assert_eq!(scene.find("consumer-lane").unwrap().children().len(), 3);
        let table = scene.table_named("batching-curve").unwrap();
        let row = table.rows.iter().find(|r| r.key == "curve-4").unwrap();
        assert_eq!(row.class, "accent");
        // 4 / (700 + 4 × 50) ns.
        assert_eq!(row.cells[1].text, "4,444 k/s");
        assert_eq!(row.cells[2].text, "77.8 %");
    }

    #[test]
    fn the_timer_marker_shows_while_a_batch_fills() {
        let m = run(|_| {}, 1);
        let scene = crate::build(&m, &()).0;
        let timer = scene.find("timer").unwrap();
        let first = m.open[0];
        assert_eq!(
            timer.children()[1].text_content().unwrap(),
            format!("timer fires {}", duration(first + 16_000))
        );
    }

    #[test]
    fn break_it_shows_one_batch_and_a_latency_in_milliseconds() {
        let mut m = Batching::new(&BatchConfig::default());
        m.apply(&A::BreakIt).unwrap();
        m.apply(&A::Finish).unwrap();
        let scene = crate::build(&m, &()).0;
        let summary = scene
            .find("lat-summary")
            .unwrap()
            .text_content()
            .unwrap()
            .to_string();
        // One batch: the first item waits for 255 more, about 2.4 ms.
        assert_eq!(
            summary,
            "256 of 256 done · mean latency 1.3 ms · p99 2.4 ms · longest fill wait 2.4 ms"
        );
        let table = scene.table_named("batching-curve").unwrap();
        let p99_256 = &table.rows[8].cells[5].text;
        assert!(p99_256.ends_with(" ms"), "{p99_256}");
    }

    #[test]
    fn without_a_timer_the_chart_says_which_sizes_leave_items_behind() {
        let m = run(
            |c| {
                c.timeout_ns = 0;
                c.items = 100;
            },
            0,
        );
        let scene = crate::build(&m, &()).0;
        assert_eq!(
            scene.find("stuck").unwrap().text_content(),
            Some("no timer: some items never leave at batch 8, 16, 32, 64, 128, 256")
        );
        let table = scene.table_named("batching-curve").unwrap();
        assert_eq!(table.rows[8].cells[4].text, "never");
    }

    #[test]
    fn every_number_takes_its_range_and_unit_from_the_engines_bound() {
        let m = Batching::new(&BatchConfig::default());
        let controls = crate::build(&m, &()).1;
        let c = &m.config;
        for (id, bound, value) in [
            ("batch", BATCH, c.batch),
            ("timeout", TIMEOUT, c.timeout_ns),
            ("gap", GAP, c.gap_ns),
            ("fixed", FIXED, c.fixed_ns),
            ("per-item", PER_ITEM, c.per_item_ns),
            ("items", ITEMS, c.items),
        ] {
            let Some(Control::Number(n)) = Control::find(&controls, id) else {
                panic!("{id}");
            };
            assert_eq!((n.value, n.min, n.max), bound.control_range(value), "{id}");
            assert_eq!(n.unit, bound.unit.trim_start(), "{id}");
        }
    }
}
