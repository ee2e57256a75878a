//! Small builders the CPU pictures share, so each call site stays one call
//! (the wasm grows with call sites, not with loops).

use crate::live::Slot;
use crate::scene::{Shape, Size};
use crate::Control;
use demos::{Bound, Quantity};

pub const START: u8 = 1;
pub const END: u8 = 2;
pub const MONO: u8 = 4;
pub const SMALL: u8 = 8;
pub const LARGE: u8 = 16;
pub const TITLE: u8 = 32;
pub const STRONG: u8 = 64;
pub const TONE: u8 = 128;

/// A text shape with its look as flags: `text("k", 10.0, 20.0, s, START | MONO)`.
#[inline(never)]
pub fn text(key: &str, x: f32, y: f32, text: String, style: u8) -> Shape {
    let mut s = Shape::text(key, x, y, text);
    if style & START != 0 {
        s = s.start();
    }
    if style & END != 0 {
        s = s.end();
    }
    if style & MONO != 0 {
        s = s.mono();
    }
    s = s.size(match style {
        _ if style & SMALL != 0 => Size::Small,
        _ if style & LARGE != 0 => Size::Large,
        _ if style & TITLE != 0 => Size::Title,
        _ => Size::Normal,
    });
    s.class_if(style & STRONG != 0, "strong")
        .class_if(style & TONE != 0, "tone")
}

/// A rect with square-ish corners.
#[inline(never)]
pub fn rect(key: &str, x: f32, y: f32, w: f32, h: f32, class: &str) -> Shape {
    Shape::rect(key, x, y, w, h).rounded(3.0).class(class)
}

/// A group with its class and state; when `named`, readers hear
/// "key: state".
#[inline(never)]
pub fn part(key: String, children: Vec<Shape>, class: &str, state: String, named: bool) -> Shape {
    let label = named.then(|| format!("{key}: {state}"));
    let g = Shape::group(key, children).class(class).state(state);
    match label {
        Some(l) => g.label(l),
        None => g,
    }
}

/// A power-of-two setting as a slider over its exponent, showing the value.
#[inline(never)]
pub fn pow2(
    id: &str,
    label: &str,
    value: u64,
    (lo, hi): (u32, u32),
    unit: &str,
    send: Slot,
) -> Control {
    let exp = i64::from(value.trailing_zeros());
    Control::slider(id, label, (exp, i64::from(lo), i64::from(hi)), "", send)
        .shown(format!("{value} {unit}"))
}

/// The exponents of a bound whose ends are powers of two: the range of its
/// [`pow2`] slider.
pub fn exponents<T: Quantity>(bound: &Bound<T>) -> (u32, u32) {
    (
        bound.min.to_i64().trailing_zeros(),
        bound.max.to_i64().trailing_zeros(),
    )
}

/// 2^`v` for a slider value, kept within the bound's exponents.
pub fn power_in<T: Quantity>(bound: &Bound<T>, v: i64) -> T {
    let (lo, hi) = exponents(bound);
    T::from_i64(1 << v.clamp(i64::from(lo), i64::from(hi)))
}
