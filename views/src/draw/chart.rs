//! Charts: a plot area with linear or logarithmic scales, gridlines and
//! ticks, series drawn as lines, points and markers. Every value comes from
//! the caller (a model's numbers); tick labels come as text, so nothing here
//! formats a float.

use crate::draw::geometry::PathData;
use crate::draw::lanes::Axis;
use crate::draw::text::{inside, small_width};
use crate::scene::{Shape, Size};
use demos::text::{decimal, duration};

/// Maps values onto one axis of the plot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale {
    lo: f64,
    hi: f64,
    log: bool,
    /// Coordinate of `lo` and of `hi` (for y, `from` is the bottom).
    from: f32,
    to: f32,
}

impl Scale {
    pub fn linear(lo: f64, hi: f64, from: f32, to: f32) -> Self {
        let hi = if hi > lo { hi } else { lo + 1.0 };
        Scale {
            lo,
            hi,
            log: false,
            from,
            to,
        }
    }

    /// A base-10 logarithmic scale; `lo` must be positive.
    pub fn log(lo: f64, hi: f64, from: f32, to: f32) -> Self {
        let lo = lo.max(f64::MIN_POSITIVE);
        let hi = if hi > lo { hi } else { lo * 10.0 };
        Scale {
            lo,
            hi,
            log: true,
            from,
            to,
        }
    }

    /// Where `v` falls, clamped to the axis.
    pub fn at(&self, v: f64) -> f32 {
        let t = if self.log {
            (v.max(self.lo).log10() - self.lo.log10()) / (self.hi.log10() - self.lo.log10())
        } else {
            (v - self.lo) / (self.hi - self.lo)
        };
        self.from + (self.to - self.from) * demos::float::clamped(t, 0.0, 1.0) as f32
    }
}

/// The least room between two tick labels, in figure units.
const LABEL_GAP: f32 = 6.0;
/// A line of small text under a gridline, in figure units.
const TOP_LABEL_ROOM: f32 = 16.0;

/// A plot area and its two scales.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plot {
    pub x: Scale,
    pub y: Scale,
    pub left: f32,
    pub right: f32,
    pub top: f32,
    pub bottom: f32,
}

impl Plot {
    /// A plot in the box (`left`, `top`)–(`right`, `bottom`) over the given ranges.
    pub fn new(
        (left, top, right, bottom): (f32, f32, f32, f32),
        x: (f64, f64, bool),
        y: (f64, f64, bool),
    ) -> Self {
        let scale = |(lo, hi, log): (f64, f64, bool), from, to| {
            if log {
                Scale::log(lo, hi, from, to)
            } else {
                Scale::linear(lo, hi, from, to)
            }
        };
        Plot {
            x: scale(x, left, right),
            y: scale(y, bottom, top),
            left,
            right,
            top,
            bottom,
        }
    }

    pub fn point(&self, (x, y): (f64, f64)) -> (f32, f32) {
        (self.x.at(x), self.y.at(y))
    }

    /// Gridlines, tick labels and axis titles.
    pub fn axes(
        &self,
        x_ticks: &[(f64, String)],
        y_ticks: &[(f64, String)],
        x_title: &str,
        y_title: &str,
    ) -> Shape {
        let mut shapes = Vec::new();
        let labels = self.x_labels(x_ticks);
        for (i, (v, _)) in x_ticks.iter().enumerate() {
            let x = self.x.at(*v);
            shapes
                .push(Shape::line(format!("xg{i}"), (x, self.top), (x, self.bottom)).class("grid"));
        }
        shapes.extend(labels);
        for (i, (v, label)) in y_ticks.iter().enumerate() {
            let y = self.y.at(*v);
            shapes
                .push(Shape::line(format!("yg{i}"), (self.left, y), (self.right, y)).class("grid"));
            // Left of the axis when the margin holds it; else just inside
            // the plot, over its gridline (measured at the largest size a
            // screen may draw it, as the x labels are).
            let text = if small_width(label) + 8.0 <= self.left {
                Shape::text(format!("yt{i}"), self.left - 8.0, y + 5.0, label.clone()).end()
            } else {
                // Over the line; under it at the top, where the axis's
                // title stands above.
                let below = y <= self.top + TOP_LABEL_ROOM;
                let ty = if below { y + TOP_LABEL_ROOM } else { y - 4.0 };
                Shape::text(format!("yt{i}"), self.left + 4.0, ty, label.clone()).start()
            };
            shapes.push(text.mono().size(Size::Small));
        }
        shapes.push(
            Shape::line(
                "x-axis",
                (self.left, self.bottom),
                (self.right, self.bottom),
            )
            .class("idle"),
        );
        shapes.push(
            Shape::line("y-axis", (self.left, self.top), (self.left, self.bottom)).class("idle"),
        );
        shapes.push(Shape::text(
            "x-title",
            (self.left + self.right) / 2.0,
            self.bottom + 44.0,
            x_title,
        ));
        if !y_title.is_empty() {
            shapes.push(
                Shape::text("y-title", self.left, self.top - 12.0, y_title)
                    .start()
                    .size(Size::Small),
            );
        }
        Shape::group("axes", shapes)
    }

