//! Cache locality: the array as cells coloured hit or miss in the order the
//! walk reached them, the cache's sets and ways, every walk's totals side by
//! side, and the miss rate against stride.

mod lesson;

use super::kit::{exponents, pow2, power_in};
use super::sets::{grid, shown_sets, WIDTH};
use crate::control::Control;
use crate::draw::chart::Plot;
use crate::draw::text::line_key;
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::{Command, Ui, View};
use crate::scene::{Figure, Scene, Shape, Size};
use demos::cpu::cachesim::Policy;
use demos::cpu::locality::{
    Locality, LocalityAction, LocalityConfig, Walk, ELEMENTS, ELEMENT_BYTES, HIT_CYCLES, LINE,
    MISS_CYCLES, SETS, WAYS,
};
use demos::text::{grouped, share_tenths, tenths};
use demos::Quantity;

/// Cells per row at most, and rows at most for a 2-D layout.
const MAX_COLS: usize = 64;
const MAX_ROWS: usize = 64;

/// The numbers that differ between the wide arrangement and the phone's:
/// the same shapes, placed for a 960- or a 420-unit figure.
struct Dims {
    /// Room for the row names left of the array.
    left: f32,
    /// The width the array's cells are fitted into, and the narrowest the
    /// array figure gets (room for its legend).
    array_span: f32,
    array_min: f32,
    /// Width of the cache and the totals figures; whether the cache's
    /// heading takes two lines, and so where its grid starts.
    cache_w: f32,
    cache_heading_lines: usize,
    cache_top: f32,
    totals_w: f32,
    /// One walk's row of totals: its pitch, the name's box, the bar's track
    /// (left, width) and where the totals text starts (x, y below the row's top).
    row_pitch: f32,
    name_box: f32,
    track: (f32, f32),
    total_text: (f32, f32),
    /// The chart's figure width and plot box, and at most how many stride
    /// ticks it labels (a phone's axis has room for fewer).
    chart_w: f32,
    plot: (f32, f32, f32, f32),
    max_ticks: usize,
}

impl Dims {
    fn of(layout: Layout) -> Dims {
        layout.pick(
            Dims {
                left: 96.0,
                array_span: WIDTH,
                array_min: 700.0,
                cache_w: 760.0,
                cache_heading_lines: 1,
                cache_top: 30.0,
                totals_w: WIDTH,
                row_pitch: 44.0,
                name_box: 150.0,
                track: (160.0, 360.0),
                total_text: (532.0, 24.0),
                chart_w: WIDTH,
                plot: (100.0, 40.0, 920.0, 280.0),
                max_ticks: usize::MAX,
            },
            // The phone: names in a shorter box, the bar beside them and
            // the totals on a line of their own under the bar.
            Dims {
                left: 58.0,
                array_span: NARROW_WIDTH - 10.0,
                array_min: 300.0,
                cache_w: NARROW_WIDTH,
                cache_heading_lines: 2,
                cache_top: 44.0,
                totals_w: NARROW_WIDTH,
                row_pitch: 64.0,
                name_box: 118.0,
                track: (126.0, 286.0),
                total_text: (8.0, 52.0),
                chart_w: NARROW_WIDTH,
                plot: (58.0, 40.0, 396.0, 280.0),
                max_ticks: 7,
            },
        )
    }
}

/// Columns of the array picture: the 2-D array's own for the 2-D walks,
/// else whole lines per row, widened until the picture is not too tall.
fn columns(m: &Locality) -> usize {
    let c = &m.config;
    let two_d = matches!(m.walk, Walk::RowMajor | Walk::ColumnMajor);
    if two_d && c.rows() <= MAX_ROWS {
        return c.cols;
    }
    let mut cols = (c.line / ELEMENT_BYTES) as usize;
    while c.elements / cols > 16 && cols < MAX_COLS {
        cols *= 2;
    }
    cols.min(c.elements)
}

