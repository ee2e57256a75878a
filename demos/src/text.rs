//! Small helpers for writing narration and figures, shared by every model.

/// The plural suffix for `n` things.
pub fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// `1230` → `"1,230 ns"`.
pub fn ns(n: impl Into<i64>) -> String {
    format!("{} ns", grouped(n.into()))
}

/// An integer with thousands separators: `-12345` → `"−12,345"`.
pub fn grouped(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    if n < 0 {
        out.push('−');
    }
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A value kept in units of 10^-`places` as a decimal: `fixed(185, 2)` →
/// `"1.85"`, `fixed(-5, 1)` → `"−0.5"`. Integer-only, so no float formatter.
pub fn fixed(value: i64, places: u32) -> String {
    let scale = 10u64.pow(places);
    let sign = if value < 0 { "−" } else { "" };
    let v = value.unsigned_abs();
    if places == 0 {
        return format!("{sign}{v}");
    }
    let whole = grouped((v / scale) as i64);
    let frac = v % scale;
    format!("{sign}{whole}.{frac:0width$}", width = places as usize)
}

/// `part / whole` in units of 10^-`places` (rounded half up; 0 when `whole` is 0).
pub fn ratio(part: u64, whole: u64, places: u32) -> i64 {
    if whole == 0 {
        return 0;
    }
    let scaled = u128::from(part) * u128::from(10u64.pow(places));
    ((scaled + u128::from(whole) / 2) / u128::from(whole)) as i64
}

/// Tenths of a percent as text: `73` → `"7.3 %"`.
pub fn tenths(t: i64) -> String {
    let sign = if t < 0 { "−" } else { "" };
    let t = t.unsigned_abs();
    format!("{sign}{}.{} %", t / 10, t % 10)
}

/// `part / whole` in tenths of a percent, rounded; 0 when `whole` is 0.
pub fn share_tenths(part: i64, whole: i64) -> i64 {
    if whole == 0 {
        return 0;
    }
    let scaled = part * 1000;
    let rounded = (scaled.abs() + whole.abs() / 2) / whole.abs();
    if (scaled < 0) != (whole < 0) {
        -rounded
    } else {
        rounded
    }
}

/// `value` with `decimals` digits after the point: `decimal(1.25, 1)` → `"1.3"`.
/// Rounds half away from zero. Written with integers so the wasm carries no
/// float formatter (~20 KiB): use this, never `{:.1}`, for any number shown.
pub fn decimal(value: f64, decimals: u32) -> String {
    let scale = 10_i64.pow(decimals.min(9));
    let scaled = (value * scale as f64).round();
    if !scaled.is_finite() || scaled.abs() > 9.0e15 {
        return if value.is_nan() {
            "?".into()
        } else if value > 0.0 {
            "∞".into()
        } else {
            "−∞".into()
        };
    }
    let scaled = scaled as i64;
    let sign = if scaled < 0 { "−" } else { "" };
    let (whole, frac) = (
        scaled.unsigned_abs() / scale as u64,
        scaled.unsigned_abs() % scale as u64,
    );
    if decimals == 0 {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{frac:0width$}", width = decimals as usize)
    }
}

/// A duration in nanoseconds at a readable scale, rounded half up:
/// `"850 ns"`, `"12.0 µs"`, `"2.7 ms"`, `"1.24 s"`. A value that rounds up
/// to the next scale's unit is written in that scale (`"1.0 ms"`, never
/// `"1000.0 µs"`).
pub fn duration(ns: u64) -> String {
    if ns < 1_000 {
        return format!("{ns} ns");
    }
    let micro_tenths = ratio(ns, 1_000, 1);
    if micro_tenths < 10_000 {
        return format!("{} µs", fixed(micro_tenths, 1));
    }
    let milli_tenths = ratio(ns, 1_000_000, 1);
    if milli_tenths < 10_000 {
        return format!("{} ms", fixed(milli_tenths, 1));
    }
    format!("{} s", fixed(ratio(ns, 1_000_000_000, 2), 2))
}

/// The text with its first letter in upper case: an ASCII letter, as every
/// sentence of the lab begins. (`char::to_uppercase` would bring Unicode's
/// case tables into the wasm, several KB, for letters the lab never starts
/// a sentence with; any other first character is left as it is.)
pub fn capitalised(text: &str) -> String {
    let mut out = text.to_string();
    if let Some(first) = out.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capitalised_raises_an_ascii_first_letter_only() {
        assert_eq!(capitalised("the ring is empty"), "The ring is empty");
        assert_eq!(capitalised("2 frames"), "2 frames");
        assert_eq!(capitalised("élan"), "élan");
        assert_eq!(capitalised(""), "");
    }

    #[test]
    fn formatting_helpers() {
        assert_eq!(ns(1230), "1,230 ns");
        assert_eq!(ns(-590), "−590 ns");
        assert_eq!(ns(0), "0 ns");
        assert_eq!(tenths(share_tenths(90, 1230)), "7.3 %");
        assert_eq!(tenths(share_tenths(-1, 3)), "−33.3 %");
        assert_eq!(decimal(1.25, 1), "1.3");
        assert_eq!(decimal(2.0, 2), "2.00");
        assert_eq!(decimal(-0.04, 1), "0.0");
        assert_eq!(decimal(-1.06, 1), "−1.1");
        assert_eq!(decimal(11.0, 0), "11");
        assert_eq!(decimal(0.005, 2), "0.01");
        assert_eq!(fixed(1234, 2), "12.34");
        assert_eq!(fixed(-5, 1), "−0.5");
        assert_eq!(fixed(7, 0), "7");
        assert_eq!(fixed(ratio(2, 3, 2), 2), "0.67");
        assert_eq!(ratio(1, 0, 1), 0);
        assert_eq!(grouped(-12345), "−12,345");
        assert_eq!(fixed(185, 2), "1.85");
        assert_eq!(fixed(1_234_567, 1), "123,456.7");
        assert_eq!(fixed(42, 0), "42");
        assert_eq!(ratio(2, 3, 2), 67);
        assert_eq!(ratio(1, 0, 2), 0);
        assert_eq!(fixed(5, 3), "0.005");
        assert_eq!(duration(850), "850 ns");
        assert_eq!(duration(12_000), "12.0 µs");
        assert_eq!(duration(200_000_000), "200.0 ms");
        assert_eq!(duration(1_240_000_000), "1.24 s");
        // Rounded, not cut: an RTO of 2.69 ms reads 2.7 ms.
        assert_eq!(duration(2_690_000), "2.7 ms");
        assert_eq!(duration(2_649_999), "2.6 ms");
        assert_eq!(duration(1_049), "1.0 µs");
        // Rounding up into the next unit moves to that unit.
        assert_eq!(duration(999_960), "1.0 ms");
        assert_eq!(duration(999_960_000), "1.00 s");
        assert_eq!(duration(u64::MAX), "18,446,744,073.71 s");
    }
}
