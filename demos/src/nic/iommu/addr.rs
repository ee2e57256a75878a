//! Reading an address the learner typed: `0x4000`, `4000`, `0x_4_000`.
//!
//! A pure function over hostile text: it never panics, whatever it is given
//! (a property test feeds it arbitrary strings).

use std::fmt;

/// Longest input read, before anything else is looked at: a 64-bit address
/// is at most 16 hex digits, plus `0x` and some underscores as separators.
pub const MAX_ADDR_CHARS: usize = 24;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AddrError {
    Empty,
    TooLong(usize),
    NoDigits,
    BadDigit(char),
    TooWide,
}

impl fmt::Display for AddrError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AddrError::Empty => write!(f, "Type an address in hex, for example 0x1000."),
            AddrError::TooLong(n) => write!(
                f,
                "That is {n} characters; an address here is at most {MAX_ADDR_CHARS}."
            ),
            AddrError::NoDigits => write!(f, "There are no hex digits in that address."),
            AddrError::BadDigit(c) => write!(
                f,
                "'{}' is not a hex digit: use 0-9 and a-f, with an optional 0x and underscores.",
                c.escape_default()
            ),
            AddrError::TooWide => write!(
                f,
                "That needs more than 64 bits: no bus address is that wide."
            ),
        }
    }
}

/// Parses a hex address: an optional `0x`/`0X`, hex digits, underscores
/// anywhere between them; surrounding spaces are ignored.
pub fn parse_addr(text: &str) -> Result<u64, AddrError> {
    let chars = text.chars().count();
    if chars > MAX_ADDR_CHARS + 8 {
        return Err(AddrError::TooLong(chars));
    }
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(AddrError::Empty);
    }
    let chars = trimmed.chars().count();
    if chars > MAX_ADDR_CHARS {
        return Err(AddrError::TooLong(chars));
    }
    let body = trimmed
        .strip_prefix("0x")
        .or_else(|| trimmed.strip_prefix("0X"))
        .unwrap_or(trimmed);
    let mut value: u64 = 0;
    let mut digits = 0;
    for c in body.chars() {
        if c == '_' {
            continue;
        }
        let d = c.to_digit(16).ok_or(AddrError::BadDigit(c))?;
        digits += 1;
        value = value
            .checked_mul(16)
            .and_then(|v| v.checked_add(u64::from(d)))
            .ok_or(AddrError::TooWide)?;
    }
    if digits == 0 {
        return Err(AddrError::NoDigits);
    }
    Ok(value)
}

/// An address as the demo writes it: `0x4a00`.
pub fn hex(addr: u64) -> String {
    format!("{addr:#06x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_prefixed_bare_and_underscored_hex() {
        assert_eq!(parse_addr("0x1000"), Ok(0x1000));
        assert_eq!(parse_addr("1000"), Ok(0x1000));
        assert_eq!(parse_addr("  0X1_2aB "), Ok(0x12ab));
        assert_eq!(parse_addr("0xffff_ffff_ffff_ffff"), Ok(u64::MAX));
    }

    #[test]
    fn rejects_malformed_text_with_a_reason() {
        assert_eq!(parse_addr(""), Err(AddrError::Empty));
        assert_eq!(parse_addr("   "), Err(AddrError::Empty));
        assert_eq!(parse_addr("0x"), Err(AddrError::NoDigits));
        assert_eq!(parse_addr("0x__"), Err(AddrError::NoDigits));
        assert_eq!(parse_addr("0x12g4"), Err(AddrError::BadDigit('g')));
        assert_eq!(parse_addr("-1"), Err(AddrError::BadDigit('-')));
        assert_eq!(
            parse_addr("0x1_0000_0000_0000_0000"),
            Err(AddrError::TooWide)
        );
        assert!(matches!(
            parse_addr(&"1".repeat(40)),
            Err(AddrError::TooLong(40))
        ));
        assert_eq!(parse_addr("ü"), Err(AddrError::BadDigit('ü')));
    }

    #[test]
    fn every_error_reads_as_a_sentence() {
        for e in [
            AddrError::Empty,
            AddrError::TooLong(30),
            AddrError::NoDigits,
            AddrError::BadDigit('\u{7}'),
            AddrError::TooWide,
        ] {
            let text = e.to_string();
            assert!(text.ends_with('.'), "{text}");
        }
    }
}