fn array(m: &Locality, d: &Dims) -> Figure {
    let c = &m.config;
    let n = c.elements;
    let cols = columns(m);
    let rows = n / cols;
    let per_line = (c.line / ELEMENT_BYTES) as usize;
    // A gap between lines that share a row, and between rows of different lines.
    let (gx, gy) = (
        if per_line < cols { 6.0 } else { 0.0 },
        if per_line > cols { 6.0 } else { 0.0 },
    );
    let line_breaks = (cols / per_line.max(1)).saturating_sub(1) as f32;
    let cw = ((d.array_span - d.left - 8.0 - line_breaks * gx) / cols as f32).min(56.0);
    let ch = cw.min(40.0);
    let rows_per_line = (per_line / cols).max(1);
    let height = 34.0 + rows as f32 * ch + (rows / rows_per_line) as f32 * gy;
    // A narrow array gets a narrow figure, so it is drawn larger.
    let used = d.left + cols as f32 * cw + line_breaks * gx + 10.0;
    let two_d = cols == c.cols && matches!(m.walk, Walk::RowMajor | Walk::ColumnMajor);
    let mut f = Figure::new(
        "array",
        format!(
            "{n} elements of 8 bytes, {per_line} to a {}-byte line: {} of {} accessed in the {} walk",
            c.line,
            m.position,
            n,
            m.walk.label()
        ),
        used.max(d.array_min),
        height,
    )
    .legend("hit", "H: hit")
    .legend("miss", "M: miss, the line came from memory")
    .legend("idle", "not reached yet");
    f.push(
        Shape::text(
            "head",
            4.0,
            20.0,
            if two_d {
                format!("a[{rows}][{cols}]")
            } else {
                "byte".into()
            },
        )
        .start()
        .mono()
        .size(Size::Small),
    );
    let x_of = |col: usize| d.left + col as f32 * cw + (col / per_line.max(1)) as f32 * gx;
    let y_of = |row: usize| 30.0 + row as f32 * ch + (row / rows_per_line) as f32 * gy;
    for col in (0..cols).filter(|_| cw >= 24.0) {
        f.push(
            Shape::text(
                format!("col-{col}"),
                x_of(col) + cw / 2.0,
                20.0,
                col.to_string(),
            )
            .mono()
            .size(Size::Small),
        );
    }
    for e in 0..n {
        let (row, col) = (e / cols, e % cols);
        let (x, y) = (x_of(col), y_of(row));
        if col == 0 && ch >= 14.0 {
            let name = if two_d {
                format!("row {row}")
            } else {
                format!("{:#05x}", e as u64 * ELEMENT_BYTES)
            };
            f.push(
                Shape::text(format!("row-{row}"), 4.0, y + ch / 2.0 + 5.0, name)
                    .start()
                    .mono()
                    .size(Size::Small),
            );
        }
        let (class, state, letter) = match m.outcome[e] {
            Some(true) => ("hit", "hit", "H"),
            Some(false) => ("miss", "miss", "M"),
            None => ("idle", "not yet", ""),
        };
        let key = format!("elem-{e}");
        let frame = |key: &str| Shape::rect(key, x + 1.0, y + 1.0, cw - 2.0, ch - 2.0).rounded(2.0);
        // An element not reached yet is its box alone (no group round one
        // shape): the whole array is that way when the page opens.
        let mut shape = if letter.is_empty() || cw < 20.0 {
            frame(&key)
        } else {
            let t = Shape::text("t", x + cw / 2.0, y + ch / 2.0 + 5.0, letter).mono();
            Shape::group(key.clone(), vec![frame("r"), t])
        };
        shape = shape
            .class(class)
            .class_if(m.last == Some(e as u32), "thick")
            .state(state)
            .focus(key);
        if n <= 256 {
            shape = shape.label(format!("element {e}: {state}"));
        }
        f.push(shape);
    }
    f
}

