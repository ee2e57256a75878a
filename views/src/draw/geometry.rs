//! Plane geometry for scenes, and path data written without the float
//! formatter.

use crate::page::svg::num;

/// The point at `radius` and `degrees` (0° = up, clockwise) from (`cx`, `cy`).
pub fn polar(cx: f32, cy: f32, radius: f32, degrees: f32) -> (f32, f32) {
    let (sin, cos) = sin_cos_degrees(degrees - 90.0);
    (cx + radius * cos, cy + radius * sin)
}

/// Sine and cosine of an angle in degrees, to about 1e-6: plenty for
/// drawing. Written out because libm's `sinf`/`cosf` bring a general range
/// reduction (~9 KiB of wasm) that angles on a picture never need.
pub fn sin_cos_degrees(degrees: f32) -> (f32, f32) {
    // Reduce to [-180, 180), then fold into [-90, 90] where the series is
    // accurate: sin(180 - a) = sin(a), cos(180 - a) = -cos(a).
    let mut a = degrees - 360.0 * ((degrees + 180.0) / 360.0).floor();
    let mut cos_sign = 1.0;
    if a > 90.0 {
        a = 180.0 - a;
        cos_sign = -1.0;
    } else if a < -90.0 {
        a = -180.0 - a;
        cos_sign = -1.0;
    }
    let x = a.to_radians();
    let x2 = x * x;
    // Taylor series to x^11 / x^10: error below (π/2)^12 / 12! ≈ 4e-7.
    let sin = x
        * (1.0
            - x2 / 6.0
                * (1.0 - x2 / 20.0 * (1.0 - x2 / 42.0 * (1.0 - x2 / 72.0 * (1.0 - x2 / 110.0)))));
    let cos = 1.0
        - x2 / 2.0 * (1.0 - x2 / 12.0 * (1.0 - x2 / 30.0 * (1.0 - x2 / 56.0 * (1.0 - x2 / 90.0))));
    (sin, cos_sign * cos)
}

/// Two points: where a segment starts and where it ends.
pub type Segment = [(f32, f32); 2];

/// SVG path data, built point by point. It remembers its first two and last
/// two points, so arrowheads can be drawn without parsing the text back.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PathData {
    text: String,
    first: Vec<(f32, f32)>,
    last: [(f32, f32); 2],
}

impl PathData {
    pub fn new() -> Self {
        PathData::default()
    }

    fn point(&mut self, p: (f32, f32)) {
        if self.first.len() < 2 {
            self.first.push(p);
        }
        self.last = [self.last[1], p];
    }

    fn command(mut self, c: char, points: &[(f32, f32)]) -> Self {
        self.text.push(c);
        for (i, (x, y)) in points.iter().enumerate() {
            if i > 0 {
                self.text.push(' ');
            }
            self.text.push_str(&num(*x));
            self.text.push(' ');
            self.text.push_str(&num(*y));
            self.point((*x, *y));
        }
        self
    }

    pub fn move_to(self, x: f32, y: f32) -> Self {
        self.command('M', &[(x, y)])
    }

    pub fn line_to(self, x: f32, y: f32) -> Self {
        self.command('L', &[(x, y)])
    }

    /// A quadratic curve through control point (`cx`, `cy`).
    pub fn quad_to(self, cx: f32, cy: f32, x: f32, y: f32) -> Self {
        self.command('Q', &[(cx, cy), (x, y)])
    }

    /// A cubic curve through control points `c1` and `c2` to `to`.
    pub fn curve_to(self, c1: (f32, f32), c2: (f32, f32), to: (f32, f32)) -> Self {
        self.command('C', &[c1, c2, to])
    }

    /// A circular arc of `radius` to (`x`, `y`).
    pub fn arc_to(mut self, radius: f32, large: bool, clockwise: bool, x: f32, y: f32) -> Self {
        let r = num(radius);
        self.point((x, y));
        self.text.push_str(&format!(
            "A{r} {r} 0 {} {} {} {}",
            u8::from(large),
            u8::from(clockwise),
            num(x),
            num(y)
        ));
        self
    }

    pub fn close(mut self) -> Self {
        self.text.push('Z');
        self
    }

    /// (first point, the one after it) and (the one before the last, last).
    pub fn ends(&self) -> (Segment, Segment) {
        let a = self.first.first().copied().unwrap_or_default();
        let b = self.first.get(1).copied().unwrap_or(a);
        ([a, b], self.last)
    }

    pub fn build(self) -> String {
        self.text
    }
}

/// An annular sector around (`cx`, `cy`) between two radii and two angles.
pub fn sector(cx: f32, cy: f32, inner: f32, outer: f32, from: f32, to: f32) -> PathData {
    let (x0, y0) = polar(cx, cy, outer, from);
    let (x1, y1) = polar(cx, cy, outer, to);
    let (x2, y2) = polar(cx, cy, inner, to);
    let (x3, y3) = polar(cx, cy, inner, from);
    let large = to - from > 180.0;
    PathData::new()
        .move_to(x0, y0)
        .arc_to(outer, large, true, x1, y1)
        .line_to(x2, y2)
        .arc_to(inner, large, false, x3, y3)
        .close()
}

#[cfg(test)]
mod tests {

    #[test]
    fn sin_cos_agree_with_libm_all_round_the_circle() {
        for tenth in -7200..7200 {
            let degrees = tenth as f32 / 10.0;
            let (sin, cos) = super::sin_cos_degrees(degrees);
            let rad = f64::from(degrees).to_radians();
            assert!((f64::from(sin) - rad.sin()).abs() < 2e-6, "sin {degrees}");
            assert!((f64::from(cos) - rad.cos()).abs() < 2e-6, "cos {degrees}");
        }
    }

    use super::*;

    #[test]
    fn polar_measures_clockwise_from_twelve_o_clock() {
        let (x, y) = polar(0.0, 0.0, 10.0, 90.0);
        assert!((x - 10.0).abs() < 1e-4 && y.abs() < 1e-4);
        let (x, y) = polar(5.0, 5.0, 10.0, 0.0);
        assert!((x - 5.0).abs() < 1e-4 && (y + 5.0).abs() < 1e-4);
    }

    #[test]
    fn path_data_is_compact_text() {
        let d = PathData::new()
            .move_to(0.0, 1.5)
            .line_to(10.0, -2.0)
            .close();
        assert_eq!(d.build(), "M0 1.5L10 -2Z");
    }
}
