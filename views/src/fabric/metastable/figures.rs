//! The three figures: the queue as a strip of cells (which requests are
//! already dead), goodput, wasted work and offered load tick by tick with
//! the trigger's window, and goodput against load from the model's sweep.

use crate::draw::chart::{whole_ticks, Plot};
use crate::layout::{Layout, NARROW_WIDTH};
use crate::scene::{Figure, Shape, Size};
use demos::fabric::metastable::budget::{MAX_TOKENS, MILLI};
use demos::fabric::metastable::config::HORIZON;
use demos::fabric::metastable::Metastable;
use demos::text::decimal;

/// Cells in the queue's strip; each stands for an equal share of the
/// queue's limit, the oldest request on the left.
pub const CELLS: usize = 40;

pub fn queue(m: &Metastable, layout: Layout) -> Figure {
    let width = layout.pick(720.0, NARROW_WIDTH);
    let rows = layout.pick(1, 2);
    let per_row = CELLS / rows;
    let left = 10.0;
    let pitch = (width - 2.0 * left) / per_row as f32;
    let limit = m.config.queue_limit as usize;
    let share = limit.div_ceil(CELLS).max(1);
    let now = m.tick();
    let queue: Vec<bool> = m.server.queue.iter().map(|r| r.dead_at(now)).collect();
    let (len, dead) = m.queued();
    let fixes = fixes_on(m);
    let cells_top = 50.0;
    let fixes_top = cells_top + rows as f32 * 34.0 + 20.0;
    let height = fixes_top + 18.0 * fixes.len().max(1) as f32 + 24.0;
    let mut f = Figure::new(
        "queue-figure",
        format!("The queue at tick {now}: {len} requests, {dead} of them dead"),
        width,
        height,
    )
    .legend("fault", "dead: its client has given up")
    .legend("done", "alive")
    .legend("warn", "some of each")
    .legend("idle", "empty");
    f.push(
        Shape::text(
            "queue-title",
            left,
            18.0,
            format!("Queue {len} of {limit}: {dead} dead, {} alive.", len - dead),
        )
        .size(Size::Small)
        .start(),
    );
    f.push(
        Shape::text(
            "queue-note",
            left,
            38.0,
            format!(
                "Oldest on the left; a cell is {share} place{}.",
                if share == 1 { "" } else { "s" }
            ),
        )
        .size(Size::Small)
        .start(),
    );
    let mut cells = Vec::new();
    for i in 0..CELLS {
        let from = i * share;
        let here = &queue[from.min(queue.len())..(from + share).min(queue.len())];
        let gone = here.iter().filter(|d| **d).count();
        let (class, state) = match (here.len(), gone) {
            (0, _) => ("idle", "empty"),
            (n, g) if g == n => ("fault", "dead"),
            (_, 0) => ("done", "alive"),
            _ => ("warn", "mixed"),
        };
        let (row, col) = (i / per_row, i % per_row);
        cells.push(
            Shape::rect(
                format!("cell-{i}"),
                left + col as f32 * pitch,
                cells_top + row as f32 * 34.0,
                pitch - 2.0,
                28.0,
            )
            .class(class)
            .state(state)
            .label(format!(
                "places {} to {}: {} request{}, {gone} dead",
                from + 1,
                from + share,
                here.len(),
                if here.len() == 1 { "" } else { "s" }
            )),
        );
    }
    f.push(Shape::group("queue", cells).focus("queue"));
    let mut lines = vec![Shape::text(
        "head",
        left,
        fixes_top,
        if fixes.is_empty() {
            "Fixes on: none."
        } else {
            "Fixes on:"
        },
    )
    .size(Size::Small)
    .start()];
    for (i, fix) in fixes.into_iter().enumerate() {
        lines.push(
            Shape::text(
                format!("fix-{i}"),
                left + 12.0,
                fixes_top + 18.0 * (i + 1) as f32,
                fix,
            )
            .size(Size::Small)
            .start(),
        );
    }
    f.push(Shape::group("fixes", lines).focus("fixes"));
    f
}

/// The fixes that are on, one line each.
fn fixes_on(m: &Metastable) -> Vec<String> {
    let x = &m.config.fixes;
    let mut on = Vec::new();
    if x.budget {
        on.push(format!(
            "retry budget: {} of {MAX_TOKENS} tokens",
            decimal(f64::from(m.server.bucket.milli) / f64::from(MILLI), 1)
        ));
    }
    if x.backoff {
        on.push("exponential backoff with jitter".to_string());
    }
    if x.lifo {
        on.push("newest served first (LIFO)".to_string());
    }
    if x.deadline {
        on.push("requests past their deadline dropped".to_string());
    }
    if x.shed {
        on.push(format!("shedding at {} queued", m.config.shed_at));
    }
    on
}

