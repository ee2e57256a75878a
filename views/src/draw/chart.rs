//! Charts: a plot area with linear or logarithmic scales, gridlines and
//! ticks, series drawn as lines, points and markers. Every value comes from
//! the caller (a model's numbers); tick labels come as text, so nothing here
//! formats a float.

use crate::draw::geometry::PathData;
use crate::scene::{Shape, Size};

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
        self.from + (self.to - self.from) * t.clamp(0.0, 1.0) as f32
    }
}

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
        for (i, (v, label)) in x_ticks.iter().enumerate() {
            let x = self.x.at(*v);
            shapes
                .push(Shape::line(format!("xg{i}"), (x, self.top), (x, self.bottom)).class("grid"));
            shapes.push(
                Shape::text(format!("xt{i}"), x, self.bottom + 20.0, label.clone())
                    .mono()
                    .size(Size::Small),
            );
        }
        for (i, (v, label)) in y_ticks.iter().enumerate() {
            let y = self.y.at(*v);
            shapes
                .push(Shape::line(format!("yg{i}"), (self.left, y), (self.right, y)).class("grid"));
            shapes.push(
                Shape::text(format!("yt{i}"), self.left - 8.0, y + 5.0, label.clone())
                    .end()
                    .mono()
                    .size(Size::Small),
            );
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
        let text = Shape::text(
            "label",
            if right_half { px - 6.0 } else { px + 6.0 },
            self.top + 16.0,
            label,
        )
        .class("tone")
        .size(Size::Small);
        let text = if right_half { text.end() } else { text.start() };
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
