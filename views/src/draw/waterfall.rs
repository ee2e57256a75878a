//! The latency waterfall of the stage-pipeline demos (send path, busy-poll):
//! one row per stage on a shared time axis, removed stages faded with the
//! reason, the walked packet's clock; the baseline-vs-now bar; and the cost
//! editor's controls. Every number comes from the model's [`Waterfall`].

use crate::control::Control;
use crate::draw::geometry::PathData;
use crate::draw::text::{line_key, wrap_words};
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::Slot;
use crate::scene::{Figure, Shape, Size};
use demos::nic::stages::{RowWalk, Waterfall, COST_MAX};
use demos::text::{ns, share_tenths, tenths};

/// Where the waterfall's parts go. Wide, a row is one line: the stage's
/// name, its track, its figures on the right. Narrow, a row is three lines
/// (name; track with the figures beside it; what the packet did or why the
/// stage is off), so every word keeps its size in 420 units.
struct Dims {
    width: f32,
    row_h: f32,
    /// Baseline of the packet clock's first line, and the step between its lines.
    clock_y: f32,
    clock_line_h: f32,
    /// At most this many monospace characters on one clock line (`None`: one line).
    clock_chars: Option<usize>,
    /// Space between the clock's last line and the first row.
    clock_gap: f32,
    /// The clickable name: its box's width, and its text's baseline in a row.
    /// Narrow, the box is the whole row: a finger-sized target.
    name_w: f32,
    name_y: f32,
    track_x: f32,
    track_w: f32,
    /// The track's top in a row, and its height.
    track_y: f32,
    track_h: f32,
    /// Where the right-aligned figures (cost, walk word or reason, total) end.
    figs_x: f32,
    /// Baselines in a row of the cost figures and of the walk word or reason.
    cost_y: f32,
    walk_y: f32,
    /// `Some`: the clock line is cut into one piece per row's track, from
    /// this far above the track to as far below, so it crosses no name.
    clock_cut: Option<f32>,
}

impl Dims {
    fn of(layout: Layout) -> Dims {
        layout.pick(
            Dims {
                width: 960.0,
                row_h: 44.0,
                clock_y: 20.0,
                clock_line_h: 0.0,
                clock_chars: None,
                clock_gap: 24.0,
                name_w: 330.0,
                name_y: 28.0,
                track_x: 344.0,
                track_w: 300.0,
                track_y: 8.0,
                track_h: 28.0,
                figs_x: 960.0,
                cost_y: 19.0,
                walk_y: 37.0,
                clock_cut: None,
            },
            Dims {
                width: NARROW_WIDTH,
                row_h: 68.0,
                clock_y: 20.0,
                clock_line_h: 22.0,
                // 16-unit monospace is about 9.6 units a character.
                clock_chars: Some(42),
                clock_gap: 20.0,
                name_w: NARROW_WIDTH,
                name_y: 20.0,
                track_x: 10.0,
                track_w: 250.0,
                track_y: 28.0,
                track_h: 18.0,
                // Inside the row's box, whose edge would cross them.
                figs_x: NARROW_WIDTH - 8.0,
                cost_y: 42.0,
                walk_y: 62.0,
                clock_cut: Some(4.0),
            },
        )
    }

    fn x_at(&self, t: u32, scale: u32) -> f32 {
        self.track_x + self.track_w * t as f32 / scale.max(1) as f32
    }
}

fn walk_word(walk: RowWalk) -> (&'static str, &'static str) {
    match walk {
        RowWalk::Passed => ("passed", "✓ passed"),
        RowWalk::Here => ("here", "● packet here"),
        RowWalk::Ahead => ("ahead", ""),
        RowWalk::OffPath => ("off", "off the path"),
    }
}

/// The clock line as text: where the walked packet is.
pub fn clock_text(w: &Waterfall, what: &str) -> String {
    let here = w.rows.iter().find(|r| r.walk == RowWalk::Here);
    clock_words(here.map(|r| r.name), w.walk_done, w.clock_ns, what)
}

/// The clock sentence with the packet just past stage `here`, if any.
fn clock_words(here: Option<&str>, done: bool, clock_ns: u32, what: &str) -> String {
    match here {
        None => format!("Packet clock t = 0 ns: the packet waits at the start of the {what}."),
        Some(_) if done => format!(
            "Packet clock t = {}: the packet has left the last stage.",
            ns(clock_ns)
        ),
        Some(name) => format!(
            "Packet clock t = {}: the packet has just finished “{name}”.",
            ns(clock_ns)
        ),
    }
}

