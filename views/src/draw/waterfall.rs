//! The latency waterfall of the stage-pipeline demos (send path, busy-poll):
//! one row per stage on a shared time axis, removed stages faded with the
//! reason, the walked packet's clock; the baseline-vs-now bar; and the cost
//! editor's controls. Every number comes from the model's [`Waterfall`].

use crate::control::Control;
use crate::live::Slot;
use crate::scene::{Figure, Shape, Size};
use demos::nic::stages::{RowWalk, Waterfall, COST_MAX};
use demos::text::{ns, share_tenths, tenths};

const ROW_H: f32 = 44.0;
const TOP: f32 = 44.0;
const NAME_W: f32 = 330.0;
const TRACK_X: f32 = 344.0;
const TRACK_W: f32 = 300.0;
const FIGS_X: f32 = 960.0;

fn walk_word(walk: RowWalk) -> (&'static str, &'static str) {
    match walk {
        RowWalk::Passed => ("passed", "✓ passed"),
        RowWalk::Here => ("here", "● packet here"),
        RowWalk::Ahead => ("ahead", ""),
        RowWalk::OffPath => ("off", "off the path"),
    }
}

fn x_at(t: u32, scale: u32) -> f32 {
    TRACK_X + TRACK_W * t as f32 / scale.max(1) as f32
}

/// The clock line as text: where the walked packet is.
pub fn clock_text(w: &Waterfall, what: &str) -> String {
    match w.rows.iter().find(|r| r.walk == RowWalk::Here) {
        None => format!("Packet clock t = 0 ns: the packet waits at the start of the {what}."),
        Some(_) if w.walk_done => format!(
            "Packet clock t = {}: the packet has left the last stage.",
            ns(w.clock_ns)
        ),
        Some(r) => format!(
            "Packet clock t = {}: the packet has just finished “{}”.",
            ns(w.clock_ns),
            r.name
        ),
    }
}

/// The waterfall figure. `select(i)` is what clicking a stage's name sends
/// (pick it for the cost editor); `selected` is the stage picked.
pub fn waterfall(
    w: &Waterfall,
    what: &str,
    selected: usize,
    mut select: impl FnMut(usize) -> Slot,
) -> Figure {
    let height = TOP + ROW_H * w.rows.len() as f32 + 52.0;
    let mut f = Figure::new("waterfall", format!("Stages of the {what}"), FIGS_X, height)
        .legend("driver", "CPU work")
        .legend("nic", "NIC / PCIe work")
        .legend("done", "passed by the packet")
        .legend("idle dashed", "off the path (reason given)");
    f.push(
        Shape::text("clock", 0.0, 20.0, clock_text(w, what))
            .start()
            .mono()
            .class("strong"),
    );
    for (n, r) in w.rows.iter().enumerate() {
        let y = TOP + ROW_H * n as f32;
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
        let x0 = x_at(r.start_ns, w.scale_ns);
        let width = (x_at(r.start_ns + r.cost_ns, w.scale_ns) - x0).max(2.0);
        let bar = Shape::rect("bar", x0, y + 8.0, width, ROW_H - 16.0)
            .class(colour)
            .class_if(r.active, "bar")
            .class_if(!r.active, "ghost")
            .class_if(r.walk == RowWalk::Here, "thick");
        let name = Shape::group(
            "name",
            vec![
                Shape::rect("hit", 0.0, y + 2.0, NAME_W, ROW_H - 4.0)
                    .class("hit")
                    .class_if(n == selected, "selected"),
                Shape::text("kind", 10.0, y + 27.0, if r.cpu { "CPU" } else { "NIC" })
                    .start()
                    .mono()
                    .size(Size::Small)
                    .class(&format!("{kind} tone")),
                Shape::text("label", 50.0, y + 28.0, r.name)
                    .start()
                    .class_if(!r.active, "muted"),
            ],
        )
        .on_click(select(r.index))
        .label(format!("{}: select to change its cost", r.name));
        let mut children = vec![
            name,
            Shape::rect("track", TRACK_X, y + 8.0, TRACK_W, ROW_H - 16.0).class("track"),
            bar,
            Shape::text("cost", FIGS_X, y + 19.0, figures)
                .end()
                .mono()
                .size(Size::Small)
                .class("strong"),
        ];
        children.push(match &r.off_reason {
            Some(reason) => Shape::text(format!("off-{}", r.key), FIGS_X, y + 37.0, reason.clone())
                .end()
                .size(Size::Small),
            None => Shape::text("walk", FIGS_X, y + 37.0, word)
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
    let rows_bottom = TOP + ROW_H * w.rows.len() as f32;
    if w.rows.iter().any(|r| r.walk == RowWalk::Here) {
        let x = x_at(w.clock_ns, w.scale_ns);
        f.push(Shape::line("clock-line", (x, TOP), (x, rows_bottom)).class("fault thick"));
    }
    f.push(
        Shape::line(
            "total-rule",
            (0.0, rows_bottom + 8.0),
            (FIGS_X, rows_bottom + 8.0),
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
        Shape::text("total", FIGS_X, rows_bottom + 36.0, ns(w.total_ns))
            .end()
            .mono()
            .size(Size::Large),
    );
    f
}

/// Baseline against now: two stacked bars on one axis, and the saving.
pub fn compare(w: &Waterfall, what: &str) -> Figure {
    const X0: f32 = 130.0;
    const WIDTH: f32 = 560.0;
    let x = |t: u32| X0 + WIDTH * t as f32 / w.scale_ns.max(1) as f32;
    let mut f = Figure::new(
        "compare",
        format!(
            "The {what} with no technique ({}) and as it is now ({})",
            ns(w.baseline_ns),
            ns(w.total_ns)
        ),
        FIGS_X,
        140.0,
    );
    f.push(
        Shape::text("base-label", X0 - 12.0, 36.0, "baseline")
            .end()
            .class("strong"),
    );
    f.push(Shape::rect("base", X0, 14.0, x(w.baseline_ns) - X0, 30.0).class("idle bar"));
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
        Shape::text("now-label", X0 - 12.0, 84.0, "now")
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
        Shape::text("saving", X0, 126.0, saving)
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
