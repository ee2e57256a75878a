//! All-reduce, ring against tree: the GPUs with this step's transfers, every
//! GPU's buffer with its partial sums, and the α–β time of each algorithm
//! against message size.

mod lesson;

use crate::control::Control;
use crate::draw::chart::Plot;
use crate::draw::geometry::polar;
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::{Command, Ui, View};
use crate::scene::{Cell, Figure, Scene, Shape, Size, Table};
use demos::net::allreduce::cost::{algbw_x100, busbw_x100, size_curve, SlowLink, Straggler};
use demos::net::allreduce::schedule::{chunk, Algorithm, Transfer, Tree};
use demos::net::allreduce::{
    bytes_text, AllReduce, AllReduceAction, AllReduceConfig, ALPHA_NS, ELEMENTS, GBPS, GPUS,
};
use demos::text::{duration, fixed};
use demos::Quantity;

/// GPUs (rows) and elements (columns) the buffer grid draws.
const SHOWN: usize = 16;
const ALGORITHMS: [(Algorithm, &str); 3] = [
    (Algorithm::Ring, "ring"),
    (Algorithm::Tree, "tree"),
    (Algorithm::DoubleTree, "double-tree"),
];
/// The row and line of NCCL's pipelined tree, which the page does not step.
const NCCL_TREE: &str = "NCCL's pipelined double binary tree (its tuner's estimate)";
/// Message sizes the slider offers: 1 KiB to 16 GiB, ×4 apart.
const SIZES: usize = 13;
/// The break-it faults: GPU 1's link 4× slower, or GPU 1 late by 1 ms.
pub(crate) const SLOW: SlowLink = SlowLink { gpu: 1, factor: 4 };
const STRAGGLER: Straggler = Straggler {
    gpu: 1,
    delay_ns: 1_000_000,
};

/// Numbers that differ between the wide arrangement and a phone's.
struct Dims {
    /// Width of the topology figure; the ring's centre is in its middle.
    topology_w: f32,
    /// Room the tree's GPUs share in a row, and the smallest node: on a
    /// phone 64 GPUs are closer than 10 units, so their circles shrink
    /// rather than overlap.
    tree_room: f32,
    tree_min_r: f32,
    /// The buffer grid: the GPU names' column, a cell's width, and how
    /// many elements a band of the grid holds before the next band starts
    /// under it (16 elements are two bands of 8 on a phone).
    grid_left: f32,
    cell_w: f32,
    band: usize,
    /// The grid's figure is at least this wide (a phone's is all of it).
    grid_min_w: f32,
    /// A chunk narrower than this is named "c3", as on the ring's arrows,
    /// rather than "chunk 3", which would run into its neighbours'.
    chunk_short_below: f32,
    /// The cost chart's plot box, and the rows its markers' labels are
    /// staggered by, so that three labels on a narrow plot do not run into
    /// each other.
    chart_w: f32,
    plot: (f32, f32, f32, f32),
    marker_row: f32,
}

const WIDE: Dims = Dims {
    topology_w: 700.0,
    tree_room: 660.0,
    tree_min_r: 5.0,
    grid_left: 96.0,
    cell_w: 46.0,
    band: SHOWN,
    grid_min_w: 700.0,
    chunk_short_below: 0.0,
    chart_w: 960.0,
    plot: (110.0, 30.0, 930.0, 290.0),
    // Staggered here too: the crossovers and the size chosen can stand a
    // few pixels apart on the log axis (108.5 KiB, 976.5 KiB, 64 MiB at the
    // defaults measured 1366 px wide), and their labels then ran together.
    marker_row: 18.0,
};

const NARROW: Dims = Dims {
    topology_w: NARROW_WIDTH,
    tree_room: 380.0,
    tree_min_r: 2.5,
    grid_left: 64.0,
    cell_w: 43.0,
    band: 8,
    grid_min_w: NARROW_WIDTH,
    chunk_short_below: 56.0,
    chart_w: NARROW_WIDTH,
    plot: (76.0, 30.0, 396.0, 290.0),
    marker_row: 18.0,
};

