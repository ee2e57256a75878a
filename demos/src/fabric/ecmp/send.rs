//! One all-reduce step, packet by packet, over the leaf's uplinks.
//!
//! The rules (ours, stated so they can be checked):
//! - Every connection sends [`PACKETS`] packets, one a tick, handing them
//!   to its QPs in turn (packet p to QP p mod q). It pauses `pause` ticks
//!   `gaps` times, splitting its packets into `gaps + 1` equal bursts.
//! - Every uplink sends one packet a tick, first come first served (within
//!   a tick, lower connection numbers first). A packet arrives the tick
//!   after it leaves; the spine and the far leaf add nothing. So an uplink
//!   carrying c equal flows gives each 1/c of its rate (max-min fair
//!   sharing on the uplink only), and they finish c times later.
//! - A ring all-reduce step waits for its slowest flow: the step ends when
//!   the last packet arrives. A connection alone on an idle path takes
//!   [`alone`] ticks.
//!
//! Three ways to choose each packet's uplink:
//! - ECMP: every packet of a QP takes the QP's hashed path (`flows`).
//! - Flowlets: after a pause, each QP starts a new flowlet on the uplink
//!   with the shortest queue (CONGA picks a new flowlet's path by measured
//!   congestion; the shortest local queue is our stand-in). FLARE's rule
//!   (Kandula et al., "Dynamic load balancing without packet reordering",
//!   CCR 2007) is that moving a flow between bursts reorders nothing when
//!   the pause is longer than the paths' delay difference; a shorter pause
//!   lets the new flowlet overtake the old one, and the count shows it.
//! - Spraying: every packet picks an uplink at random (random packet
//!   spraying, Dixit et al., "On the impact of packet spraying in data
//!   center networks", INFOCOM 2013), from the seed.
//!
//! Order is kept per QP (an RDMA QP delivers in order): a packet is out of
//! order when it arrives before a packet its QP sent earlier.

use crate::rng::Rng;
use serde::{Deserialize, Serialize};

/// Packets each connection sends in one step.
pub const PACKETS: usize = 64;
/// Mixed into the seed so spraying's draws differ from the ports'.
const SPRAY_SALT: u64 = 0x5350_5241_5921;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Balancer {
    Ecmp,
    Flowlet,
    Spray,
}

impl Balancer {
    pub const ALL: [Balancer; 3] = [Balancer::Ecmp, Balancer::Flowlet, Balancer::Spray];

    pub fn name(self) -> &'static str {
        match self {
            Balancer::Ecmp => "ECMP",
            Balancer::Flowlet => "flowlet switching",
            Balancer::Spray => "packet spraying",
        }
    }
}

/// The traffic's shape: its pauses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pauses {
    pub gaps: usize,
    pub pause: u64,
}

/// What one step did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The tick the last packet arrived: the step's time.
    pub ticks: u64,
    /// Packets each uplink carried.
    pub carried: Vec<usize>,
    /// Packets that arrived before one their QP sent earlier.
    pub out_of_order: usize,
    /// Flowlets that started on another uplink than their QP's last.
    pub moves: usize,
}

/// How many packets burst `b` of `bursts` holds: as equal as they can be.
fn burst_len(b: usize, bursts: usize) -> usize {
    PACKETS / bursts + usize::from(b < PACKETS % bursts)
}

/// Where packet `p` stands: the tick it is sent, its burst and its place
/// in the burst.
fn place(p: usize, shape: Pauses) -> (u64, usize, usize) {
    let bursts = shape.gaps + 1;
    let mut start = 0usize;
    for b in 0..bursts {
        let len = burst_len(b, bursts);
        if p < start + len {
            let tick = (p as u64).saturating_add((b as u64).saturating_mul(shape.pause));
            return (tick, b, p - start);
        }
        start += len;
    }
    (p as u64, 0, p)
}

/// The tick packet `p` is sent, and whether it is the first of a burst
/// after a pause.
fn send_tick(p: usize, shape: Pauses) -> (u64, bool) {
    let (tick, burst, offset) = place(p, shape);
    (tick, burst > 0 && offset == 0 && shape.pause > 0)
}

/// A connection alone on an idle path: its last packet is sent at
/// `PACKETS − 1 + gaps·pause` and arrives one tick later.
pub fn alone(shape: Pauses) -> u64 {
    send_tick(PACKETS - 1, shape).0 + 1
}

