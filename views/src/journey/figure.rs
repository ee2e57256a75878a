//! The journey's waterfall: one row per stage on one time axis, the
//! message's clock, and the running total at the end of every stage. Every
//! number is the model's; this file only places them.

use crate::draw::text::{line_key, wrap_words};
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::Slot;
use crate::scene::{Figure, Shape, Size};
use demos::journey::{Journey, Path, StageId};
use demos::text::{ns, tenths};

/// Where the parts of a row go. Wide, a row is two lines: name, track and
/// figures; then the running total (or why the stage is off) and its demo.
/// Narrow, four lines, so every word keeps its size in 420 units.
struct Dims {
    width: f32,
    row_h: f32,
    /// Characters of 16-unit text on one line of the clock, and its lines kept.
    clock_chars: usize,
    clock_lines: usize,
    name_y: f32,
    track_x: f32,
    track_w: f32,
    track_y: f32,
    track_h: f32,
    figs_x: f32,
    figs_y: f32,
    /// The running total or the reason: start x and baseline.
    end_x: f32,
    end_y: f32,
    /// The demo the stage comes from: x, baseline, and whether it is
    /// anchored at its end (wide, right-aligned) or start.
    from_x: f32,
    from_y: f32,
    from_end: bool,
}

impl Dims {
    fn of(layout: Layout) -> Dims {
        layout.pick(
            Dims {
                width: 960.0,
                row_h: 52.0,
                clock_chars: 100,
                clock_lines: 2,
                name_y: 22.0,
                track_x: 390.0,
                track_w: 370.0,
                track_y: 6.0,
                track_h: 22.0,
                figs_x: 950.0,
                figs_y: 22.0,
                end_x: 10.0,
                end_y: 44.0,
                from_x: 950.0,
                from_y: 44.0,
                from_end: true,
            },
            Dims {
                width: NARROW_WIDTH,
                row_h: 86.0,
                clock_chars: 44,
                clock_lines: 3,
                name_y: 20.0,
                track_x: 8.0,
                track_w: 200.0,
                track_y: 28.0,
                track_h: 16.0,
                figs_x: NARROW_WIDTH - 8.0,
                figs_y: 42.0,
                end_x: 8.0,
                end_y: 62.0,
                from_x: 8.0,
                from_y: 79.0,
                from_end: false,
            },
        )
    }

    fn x_at(&self, t: u64, scale: u64) -> f32 {
        self.track_x + self.track_w * (t as f64 / scale.max(1) as f64) as f32
    }
}

/// Where the message is: the clock sentence.
pub fn clock_text(m: &Journey, path: &Path) -> String {
    let on: Vec<_> = path.on_path().collect();
    if m.passed == 0 {
        return format!(
            "Message clock t = 0 ns: {} byte{} wait in the sending application.",
            m.message_bytes,
            demos::text::plural(m.message_bytes)
        );
    }
    let clock = path.clock_after(m.passed);
    if m.passed >= on.len() {
        format!(
            "Message clock t = {}: the other application has the message.",
            ns(clock as i64)
        )
    } else {
        format!(
            "Message clock t = {}: the message has just finished “{}”.",
            ns(clock as i64),
            on[m.passed - 1].id.name()
        )
    }
}

/// What a row says about the walk: its state word and visible word.
fn walk_word(on_path: bool, index: Option<usize>, passed: usize) -> (&'static str, &'static str) {
    match index {
        _ if !on_path => ("off", ""),
        Some(i) if i + 1 < passed => ("passed", "✓ passed"),
        Some(i) if i + 1 == passed => ("here", "● message here"),
        _ => ("ahead", ""),
    }
}