fn dims(layout: Layout) -> &'static Dims {
    layout.pick(&WIDE, &NARROW)
}

/// The α slider steps in whole µs inside the engine's bound (in ns).
fn alpha_us_range(alpha_ns: u64) -> (i64, i64, i64) {
    let (v, lo, hi) = ALPHA_NS.control_range(alpha_ns);
    (v / 1_000, (lo + 999) / 1_000, hi / 1_000)
}

fn size_at(i: i64) -> u64 {
    1u64 << (10 + 2 * i.clamp(0, SIZES as i64 - 1))
}

/// Semantic class of a transfer: adding in (reduce) or copying the sum.
fn move_class(t: &Transfer) -> &'static str {
    if t.reduce {
        "driver"
    } else {
        "done"
    }
}

/// A GPU node: a circle with its rank.
fn node(key: String, (x, y): (f32, f32), r: f32, g: usize, busy: bool) -> Shape {
    let mut parts = vec![Shape::circle("c", x, y, r)];
    if r >= 9.0 {
        let text = Shape::text("n", x, y + if r >= 16.0 { 6.0 } else { 4.5 }, g.to_string());
        parts.push(if r >= 16.0 {
            text.mono()
        } else {
            text.mono().size(Size::Small)
        });
    }
    Shape::group(key, parts)
        .class(if busy { "accent" } else { "idle" })
        .label(format!("GPU {g}"))
        .focus(format!("gpu-{g}"))
}

/// An arrow between two node centres, cut back to the circles' edges.
fn link(t: &Transfer, from: (f32, f32), to: (f32, f32), r: f32, label: Option<String>) -> Shape {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    let a = (from.0 + ux * (r + 2.0), from.1 + uy * (r + 2.0));
    let b = (to.0 - ux * (r + 3.0), to.1 - uy * (r + 3.0));
    let mut parts = vec![Shape::arrow("a", a, b).class("thick")];
    if let Some(text) = label {
        // Beside the arrow's middle, on its left.
        let (mx, my) = (
            (a.0 + b.0) / 2.0 - uy * 16.0,
            (a.1 + b.1) / 2.0 + ux * 16.0 + 5.0,
        );
        parts.push(Shape::text("t", mx, my, text).mono().class("tone"));
    }
    Shape::group(format!("link-{}-{}", t.from, t.to), parts)
        .class(move_class(t))
        .focus(format!("link-{}-{}", t.from, t.to))
        .label(format!(
            "GPU {} → GPU {}: elements {}–{}, {}",
            t.from,
            t.to,
            t.start,
            t.end.max(t.start + 1) - 1,
            if t.reduce { "added in" } else { "copied" }
        ))
}

fn ring(m: &AllReduce, d: &Dims) -> Figure {
    let n = m.gpus();
    let (cx, cy, radius) = (d.topology_w / 2.0, 200.0, 160.0);
    let r = demos::float::clamped(300.0 / n as f32, 6.0, 24.0);
    let at = |g: usize| polar(cx, cy, radius, 360.0 * g as f32 / n as f32);
    let mut f = Figure::new(
        "topology",
        format!(
            "Ring of {n} GPUs: each sends to the next, step {} of {}",
            m.step, m.total_steps
        ),
        d.topology_w,
        400.0,
    )
    .legend("driver", "sends a chunk that is added in")
    .legend("done", "sends a finished chunk, copied");
    f.push(Shape::circle("ring", cx, cy, radius).class("ghost idle"));
    for t in &m.last {
        let label = (n <= 8).then(|| {
            let c = (0..n)
                .find(|&c| chunk(c, n, m.inputs[0].len()).0 == t.start)
                .unwrap_or(0);
            format!("c{c}{}", if t.reduce { " +" } else { "" })
        });
        f.push(link(t, at(t.from), at(t.to), r, label));
    }
    for g in 0..n {
        let busy = m.last.iter().any(|t| t.from == g || t.to == g);
        f.push(node(format!("gpu-{g}"), at(g), r, g, busy));
    }
    f
}

