//! The RSS Toeplitz hash against an independent bit-by-bit reference, its
//! linearity over GF(2), the indirection table, and a command line that
//! never panics.

use demos::host::toeplitz::cli::toeplitz_command;
use demos::host::toeplitz::{
    default_indirection, hash, key_bytes_needed, queue, table_index, tuple_input,
};
use proptest::prelude::*;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::num::NonZeroU16;

/// The algorithm read literally, with nothing in common with the library's
/// sliding 64-bit window: spell the key out as a list of bits (zeros past
/// its end), and for input bit i, if set, XOR in key bits i..i+32.
fn reference(key: &[u8], input: &[u8]) -> u32 {
    let bit = |bytes: &[u8], i: usize| bytes.get(i / 8).map_or(0, |b| (b >> (7 - i % 8)) & 1);
    let window = |i: usize| (0..32).fold(0u32, |w, j| (w << 1) | u32::from(bit(key, i + j)));
    (0..input.len() * 8)
        .filter(|&i| bit(input, i) == 1)
        .fold(0, |h, i| h ^ window(i))
}

fn bytes(max: usize) -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(any::<u8>(), 0..=max)
}

/// Two inputs of one length.
fn pair(max: usize) -> impl Strategy<Value = (Vec<u8>, Vec<u8>)> {
    (0..=max).prop_flat_map(|n| {
        (
            proptest::collection::vec(any::<u8>(), n),
            proptest::collection::vec(any::<u8>(), n),
        )
    })
}

fn xor(a: &[u8], b: &[u8]) -> Vec<u8> {
    a.iter().zip(b).map(|(x, y)| x ^ y).collect()
}

/// Command-line words: mostly the real options and plausible values, so
/// that runs get past the first check, with arbitrary text mixed in.
fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("--src".to_string()),
        Just("--dst".to_string()),
        Just("--key".to_string()),
        Just("--ip-only".to_string()),
        Just("--src=1.2.3.4:5".to_string()),
        Just("[::1]:80".to_string()),
        Just("[".to_string()),
        Just("]:".to_string()),
        Just("10.0.0.1:65535".to_string()),
        "[0-9a-fA-F]{0,90}",
        "[0-9.:\\[\\]%a-f]{0,60}",
        ".{0,40}",
    ]
}

/// In a module named for the hash, so that `cargo test toeplitz` runs these
/// with the unit tests.
mod toeplitz {
    use super::*;

    proptest! {
        #[test]
        fn the_hash_matches_the_literal_algorithm(key in bytes(80), input in bytes(64)) {
            prop_assert_eq!(hash(&key, &input), reference(&key, &input));
        }

        /// Linear over GF(2): the hash of a XOR b is the XOR of their hashes.
        #[test]
        fn the_hash_is_linear(key in bytes(80), (a, b) in pair(64)) {
            prop_assert_eq!(hash(&key, &xor(&a, &b)), hash(&key, &a) ^ hash(&key, &b));
        }

        #[test]
        fn all_zero_input_hashes_to_zero(key in bytes(80), n in 0usize..=64) {
            prop_assert_eq!(hash(&key, &vec![0; n]), 0);
        }

        /// Only the first input_len + 4 key bytes are read: what follows them
        /// never changes the hash.
        #[test]
        fn key_bytes_past_the_needed_ones_are_never_read(
            key in bytes(80), tail in bytes(16), input in bytes(40),
        ) {
            let needed = key_bytes_needed(input.len());
            let mut key = key;
            key.resize(needed, 0);
            let longer = [&key[..], &tail[..]].concat();
            prop_assert_eq!(hash(&key, &input), hash(&longer, &input));
        }

        /// For IPv4 endpoints the command prints exactly the library's hash of
        /// the tuple, with or without the ports.
        #[test]
        fn the_command_prints_the_librarys_hash(
            src in any::<[u8; 4]>(), dst in any::<[u8; 4]>(),
            sp in any::<u16>(), dp in any::<u16>(), ip_only in any::<bool>(),
            key in proptest::collection::vec(any::<u8>(), 16..=64),
        ) {
            let (s, d) = (Ipv4Addr::from(src), Ipv4Addr::from(dst));
            let mut args = vec![
                "--src".to_string(), format!("{s}:{sp}"),
                "--dst".to_string(), format!("{d}:{dp}"),
                format!("--key={}", key.iter().map(|b| format!("{b:02x}")).collect::<String>()),
            ];
            if ip_only {
                args.push("--ip-only".into());
            }
            let ports = (!ip_only).then_some((sp, dp));
            let input = tuple_input(IpAddr::V4(s), IpAddr::V4(d), ports).unwrap();
            let expected = format!("hash=0x{:08x}\n", hash(&key, &input));
            prop_assert_eq!(toeplitz_command(&args), Ok(expected));
        }

        /// The same for IPv6, with the default key.
        #[test]
        fn the_command_reads_ipv6_endpoints(
            src in any::<[u8; 16]>(), dst in any::<[u8; 16]>(),
            sp in any::<u16>(), dp in any::<u16>(),
        ) {
            let (s, d) = (Ipv6Addr::from(src), Ipv6Addr::from(dst));
            let args = vec![
                "--src".to_string(), format!("[{s}]:{sp}"),
                "--dst".to_string(), format!("[{d}]:{dp}"),
            ];
            let input = tuple_input(IpAddr::V6(s), IpAddr::V6(d), Some((sp, dp))).unwrap();
            let key = demos::host::toeplitz::STANDARD_KEY;
            prop_assert_eq!(
                toeplitz_command(&args),
                Ok(format!("hash=0x{:08x}\n", hash(&key, &input)))
            );
        }

        /// Whatever the arguments, the command answers: a line or a reason.
        #[test]
        fn the_command_never_panics(args in proptest::collection::vec(word(), 0..8)) {
            match toeplitz_command(&args) {
                Ok(out) => {
                    prop_assert!(out.starts_with("hash=0x") && out.len() == 16, "{}", out);
                }
                Err(reason) => prop_assert!(!reason.is_empty()),
            }
        }

        /// Linux's default table gives every queue its share of entries within
        /// one, and a power-of-two table sends every hash to a real queue.
        #[test]
        fn the_default_table_is_fair_and_every_hash_lands_on_a_queue(
            log2 in 0u32..=10, queues in 1u16..=64, h in any::<u32>(),
        ) {
            let entries = 1usize << log2;
            let queues = NonZeroU16::new(queues).unwrap();
            let table = default_indirection(entries, queues);
            prop_assert_eq!(table.len(), entries);
            let counts: Vec<usize> = (0..queues.get())
                .map(|q| table.iter().filter(|&&x| x == q).count())
                .collect();
            let (least, most) = (counts.iter().min().unwrap(), counts.iter().max().unwrap());
            prop_assert!(most - least <= 1, "{:?}", counts);
            let q = queue(h, &table).unwrap();
            prop_assert!(q < queues.get());
            prop_assert_eq!(table_index(h, entries), Some(h as usize % entries));
        }
    }
}
