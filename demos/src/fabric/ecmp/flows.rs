//! The flows of one all-reduce step and the path each queue pair (QP)
//! hashes onto.
//!
//! Connection i runs from host i under leaf A (10.0.0.i+1) to host i under
//! leaf B (10.0.1.i+1), RoCEv2 over UDP to port 4791; its source port and
//! the destination QP number of each of its QPs are drawn from the seed
//! (`crate::rng`, SplitMix64), so a new draw is a new set of ports.
//!
//! The switch's hash is ours to choose (switch ASICs do not publish
//! theirs): the Toeplitz hash of `crate::host::toeplitz` under its standard
//! key, over the addresses and ports as RSS lays them out, followed by the
//! destination QP number's three bytes. Hashing the destination QP is what
//! Meta's "enhanced ECMP" adds to the 5-tuple through the switch ASIC's
//! user-defined-field hashing (Meta, "RDMA over Ethernet for Distributed
//! AI Training at Meta Scale", SIGCOMM 2024, as Meta's engineering post "A
//! RoCE network for distributed AI training at scale", 5 August 2024,
//! summarises it under "ECMP and path pinning": E-ECMP hashes
//! "additionally ... on the destination QP field of a RoCE packet"); with
//! one QP a connection it is the plain 5-tuple hash in effect, as the
//! protocol byte is the same for every flow.
//!
//! The path: hash-threshold (RFC 2992, "Analysis of an Equal-Cost
//! Multi-Path Algorithm"): the key space is cut into k equal regions,
//! region size = key space / k, and a flow takes the path whose region
//! holds its hash, region = key / region size. (Linux's IPv4 and IPv6
//! multipath routes use the same rule: "assigns a range of hashes to each
//! next hop", netdev, nexthop groups.)

use crate::host::toeplitz::{hash, tuple_input, STANDARD_KEY};
use crate::rng::Rng;
use serde::{Deserialize, Serialize};
use std::net::{IpAddr, Ipv4Addr};

/// RoCEv2's UDP destination port, 4791 (IANA; Linux's
/// `ROCE_V2_UDP_DPORT`, `include/rdma/ib_verbs.h`).
pub const ROCE_V2_PORT: u16 = 4791;
/// Source ports are drawn from IANA's dynamic range, 49152 to 65535, the
/// range Linux's RoCE drivers keep them in
/// (`IB_ROCE_UDP_ENCAP_VALID_PORT_MIN`/`_MAX`, `include/rdma/ib_verbs.h`).
pub const FIRST_DYNAMIC_PORT: u16 = 49_152;
/// A QP number is 24 bits; 0 and 1 are reserved for QP0 and QP1.
pub const MAX_QPN: u32 = 0xFF_FFFF;

/// One connection: its addresses, ports and the destination QP number of
/// each of its QPs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Connection {
    pub src: Ipv4Addr,
    pub dst: Ipv4Addr,
    pub src_port: u16,
    pub dst_port: u16,
    pub qpns: Vec<u32>,
}

/// `flows` connections of `qps` QPs each, drawn from `seed`.
pub fn draw(flows: usize, qps: usize, seed: u64) -> Vec<Connection> {
    let mut rng = Rng::new(seed);
    (0..flows)
        .map(|i| {
            let host = u8::try_from(i + 1).unwrap_or(u8::MAX);
            let src_port = rng.range(u64::from(FIRST_DYNAMIC_PORT), u64::from(u16::MAX)) as u16;
            let qpns = (0..qps)
                .map(|_| rng.range(2, u64::from(MAX_QPN)) as u32)
                .collect();
            Connection {
                src: Ipv4Addr::new(10, 0, 0, host),
                dst: Ipv4Addr::new(10, 0, 1, host),
                src_port,
                dst_port: ROCE_V2_PORT,
                qpns,
            }
        })
        .collect()
}

/// The bytes hashed for QP `qp` of `c`: addresses, ports, then the
/// destination QP number (three bytes, most significant first).
pub fn hash_input(c: &Connection, qp: usize) -> Vec<u8> {
    let mut input = tuple_input(
        IpAddr::V4(c.src),
        IpAddr::V4(c.dst),
        Some((c.src_port, c.dst_port)),
    )
    .unwrap_or_default();
    let qpn = c.qpns.get(qp).copied().unwrap_or(0);
    input.extend_from_slice(&qpn.to_be_bytes()[1..]);
    input
}

/// The switch's 32-bit hash of QP `qp` of `c`.
pub fn qp_hash(c: &Connection, qp: usize) -> u32 {
    hash(&STANDARD_KEY, &hash_input(c, qp))
}

/// RFC 2992's region size for `paths` paths over a 32-bit key space.
pub fn region_size(paths: usize) -> u64 {
    (1u64 << 32) / paths.max(1) as u64
}

/// Hash-threshold: the path whose region holds `h`. The last region also
/// takes the remainder when k does not divide 2^32.
pub fn path_of(h: u32, paths: usize) -> usize {
    let region = (u64::from(h) / region_size(paths)) as usize;
    region.min(paths.max(1) - 1)
}

/// Every QP's path: `paths_of[i][qp]`.
pub fn hashed_paths(connections: &[Connection], paths: usize) -> Vec<Vec<usize>> {
    connections
        .iter()
        .map(|c| {
            (0..c.qpns.len())
                .map(|qp| path_of(qp_hash(c, qp), paths))
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_threshold_cuts_the_key_space_into_equal_regions() {
        assert_eq!(path_of(0, 8), 0);
        assert_eq!(path_of(0x1FFF_FFFF, 8), 0);
        assert_eq!(path_of(0x2000_0000, 8), 1);
        assert_eq!(path_of(u32::MAX, 8), 7);
        assert_eq!(path_of(u32::MAX, 3), 2);
        assert_eq!(path_of(u32::MAX, 1), 0);
    }

    #[test]
    fn a_draw_is_fixed_by_its_seed() {
        let a = draw(8, 2, 7);
        assert_eq!(a, draw(8, 2, 7));
        assert_ne!(a, draw(8, 2, 8));
        for c in &a {
            assert!(c.src_port >= FIRST_DYNAMIC_PORT && c.dst_port == ROCE_V2_PORT);
            assert!(c.qpns.iter().all(|&q| (2..=MAX_QPN).contains(&q)));
            assert_eq!(hash_input(c, 1).len(), 15);
        }
    }
}
