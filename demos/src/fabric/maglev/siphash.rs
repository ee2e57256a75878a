//! The two hash functions that turn a backend's name into its offset and
//! skip, and place a ring's points.
//!
//! The paper asks for "two different hashing functions" h1 and h2 of the
//! backend's name and does not name them (Eisenbud et al., NSDI 2016,
//! §3.4, p. 6: `offset ← h1(name[i]) mod M`, `skip ← h2(name[i]) mod
//! (M − 1) + 1`). The choice here is ours: SipHash-2-4 (Aumasson and
//! Bernstein, "SipHash: a fast short-input PRF", INDOCRYPT 2012) under two
//! fixed keys, as Linux's Maglev scheduler uses the half-width hsiphash
//! under two fixed keys (`net/netfilter/ipvs/ip_vs_mh.c`,
//! `generate_hash_secret`). FNV-1a was ruled out: names that differ only in
//! their last character (`B0#1`, `B0#2`) get hashes whose top bits barely
//! differ, which would bunch a backend's ring points together.

use super::Backend;

/// h1's key: the reference test key, bytes 00 … 0f (the SipHash paper's
/// Appendix A and the reference `siphash24.c` test vectors use it).
const H1_KEY: (u64, u64) = (0x0706_0504_0302_0100, 0x0f0e_0d0c_0b0a_0908);
/// h2's key: bytes 10 … 1f. Any other fixed key would do; it only has to
/// differ from h1's so that offset and skip are independent.
const H2_KEY: (u64, u64) = (0x1716_1514_1312_1110, 0x1f1e_1d1c_1b1a_1918);

/// One SipRound: the add-rotate-xor network of the SipHash paper, §2.
fn round(v: &mut [u64; 4]) {
    v[0] = v[0].wrapping_add(v[1]);
    v[1] = v[1].rotate_left(13) ^ v[0];
    v[0] = v[0].rotate_left(32);
    v[2] = v[2].wrapping_add(v[3]);
    v[3] = v[3].rotate_left(16) ^ v[2];
    v[0] = v[0].wrapping_add(v[3]);
    v[3] = v[3].rotate_left(21) ^ v[0];
    v[2] = v[2].wrapping_add(v[1]);
    v[1] = v[1].rotate_left(17) ^ v[2];
    v[2] = v[2].rotate_left(32);
}

/// SipHash-2-4 of `bytes` under the 128-bit key `(k0, k1)` (each half read
/// little-endian from the key's bytes): two rounds per 8-byte word, the
/// last word padded with the length in its top byte, four final rounds.
pub fn siphash24((k0, k1): (u64, u64), bytes: &[u8]) -> u64 {
    let mut v = [
        k0 ^ 0x736f_6d65_7073_6575,
        k1 ^ 0x646f_7261_6e64_6f6d,
        k0 ^ 0x6c79_6765_6e65_7261,
        k1 ^ 0x7465_6462_7974_6573,
    ];
    let compress = |v: &mut [u64; 4], m: u64| {
        v[3] ^= m;
        round(v);
        round(v);
        v[0] ^= m;
    };
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let mut b = [0u8; 8];
        b.copy_from_slice(word);
        compress(&mut v, u64::from_le_bytes(b));
    }
    let mut last = [0u8; 8];
    let rest = words.remainder();
    last[..rest.len()].copy_from_slice(rest);
    // The length mod 256 in the top byte, as the paper pads.
    last[7] = bytes.len() as u8;
    compress(&mut v, u64::from_le_bytes(last));
    v[2] ^= 0xff;
    for _ in 0..4 {
        round(&mut v);
    }
    v[0] ^ v[1] ^ v[2] ^ v[3]
}

/// The paper's h1: our SipHash-2-4 under h1's key.
pub fn h1(name: &str) -> u64 {
    siphash24(H1_KEY, name.as_bytes())
}

/// The paper's h2: the same function under another key.
pub fn h2(name: &str) -> u64 {
    siphash24(H2_KEY, name.as_bytes())
}

/// The backend called `name` in a table of `size` entries, its offset and
/// skip from its name as §3.4 has them: `offset = h1(name) mod M`,
/// `skip = h2(name) mod (M − 1) + 1`. For `size` below 2 there is no skip
/// from 1 to M − 1; the skip is then 1 (and [`super::check`] refuses the
/// size anyway).
pub fn hashed(name: &str, size: usize) -> Backend {
    let m = size.max(1) as u64;
    let offset = h1(name) % m;
    let skip = h2(name) % (m.saturating_sub(1).max(1)) + 1;
    Backend::new(name, offset, skip)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference implementation's first vectors (`siphash24.c`, key
    /// 00 … 0f, messages of 0, 1, 2 and 3 bytes 00 01 02 …) and the SipHash
    /// paper's Appendix A example (15 bytes 00 … 0e).
    #[test]
    fn the_reference_test_vectors() {
        let message: Vec<u8> = (0..64).collect();
        let want = [
            0x726f_db47_dd0e_0e31,
            0x74f8_39c5_93dc_67fd,
            0x0d6c_8009_d9a9_4f5a,
            0x8567_6696_d7fb_7e2d,
        ];
        for (len, w) in want.iter().enumerate() {
            assert_eq!(siphash24(H1_KEY, &message[..len]), *w, "{len} bytes");
        }
        assert_eq!(siphash24(H1_KEY, &message[..15]), 0xa129_ca61_49be_45e5);
    }

    /// Rust's standard library kept SipHash-2-4 as the deprecated
    /// `SipHasher`: an independent implementation to agree with, at every
    /// length across two words.
    #[test]
    #[allow(deprecated)]
    fn agrees_with_the_standard_librarys_siphash_2_4() {
        use std::hash::{Hasher, SipHasher};
        let message: Vec<u8> = (0..40).map(|i| (i * 37 + 5) as u8).collect();
        for key in [H1_KEY, H2_KEY, (u64::MAX, 1)] {
            for len in 0..message.len() {
                let mut std = SipHasher::new_with_keys(key.0, key.1);
                std.write(&message[..len]);
                assert_eq!(siphash24(key, &message[..len]), std.finish());
            }
        }
    }

    #[test]
    fn offset_and_skip_are_in_range() {
        for size in [2usize, 3, 7, 13, 65_537] {
            for name in ["B0", "B1", "backend-17", ""] {
                let b = hashed(name, size);
                assert!(b.offset < size as u64);
                assert!((1..size as u64).contains(&b.skip));
            }
        }
    }
}