    /// The x ticks' labels that fit. A label that would cross the plot's
    /// side reads inward (`draw::text::inside`): centred, the first would
    /// run into the y axis's lowest label and the last past the figure's
    /// edge. A label that would run into the one before it is left out (its
    /// gridline stays); the last one is kept, and the one before it gives
    /// way. Widths are as large as a screen may draw the text.
    fn x_labels(&self, x_ticks: &[(f64, String)]) -> Vec<Shape> {
        // Each kept label and its extent.
        let mut kept: Vec<(Shape, f32, f32)> = Vec::new();
        for (i, (v, label)) in x_ticks.iter().enumerate() {
            let x = self.x.at(*v);
            let text = Shape::text(format!("xt{i}"), x, self.bottom + 20.0, label.clone())
                .mono()
                .size(Size::Small);
            let (text, lo, hi) = inside(text, x, small_width(label), (self.left, self.right));
            let last = i + 1 == x_ticks.len();
            while last && kept.len() > 1 && kept.last().is_some_and(|k| k.2 + LABEL_GAP > lo) {
                kept.pop();
            }
            if kept.last().is_none_or(|k| k.2 + LABEL_GAP <= lo) {
                kept.push((text, lo, hi));
            }
        }
        kept.into_iter().map(|(text, ..)| text).collect()
    }

    /// A series through the points, in order.
    pub fn series(&self, key: &str, points: &[(f64, f64)], class: &str) -> Shape {
        let mut d = PathData::new();
        for (i, p) in points.iter().enumerate() {
            let (x, y) = self.point(*p);
            d = if i == 0 {
                d.move_to(x, y)
            } else {
                d.line_to(x, y)
            };
        }
        Shape::path(key, d).class("line").class(class)
    }

    /// A series drawn as steps (a value holds until the next point).
    pub fn steps(&self, key: &str, points: &[(f64, f64)], class: &str) -> Shape {
        let mut d = PathData::new();
        let mut last_y = None;
        for (i, p) in points.iter().enumerate() {
            let (x, y) = self.point(*p);
            d = match (i, last_y) {
                (0, _) => d.move_to(x, y),
                (_, Some(ly)) => d.line_to(x, ly).line_to(x, y),
                _ => d.line_to(x, y),
            };
            last_y = Some(y);
        }
        Shape::path(key, d).class("line").class(class)
    }

    /// A dot at a data point.
    pub fn dot(&self, key: &str, p: (f64, f64), class: &str) -> Shape {
        let (x, y) = self.point(p);
        Shape::circle(key, x, y, 6.0).class("dot").class(class)
    }

    /// A labelled vertical marker at `x`; the label sits inside the plot,
    /// on the side with room.
    pub fn marker(&self, key: &str, x: f64, label: String, class: &str) -> Shape {
        let px = self.x.at(x);
        let right_half = px > (self.left + self.right) / 2.0;
        // Where that half is too narrow for the label (a phone), it slides
        // towards the middle until it is inside the plot.
        let width = small_width(&label);
        let (lo, hi) = if right_half {
            (px - 6.0 - width, px - 6.0)
        } else {
            (px + 6.0, px + 6.0 + width)
        };
        let shift = (self.right - hi).min(0.0) + (self.left - lo).max(0.0);
        let text = Shape::text("label", lo + shift, self.top + 16.0, label)
            .class("tone")
            .size(Size::Small)
            .start();
        Shape::group(
            key,
            vec![
                Shape::line("line", (px, self.top), (px, self.bottom)).class("dashed"),
                text,
            ],
        )
        .class(class)
    }
}