/// The packet clock's text shapes, and how many lines to keep for it: as
/// many as its longest sentence on this path needs (the packet just past the
/// stage with the longest name, at the latest time), so the rows under it
/// stay put while the packet walks.
fn clock_shapes(w: &Waterfall, what: &str, d: &Dims) -> (Vec<Shape>, usize) {
    let text = clock_text(w, what);
    let Some(chars) = d.clock_chars else {
        return (vec![clock_shape("clock", 0.0, d.clock_y, text)], 1);
    };
    let longest = w
        .rows
        .iter()
        .map(|r| clock_words(Some(r.name), false, w.total_ns.max(w.clock_ns), what))
        .chain([clock_words(None, false, 0, what)])
        .map(|t| wrap_words(&t, chars).len())
        .max()
        .unwrap_or(1);
    let shapes = wrap_words(&text, chars)
        .into_iter()
        .enumerate()
        .map(|(i, line)| {
            let key = line_key("clock", i);
            clock_shape(key, 0.0, d.clock_y + d.clock_line_h * i as f32, line)
        })
        .collect();
    (shapes, longest)
}

fn clock_shape(key: impl Into<String>, x: f32, y: f32, text: String) -> Shape {
    Shape::text(key, x, y, text).start().mono().class("strong")
}

/// The waterfall figure. `select(i)` is what clicking a stage's name sends
/// (pick it for the cost editor); `selected` is the stage picked.
pub fn waterfall(
    w: &Waterfall,
    what: &str,
    selected: usize,
    layout: Layout,
    mut select: impl FnMut(usize) -> Slot,
) -> Figure {
    let d = Dims::of(layout);
    let (clock, clock_lines) = clock_shapes(w, what, &d);
    let top = d.clock_y + d.clock_line_h * (clock_lines - 1) as f32 + d.clock_gap;
    let height = top + d.row_h * w.rows.len() as f32 + 52.0;
    let mut f = Figure::new(
        "waterfall",
        format!("Stages of the {what}"),
        d.width,
        height,
    )
    .legend("driver", "CPU work")
    .legend("nic", "NIC / PCIe work")
    .legend("done", "passed by the packet")
    .legend("idle dashed", "off the path (reason given)");
    f.extend(clock);
    for (n, r) in w.rows.iter().enumerate() {
        let y = top + d.row_h * n as f32;
        let (state, word) = walk_word(r.walk);
        let kind = if r.cpu { "driver" } else { "nic" };
        let colour = match r.walk {
            RowWalk::Passed | RowWalk::Here => "done",
            RowWalk::OffPath => "idle",
            RowWalk::Ahead => kind,
        };
        let figures = if r.active {
            format!("{} · {}", ns(r.cost_ns), tenths(r.share_tenths.into()))
        } else if r.extra {
            format!("{} if used", ns(r.cost_ns))
        } else {
            format!("{} saved", ns(r.cost_ns))
        };
        let x0 = d.x_at(r.start_ns, w.scale_ns);
        let width = (d.x_at(r.start_ns + r.cost_ns, w.scale_ns) - x0).max(2.0);
        let bar = Shape::rect("bar", x0, y + d.track_y, width, d.track_h)
            .class(colour)
            .class_if(r.active, "bar")
            .class_if(!r.active, "ghost")
            .class_if(r.walk == RowWalk::Here, "thick");
        let name = Shape::group(
            "name",
            vec![
                Shape::rect("hit", 0.0, y + 2.0, d.name_w, d.row_h - 4.0)
                    .class("hit")
                    .class_if(n == selected, "selected"),
                Shape::text(
                    "kind",
                    10.0,
                    y + d.name_y - 1.0,
                    if r.cpu { "CPU" } else { "NIC" },
                )
                .start()
                .mono()
                .size(Size::Small)
                .class(&format!("{kind} tone")),
                Shape::text("label", 50.0, y + d.name_y, r.name)
                    .start()
                    .class_if(!r.active, "muted"),
            ],
        )
        .on_click(select(r.index))
        .label(format!("{}: select to change its cost", r.name));
        let mut children = vec![
            name,
            Shape::rect("track", d.track_x, y + d.track_y, d.track_w, d.track_h).class("track"),
            bar,
            Shape::text("cost", d.figs_x, y + d.cost_y, figures)
                .end()
                .mono()
                .size(Size::Small)
                .class("strong"),
        ];
        children.push(match &r.off_reason {
            Some(reason) => Shape::text(
                format!("off-{}", r.key),
                d.figs_x,
                y + d.walk_y,
                reason.clone(),
            )
            .end()
            .size(Size::Small),
            None => Shape::text("walk", d.figs_x, y + d.walk_y, word)
                .end()
                .size(Size::Small)
                .class("done tone"),
        });
        f.push(
            Shape::group(format!("row-{}", r.key), children)
                .class(kind)
                .class_if(n == selected, "selected")
                .state(state)
                .focus(r.key),
        );
    }
    let rows_bottom = top + d.row_h * w.rows.len() as f32;
    if w.rows.iter().any(|r| r.walk == RowWalk::Here) {
        let x = d.x_at(w.clock_ns, w.scale_ns);
        let line = match d.clock_cut {
            None => Shape::line("clock-line", (x, top), (x, rows_bottom)),
            Some(over) => {
                let mut path = PathData::new();
                for n in 0..w.rows.len() {
                    let y = top + d.row_h * n as f32 + d.track_y;
                    path = path.move_to(x, y - over).line_to(x, y + d.track_h + over);
                }
                Shape::path("clock-line", path)
            }
        };
        f.push(line.class("fault thick"));
    }
    f.push(
        Shape::line(
            "total-rule",
            (0.0, rows_bottom + 8.0),
            (d.width, rows_bottom + 8.0),
        )
        .class("idle"),
    );
    f.push(
        Shape::text(
            "total-label",
            0.0,
            rows_bottom + 36.0,
            format!("Total {what}"),
        )
        .start()
        .size(Size::Title),
    );
    f.push(
        Shape::text("total", d.figs_x, rows_bottom + 36.0, ns(w.total_ns))
            .end()
            .mono()
            .size(Size::Large),
    );
    f
}

