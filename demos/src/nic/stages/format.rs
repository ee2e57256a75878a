//! How the latency demos write numbers.

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

pub(super) fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