/// The cache as the walk has left it: which lines each set holds.
fn cache(m: &Locality, d: &Dims) -> Figure {
    let level = &m.sim.levels[0];
    let s = &level.spec;
    let sets = shown_sets(level, None);
    let (cells, h, _) = grid(
        "cache",
        level,
        &sets,
        (d.cache_w, d.cache_top),
        None,
        &|b| format!("line {}", b.base / s.line),
    );
    let title = format!(
        "The cache: {} set{} × {} way{} × {} B = {} bytes, {}",
        s.sets,
        demos::text::plural(s.sets as usize),
        s.ways,
        demos::text::plural(s.ways),
        s.line,
        s.bytes(),
        s.policy.label()
    );
    let mut f = Figure::new("cache", title.clone(), d.cache_w, h + d.cache_top + 10.0);
    // A phone has no room for the heading in one line: the policy goes
    // on a second, in the room above the way numbers.
    let lines: Vec<String> = match title.rsplit_once(", ") {
        Some((size, policy)) if d.cache_heading_lines == 2 => {
            vec![format!("{size},"), policy.into()]
        }
        _ => vec![title],
    };
    for (i, line) in lines.into_iter().enumerate() {
        let key = line_key("title", i);
        f.push(
            Shape::text(key, 4.0, 20.0 + 15.0 * i as f32, line)
                .start()
                .size(Size::Small)
                .class("strong"),
        );
    }
    f.push(Shape::group("cache-sets", cells).focus("cache"));
    f
}

/// Every walk's totals as bars of cycles, side by side.
fn totals(m: &Locality, d: &Dims, ui: &mut Ui<Locality>) -> Figure {
    let n = m.config.elements as u64;
    let worst = n * u64::from(HIT_CYCLES + MISS_CYCLES);
    let mut f = Figure::new(
        "totals",
        "Each walk from a cold cache: misses and cycles",
        d.totals_w,
        30.0 + d.row_pitch * Walk::ALL.len() as f32,
    )
    .legend(
        "miss",
        "cycles (the bar's full length: every access a miss)",
    );
    for (i, walk) in Walk::ALL.into_iter().enumerate() {
        let y = 8.0 + d.row_pitch * i as f32;
        let result = m.results[walk.index()];
        let (text, state, w) = match result {
            Some(t) => (
                format!(
                    "{} miss{} · {} hits · {} cycles",
                    t.misses,
                    if t.misses == 1 { "" } else { "es" },
                    t.hits,
                    grouped(t.cycles as i64)
                ),
                format!("{} misses", t.misses),
                d.track.1 * t.cycles as f32 / worst as f32,
            ),
            None => ("not run yet".into(), "not run".into(), 0.0),
        };
        let current = walk == m.walk;
        f.push(
            Shape::group(
                format!("total-{}", walk.label()),
                vec![
                    Shape::rect("hit", 0.0, y, d.name_box, 36.0).class("hit"),
                    Shape::text("name", 8.0, y + 24.0, walk.label())
                        .start()
                        .class_if(current, "strong"),
                    Shape::rect("track", d.track.0, y + 6.0, d.track.1, 24.0).class("track"),
                    Shape::rect("bar", d.track.0, y + 6.0, w, 24.0).class("bar miss"),
                    Shape::text("text", d.total_text.0, y + d.total_text.1, text)
                        .start()
                        .mono(),
                ],
            )
            .class_if(current, "accent")
            .state(state)
            .label(format!("{} walk: select to start it", walk.label()))
            .on_click(ui.act(LocalityAction::Select(walk)))
            .focus("results"),
        );
    }
    f
}

/// Miss rate against stride: each point a cold stride walk on the simulator.
fn chart(m: &Locality, d: &Dims) -> Figure {
    let curve = &m.stride_curve;
    let last = curve.last().map_or(2.0, |p| p.stride as f64).max(2.0);
    let plot = Plot::new(d.plot, (1.0, last, true), (0.0, 115.0, false));
    let rate =
        |p: &demos::cpu::locality::StridePoint| share_tenths(p.misses as i64, p.accesses as i64);
    let mut f = Figure::new(
        "chart",
        format!(
            "Miss rate against stride, {} elements, {}-byte lines",
            m.config.elements, m.config.line
        ),
        d.chart_w,
        340.0,
    )
    .legend("miss", "miss rate of a cold stride walk");
    // Every stride labelled if the axis has room, else every other one.
    let every = curve.len().div_ceil(d.max_ticks).max(1);
    let x_ticks: Vec<(f64, String)> = curve
        .iter()
        .step_by(every)
        .map(|p| (p.stride as f64, p.stride.to_string()))
        .collect();
    let y_ticks: Vec<(f64, String)> = (0..=4)
        .map(|i| (25.0 * i as f64, format!("{} %", 25 * i)))
        .collect();
    f.push(plot.axes(
        &x_ticks,
        &y_ticks,
        "stride (elements, log scale)",
        "miss rate",
    ));
    let points: Vec<(f64, f64)> = curve
        .iter()
        .map(|p| (p.stride as f64, rate(p) as f64 / 10.0))
        .collect();
    f.push(plot.series("curve", &points, "miss"));
    for (p, &xy) in curve.iter().zip(&points) {
        f.push(
            plot.dot(&format!("pt-{}", p.stride), xy, "miss")
                .state(tenths(rate(p)))
                .label(format!(
                    "stride {}: {} of {} miss, {}",
                    p.stride,
                    p.misses,
                    p.accesses,
                    tenths(rate(p))
                )),
        );
    }
    f.push(
        plot.marker(
            "now",
            m.config.stride as f64,
            format!("stride walk: {}", m.config.stride),
            "accent",
        )
        .focus("chart"),
    );
    f
}