/// Baseline against now: two stacked bars on one axis, and the saving.
/// Narrow, the bars are shorter: the names left of them and the values
/// after them keep their size. The names end 12 units before the bars, so
/// the bars start far enough in for "baseline" (8 characters of 16-unit
/// bold text, about 80 units) to stay inside the figure.
pub fn compare(w: &Waterfall, what: &str, layout: Layout) -> Figure {
    let (fig_w, x0, bars_w) = layout.pick((960.0, 130.0, 560.0), (NARROW_WIDTH, 100.0, 224.0));
    let x = |t: u32| x0 + bars_w * t as f32 / w.scale_ns.max(1) as f32;
    let mut f = Figure::new(
        "compare",
        format!(
            "The {what} with no technique ({}) and as it is now ({})",
            ns(w.baseline_ns),
            ns(w.total_ns)
        ),
        fig_w,
        140.0,
    );
    f.push(
        Shape::text("base-label", x0 - 12.0, 36.0, "baseline")
            .end()
            .class("strong"),
    );
    f.push(Shape::rect("base", x0, 14.0, x(w.baseline_ns) - x0, 30.0).class("idle bar"));
    f.push(
        Shape::text(
            "base-value",
            x(w.baseline_ns) + 10.0,
            36.0,
            ns(w.baseline_ns),
        )
        .start()
        .mono(),
    );
    f.push(
        Shape::text("now-label", x0 - 12.0, 84.0, "now")
            .end()
            .class("strong"),
    );
    for r in w.rows.iter().filter(|r| r.active && r.cost_ns > 0) {
        f.push(
            Shape::rect(
                format!("seg-{}", r.key),
                x(r.start_ns),
                62.0,
                x(r.start_ns + r.cost_ns) - x(r.start_ns),
                30.0,
            )
            .class(if r.cpu { "driver bar" } else { "nic bar" }),
        );
    }
    f.push(
        Shape::text("now-value", x(w.total_ns) + 10.0, 84.0, ns(w.total_ns))
            .start()
            .mono(),
    );
    let saved = i64::from(w.baseline_ns) - i64::from(w.total_ns);
    let saving = if saved >= 0 {
        format!(
            "saves {} ({})",
            ns(saved),
            tenths(share_tenths(saved, w.baseline_ns.into()))
        )
    } else {
        format!(
            "costs {} more ({})",
            ns(-saved),
            tenths(share_tenths(-saved, w.baseline_ns.into()))
        )
    };
    f.push(
        Shape::text("saving", layout.pick(x0, 12.0), 126.0, saving)
            .start()
            .size(Size::Large),
    );
    f
}

/// The stage the cost editor edits: the one picked, or the first.
pub fn edited(w: &Waterfall, selected: usize) -> usize {
    w.rows
        .get(selected)
        .or(w.rows.first())
        .map_or(0, |r| r.index)
}

/// The cost editor: pick a stage (`pick(i)`), set its cost (`set_cost`, a
/// number slot for the stage [`edited`] returns), or restore the defaults.
pub fn cost_editor(
    w: &Waterfall,
    selected: usize,
    mut pick: impl FnMut(usize) -> Slot,
    set_cost: Slot,
    restore: Slot,
) -> Control {
    let row = w.rows.get(selected).or(w.rows.first());
    let (stage, cost) = row.map_or((0, 0), |r| (r.index, r.cost_ns));
    let mut note = row.map_or(String::new(), |r| format!("default {}", ns(r.base_ns)));
    if let Some(reason) = row.and_then(|r| r.off_reason.as_ref()) {
        note.push_str(&format!(" · {reason}, so it does not count now"));
    }
    let options = w
        .rows
        .iter()
        .map(|r| (r.index.to_string(), r.name.to_string(), pick(r.index)))
        .collect();
    Control::group(
        "Stage cost",
        vec![
            Control::choice("stage-pick", "Stage", stage, options).dropdown(),
            Control::slider(
                "stage-cost",
                "Its cost",
                (i64::from(cost), 0, i64::from(COST_MAX)),
                "ns",
                set_cost,
            )
            .step(10)
            .shown(ns(cost)),
            Control::note(note),
            Control::button("restore-costs", "Restore default costs", restore),
        ],
    )
}
