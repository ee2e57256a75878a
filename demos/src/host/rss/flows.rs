//! The connections the demo's server receives: many small ones from
//! scattered clients, and, to break things, a few heavy ones from one host.

use crate::host::toeplitz::{hash, tuple_input, STANDARD_KEY};
use crate::rng::Rng;
use serde::{Deserialize, Serialize};
use std::net::{IpAddr, Ipv4Addr};

/// The server every flow goes to (a documentation-style private address).
pub const SERVER: (Ipv4Addr, u16) = (Ipv4Addr::new(10, 0, 0, 1), 443);
/// Linux's default `net.ipv4.ip_local_port_range`, "32768 60999"
/// (`Documentation/networking/ip-sysctl.rst`): the clients' source ports.
pub const EPHEMERAL_PORTS: (u16, u16) = (32_768, 60_999);
/// Elephant flows Break it adds: one backup host's parallel streams.
pub const ELEPHANTS: u32 = 4;
/// Packets an elephant sends for each packet of a small flow.
pub const ELEPHANT_WEIGHT: u32 = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flow {
    pub src: Ipv4Addr,
    pub src_port: u16,
    pub elephant: bool,
    /// The Toeplitz hash of its 4-tuple under the standard key.
    pub hash: u32,
}

impl Flow {
    fn new(src: Ipv4Addr, src_port: u16, elephant: bool) -> Flow {
        let input = tuple_input(
            IpAddr::V4(src),
            IpAddr::V4(SERVER.0),
            Some((src_port, SERVER.1)),
        )
        .expect("two IPv4 addresses");
        Flow {
            src,
            src_port,
            elephant,
            hash: hash(&STANDARD_KEY, &input),
        }
    }

    pub fn weight(&self) -> u32 {
        if self.elephant {
            ELEPHANT_WEIGHT
        } else {
            1
        }
    }

    /// `a.b.c.d:port → 10.0.0.1:443`.
    pub fn tuple(&self) -> String {
        format!("{}:{} → {}:{}", self.src, self.src_port, SERVER.0, SERVER.1)
    }
}

/// `mice` small flows from random clients in 172.16.0.0/16 with random
/// ephemeral ports, then, if `elephants`, [`ELEPHANTS`] heavy flows from
/// one client that differ only in their source ports: little entropy for
/// the hash to spread.
pub fn flows(seed: u64, mice: u32, elephants: bool) -> Vec<Flow> {
    let mut rng = Rng::new(seed);
    let port = |rng: &mut Rng| {
        rng.range(u64::from(EPHEMERAL_PORTS.0), u64::from(EPHEMERAL_PORTS.1)) as u16
    };
    let mut out: Vec<Flow> = (0..mice)
        .map(|_| {
            let host = rng.range(1, 0xfffe) as u16;
            let [c, d] = host.to_be_bytes();
            let src_port = port(&mut rng);
            Flow::new(Ipv4Addr::new(172, 16, c, d), src_port, false)
        })
        .collect();
    if elephants {
        let backup = Ipv4Addr::new(172, 16, 200, 7);
        let first = port(&mut rng).min(EPHEMERAL_PORTS.1 - ELEPHANTS as u16);
        out.extend((0..ELEPHANTS as u16).map(|k| Flow::new(backup, first + k, true)));
    }
    out
}