fn trees(m: &AllReduce, d: &Dims) -> Figure {
    let n = m.gpus();
    let count = if m.algorithm == Algorithm::DoubleTree {
        2
    } else {
        1
    };
    let level = 40.0;
    let band = level * (m.trees[0].height() as f32 + 1.0) + 50.0;
    let step = d.tree_room / n as f32;
    let r = demos::float::clamped(step / 2.0 - 2.0, d.tree_min_r, 18.0);
    let mut f = Figure::new(
        "topology",
        format!(
            "{} over {n} GPUs: reduce up, then broadcast down, step {} of {}",
            m.algorithm.label(),
            m.step,
            m.total_steps
        ),
        d.topology_w,
        band * count as f32 + 10.0,
    )
    .legend("driver", "sends its partial sum up")
    .legend("done", "sends the finished sum down");
    for (k, tree) in m.trees.iter().take(count).enumerate() {
        let top = 60.0 + band * k as f32;
        let at = |g: usize| {
            (
                20.0 + step * (g as f32 + 0.5),
                top + level * tree.depth[g] as f32,
            )
        };
        let name = if count == 2 {
            format!(
                "tree {} · elements {}",
                ["A", "B"][k],
                ["first half", "second half"][k]
            )
        } else {
            "binary tree · whole vector".to_string()
        };
        f.push(
            Shape::text(format!("tree-{k}-name"), 8.0, top - 34.0, name)
                .start()
                .class("strong"),
        );
        f.push(edges(tree, k, &at));
        for t in m.last.iter().filter(|t| usize::from(t.tree) == k) {
            f.push(link(t, at(t.from), at(t.to), r, None));
        }
        for g in 0..n {
            let busy = m
                .last
                .iter()
                .any(|t| usize::from(t.tree) == k && (t.from == g || t.to == g));
            f.push(node(format!("t{k}-gpu-{g}"), at(g), r, g, busy));
        }
    }
    f
}

/// A tree's parent–child lines.
fn edges(tree: &Tree, k: usize, at: &dyn Fn(usize) -> (f32, f32)) -> Shape {
    let lines = (0..tree.parent.len())
        .filter_map(|g| tree.parent[g].map(|p| Shape::line(format!("e{g}"), at(p), at(g))))
        .collect();
    Shape::group(format!("tree-{k}"), lines)
        .class("idle")
        .focus(["tree-a", "tree-b"][k])
}