/// The waterfall. `select(i)` is what clicking stage `i` of
/// [`StageId::ALL`] sends; `selected` is the stage picked.
pub fn waterfall(
    m: &Journey,
    path: &Path,
    selected: usize,
    layout: Layout,
    mut select: impl FnMut(usize) -> Slot,
) -> Figure {
    let d = Dims::of(layout);
    let top = 20.0 + 22.0 * d.clock_lines as f32 + 8.0;
    let height = top + d.row_h * path.stages.len() as f32 + 52.0;
    let scale = path.total_ns.max(1);
    let mut f = Figure::new(
        "journey",
        format!("The message's stages, {} in all", ns(path.total_ns as i64)),
        d.width,
        height,
    )
    // Sixteen rows: it scrolls with the page rather than shrink to fit
    // the window's height (static/app.css).
    .class("tall")
    .legend("driver", "CPU work")
    .legend("nic", "NIC, PCIe, wire or switch")
    .legend("done", "passed by the message")
    .legend("idle dashed", "off the path (reason given)");
    let clock = wrap_words(&clock_text(m, path), d.clock_chars);
    for (i, line) in clock.into_iter().enumerate() {
        f.push(
            Shape::text(line_key("clock", i), 0.0, 20.0 + 22.0 * i as f32, line)
                .start()
                .class("strong"),
        );
    }
    let starts = path.starts_ns();
    let drills = m.drills();
    let mut index = 0;
    for (n, s) in path.stages.iter().enumerate() {
        let start = starts[n];
        let y = top + d.row_h * n as f32;
        let at = s.on_path.then_some(index);
        let (state, word) = walk_word(s.on_path, at, m.passed);
        let kind = if s.id.cpu() { "driver" } else { "nic" };
        let colour = match state {
            "passed" | "here" => "done",
            "off" => "idle",
            _ => kind,
        };
        let chosen = StageId::ALL.get(selected) == Some(&s.id);
        let x0 = d.x_at(start, scale);
        let bar_w = if s.on_path {
            (d.x_at(start + s.ns, scale) - x0).max(2.0)
        } else {
            2.0
        };
        let figures = if s.on_path {
            format!("{} · {}", ns(s.ns as i64), tenths(path.share_tenths(s.id)))
        } else {
            format!("{} if on", ns(s.ns as i64))
        };
        let end_text = match &s.off_reason {
            Some(reason) => format!("off: {reason}"),
            None => {
                let ends = ns((start + s.ns) as i64);
                if word.is_empty() {
                    format!("ends at t = {ends}")
                } else {
                    format!("ends at t = {ends} {word}")
                }
            }
        };
        // The stage's demo in the journey's configuration: a link of its
        // own beside the row, which is a button (a link in a button would
        // be two controls in one).
        let drill = drills.iter().find(|(id, _)| *id == s.id).map(|(_, d)| d);
        let from = format!("from /{}", m.drill_demo(s.id));
        let mut from_shape =
            Shape::text(format!("{}-demo", s.id.key()), d.from_x, y + d.from_y, from)
                .size(Size::Small);
        if let Some(drill) = drill {
            from_shape = from_shape.link(drill.href());
        }
        from_shape = if d.from_end {
            from_shape.end()
        } else {
            from_shape.start()
        };
        let children = vec![
            // The row itself: every stage's is `journey-stage` (the keys
            // of a group's parts are its own), the stage's group its key.
            Shape::rect("journey-stage", 0.0, y + 1.0, d.width, d.row_h - 2.0)
                .class("hit")
                .class_if(chosen, "selected"),
            Shape::text("name", d.end_x, y + d.name_y, s.id.name())
                .start()
                .class_if(!s.on_path, "muted"),
            Shape::rect("track", d.track_x, y + d.track_y, d.track_w, d.track_h).class("track"),
            Shape::rect("bar", x0, y + d.track_y, bar_w, d.track_h)
                .class(colour)
                .class_if(s.on_path, "bar")
                .class_if(!s.on_path, "ghost")
                .class_if(state == "here", "thick"),
            Shape::text("cost", d.figs_x, y + d.figs_y, figures)
                .end()
                .mono()
                .size(Size::Small)
                .class("strong"),
            Shape::text("end", d.end_x, y + d.end_y, end_text)
                .start()
                .size(Size::Small)
                .class_if(s.on_path, "done tone"),
        ];
        f.push(
            Shape::group(s.id.key(), children)
                .class(kind)
                .class_if(chosen, "selected")
                .state(state)
                .focus(s.id.key())
                .on_click(select(n))
                .label(format!(
                    "{}: select to see what it costs and where its figures come from",
                    s.id.name()
                )),
        );
        f.push(from_shape);
        if s.on_path {
            index += 1;
        }
    }
    let bottom = top + d.row_h * path.stages.len() as f32;
    f.push(Shape::line("total-rule", (0.0, bottom + 8.0), (d.width, bottom + 8.0)).class("idle"));
    f.push(
        Shape::text("total-label", 0.0, bottom + 36.0, "End to end")
            .start()
            .size(Size::Title),
    );
    f.push(
        Shape::text("total", d.figs_x, bottom + 36.0, ns(path.total_ns as i64))
            .end()
            .mono()
            .size(Size::Large),
    );
    f
}