pub fn timeline(m: &Metastable, layout: Layout) -> Figure {
    let width = layout.pick(720.0, NARROW_WIDTH);
    let height = 280.0;
    let history = m.history();
    let top = history
        .iter()
        .map(|r| r.offered().max(r.capacity))
        .max()
        .unwrap_or(0)
        .max(m.config.capacity)
        .max(m.config.rate) as f64;
    let top = (top * 1.1).ceil();
    let plot = Plot::new(
        (layout.pick(56.0, 48.0), 20.0, width - 14.0, height - 50.0),
        (0.0, f64::from(HORIZON), false),
        (0.0, top, false),
    );
    let x_ticks: Vec<(f64, String)> = (0..=HORIZON)
        .step_by(layout.pick(25, 50))
        .map(|t| (f64::from(t), t.to_string()))
        .collect();
    let mut f = Figure::new(
        "timeline",
        format!(
            "Requests a tick over the run, to tick {}: goodput, wasted work and offered load",
            m.tick()
        ),
        width,
        height,
    )
    .legend("done", "goodput: served in time")
    .legend("fault", "wasted: served after the client gave up")
    .legend("accent", "offered: new requests and retries");
    f.push(plot.axes(&x_ticks, &whole_ticks(top, 4), "tick", "requests a tick"));
    let trig = &m.config.trigger;
    let (x0, _) = plot.point((f64::from(trig.start), 0.0));
    let (x1, _) = plot.point((f64::from(trig.end()), 0.0));
    f.push(
        Shape::rect(
            "trigger",
            x0,
            plot.top,
            (x1 - x0).max(1.0),
            plot.bottom - plot.top,
        )
        .class("warn")
        .state(if trig.active(m.tick().saturating_sub(1)) {
            "active"
        } else {
            "idle"
        })
        .label(format!(
            "the trigger, ticks {} to {}",
            trig.start,
            trig.end().saturating_sub(1)
        ))
        .focus("trigger"),
    );
    let series = |f: fn(&demos::fabric::metastable::TickRecord) -> u32| -> Vec<(f64, f64)> {
        history
            .iter()
            .map(|r| (f64::from(r.tick), f64::from(f(r))))
            .collect()
    };
    f.push(
        plot.steps("offered", &series(|r| r.offered()), "accent")
            .focus("goodput-chart"),
    );
    f.push(
        plot.steps("wasted", &series(|r| r.wasted), "fault")
            .focus("goodput-chart"),
    );
    f.push(
        plot.steps("good", &series(|r| r.good), "done")
            .focus("goodput-chart"),
    );
    f
}

pub fn sweep(m: &Metastable, layout: Layout) -> Figure {
    let width = layout.pick(720.0, NARROW_WIDTH);
    let height = 300.0;
    let sw = m.sweep();
    let top_rate = sw.points.last().map_or(1, |p| p.rate);
    let top = f64::from(m.config.capacity) * 1.1;
    let plot = Plot::new(
        (layout.pick(56.0, 48.0), 20.0, width - 14.0, height - 50.0),
        (0.0, f64::from(top_rate), false),
        (0.0, top.ceil(), false),
    );
    let x_ticks = whole_ticks(f64::from(top_rate), layout.pick(8, 4));
    let mut f = Figure::new(
        "sweep-figure",
        format!(
            "Goodput a tick over the last ticks of whole runs, against the clients' new requests a tick, 0 to {top_rate}"
        ),
        width,
        height,
    )
    .legend("done", "from an empty queue, no trigger")
    .legend("fault", "after the trigger");
    f.push(plot.axes(
        &x_ticks,
        &whole_ticks(top.ceil(), 4),
        "new requests a tick",
        "goodput a tick",
    ));
    for (key, class, pick) in [
        (
            "calm",
            "done",
            (|p| p.calm) as fn(&demos::fabric::metastable::SweepPoint) -> f64,
        ),
        ("after", "fault", |p| p.after),
    ] {
        let points: Vec<(f64, f64)> = sw
            .points
            .iter()
            .map(|p| (f64::from(p.rate), pick(p)))
            .collect();
        let mut parts = vec![plot.series("line", &points, class)];
        for (p, xy) in sw.points.iter().zip(&points) {
            parts.push(plot.dot(&format!("p{}", p.rate), *xy, class).label(format!(
                "{} new a tick: goodput {}",
                p.rate,
                decimal(pick(p), 1)
            )));
        }
        f.push(Shape::group(key, parts).focus("sweep"));
    }
    f.push(
        plot.marker(
            "now-rate",
            f64::from(m.config.rate),
            format!("now: {}", m.config.rate),
            "accent",
        )
        .focus("sweep"),
    );
    f
}
