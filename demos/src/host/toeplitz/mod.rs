//! The Toeplitz hash that receive-side scaling (RSS) computes over a
//! packet's addresses and ports, and the indirection table that turns the
//! hash into a receive queue.
//!
//! Sources.
//! - The algorithm, the bit order and the input layouts: Microsoft, "RSS
//!   hashing functions" (Windows drivers documentation,
//!   <https://learn.microsoft.com/windows-hardware/drivers/network/rss-hashing-functions>).
//!   Intel's I210 datasheet (§7.1.2.10.1) states the same function.
//! - The standard key and the expected hashes pinned in the tests:
//!   Microsoft, "Verifying the RSS Hash Calculation"
//!   (<https://learn.microsoft.com/windows-hardware/drivers/network/verifying-the-rss-hash-calculation>).
//!   The values are as two independent open transcriptions of that table
//!   give them, which agree cell for cell: DPDK's `app/test/test_thash.c`
//!   (credited there to the Intel 82599 datasheet §7.1.2.8.3, "RSS
//!   Verification Suite") and VirtualBox's RSS test case `tstDevRss.cpp`.
//! - The queue: the hash's low bits index the indirection table (I210
//!   datasheet §7.1.2.10.2: a 128-entry table indexed by the hash's seven
//!   least significant bits); Linux fills the table by default with
//!   `ethtool_rxfh_indir_default(i, n) = i % n` (`include/linux/ethtool.h`).
//!
//! The hash is linear over GF(2): it is a matrix product (a Toeplitz
//! matrix, hence the name) of the input bits, so flipping an input bit
//! always flips the same 32-bit pattern of the hash, whatever the rest of
//! the input. That is why it is cheap in hardware, and why it is no
//! defence against an attacker who knows the key.

pub mod cli;

use std::net::IpAddr;
use std::num::NonZeroU16;

/// The 40-byte key of Microsoft's verification table (DPDK's tests use it
/// too). A driver may program any key of the length its NIC takes.
pub const STANDARD_KEY: [u8; 40] = [
    0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0,
    0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c,
    0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
];

/// How many key bytes hashing `input_len` bytes reads. The 32-bit window
/// starts at the key's first bit and slides one bit per input bit, so the
/// last input bit (number 8n − 1) reads key bits up to 8n + 30: that is
/// n + 4 whole bytes. A 40-byte key therefore covers 36 bytes of input,
/// exactly the IPv6 addresses and ports.
pub const fn key_bytes_needed(input_len: usize) -> usize {
    input_len.saturating_add(4)
}

/// The Toeplitz hash of `input` under `key`, as "RSS hashing functions"
/// defines it: the input is read bit by bit, first byte first and each
/// byte from its most significant bit; for every bit that is 1 the hash is
/// XORed with the key's left-most 32 bits; after every bit, set or not,
/// the key moves one bit to the left.
///
/// A key shorter than [`key_bytes_needed`] is read as if followed by
/// zeros, which is what shifting a finite register left brings in; the
/// command line refuses such a key rather than rely on this.
pub fn hash(key: &[u8], input: &[u8]) -> u32 {
    let mut window = first_key_bits(key);
    let mut result = 0;
    for (i, &byte) in input.iter().enumerate() {
        for bit in (0..8).rev() {
            if (byte >> bit) & 1 == 1 {
                result ^= left_32(window);
            }
            window <<= 1;
        }
        // Eight shifts emptied the low byte: the key's next byte goes there,
        // so the top 32 bits always hold the window the next bit needs.
        window |= u64::from(key_byte(key, i + 8));
    }
    result
}

/// The key's first 64 bits, the first byte most significant.
fn first_key_bits(key: &[u8]) -> u64 {
    (0..8).fold(0, |bits, i| (bits << 8) | u64::from(key_byte(key, i)))
}

/// Key byte `i`, or 0 past the key's end.
fn key_byte(key: &[u8], i: usize) -> u8 {
    key.get(i).copied().unwrap_or(0)
}

/// The left-most 32 of the 64 key bits held.
fn left_32(window: u64) -> u32 {
    (window >> 32) as u32
}