/// Every GPU's buffer, element by element: the value, coloured by how many
/// GPUs' inputs it already sums.
fn buffers(m: &AllReduce, d: &Dims) -> Figure {
    let n = m.gpus();
    let len = m.inputs[0].len();
    let (rows, cols) = (n.min(SHOWN), len.min(SHOWN));
    let (left, cw, ch, top) = (d.grid_left, d.cell_w, 32.0, 56.0);
    let per_band = d.band.min(cols).max(1);
    let bands = cols.div_ceil(per_band);
    // A band: its chunks and column numbers, the GPUs' rows, the sums;
    // the next band's chunks and numbers go under those sums.
    let band_h = ch * (rows as f32 + 1.0) + 6.0 + top;
    let band_top = |e: usize| top + band_h * (e / per_band) as f32;
    let col_x = |e: usize| left + cw * (e % per_band) as f32;
    let height = top + band_h * (bands - 1) as f32 + ch * (rows as f32 + 1.0) + 44.0;
    let expected = m.expected();
    let mut f = Figure::new(
        "buffers",
        format!(
            "Each GPU's buffer after step {} of {}; all equal: {}",
            m.step,
            m.total_steps,
            if m.identical() { "yes" } else { "no" }
        ),
        (left + cw * per_band as f32 + 10.0).max(d.grid_min_w),
        height,
    )
    .legend("idle", "its own input only")
    .legend("driver", "a partial sum")
    .legend("done", "the sum of all inputs");
    if m.algorithm == Algorithm::Ring && n <= SHOWN {
        for c in 0..n {
            let (s, e) = chunk(c, n, len);
            let e = e.min(cols);
            if s >= e {
                continue;
            }
            // A chunk that runs into the next band is drawn in both.
            let mut parts = Vec::new();
            let mut a = s;
            while a < e {
                let b = e.min((a / per_band + 1) * per_band);
                let (x0, x1) = (col_x(a), col_x(b - 1) + cw);
                let y = band_top(a) - top;
                let (line, text) = if a == s {
                    ("l".to_string(), "t".to_string())
                } else {
                    (format!("l{a}"), format!("t{a}"))
                };
                parts.push(Shape::line(
                    line,
                    (x0 + 3.0, y + 30.0),
                    (x1 - 3.0, y + 30.0),
                ));
                let name = if x1 - x0 < d.chunk_short_below {
                    format!("c{c}")
                } else {
                    format!("chunk {c}")
                };
                parts.push(Shape::text(text, (x0 + x1) / 2.0, y + 22.0, name).size(Size::Small));
                a = b;
            }
            f.push(
                Shape::group(format!("chunk-{c}"), parts)
                    .class("idle")
                    .focus(format!("chunk-{c}")),
            );
        }
    }
    for e in 0..cols {
        f.push(
            Shape::text(
                format!("col-{e}"),
                col_x(e) + cw * 0.5,
                band_top(e) - 8.0,
                e.to_string(),
            )
            .mono()
            .size(Size::Small),
        );
    }
    // Each band's row names: "name", then "name-1", "name-2"….
    let band_key = |key: &str, e: usize| match e / per_band {
        0 => key.to_string(),
        b => format!("{key}-{b}"),
    };
    for g in 0..rows {
        let row_y = |e: usize| band_top(e) + ch * g as f32;
        let mut cells = Vec::new();
        for e in 0..cols {
            if e % per_band == 0 {
                cells.push(
                    Shape::text(
                        band_key("name", e),
                        left - 10.0,
                        row_y(e) + 21.0,
                        format!("GPU {g}"),
                    )
                    .end()
                    .class("muted"),
                );
            }
            let y = row_y(e);
            let count = m.included[g][e].count_ones() as usize;
            let fresh = m
                .last
                .iter()
                .any(|t| t.to == g && (t.start..t.end).contains(&e));
            let x = col_x(e);
            let class = match count {
                c if c == n => "done",
                1 => "idle",
                _ => "driver",
            };
            cells.push(
                Shape::group(
                    format!("v{e}"),
                    vec![
                        Shape::rect("r", x + 1.0, y + 1.0, cw - 2.0, ch - 2.0)
                            .rounded(2.0)
                            .class_if(fresh, "thick"),
                        Shape::text("t", x + cw / 2.0, y + 21.0, m.values[g][e].to_string()).mono(),
                    ],
                )
                .class(class)
                .state(format!("{count}/{n}"))
                .label(format!(
                    "GPU {g}, element {e}: {} = the sum of {count} of {n} inputs",
                    m.values[g][e]
                )),
            );
        }
        f.push(Shape::group(format!("buf-{g}"), cells).focus(format!("gpu-{g}")));
    }
    let mut sums = Vec::new();
    for (e, v) in expected.iter().take(cols).enumerate() {
        let y = band_top(e) + ch * rows as f32 + 6.0;
        if e % per_band == 0 {
            sums.push(
                Shape::text(band_key("name", e), left - 10.0, y + 21.0, "sum")
                    .end()
                    .class("strong"),
            );
        }
        sums.push(
            Shape::text(
                format!("s{e}"),
                col_x(e) + cw * 0.5,
                y + 21.0,
                v.to_string(),
            )
            .mono()
            .class("strong"),
        );
    }
    f.push(Shape::group("expected", sums));
    if n > rows || len > cols {
        f.push(
            Shape::text(
                "clipped",
                left,
                height - 8.0,
                format!("showing {rows} of {n} GPUs and {cols} of {len} elements"),
            )
            .start()
            .size(Size::Small),
        );
    }
    f
}

