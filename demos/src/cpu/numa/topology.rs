//! Sockets, the links between them, and what a hop costs.
//!
//! Two sockets share one link. Four sockets form a ring 0–1–2–3–0, so the
//! opposite socket is two hops away: the shape of the 4-node SLIT
//! `10 21 31 21` that `numactl -H` prints on such machines (one reported on
//! netdev, "[6.2.0-rc7] BUG: KASAN: slab-out-of-bounds in hop_cmp", Feb 2023).
//!
//! Latency grows by a fixed cost per hop: local + hops × (remote − local),
//! from the 2-socket measurement in `mod.rs`. The SLIT-like table the page
//! shows is derived from those latencies the way ACPI defines the SLIT
//! (ACPI spec, "System Locality Information Table": local = 10, others
//! relative to it), so it agrees with the model rather than with firmware.

/// Link `i` joins socket `i` and socket `(i + 1) % sockets`; two sockets have
/// the single link 0.
pub fn link_count(sockets: u8) -> usize {
    if sockets == 2 {
        1
    } else {
        usize::from(sockets)
    }
}

/// Interconnect hops from socket `from` to memory on node `to`.
pub fn hops(sockets: u8, from: u8, to: u8) -> u8 {
    let d = (to + sockets - from) % sockets;
    d.min(sockets - d)
}

/// The links an access from `from` to `to` crosses, in order. With four
/// sockets a two-hop trip goes up the ring (0 → 1 → 2), a fixed choice.
pub fn route(sockets: u8, from: u8, to: u8) -> Vec<usize> {
    if from == to {
        return Vec::new();
    }
    if sockets == 2 {
        return vec![0];
    }
    let up = (to + sockets - from) % sockets;
    let n = hops(sockets, from, to);
    (0..n)
        .map(|k| {
            if up <= sockets / 2 {
                usize::from((from + k) % sockets)
            } else {
                usize::from((from + sockets - 1 - k) % sockets)
            }
        })
        .collect()
}

/// The two sockets a link joins.
pub fn link_ends(sockets: u8, link: usize) -> (u8, u8) {
    let a = link as u8;
    (a, (a + 1) % sockets)
}

/// The socket farthest from `from`: where the break-it migration sends the thread.
pub fn farthest(sockets: u8, from: u8) -> u8 {
    (from + sockets / 2) % sockets
}
