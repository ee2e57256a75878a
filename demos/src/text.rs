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
    let n: i64 = n.into();
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    let sign = if n < 0 { "−" } else { "" };
    format!("{sign}{out} ns")
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

/// A fixed-point integer as a decimal: `fixed(1234, 2)` → `"12.34"`,
/// `fixed(-5, 1)` → `"−0.5"`. For values computed in integers (hundredths,
/// thousandths) so that no float is ever formatted.
pub fn fixed(value: i64, decimals: u32) -> String {
    let scale = 10u64.pow(decimals);
    let sign = if value < 0 { "−" } else { "" };
    let v = value.unsigned_abs();
    if decimals == 0 {
        return format!("{sign}{v}");
    }
    let width = decimals as usize;
    format!("{sign}{}.{:0width$}", v / scale, v % scale)
}

/// A duration in nanoseconds at a readable scale: `"850 ns"`, `"12.0 µs"`,
/// `"200.0 ms"`, `"1.24 s"`.
pub fn duration(ns: u64) -> String {
    match ns {
        0..=999 => format!("{ns} ns"),
        1_000..=999_999 => format!("{} µs", fixed((ns / 100) as i64, 1)),
        1_000_000..=999_999_999 => format!("{} ms", fixed((ns / 100_000) as i64, 1)),
        _ => format!("{} s", fixed((ns / 10_000_000) as i64, 2)),
    }
}

/// The text with its first letter in upper case.
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formatting_helpers() {
        assert_eq!(ns(1230), "1,230 ns");
        assert_eq!(ns(-590), "−590 ns");
        assert_eq!(ns(0), "0 ns");
        assert_eq!(tenths(share_tenths(90, 1230)), "7.3 %");
        assert_eq!(tenths(share_tenths(-1, 3)), "−33.3 %");
        assert_eq!(fixed(1234, 2), "12.34");
        assert_eq!(fixed(5, 3), "0.005");
        assert_eq!(fixed(-15, 1), "−1.5");
        assert_eq!(fixed(42, 0), "42");
        assert_eq!(duration(850), "850 ns");
        assert_eq!(duration(12_000), "12.0 µs");
        assert_eq!(duration(200_000_000), "200.0 ms");
        assert_eq!(duration(1_240_000_000), "1.24 s");
    }
}
