//! A time axis with labelled lanes of bars (MMIO write vs read, cut-through):
//! every time comes from a model; this file maps times to x and clips bars
//! at the clock, so the picture shows only what has happened so far.

use crate::draw::text::{inside, lines_of, pieces_as_lines, small_width};
use crate::layout::{Layout, NARROW_WIDTH};
use crate::scene::{Shape, Size};
use demos::text::decimal;

/// Where the lanes sit across a drawing, in one layout.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Span {
    /// Width of the drawing.
    pub width: f32,
    /// Where lanes start and end.
    pub left: f32,
    pub right: f32,
    /// Room a lane needs above it for its name: none where names sit in a
    /// column left of the lanes.
    pub name_room: f32,
    /// At most this many ticks along the time axis.
    pub ticks: f64,
}

/// Laptops: lane names in a column on the left, the lanes to its right.
pub const WIDE: Span = Span {
    width: 960.0,
    left: 170.0,
    right: 930.0,
    name_room: 0.0,
    ticks: 7.0,
};

/// Phones: no room for a names column, so each name sits above its lane
/// and the lanes take the whole width, less half a tick label at each end
/// (a tick's time is centred on it). Fewer ticks, so their labels keep apart.
pub const NARROW: Span = Span {
    width: NARROW_WIDTH,
    left: 32.0,
    right: 392.0,
    name_room: 18.0,
    ticks: 5.0,
};

/// A name above its lane starts this far in, clear of the line at time 0.
const NAME_INSET: f32 = 4.0;

impl Span {
    pub fn of(layout: Layout) -> Span {
        layout.pick(WIDE, NARROW)
    }

    /// Lane names sit above the lanes rather than left of them.
    pub fn names_above(self) -> bool {
        self.name_room > 0.0
    }
}

/// Maps times in `0..=end` onto the lanes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Axis {
    pub end: f64,
    /// Where the lanes sit.
    pub span: Span,
}

/// One bar on a lane. `track` stacks overlapping bars inside the lane.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub start: f64,
    pub end: f64,
    pub class: &'static str,
    pub label: String,
    pub track: usize,
}

impl Axis {
    /// An axis in the wide layout.
    pub fn new(end: f64) -> Self {
        Axis::laid_out(end, Layout::Wide)
    }

    /// An axis whose lanes are placed for `layout`.
    pub fn laid_out(end: f64, layout: Layout) -> Self {
        Axis {
            end: if end > 0.0 { end } else { 1.0 },
            span: Span::of(layout),
        }
    }

    pub fn x(self, t: f64) -> f32 {
        let Span { left, right, .. } = self.span;
        left + (right - left) * demos::float::clamped(t / self.end, 0.0, 1.0) as f32
    }

    /// The name of a lane (or of a row like it) whose top is at `y` and
    /// whose height is `height`: left of it, or above it on a phone.
    pub fn name(self, key: &str, y: f32, height: f32, name: &str) -> Shape {
        let Span { left, .. } = self.span;
        let text = if self.span.names_above() {
            Shape::text(key, left + NAME_INSET, y - 5.0, name).start()
        } else {
            Shape::text(key, left - 10.0, y + height / 2.0 + 5.0, name).end()
        };
        text.class("muted")
    }

    /// Round tick spacing: 1, 2 or 5 × 10ⁿ, at most `max_ticks` ticks.
    pub fn tick_step(self, max_ticks: f64) -> f64 {
        let raw = self.end / max_ticks;
        // The power of ten at or below `raw`, by multiplying (libm's pow and
        // log10 would cost ~3 KiB of wasm).
        let mut power = 1.0;
        while power * 10.0 <= raw {
            power *= 10.0;
        }
        while power > raw && power > 1e-9 {
            power /= 10.0;
        }
        [1.0, 2.0, 5.0, 10.0]
            .into_iter()
            .map(|m| m * power)
            .find(|step| *step >= raw)
            .unwrap_or(10.0 * power)
    }

    /// A tick's label at `x`: centred on its line, unless that would cross
    /// the figure's edge, where it is anchored inside.
    pub fn tick_label(self, key: String, x: f32, y: f32, label: String) -> Shape {
        let width = small_width(&label);
        let text = Shape::text(key, x, y, label).mono().size(Size::Small);
        inside(text, x, width, (0.0, self.span.width)).0
    }