/// The bytes RSS hashes for a flow: source address, destination address,
/// then (unless only the addresses are hashed) source port and destination
/// port, each in network byte order, as they stand in the packet
/// ("RSS hashing functions": IPv4 `@12-15, @16-19, @20-21, @22-23`, 12
/// bytes, or 8 without the ports; IPv6 `@8-23, @24-39, @40-41, @42-43`, 36
/// bytes, or 32). `None` when the two addresses are of different families,
/// which no packet carries.
pub fn tuple_input(src: IpAddr, dst: IpAddr, ports: Option<(u16, u16)>) -> Option<Vec<u8>> {
    let mut input = match (src, dst) {
        (IpAddr::V4(s), IpAddr::V4(d)) => [s.octets(), d.octets()].concat(),
        (IpAddr::V6(s), IpAddr::V6(d)) => [s.octets(), d.octets()].concat(),
        _ => return None,
    };
    if let Some((src_port, dst_port)) = ports {
        input.extend(src_port.to_be_bytes());
        input.extend(dst_port.to_be_bytes());
    }
    Some(input)
}

/// Linux's default indirection table of `entries` entries over `queues`
/// receive queues: entry i holds queue i mod queues
/// (`ethtool_rxfh_indir_default`), so the queues take turns and each gets
/// an equal share of entries, within one.
pub fn default_indirection(entries: usize, queues: NonZeroU16) -> Vec<u16> {
    let queues = usize::from(queues.get());
    // i % queues < queues ≤ u16::MAX, so the narrowing keeps every value.
    (0..entries).map(|i| (i % queues) as u16).collect()
}

/// The indirection-table entry a hash selects: its low log2(`entries`)
/// bits. The table's length must be a power of two for the low bits to
/// cover it exactly (Microsoft's NetAdapterCx asks for one of at least 128,
/// `NET_ADAPTER_RECEIVE_SCALING_CAPABILITIES.IndirectionTableSize`); any
/// other length, zero included, is `None`.
pub fn table_index(hash: u32, entries: usize) -> Option<usize> {
    entries
        .is_power_of_two()
        .then(|| hash as usize & (entries - 1))
}

