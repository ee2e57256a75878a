//! Reading what a learner (or the `frame` example's command line) typed:
//! MAC and IPv4 addresses, ports, numbers, hex bytes. Pure functions over
//! hostile text: they never panic, and every error is a sentence.

use super::ethernet::Mac;

/// Longest text any of these parsers reads, checked before anything else.
pub const MAX_FIELD_CHARS: usize = 64;

fn too_long(text: &str) -> Result<(), String> {
    if text.len() > MAX_FIELD_CHARS {
        Err(format!(
            "That is {} characters; a field here is at most {MAX_FIELD_CHARS}.",
            text.len()
        ))
    } else {
        Ok(())
    }
}

/// A decimal number from 0 to `max`, digits only.
pub fn number(text: &str, what: &str, max: u64) -> Result<u64, String> {
    too_long(text)?;
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "The {what} must be a decimal number, not '{}'.",
            text.escape_default()
        ));
    }
    match text.parse::<u64>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(format!(
            "The {what} must be at most {max}; {text} is out of range."
        )),
    }
}

/// A MAC address: six hex octets separated by colons, `02:00:00:00:00:01`.
pub fn mac(text: &str) -> Result<Mac, String> {
    too_long(text)?;
    let bad = || {
        format!("'{}' is not a MAC address: write six hex octets separated by colons, like 02:00:00:00:00:01.", text.escape_default())
    };
    let parts: Vec<&str> = text.split(':').collect();
    if parts.len() != 6 {
        return Err(bad());
    }
    let mut out = [0u8; 6];
    for (slot, part) in out.iter_mut().zip(parts) {
        if part.is_empty() || part.len() > 2 || !part.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad());
        }
        *slot = u8::from_str_radix(part, 16).map_err(|_| bad())?;
    }
    Ok(out)
}

/// A dotted-quad IPv4 address, `10.0.0.1`. Leading zeros are refused: some
/// readers take `010` as octal (inet_aton), so its meaning is ambiguous.
pub fn ipv4(text: &str) -> Result<[u8; 4], String> {
    too_long(text)?;
    let bad = || {
        format!("'{}' is not an IPv4 address: write four numbers from 0 to 255 separated by dots, like 10.0.0.1.", text.escape_default())
    };
    let parts: Vec<&str> = text.split('.').collect();
    if parts.len() != 4 {
        return Err(bad());
    }
    let mut out = [0u8; 4];
    for (slot, part) in out.iter_mut().zip(parts) {
        let digits_only = !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
        if !digits_only || part.len() > 3 || (part.len() > 1 && part.starts_with('0')) {
            return Err(bad());
        }
        *slot = part.parse().map_err(|_| bad())?;
    }
    Ok(out)
}

/// An IPv4 address and a port, `10.0.0.1:40000`.
pub fn endpoint(text: &str) -> Result<([u8; 4], u16), String> {
    too_long(text)?;
    let Some((addr, port)) = text.rsplit_once(':') else {
        return Err(format!(
            "'{}' needs an address and a port, like 10.0.0.1:40000.",
            text.escape_default()
        ));
    };
    let port = number(port, "port", u64::from(u16::MAX))? as u16;
    Ok((ipv4(addr)?, port))
}

/// Bytes written as hex digit pairs, `48656c6c6f`; the empty text is no byte.
pub fn hex(text: &str, max_bytes: usize) -> Result<Vec<u8>, String> {
    if let Some(c) = text.chars().find(|c| !c.is_ascii_hexdigit()) {
        return Err(format!(
            "'{}' is not a hex digit: write the bytes as pairs of 0-9 and a-f.",
            c.escape_default()
        ));
    }
    if text.len() % 2 == 1 {
        return Err(format!(
            "{} hex digits is an odd number: every byte takes two.",
            text.len()
        ));
    }
    if text.len() / 2 > max_bytes {
        return Err(format!(
            "{} bytes is more than the {max_bytes} allowed here.",
            text.len() / 2
        ));
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).map_err(|e| e.to_string()))
        .collect()
}

/// Bytes as lower-case hex, no separators.
pub fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_read_and_bad_ones_are_refused_with_a_reason() {
        assert_eq!(mac("02:00:00:00:00:01"), Ok([2, 0, 0, 0, 0, 1]));
        assert_eq!(mac("2:a:B:0:0:ff"), Ok([2, 0xa, 0xb, 0, 0, 0xff]));
        assert!(mac("02:00:00:00:00").is_err());
        assert!(mac("02:00:00:00:00:100").is_err());
        assert!(mac("02:00:00:00:00:+1").is_err());
        assert_eq!(ipv4("10.0.0.1"), Ok([10, 0, 0, 1]));
        assert!(ipv4("10.0.0.256").is_err());
        assert!(ipv4("10.0.0").is_err());
        assert!(ipv4("10.0.0.01").is_err());
        assert!(ipv4("10.0.0.+1").is_err());
        assert_eq!(endpoint("10.0.0.2:80"), Ok(([10, 0, 0, 2], 80)));
        assert!(endpoint("10.0.0.2:65536").unwrap_err().contains("65535"));
        assert!(endpoint("10.0.0.2").is_err());
    }

    #[test]
    fn numbers_and_hex() {
        assert_eq!(
            number("4294967295", "sequence number", u64::from(u32::MAX)),
            Ok(u32::MAX.into())
        );
        assert!(number("4294967296", "sequence number", u64::from(u32::MAX)).is_err());
        assert!(number("-1", "TTL", 255).is_err());
        assert!(number("", "TTL", 255).is_err());
        assert!(number("99999999999999999999999", "TTL", 255).is_err());
        assert_eq!(hex("", 10), Ok(vec![]));
        assert_eq!(hex("48aB", 10), Ok(vec![0x48, 0xab]));
        assert!(hex("abc", 10).unwrap_err().contains("odd"));
        assert!(hex("zz", 10).is_err());
        assert!(hex("é1", 10).is_err());
        assert!(hex("0000", 1).is_err());
        assert_eq!(to_hex(&[0, 0xab]), "00ab");
    }
}
