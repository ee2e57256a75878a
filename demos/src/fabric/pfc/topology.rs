//! The fabric: six hosts under two leaves, two spines, one lossless
//! priority, and the four flows of the story. Routes are fixed tables (one
//! path a destination, as if ECMP's hash had already chosen), so a flow's
//! path never changes while it runs.

use serde::{Deserialize, Serialize};

/// A host or a switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Node {
    Host(u8),
    Leaf(u8),
    Spine(u8),
}

pub const HOSTS: u8 = 6;
/// Hosts 0 to 2 hang under leaf 0, hosts 3 to 5 under leaf 1.
pub const HOSTS_PER_LEAF: u8 = 3;

impl Node {
    pub fn name(self) -> String {
        match self {
            Node::Host(h) => format!("H{h}"),
            Node::Leaf(l) => format!("L{l}"),
            Node::Spine(s) => format!("S{s}"),
        }
    }

    pub fn is_switch(self) -> bool {
        !matches!(self, Node::Host(_))
    }
}

pub fn leaf_of(host: u8) -> u8 {
    host / HOSTS_PER_LEAF
}

/// One direction of a cable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Link {
    pub from: Node,
    pub to: Node,
}

impl Link {
    pub fn name(self) -> String {
        format!("{}→{}", self.from.name(), self.to.name())
    }

    /// A stable key for the picture, e.g. `l0-s0`.
    pub fn key(self) -> String {
        format!("{}-{}", self.from.name(), self.to.name()).to_lowercase()
    }

    pub fn reverse(self) -> Link {
        Link {
            from: self.to,
            to: self.from,
        }
    }
}

/// Every directed link, in a fixed order: host links, then leaf–spine.
pub fn links() -> Vec<Link> {
    let mut out = Vec::new();
    for h in 0..HOSTS {
        let (host, leaf) = (Node::Host(h), Node::Leaf(leaf_of(h)));
        out.push(Link {
            from: host,
            to: leaf,
        });
        out.push(Link {
            from: leaf,
            to: host,
        });
    }
    for l in 0..2 {
        for s in 0..2 {
            let (leaf, spine) = (Node::Leaf(l), Node::Spine(s));
            out.push(Link {
                from: leaf,
                to: spine,
            });
            out.push(Link {
                from: spine,
                to: leaf,
            });
        }
    }
    out
}

/// The next node from switch `at` towards host `dst`. Leaf 0 sends up
/// through spine 0 and leaf 1 through spine 1. With `loop_route`, leaf 1
/// and spine 1 hold a wrong route for host 5, so its traffic goes round
/// L0 → S0 → L1 → S1 → L0 until its TTL runs out.
pub fn next_hop(at: Node, dst: u8, loop_route: bool) -> Node {
    let home = leaf_of(dst);
    let looping = loop_route && dst == 5;
    match at {
        Node::Leaf(1) if looping => Node::Spine(1),
        Node::Spine(1) if looping => Node::Leaf(0),
        Node::Leaf(l) if l == home => Node::Host(dst),
        Node::Leaf(l) => Node::Spine(l),
        Node::Spine(_) => Node::Leaf(home),
        Node::Host(h) => Node::Leaf(leaf_of(h)),
    }
}

/// A flow: one sender, one receiver, at most the line rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlowSpec {
    pub name: &'static str,
    pub src: u8,
    pub dst: u8,
    /// What the flow is for in the story.
    pub role: &'static str,
}

/// The four flows: three into H3 (an incast: two across the spine, one
/// from H3's own leaf) and the victim, H2 to the idle H5, which shares the
/// uplink L0 → S0 and the spine's link down to L1 with the incast.
pub const FLOWS: [FlowSpec; 4] = [
    FlowSpec {
        name: "A",
        src: 0,
        dst: 3,
        role: "incast",
    },
    FlowSpec {
        name: "B",
        src: 1,
        dst: 3,
        role: "incast",
    },
    FlowSpec {
        name: "C",
        src: 4,
        dst: 3,
        role: "incast",
    },
    FlowSpec {
        name: "V",
        src: 2,
        dst: 5,
        role: "victim",
    },
];

/// The index of the victim flow in `FLOWS`.
pub const VICTIM: usize = 3;
/// The hot receiver.
pub const HOT: u8 = 3;

/// The path a flow's bytes take, switch by switch, until they reach the
/// receiver or have visited `max_switches` switches (a loop never ends).
pub fn path(flow: &FlowSpec, loop_route: bool, max_switches: usize) -> Vec<Node> {
    let mut out = vec![Node::Host(flow.src)];
    let mut at = Node::Leaf(leaf_of(flow.src));
    for _ in 0..max_switches {
        out.push(at);
        at = next_hop(at, flow.dst, loop_route);
        if let Node::Host(_) = at {
            out.push(at);
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_directed_links() {
        assert_eq!(links().len(), 20);
    }

    #[test]
    fn the_victim_shares_the_spine_with_the_incast() {
        let v = path(&FLOWS[VICTIM], false, 10);
        let a = path(&FLOWS[0], false, 10);
        assert_eq!(v[1..4], a[1..4]);
        assert_eq!(v.last(), Some(&Node::Host(5)));
    }

    #[test]
    fn the_loop_never_reaches_h5() {
        let v = path(&FLOWS[VICTIM], true, 9);
        assert!(!v.contains(&Node::Host(5)));
        assert_eq!(
            v[1..6],
            [
                Node::Leaf(0),
                Node::Spine(0),
                Node::Leaf(1),
                Node::Spine(1),
                Node::Leaf(0)
            ]
        );
    }
}