/// The receive queue a hash lands on through `table`, or `None` if the
/// table's length is not a power of two (see [`table_index`]).
pub fn queue(hash: u32, table: &[u16]) -> Option<u16> {
    table_index(hash, table.len()).map(|i| table[i])
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::{Ipv4Addr, Ipv6Addr};

    /// One row of Microsoft's verification table: destination and source
    /// (the table lists the destination first), then the expected hash of
    /// the addresses only and of the addresses and ports.
    struct Row {
        dst: &'static str,
        dst_port: u16,
        src: &'static str,
        src_port: u16,
        ip_only: u32,
        with_ports: u32,
    }

    const fn row(
        dst: &'static str,
        dst_port: u16,
        src: &'static str,
        src_port: u16,
        ip_only: u32,
        with_ports: u32,
    ) -> Row {
        Row {
            dst,
            dst_port,
            src,
            src_port,
            ip_only,
            with_ports,
        }
    }

    /// "Verifying the RSS Hash Calculation", IPv4: every row.
    const IPV4: [Row; 5] = [
        row(
            "161.142.100.80",
            1766,
            "66.9.149.187",
            2794,
            0x323e8fc2,
            0x51ccc178,
        ),
        row(
            "65.69.140.83",
            4739,
            "199.92.111.2",
            14230,
            0xd718262a,
            0xc626b0ea,
        ),
        row(
            "12.22.207.184",
            38024,
            "24.19.198.95",
            12898,
            0xd2d0a5de,
            0x5c2b394a,
        ),
        row(
            "209.142.163.6",
            2217,
            "38.27.205.30",
            48228,
            0x82989176,
            0xafc7327f,
        ),
        row(
            "202.188.127.2",
            1303,
            "153.39.163.191",
            44251,
            0x5d1809c5,
            0x10e828a2,
        ),
    ];

    /// "Verifying the RSS Hash Calculation", IPv6: every row.
    const IPV6: [Row; 3] = [
        row(
            "3ffe:2501:200:3::1",
            1766,
            "3ffe:2501:200:1fff::7",
            2794,
            0x2cc18cd5,
            0x40207d3d,
        ),
        row(
            "ff02::1",
            4739,
            "3ffe:501:8::260:97ff:fe40:efab",
            14230,
            0x0f0c461c,
            0xdde51bbf,
        ),
        row(
            "fe80::200:f8ff:fe21:67cf",
            38024,
            "3ffe:1900:4545:3:200:f8ff:fe21:67cf",
            44251,
            0x4b61e985,
            0x02d1feef,
        ),
    ];

    fn check(rows: &[Row]) {
        for r in rows {
            let src: IpAddr = r.src.parse().unwrap();
            let dst: IpAddr = r.dst.parse().unwrap();
            let addresses = tuple_input(src, dst, None).unwrap();
            let tuple = tuple_input(src, dst, Some((r.src_port, r.dst_port))).unwrap();
            assert_eq!(hash(&STANDARD_KEY, &addresses), r.ip_only, "{}", r.src);
            assert_eq!(hash(&STANDARD_KEY, &tuple), r.with_ports, "{}", r.src);
        }
    }

    #[test]
    fn microsofts_ipv4_verification_table() {
        check(&IPV4);
    }

    #[test]
    fn microsofts_ipv6_verification_table() {
        check(&IPV6);
    }

    /// The first IPv4 row's input, byte by byte: source, destination,
    /// source port, destination port, all big-endian.
    #[test]
    fn the_input_is_the_fields_in_packet_order_and_network_byte_order() {
        let src = IpAddr::V4(Ipv4Addr::new(66, 9, 149, 187));
        let dst = IpAddr::V4(Ipv4Addr::new(161, 142, 100, 80));
        let input = tuple_input(src, dst, Some((2794, 1766))).unwrap();
        assert_eq!(
            input,
            [66, 9, 149, 187, 161, 142, 100, 80, 0x0a, 0xea, 0x06, 0xe6]
        );
        assert_eq!(tuple_input(src, dst, None).unwrap().len(), 8);
        let v6 = IpAddr::V6(Ipv6Addr::LOCALHOST);
        assert_eq!(tuple_input(v6, v6, Some((1, 2))).unwrap().len(), 36);
        assert_eq!(tuple_input(src, v6, None), None);
        assert_eq!(tuple_input(v6, src, Some((1, 2))), None);
    }

    /// One set bit at position i selects exactly the key's 32 bits from
    /// bit i: the window the algorithm has slid to by then.
    #[test]
    fn a_single_bit_selects_the_key_window_at_its_position() {
        let key = STANDARD_KEY;
        let key_bits = u128::from_be_bytes(key[..16].try_into().unwrap());
        for i in 0..64 {
            let mut input = [0u8; 8];
            input[i / 8] = 0x80 >> (i % 8);
            let window = (key_bits << i >> 96) as u32;
            assert_eq!(hash(&key, &input), window, "bit {i}");
        }
    }

    /// Past its end a short key reads as zeros: the same hash as the key
    /// padded with zero bytes.
    #[test]
    fn a_short_key_reads_as_if_zero_padded() {
        let input = [0xffu8; 12];
        let short = &STANDARD_KEY[..10];
        let padded = [short, &[0u8; 6]].concat();
        assert_eq!(hash(short, &input), hash(&padded, &input));
        assert_eq!(hash(&[], &input), 0);
        assert_eq!(hash(&STANDARD_KEY, &[]), 0);
    }

    #[test]
    fn a_40_byte_key_covers_the_ipv6_tuple_exactly() {
        assert_eq!(key_bytes_needed(36), STANDARD_KEY.len());
        assert_eq!(key_bytes_needed(12), 16);
        assert_eq!(key_bytes_needed(usize::MAX), usize::MAX);
    }

    /// Linux's default: entry i → queue i mod n; 128 entries over 3 queues
    /// give 43, 43 and 42.
    #[test]
    fn the_default_table_deals_entries_to_queues_in_turn() {
        let four = NonZeroU16::new(4).unwrap();
        assert_eq!(default_indirection(8, four), [0, 1, 2, 3, 0, 1, 2, 3]);
        let three = default_indirection(128, NonZeroU16::new(3).unwrap());
        let count = |q| three.iter().filter(|&&x| x == q).count();
        assert_eq!((count(0), count(1), count(2)), (43, 43, 42));
        assert!(default_indirection(0, four).is_empty());
    }

    /// The first IPv4 row's hash 0x51ccc178 ends in binary 1111000, so in
    /// a 128-entry table it takes entry 0x78 = 120, which Linux's default
    /// over five queues fills with queue 120 mod 5 = 0.
    #[test]
    fn the_low_bits_pick_the_entry_and_the_entry_names_the_queue() {
        let h = 0x51ccc178;
        assert_eq!(table_index(h, 128), Some(120));
        assert_eq!(table_index(h, 1), Some(0));
        assert_eq!(table_index(h, 0), None);
        assert_eq!(table_index(h, 100), None);
        let table = default_indirection(128, NonZeroU16::new(5).unwrap());
        assert_eq!(queue(h, &table), Some(0));
        assert_eq!(queue(0x7f, &table), Some(127 % 5));
        assert_eq!(queue(h, &[]), None);
        assert_eq!(queue(h, &table[..100]), None);
    }
}