impl View for Locality {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        let s = &self.sim.levels[0].stats;
        let d = Dims::of(ui.layout());
        Scene::new(
            "Cache locality",
            format!(
                "The {} walk has made {} of {} accesses: {} hits, {} misses, {} cycles.",
                self.walk.label(),
                self.position,
                self.config.elements,
                s.hits,
                s.misses,
                self.sim.cycles
            ),
        )
        .figure(array(self, &d))
        .figure(totals(self, &d, ui))
        .figure(cache(self, &d))
        .figure(chart(self, &d))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let c = self.config.clone();
        let n = c.elements;
        let walks = Walk::ALL
            .into_iter()
            .map(|w| {
                (
                    w.label(),
                    w.label().to_string(),
                    ui.act(LocalityAction::Select(w)),
                )
            })
            .collect();
        let (sets, ways, line) = (c.sets, c.ways, c.line);
        let (stride, cols) = (c.stride_bound(), c.cols_bound());
        let set_cache = move |sets: u64, ways: usize, line: u64| {
            Command::Do(LocalityAction::SetCache { sets, ways, line })
        };
        let policies = Policy::ALL
            .iter()
            .map(|&p| {
                (
                    p.key(),
                    p.label().to_string(),
                    ui.act(LocalityAction::SetPolicy(p)),
                )
            })
            .collect();
        let shuffled = LocalityConfig {
            seed: c.seed.wrapping_add(1),
            ..c.clone()
        };
        vec![
            Control::choice("walk", "Walk", self.walk.index(), walks),
            Control::button(
                "run-to-end",
                "Run to the end",
                ui.act(LocalityAction::RunToEnd),
            )
            .primary(),
            Control::button("run-all", "Run every walk", ui.act(LocalityAction::RunAll)),
            Control::note("Step makes the next access of the walk."),
            Control::danger_group(
                "Break it",
                vec![
                    Control::button(
                        "column-major",
                        "Walk the 2-D array column by column",
                        ui.act(LocalityAction::Select(Walk::ColumnMajor)),
                    )
                    .danger(),
                    Control::note(c.column_note()),
                ],
            ),
            Control::group(
                "The array",
                vec![
                    pow2(
                        "elements",
                        "Elements",
                        n as u64,
                        exponents(&ELEMENTS),
                        "",
                        ui.number(|v| {
                            Ok(Command::Do(LocalityAction::SetElements(power_in(
                                &ELEMENTS, v,
                            ))))
                        }),
                    ),
                    pow2(
                        "stride",
                        "Stride",
                        c.stride as u64,
                        exponents(&stride),
                        "elements",
                        ui.number(move |v| {
                            Ok(Command::Do(LocalityAction::SetStride(power_in(&stride, v))))
                        }),
                    ),
                    pow2(
                        "cols",
                        "2-D columns",
                        c.cols as u64,
                        exponents(&cols),
                        "",
                        ui.number(move |v| {
                            Ok(Command::Do(LocalityAction::SetColumns(power_in(&cols, v))))
                        }),
                    ),
                    Control::button(
                        "shuffle",
                        "New random order (new seed)",
                        ui.restart(shuffled),
                    ),
                ],
            ),
            Control::group(
                "The cache (restarts the walks)",
                vec![
                    pow2(
                        "sets",
                        "Sets",
                        sets,
                        exponents(&SETS),
                        "",
                        ui.number(move |v| Ok(set_cache(power_in(&SETS, v), ways, line))),
                    ),
                    Control::number(
                        "ways",
                        "Ways",
                        WAYS.control_range(ways),
                        "",
                        ui.number(move |v| {
                            Ok(set_cache(
                                sets,
                                usize::from_i64(v.clamp(WAYS.min as i64, WAYS.max as i64)),
                                line,
                            ))
                        }),
                    ),
                    pow2(
                        "line-size",
                        "Line size",
                        line,
                        exponents(&LINE),
                        "B",
                        ui.number(move |v| Ok(set_cache(sets, ways, power_in(&LINE, v)))),
                    ),
                    Control::choice(
                        "policy",
                        "Replacement",
                        Policy::ALL.iter().position(|&p| p == c.policy).unwrap_or(0),
                        policies,
                    )
                    .dropdown(),
                ],
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::Model;

    fn run(m: &mut Locality, walk: Walk) {
        if m.walk != walk {
            m.apply(&LocalityAction::Select(walk)).unwrap();
        }
        m.apply(&LocalityAction::RunToEnd).unwrap();
    }

    #[test]
    fn the_column_note_is_the_model_s_for_this_cache() {
        let notes = |c: &LocalityConfig| {
            let m = Locality::new(c);
            let controls = crate::build(&m, &()).1;
            let mut all = Vec::new();
            Control::walk(&controls, &mut all);
            all.iter()
                .filter_map(|c| match c {
                    Control::Note(t) => Some(t.clone()),
                    _ => None,
                })
                .collect::<Vec<_>>()
        };
        let small = LocalityConfig::default();
        assert!(notes(&small).contains(&small.column_note()));
        assert!(small.column_note().contains("keeps only 4 of them"));
        let big = LocalityConfig {
            sets: 4,
            ..LocalityConfig::default()
        };
        assert!(notes(&big)
            .iter()
            .any(|n| n.contains("still holds all 8 lines")));
    }

    #[test]
    fn the_sequential_walk_misses_once_per_line() {
        let mut m = Locality::new(&LocalityConfig::default());
        run(&mut m, Walk::Sequential);
        let scene = crate::build(&m, &()).0;
        let state = |k: &str| scene.find(k).and_then(|s| s.state.clone()).unwrap();
        assert_eq!(state("elem-0"), "miss");
        assert_eq!(state("elem-1"), "hit");
        assert_eq!(state("elem-8"), "miss");
        let misses = (0..64)
            .filter(|e| state(&format!("elem-{e}")) == "miss")
            .count();
        assert_eq!(misses, 8);
        let bar = scene.find("total-sequential").unwrap();
        assert_eq!(bar.state.as_deref(), Some("8 misses"));
        assert_eq!(
            bar.children()[4].text_content(),
            Some("8 misses · 56 hits · 3,080 cycles")
        );
    }

    #[test]
    fn column_major_misses_every_access_and_the_chart_rises_with_stride() {
        let mut m = Locality::new(&LocalityConfig::default());
        run(&mut m, Walk::ColumnMajor);
        let scene = crate::build(&m, &()).0;
        assert_eq!(
            scene.find("total-column-major").unwrap().state.as_deref(),
            Some("64 misses")
        );
        assert_eq!(scene.find("pt-1").unwrap().state.as_deref(), Some("12.5 %"));
        assert_eq!(
            scene.find("pt-8").unwrap().state.as_deref(),
            Some("100.0 %")
        );
        // The 2-D walks draw the array as its rows: a[8][8].
        assert_eq!(scene.find("head").unwrap().text_content(), Some("a[8][8]"));
    }

    #[test]
    fn a_total_bar_starts_its_walk() {
        let m = Locality::new(&LocalityConfig::default());
        let (scene, _, ui) = crate::build(&m, &());
        let slot = scene.find("total-random").unwrap().on_click.unwrap();
        assert_eq!(
            ui.resolve(slot, &crate::Input::Press),
            Ok(Command::Do(LocalityAction::Select(Walk::Random)))
        );
    }
}
