//! SVG geometry shared by the views.

/// The point at `radius` and `degrees` (0° = up, clockwise) from the origin.
pub fn polar(radius: f64, degrees: f64) -> (f64, f64) {
    let rad = (degrees - 90.0).to_radians();
    (radius * rad.cos(), radius * rad.sin())
}

/// An annular sector between two radii and two angles, as an SVG path.
pub fn sector(inner: f64, outer: f64, from: f64, to: f64) -> String {
    let (x0, y0) = polar(outer, from);
    let (x1, y1) = polar(outer, to);
    let (x2, y2) = polar(inner, to);
    let (x3, y3) = polar(inner, from);
    let large = if to - from > 180.0 { 1 } else { 0 };
    format!(
        "M{x0:.1} {y0:.1} A{outer} {outer} 0 {large} 1 {x1:.1} {y1:.1} L{x2:.1} {y2:.1} A{inner} {inner} 0 {large} 0 {x3:.1} {y3:.1} Z"
    )
}