/// Time of each algorithm against message size, both logarithmic, with the
/// ring–tree crossover and the size chosen.
fn cost_chart(m: &AllReduce, d: &Dims) -> Figure {
    let curve = size_curve(&m.fabric);
    let lo_ns = curve
        .iter()
        .map(|p| p.tree_ns.min(p.ring_ns).min(p.nccl_tree_ns))
        .min()
        .unwrap_or(1);
    let hi_ns = curve
        .iter()
        .map(|p| {
            p.ring_ns
                .max(p.tree_ns)
                .max(p.double_tree_ns)
                .max(p.nccl_tree_ns)
        })
        .max()
        .unwrap_or(10);
    let decade_below = |v: u64| 10f64.powi((v.max(1) as f64).log10().floor() as i32);
    let (y_lo, y_hi) = (decade_below(lo_ns), decade_below(hi_ns) * 10.0);
    let (x_lo, x_hi) = (1024.0, (1u64 << 30) as f64);
    let plot = Plot::new(d.plot, (x_lo, x_hi, true), (y_lo, y_hi, true));
    let x_ticks: Vec<(f64, String)> = (0..6)
        .map(|k| {
            let b = 1u64 << (10 + 4 * k);
            (b as f64, bytes_text(b))
        })
        .collect();
    let mut y_ticks = Vec::new();
    let mut v = y_lo;
    while v <= y_hi * 1.0001 {
        y_ticks.push((v, duration(v as u64)));
        v *= 10.0;
    }
    let mut f = Figure::new(
        "cost-chart",
        format!(
            "All-reduce time against message size on {} GPUs: α = {}, β = {} GB/s",
            m.gpus(),
            duration(m.fabric.alpha_ns),
            m.fabric.gbps
        ),
        d.chart_w,
        350.0,
    )
    .legend("driver", "ring")
    .legend("nic", "binary tree, unpipelined")
    .legend("accent dashed", "double binary tree, unpipelined")
    .legend("done", NCCL_TREE);
    f.push(plot.axes(&x_ticks, &y_ticks, "message size S (log)", "time (log)"));
    let series = |pick: fn(&demos::net::allreduce::cost::SizePoint) -> u64| -> Vec<(f64, f64)> {
        curve
            .iter()
            .map(|p| (p.bytes as f64, pick(p) as f64))
            .collect()
    };
    f.push(plot.series("ring-line", &series(|p| p.ring_ns), "driver"));
    f.push(plot.series("tree-line", &series(|p| p.tree_ns), "nic"));
    f.push(plot.series(
        "double-line",
        &series(|p| p.double_tree_ns),
        "accent dashed",
    ));
    f.push(plot.series("nccl-line", &series(|p| p.nccl_tree_ns), "done"));
    let shown = |x: &u64| (1024..1 << 30).contains(x);
    if let Some(x) = m
        .fabric
        .crossover_bytes(Algorithm::Ring, Algorithm::Tree)
        .filter(shown)
    {
        f.push(marker(
            &plot,
            d,
            0,
            "crossover-textbook",
            x as f64,
            format!("unpipelined crossover {}", bytes_text(x)),
            "nic",
        ));
    }
    if let Some(x) = m.fabric.nccl_crossover_bytes().filter(shown) {
        f.push(marker(
            &plot,
            d,
            1,
            "crossover",
            x as f64,
            format!("NCCL crossover {}", bytes_text(x)),
            "done",
        ));
    }
    let s = demos::float::clamped(m.message_bytes as f64, x_lo, x_hi);
    let mut now = vec![marker(
        &plot,
        d,
        2,
        "size",
        s,
        format!("S = {}", bytes_text(m.message_bytes)),
        "accent",
    )];
    for (a, class) in [
        (Algorithm::Ring, "driver"),
        (Algorithm::Tree, "nic"),
        (Algorithm::DoubleTree, "accent"),
    ] {
        let t = m.fabric.total_ns(a, m.message_bytes) as f64;
        now.push(plot.dot(&format!("dot-{}", a.label()), (s, t), class));
    }
    let t = m.fabric.nccl_tree_ns(m.message_bytes) as f64;
    now.push(plot.dot("dot-nccl", (s, t), "done"));
    f.push(Shape::group("now", now).focus("cost-chart"));
    f
}

