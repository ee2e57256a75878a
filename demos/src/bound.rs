//! A configuration bound, declared once: its name, unit and range.
//!
//! A model's validation, the text of its refusal and the range of the
//! picture's slider all read the same [`Bound`], so the three can never
//! disagree (before this, a bound was written by hand in the model's check,
//! again in its refusal sentence, and a third time in the view's slider).

use crate::model::Refusal;
use std::fmt::Display;

/// A whole-number quantity a bound can hold. The control on the page carries
/// an `i64`, so each kind says how it converts (saturating, never wrapping).
pub trait Quantity: Copy + PartialOrd + Display {
    fn to_i64(self) -> i64;
    /// The value a control sent, clamped into this type (a slider cannot send
    /// more than its range, but a crafted link or a form might).
    fn from_i64(v: i64) -> Self;
}

macro_rules! quantity {
    ($($t:ty),*) => {$(
        impl Quantity for $t {
            fn to_i64(self) -> i64 {
                i64::try_from(self).unwrap_or(i64::MAX)
            }
            fn from_i64(v: i64) -> Self {
                <$t>::try_from(v).unwrap_or(if v < 0 { <$t>::MIN } else { <$t>::MAX })
            }
        }
    )*};
}
quantity!(u8, u16, u32, u64, usize, i32, i64);

/// One configuration bound: `what` (a noun phrase, e.g. "issue cost"),
/// the unit printed after a value (e.g. " ns", or "" for a count), and the
/// inclusive range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound<T> {
    pub what: &'static str,
    pub unit: &'static str,
    pub min: T,
    pub max: T,
}

impl<T: Quantity> Bound<T> {
    pub const fn new(what: &'static str, unit: &'static str, min: T, max: T) -> Self {
        Bound {
            what,
            unit,
            min,
            max,
        }
    }

    pub fn contains(&self, value: T) -> bool {
        self.min <= value && value <= self.max
    }

    /// The one sentence every model says of a value out of this bound.
    pub fn out_of_range(&self, value: T) -> String {
        format!(
            "The {what} is {min} to {max}{unit}; {value}{unit} is out of range.",
            what = self.what,
            min = self.min,
            max = self.max,
            unit = self.unit
        )
    }

    /// For `Model::validate`: the value, or the sentence saying why not.
    pub fn check(&self, value: T) -> Result<T, String> {
        if self.contains(value) {
            Ok(value)
        } else {
            Err(self.out_of_range(value))
        }
    }

    /// For `Model::apply`: the value, or a refusal saying why not.
    pub fn admit(&self, value: T) -> Result<T, Refusal> {
        self.check(value).map_err(Refusal::new)
    }

    /// The range as a control carries it: `(value, min, max)`.
    pub fn control_range(&self, value: T) -> (i64, i64, i64) {
        (value.to_i64(), self.min.to_i64(), self.max.to_i64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ISSUE: Bound<u64> = Bound::new("issue cost", " ns", 1, 500);

    #[test]
    fn a_value_in_range_passes_and_one_outside_is_refused_with_the_bound() {
        assert_eq!(ISSUE.check(1), Ok(1));
        assert_eq!(ISSUE.check(500), Ok(500));
        assert_eq!(
            ISSUE.check(0),
            Err("The issue cost is 1 to 500 ns; 0 ns is out of range.".to_string())
        );
        assert!(ISSUE.admit(501).is_err());
    }

    #[test]
    fn the_control_range_is_the_bound() {
        assert_eq!(ISSUE.control_range(20), (20, 1, 500));
        let big: Bound<u64> = Bound::new("x", "", 0, u64::MAX);
        assert_eq!(big.control_range(u64::MAX), (i64::MAX, 0, i64::MAX));
    }

    #[test]
    fn a_control_value_converts_saturating() {
        assert_eq!(u32::from_i64(-5), 0);
        assert_eq!(u32::from_i64(i64::MAX), u32::MAX);
        assert_eq!(u8::from_i64(300), 255);
        assert_eq!(usize::from_i64(7), 7);
    }
}