/// Ticks along a time axis that starts at `t0` and spans `span` ns: whole
/// nanoseconds at a round spacing (1, 2 or 5 × 10ⁿ, at most `max_ticks`
/// steps), each labelled with its time from `t0`. A span of nothing (a run
/// that has not started) counts as one nanosecond, so the ticks are always
/// at least two, increasing, with distinct labels: never "0 ns … 0 ns 1 ns".
pub fn time_ticks(t0: u64, span: u64, max_ticks: f64) -> Vec<(f64, String)> {
    let span = span.max(1);
    // A spacing under a nanosecond would repeat labels: time is whole ns.
    let step = (Axis::new(span as f64).tick_step(max_ticks) as u64).max(1);
    (0..=span / step)
        .map(|i| {
            let t = i * step;
            (t0.saturating_add(t) as f64, duration(t))
        })
        .collect()
}

/// Ticks from 0 to `top` in `steps` equal whole-number steps (fewer when
/// rounding the step up passes `top`), labelled with their value.
pub fn whole_ticks(top: f64, steps: u32) -> Vec<(f64, String)> {
    let step = (top / f64::from(steps)).ceil().max(1.0);
    (0..=steps)
        .map(|i| f64::from(i) * step)
        .filter(|v| *v <= top + 0.5)
        .map(|v| (v, decimal(v, 0)))
        .collect()
}