/// A marker on the cost chart, its label on line `row` of the staggered
/// ones (`Plot::marker` keeps it inside the plot).
fn marker(
    plot: &Plot,
    d: &Dims,
    row: usize,
    key: &str,
    x: f64,
    label: String,
    class: &str,
) -> Shape {
    let lowered = Plot {
        top: plot.top + d.marker_row * row as f32,
        ..*plot
    };
    lowered.marker(key, x, label, class)
}

/// Steps, time, algbw and busbw of each algorithm for the message chosen.
fn cost_table(m: &AllReduce) -> Table {
    let mut t = Table::new(
        "cost",
        format!(
            "Each algorithm for S = {} on {} GPUs (nccl-tests: busbw = algbw × 2(N−1)/N)",
            bytes_text(m.message_bytes),
            m.gpus()
        ),
        &["algorithm", "steps", "time", "algbw", "busbw"],
    );
    for (a, key) in ALGORITHMS {
        let ns = m.fabric.total_ns(a, m.message_bytes);
        let alg = algbw_x100(m.message_bytes, ns);
        let steps = demos::net::allreduce::schedule::total_steps(a, m.gpus());
        let row = t.row(
            format!("cost-{key}"),
            vec![
                Cell::text(a.label()),
                Cell::mono(steps.to_string()),
                Cell::mono(duration(ns)).key(format!("time-{key}")),
                Cell::mono(format!("{} GB/s", fixed(alg as i64, 2))),
                Cell::mono(format!(
                    "{} GB/s",
                    fixed(busbw_x100(alg, m.gpus()) as i64, 2)
                ))
                .key(format!("busbw-{key}")),
            ],
        );
        if a == m.algorithm {
            row.class("done").state("chosen");
        }
    }
    let ns = m.fabric.nccl_tree_ns(m.message_bytes);
    let alg = algbw_x100(m.message_bytes, ns);
    t.row(
        "cost-nccl",
        vec![
            Cell::text(NCCL_TREE),
            Cell::mono("pipelined"),
            Cell::mono(duration(ns)).key("time-nccl"),
            Cell::mono(format!("{} GB/s", fixed(alg as i64, 2))),
            Cell::mono(format!(
                "{} GB/s",
                fixed(busbw_x100(alg, m.gpus()) as i64, 2)
            ))
            .key("busbw-nccl"),
        ],
    );
    t
}

