//! The one float rule the wasm's size needs.

/// `x` kept within `lo..=hi`: `f64::clamp` and `f32::clamp` without their
/// panic, whose message prints the bounds with `{:?}` and so brings Rust's
/// float formatter (about 20 KB of wasm, measured in a shared chunk of five
/// demos) into the main module. A NaN `x` stays NaN, as with `clamp`.
pub fn clamped<T: PartialOrd>(x: T, lo: T, hi: T) -> T {
    if x < lo {
        lo
    } else if x > hi {
        hi
    } else {
        x
    }
}

#[cfg(test)]
mod tests {
    use super::clamped;

    #[test]
    fn keeps_within_the_bounds() {
        assert_eq!(clamped(0.5_f64, 0.0, 1.0), 0.5);
        assert_eq!(clamped(-2.0_f64, 0.0, 1.0), 0.0);
        assert_eq!(clamped(7.0_f32, 6.0, 24.0), 7.0);
        assert_eq!(clamped(30.0_f32, 6.0, 24.0), 24.0);
        assert!(clamped(f64::NAN, 0.0, 1.0).is_nan());
    }
}