/// Decade ticks from `lo` to `hi` (both powers of ten), labelled by `label`.
pub fn decades(lo: f64, hi: f64, label: impl Fn(f64) -> String) -> Vec<(f64, String)> {
    let mut out = Vec::new();
    let mut v = lo;
    while v <= hi * 1.0001 {
        out.push((v, label(v)));
        v *= 10.0;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scales_map_ends_and_clamp() {
        let lin = Scale::linear(0.0, 10.0, 100.0, 200.0);
        assert_eq!(lin.at(5.0), 150.0);
        assert_eq!(lin.at(-3.0), 100.0);
        let log = Scale::log(1.0, 1000.0, 0.0, 300.0);
        assert!((log.at(10.0) - 100.0).abs() < 1e-3);
        assert_eq!(log.at(0.0), 0.0, "non-positive values sit at the low end");
    }

    /// A tick label read back in nanoseconds: "850 ns", "12.0 µs", "1.24 s".
    fn label_ns(label: &str) -> f64 {
        let (number, unit) = label.split_once(' ').unwrap();
        let value: f64 = number.replace(',', "").parse().unwrap();
        let scale = match unit {
            "ns" => 1.0,
            "µs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            other => panic!("unit {other}"),
        };
        value * scale
    }

    fn assert_sensible(t0: u64, span: u64) {
        let ticks = time_ticks(t0, span, 6.0);
        assert!(ticks.len() >= 2, "{span}: {ticks:?}");
        assert!(ticks.len() <= 7, "{span}: {ticks:?}");
        assert_eq!(ticks[0], (t0 as f64, "0 ns".to_string()));
        for pair in ticks.windows(2) {
            assert!(pair[0].0 < pair[1].0, "{span}: {ticks:?}");
            assert_ne!(pair[0].1, pair[1].1, "{span}: {ticks:?}");
            assert!(
                label_ns(&pair[0].1) < label_ns(&pair[1].1),
                "{span}: {ticks:?}"
            );
        }
        // The last tick is within the span (or its one nanosecond).
        assert!(ticks.last().unwrap().0 <= (t0 + span.max(1)) as f64);
    }

    #[test]
    fn time_ticks_increase_with_distinct_labels_even_for_no_time_at_all() {
        assert_eq!(
            time_ticks(5, 0, 6.0),
            vec![(5.0, "0 ns".to_string()), (6.0, "1 ns".to_string())]
        );
        for span in (0..3_000).chain([
            999_999,
            1_000_000,
            1_234_567,
            999_999_999,
            1_000_000_000,
            60_000_000_000,
        ]) {
            assert_sensible(0, span);
        }
    }

    proptest::proptest! {
        #[test]
        fn time_ticks_are_sensible_for_any_run(t0 in 0u64..1 << 40, span in 0u64..1 << 42, small in 0u64..20_000) {
            assert_sensible(t0, span);
            assert_sensible(t0, small);
        }
    }

    #[test]
    fn y_grows_upwards() {
        let plot: Plot = Plot::new(
            (50.0, 10.0, 450.0, 210.0),
            (0.0, 1.0, false),
            (0.0, 1.0, false),
        );
        assert_eq!(plot.point((0.0, 0.0)), (50.0, 210.0));
        assert_eq!(plot.point((1.0, 1.0)), (450.0, 10.0));
    }
}

#[cfg(test)]
mod axis_label_tests {
    //! Tick labels that a small screen would crowd or push out.
    use super::*;
    use crate::scene::{Anchor, Kind};

    /// Each label's text and extent, as `x_labels` measures it.
    fn extents(plot: &Plot, ticks: &[(f64, String)]) -> Vec<(String, f32, f32)> {
        plot.x_labels(ticks)
            .into_iter()
            .map(|s| match s.kind {
                Kind::Text {
                    x, text, anchor, ..
                } => {
                    let len = small_width(&text);
                    let lo = match anchor {
                        Anchor::Start => x,
                        Anchor::End => x - len,
                        Anchor::Middle => x - len / 2.0,
                    };
                    (text, lo, lo + len)
                }
                _ => panic!("a tick label is text"),
            })
            .collect()
    }

    #[test]
    fn crowded_tick_labels_give_way_and_the_ends_read_inward() {
        let plot = Plot::new(
            (40.0, 10.0, 400.0, 200.0),
            (0.0, 40.0, false),
            (0.0, 1.0, false),
        );
        let ticks: Vec<(f64, String)> = (0..=8)
            .map(|i| (i as f64 * 5.0, format!("{}.0 ms", i * 5)))
            .collect();
        let kept = extents(&plot, &ticks);
        assert_eq!(kept.first().unwrap().0, "0.0 ms");
        assert_eq!(kept.last().unwrap().0, "40.0 ms");
        assert!(kept.len() < ticks.len(), "{kept:?}");
        assert!(kept.first().unwrap().1 >= plot.left);
        assert!(kept.last().unwrap().2 <= plot.right);
        for pair in kept.windows(2) {
            assert!(pair[0].2 + LABEL_GAP <= pair[1].1, "{pair:?}");
        }
        // With room, every label stays.
        let wide = Plot::new(
            (40.0, 10.0, 1400.0, 200.0),
            (0.0, 40.0, false),
            (0.0, 1.0, false),
        );
        assert_eq!(extents(&wide, &ticks).len(), ticks.len());
    }

    /// The y tick labels' anchors and x, by label.
    fn y_labels(plot: &Plot, ticks: &[(f64, String)]) -> Vec<(String, Anchor, f32)> {
        let Kind::Group { children, .. } = plot.axes(&[], ticks, "x", "").kind else {
            panic!("the axes are a group");
        };
        children
            .into_iter()
            .filter(|c| c.key.starts_with("yt"))
            .map(|c| match c.kind {
                Kind::Text {
                    x, text, anchor, ..
                } => (text, anchor, x),
                _ => panic!("a tick label is text"),
            })
            .collect()
    }

    #[test]
    fn a_y_label_the_margin_cannot_hold_goes_inside_the_plot() {
        let ticks = vec![(0.0, "0".to_string()), (1.0, "100.0 µs".to_string())];
        let narrow = Plot::new(
            (40.0, 10.0, 400.0, 200.0),
            (0.0, 1.0, false),
            (0.0, 1.0, false),
        );
        let labels = y_labels(&narrow, &ticks);
        assert!(matches!(labels[0], (_, Anchor::End, x) if x == 32.0));
        assert!(matches!(labels[1], (_, Anchor::Start, x) if x == 44.0));
        let roomy = Plot::new(
            (90.0, 10.0, 400.0, 200.0),
            (0.0, 1.0, false),
            (0.0, 1.0, false),
        );
        assert!(y_labels(&roomy, &ticks).iter().all(|l| l.1 == Anchor::End));
    }

    #[test]
    fn a_marker_label_too_long_for_its_side_slides_inside_the_plot() {
        let plot = Plot::new(
            (40.0, 10.0, 400.0, 200.0),
            (0.0, 1.0, false),
            (0.0, 1.0, false),
        );
        for x in [0.0, 0.3, 0.7, 1.0] {
            let label = "unpipelined crossover 108.5 KiB";
            let Kind::Group { children, .. } = plot.marker("m", x, label.into(), "").kind else {
                panic!("a marker is a group");
            };
            let Kind::Text { x: lo, anchor, .. } = children[1].kind else {
                panic!("its label is text");
            };
            assert_eq!(anchor, Anchor::Start);
            assert!(
                lo >= plot.left && lo + small_width(label) <= plot.right,
                "{x}: {lo}"
            );
        }
    }
}
