//! Sequence-number arithmetic: modulo 2³², so comparisons look at the
//! signed distance (RFC 9293 §3.4: "all arithmetic dealing with sequence
//! numbers must be performed modulo 2^32").

/// a < b in sequence space.
pub fn lt(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) < 0
}

/// a =< b in sequence space.
pub fn le(a: u32, b: u32) -> bool {
    a == b || lt(a, b)
}

/// start =< x < start + len.
pub fn within(x: u32, start: u32, len: u32) -> bool {
    x.wrapping_sub(start) < len
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparisons_wrap_around() {
        assert!(lt(u32::MAX, 0));
        assert!(lt(u32::MAX - 5, 3));
        assert!(!lt(3, u32::MAX - 5));
        assert!(le(7, 7));
        assert!(within(2, u32::MAX, 10));
        assert!(!within(u32::MAX - 1, u32::MAX, 10));
    }
}