impl View for AllReduce {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        let d = dims(ui.layout());
        let topology = if self.algorithm == Algorithm::Ring {
            ring(self, d)
        } else {
            trees(self, d)
        };
        Scene::new(
            "All-reduce: ring vs tree",
            format!(
                "{} GPUs, {}: step {} of {} ({}), {} so far; every GPU holds the same vector: {}.",
                self.gpus(),
                self.algorithm.label(),
                self.step,
                self.total_steps,
                self.phase(),
                duration(self.elapsed_ns),
                if self.identical() { "yes" } else { "no" }
            ),
        )
        .figure(topology)
        .figure(buffers(self, d))
        .table(cost_table(self))
        .figure(cost_chart(self, d))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let c = self.config();
        let restart = |ui: &mut Ui<Self>, change: fn(&mut AllReduceConfig, i64)| {
            let base = c.clone();
            ui.number(move |v| {
                let mut next = base.clone();
                change(&mut next, v);
                Ok(Command::Restart(next))
            })
        };
        let chosen = ALGORITHMS
            .iter()
            .position(|(a, _)| *a == self.algorithm)
            .unwrap_or(0);
        let options = ALGORITHMS
            .iter()
            .map(|&(a, key)| {
                (
                    key,
                    a.label().to_string(),
                    ui.act(AllReduceAction::SetAlgorithm(a)),
                )
            })
            .collect();
        let size_index = (0..SIZES as i64)
            .find(|&i| size_at(i) >= self.message_bytes)
            .unwrap_or(SIZES as i64 - 1);
        let slow = self.fabric.slow.is_some();
        let late = self.fabric.straggler.is_some();
        vec![
            Control::choice("algorithm", "Algorithm", chosen, options),
            Control::button(
                "run-again",
                "Start again from the inputs",
                ui.act(AllReduceAction::Restart),
            ),
            Control::note(
                "Step runs the next step of the algorithm: every transfer of that step at once.",
            ),
            Control::group(
                "Sizes (restart)",
                vec![
                    Control::slider(
                        "gpus",
                        "GPUs",
                        GPUS.control_range(c.gpus),
                        "",
                        restart(ui, |c, v| c.gpus = usize::from_i64(v)),
                    ),
                    Control::slider(
                        "elements",
                        "Elements per vector",
                        ELEMENTS.control_range(c.elements),
                        "",
                        restart(ui, |c, v| c.elements = usize::from_i64(v)),
                    ),
                    Control::slider(
                        "message",
                        "Message size S",
                        (size_index, 0, SIZES as i64 - 1),
                        "",
                        restart(ui, |c, v| c.message_bytes = size_at(v)),
                    )
                    .shown(bytes_text(self.message_bytes)),
                    Control::slider(
                        "alpha",
                        "α, latency per step",
                        alpha_us_range(c.alpha_ns),
                        "µs",
                        restart(ui, |c, v| {
                            c.alpha_ns = u64::from_i64(v).saturating_mul(1_000)
                        }),
                    ),
                    Control::slider(
                        "beta",
                        "β, each GPU's link",
                        GBPS.control_range(c.gbps),
                        GBPS.unit.trim_start(),
                        restart(ui, |c, v| c.gbps = u64::from_i64(v)),
                    ),
                ],
            ),
            Control::danger_group(
                "Break it",
                vec![
                    Control::toggle(
                        "slow-link",
                        "GPU 1's link 4× slower",
                        slow,
                        ui.act(AllReduceAction::SetSlowLink((!slow).then_some(SLOW))),
                    )
                    .danger(),
                    Control::toggle(
                        "straggler",
                        "GPU 1 starts each send 1 ms late",
                        late,
                        ui.act(AllReduceAction::SetStraggler((!late).then_some(STRAGGLER))),
                    )
                    .danger(),
                ],
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::Model;

    fn finish(m: &mut AllReduce) {
        while m.next_auto().is_ok() {
            m.apply(&AllReduceAction::Step).unwrap();
        }
    }

    #[test]
    fn the_first_ring_step_adds_chunk_0_into_gpu_1() {
        let mut m = AllReduce::new(&AllReduceConfig::default());
        m.apply(&AllReduceAction::Step).unwrap();
        let scene = crate::build(&m, &()).0;
        // GPU 0 sent chunk 0 (elements 0–1) to GPU 1: 1 + 2 = 3, two of four inputs.
        let cell = scene.find("buf-1").unwrap().children()[1].clone();
        assert_eq!(cell.state.as_deref(), Some("2/4"));
        assert!(cell.has_class("driver"));
        assert_eq!(cell.children()[1].text_content(), Some("3"));
        let arrow = scene.find("link-0-1").unwrap();
        assert_eq!(arrow.children()[1].text_content(), Some("c0 +"));
    }

    #[test]
    fn after_six_steps_every_cell_is_the_full_sum() {
        let mut m = AllReduce::new(&AllReduceConfig::default());
        finish(&mut m);
        let scene = crate::build(&m, &()).0;
        let grid = scene.figures().find(|f| f.key == "buffers").unwrap();
        let cells: Vec<_> = grid
            .walk()
            .into_iter()
            .filter(|s| s.state.is_some())
            .collect();
        assert_eq!(cells.len(), 32);
        assert!(cells
            .iter()
            .all(|c| c.state.as_deref() == Some("4/4") && c.has_class("done")));
        assert!(grid.label.ends_with("all equal: yes"));
    }

    #[test]
    fn the_double_tree_draws_two_trees_and_the_table_marks_the_choice() {
        let mut m = AllReduce::new(&AllReduceConfig::default());
        m.apply(&AllReduceAction::SetAlgorithm(Algorithm::DoubleTree))
            .unwrap();
        let scene = crate::build(&m, &()).0;
        assert!(scene.find("tree-0").is_some() && scene.find("tree-1").is_some());
        let table = scene.table_named("cost").unwrap();
        assert_eq!(table.rows[2].state.as_deref(), Some("chosen"));
        // 4 GPUs: the ring's 6 steps against the tree's 4.
        assert_eq!(table.rows[0].cells[1].text, "6");
        assert_eq!(table.rows[1].cells[1].text, "4");
    }

    #[test]
    fn the_table_prices_nccls_pipelined_tree_apart_from_the_stepped_ones() {
        let m = AllReduce::new(&AllReduceConfig::default());
        let scene = crate::build(&m, &()).0;
        let table = scene.table_named("cost").unwrap();
        let nccl = table.rows.iter().find(|r| r.key == "cost-nccl").unwrap();
        assert!(nccl.cells[0].text.starts_with("NCCL's pipelined"));
        // 2·2·10 µs + 2·64 MiB / 25 GB/s = 40 µs + 5,368.7 µs.
        assert_eq!(nccl.cells[2].text, "5.4 ms");
        assert_eq!(
            m.fabric.nccl_tree_ns(m.message_bytes),
            40_000 + (128u64 << 20).div_ceil(25)
        );
        assert_eq!(table.rows[1].cells[0].text, "unpipelined binary tree");
    }

    #[test]
    fn the_chart_marks_the_crossover_and_sliders_restart() {
        let m = AllReduce::new(&AllReduceConfig::default());
        let (scene, controls, ui) = crate::build(&m, &());
        let label = scene.find("crossover").unwrap().children()[1]
            .text_content()
            .unwrap()
            .to_string();
        // 4 GPUs, α = 10 µs, β = 25 GB/s: N·β·α·(N − 1 − ⌊log₂N⌋) = 1 MB.
        assert_eq!(label, "NCCL crossover 976.5 KiB");
        let textbook = scene.find("crossover-textbook").unwrap().children()[1]
            .text_content()
            .unwrap()
            .to_string();
        assert!(textbook.starts_with("unpipelined crossover "), "{textbook}");
        assert!(scene.find("nccl-line").is_some());
        let Some(Control::Number(gpus)) = Control::find(&controls, "gpus") else {
            panic!("gpus slider");
        };
        match ui.resolve(gpus.send, &crate::Input::Number(8)).unwrap() {
            Command::Restart(c) => assert_eq!((c.gpus, c.elements), (8, 8)),
            other => panic!("{other:?}"),
        }
    }
}