    /// The time axis along the top, with gridlines down to `bottom`.
    pub fn ticks(self, y: f32, bottom: f32, unit: &str) -> Shape {
        let step = self.tick_step(self.span.ticks);
        let decimals = if step >= 1.0 {
            0
        } else if step >= 0.1 {
            1
        } else {
            2
        };
        let count = (self.end / step).floor() as usize;
        let shapes = (0..=count)
            .flat_map(|i| {
                let t = i as f64 * step;
                let x = self.x(t);
                [
                    Shape::line(format!("g{i}"), (x, y + 6.0), (x, bottom)).class("grid"),
                    self.tick_label(
                        format!("t{i}"),
                        x,
                        y,
                        format!("{} {unit}", decimal(t, decimals)),
                    ),
                ]
            })
            .collect();
        Shape::group("axis", shapes)
    }

    /// A lane: its name on the left, a track, its bars clipped at `now`.
    pub fn lane(self, key: &str, y: f32, height: f32, name: &str, bars: &[Bar], now: f64) -> Shape {
        let tracks = bars.iter().map(|b| b.track + 1).max().unwrap_or(1) as f32;
        let bar_h = (height - 4.0) / tracks;
        let Span { left, right, .. } = self.span;
        let mut shapes = vec![
            self.name("name", y, height, name),
            Shape::rect("track", left, y, right - left, height)
                .class("track")
                .rounded(2.0),
        ];
        for (i, b) in bars.iter().enumerate().filter(|(_, b)| b.start < now) {
            let x = self.x(b.start);
            let w = (self.x(b.end.min(now)) - x).max(1.0);
            let top = y + 2.0 + b.track as f32 * bar_h;
            let mut bar = vec![Shape::rect("r", x, top, w, bar_h - 1.0)
                .rounded(2.0)
                .class("bar")];
            let fits = w > b.label.chars().count() as f32 * 7.5 + 6.0 && bar_h >= 14.0;
            if fits {
                bar.push(
                    Shape::text("t", x + w / 2.0, top + bar_h / 2.0 + 4.5, b.label.clone())
                        .mono()
                        .size(Size::Small),
                );
            }
            shapes.push(
                Shape::group(format!("b{i}"), bar)
                    .class(b.class)
                    .label(b.label.clone()),
            );
        }
        Shape::group(key, shapes).focus(key)
    }

    /// A labelled vertical line at time `t` from `y0` to `y1`; the label sits
    /// at `label_y`, on whichever side has room.
    pub fn marker(
        self,
        key: &str,
        t: f64,
        (y0, y1): (f32, f32),
        label_y: f32,
        label: String,
        class: &str,
    ) -> Shape {
        let x = self.x(t);
        // A label is up to about 200 units long.
        let right = x > self.span.right - 200.0;
        let text = Shape::text(
            "label",
            if right { x - 5.0 } else { x + 5.0 },
            label_y,
            label,
        )
        .mono()
        .size(Size::Small)
        .class("tone");
        Shape::group(
            key,
            vec![
                Shape::line("line", (x, y0), (x, y1)).class("dashed"),
                if right { text.end() } else { text.start() },
            ],
        )
        .class(class)
    }

    /// The clock: where "now" is.
    pub fn cursor(self, now: f64, y0: f32, y1: f32) -> Shape {
        let x = self.x(now);
        Shape::line("cursor", (x, y0), (x, y1)).class("accent thick")
    }
}

/// A section heading in the names column.
pub fn heading(key: &str, y: f32, text: String) -> Shape {
    Shape::text(key, 8.0, y, text).start().class("strong")
}

/// Text that is one line in the wide layout (`first`, `sep`, `rest`) and
/// two on a phone (`first`, then `rest`), `pitch` apart: text shapes `key`
/// and `key-2`, anchored at their start.
pub fn wrapped(
    key: &str,
    at: (f32, f32),
    pitch: f32,
    (first, sep, rest): (&str, &str, &str),
    layout: Layout,
) -> Vec<Shape> {
    let pieces = vec![first.to_string(), rest.to_string()];
    lines_of(
        key,
        at,
        pitch,
        pieces_as_lines(layout.is_narrow(), pieces, sep),
    )
    .into_iter()
    .map(Shape::start)
    .collect()
}