/// Runs one step: `hashed[i][qp]` is each QP's hashed uplink, of `paths`.
pub fn run(
    balancer: Balancer,
    hashed: &[Vec<usize>],
    paths: usize,
    shape: Pauses,
    seed: u64,
) -> Step {
    let paths = paths.max(1);
    let mut free = vec![0u64; paths];
    let mut carried = vec![0usize; paths];
    let mut current: Vec<Vec<usize>> = hashed.to_vec();
    let mut latest: Vec<Vec<u64>> = hashed.iter().map(|q| vec![0; q.len()]).collect();
    let mut rng = Rng::new(seed ^ SPRAY_SALT);
    let (mut ticks, mut out_of_order, mut moves) = (0, 0, 0);
    for p in 0..PACKETS {
        let (t, burst, offset) = place(p, shape);
        for (i, qps) in hashed.iter().enumerate() {
            if qps.is_empty() {
                continue;
            }
            let qp = p % qps.len();
            let path = match balancer {
                Balancer::Ecmp => qps[qp],
                Balancer::Spray => rng.range(0, paths as u64 - 1) as usize,
                Balancer::Flowlet => {
                    // Every QP of the connection paused, so each starts a
                    // flowlet at its first packet of the burst: the QPs
                    // take the burst's first q packets in turn.
                    if burst > 0 && shape.pause > 0 && offset < qps.len() {
                        let best = shortest_queue(&free, t);
                        if best != current[i][qp] {
                            moves += 1;
                        }
                        current[i][qp] = best;
                    }
                    current[i][qp]
                }
            }
            .min(paths - 1);
            let leaves = free[path].max(t);
            free[path] = leaves + 1;
            carried[path] += 1;
            let arrives = leaves + 1;
            if arrives < latest[i][qp] {
                out_of_order += 1;
            }
            latest[i][qp] = latest[i][qp].max(arrives);
            ticks = ticks.max(arrives);
        }
    }
    Step {
        ticks,
        carried,
        out_of_order,
        moves,
    }
}

/// The uplink with the fewest packets waiting at tick `t` (the lowest
/// number on a tie).
fn shortest_queue(free: &[u64], t: u64) -> usize {
    (0..free.len())
        .min_by_key(|&j| free[j].saturating_sub(t))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NO_PAUSE: Pauses = Pauses { gaps: 0, pause: 0 };

    /// c flows on one uplink take c times as long as one.
    #[test]
    fn a_shared_uplink_stretches_the_step() {
        let hashed = vec![vec![0], vec![0], vec![0], vec![1]];
        let s = run(Balancer::Ecmp, &hashed, 4, NO_PAUSE, 1);
        assert_eq!(alone(NO_PAUSE), PACKETS as u64);
        assert_eq!(s.ticks, 3 * PACKETS as u64);
        assert_eq!(s.carried, vec![3 * PACKETS, PACKETS, 0, 0]);
        assert_eq!(s.out_of_order, 0);
    }

    #[test]
    fn pauses_split_the_packets_into_bursts() {
        let shape = Pauses { gaps: 3, pause: 10 };
        assert_eq!(send_tick(0, shape), (0, false));
        assert_eq!(send_tick(16, shape), (26, true));
        assert_eq!(send_tick(17, shape), (27, false));
        assert_eq!(alone(shape), PACKETS as u64 + 30);
        // A pause of 0 ticks is no pause: no flowlet starts.
        assert!(!send_tick(16, Pauses { gaps: 3, pause: 0 }).1);
    }

    /// Flowlets leave the crowded uplink after the first pause; a long
    /// pause lets its queue drain first, so nothing is reordered.
    #[test]
    fn flowlets_move_and_a_long_pause_keeps_order() {
        let hashed = vec![vec![0], vec![0], vec![0], vec![0]];
        let long = Pauses {
            gaps: 3,
            pause: 200,
        };
        let s = run(Balancer::Flowlet, &hashed, 4, long, 1);
        assert!(s.moves > 0);
        assert_eq!(s.out_of_order, 0);
        let ecmp = run(Balancer::Ecmp, &hashed, 4, long, 1);
        assert!(s.ticks < ecmp.ticks, "{} {}", s.ticks, ecmp.ticks);
        let short = Pauses { gaps: 3, pause: 1 };
        assert!(run(Balancer::Flowlet, &hashed, 4, short, 1).out_of_order > 0);
    }

    #[test]
    fn spraying_carries_every_packet() {
        let hashed = vec![vec![0, 1]; 8];
        let s = run(Balancer::Spray, &hashed, 8, NO_PAUSE, 3);
        assert_eq!(s.carried.iter().sum::<usize>(), 8 * PACKETS);
    }
}