/// Assigns each span a track so that overlapping spans do not share one; at
/// most `max` tracks (then the one freeing first is reused).
pub fn assign_tracks(spans: &[(f64, f64)], max: usize) -> Vec<usize> {
    let mut ends: Vec<f64> = Vec::new();
    spans
        .iter()
        .map(|&(start, end)| {
            let track = match ends.iter().position(|&e| e <= start) {
                Some(i) => i,
                None if ends.len() < max => {
                    ends.push(f64::MIN);
                    ends.len() - 1
                }
                None => {
                    let mut best = 0;
                    for (i, e) in ends.iter().enumerate() {
                        if *e < ends[best] {
                            best = i;
                        }
                    }
                    best
                }
            };
            ends[track] = end;
            track
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_steps_are_round() {
        assert_eq!(Axis::new(3300.0).tick_step(7.0), 500.0);
        assert_eq!(Axis::new(100.0).tick_step(7.0), 20.0);
        assert_eq!(Axis::new(7.0).tick_step(7.0), 1.0);
    }

    #[test]
    fn on_a_phone_a_lanes_name_sits_above_it_and_the_lane_fits() {
        let axis = Axis::laid_out(100.0, Layout::Narrow);
        let lane = axis.lane("l", 40.0, 30.0, "PCIe → NIC", &[], 0.0);
        let (name, track) = (&lane.children()[0], &lane.children()[1]);
        match (&name.kind, &track.kind) {
            (
                crate::scene::Kind::Text { x, y, anchor, .. },
                crate::scene::Kind::Rect { x: tx, w, .. },
            ) => {
                assert!(*y < 40.0, "above the track");
                assert_eq!(*anchor, crate::scene::Anchor::Start);
                assert!(*x >= *tx);
                assert!(tx + w <= NARROW_WIDTH);
            }
            _ => panic!("a name and a track"),
        }
        assert_eq!(axis.x(100.0), NARROW.right);
    }

    #[test]
    fn a_wrapped_caption_is_one_line_wide_and_two_on_a_phone() {
        let text = |layout| {
            wrapped("c", (0.0, 0.0), 20.0, ("a", " · ", "b"), layout)
                .iter()
                .map(|s| (s.key.clone(), s.text_content().unwrap().to_string()))
                .collect::<Vec<_>>()
        };
        assert_eq!(text(Layout::Wide), [("c".into(), "a · b".into())]);
        assert_eq!(
            text(Layout::Narrow),
            [("c".into(), "a".into()), ("c-2".into(), "b".into())]
        );
    }

    #[test]
    fn overlapping_spans_take_separate_tracks() {
        let spans = [(0.0, 10.0), (5.0, 15.0), (10.0, 20.0), (16.0, 30.0)];
        assert_eq!(assign_tracks(&spans, 4), vec![0, 1, 0, 1]);
        assert_eq!(
            assign_tracks(&[(0.0, 9.0), (1.0, 9.0), (2.0, 9.0)], 2),
            vec![0, 1, 0]
        );
    }

    #[test]
    fn bars_after_the_clock_are_not_drawn_and_bars_across_it_are_cut() {
        let axis = Axis::new(100.0);
        let bars = [
            Bar {
                start: 0.0,
                end: 60.0,
                class: "nic",
                label: "a".into(),
                track: 0,
            },
            Bar {
                start: 70.0,
                end: 90.0,
                class: "nic",
                label: "b".into(),
                track: 0,
            },
        ];
        let lane: Shape = axis.lane("l", 0.0, 30.0, "lane", &bars, 50.0);
        assert_eq!(lane.children().len(), 3, "name, track and one bar");
        let bar = &lane.children()[2].children()[0];
        match bar.kind {
            crate::scene::Kind::Rect { w, .. } => {
                assert!((w - (axis.x(50.0) - axis.x(0.0))).abs() < 0.01)
            }
            _ => panic!("a rect"),
        }
    }
}
