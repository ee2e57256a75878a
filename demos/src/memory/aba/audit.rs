//! Damage detection: walk the list from head and compare it with what the
//! algorithm believes (which nodes are linked, free, retired).

use super::{name, Aba, Home};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Damage {
    /// A node on the free list (or retired) is reachable from head.
    FreedReachable(u8),
    /// A node that was pushed and never popped is no longer reachable.
    Lost(u8),
    /// Following `next` from head comes back to this node.
    Cycle(u8),
    /// A pop handed back a node that was already freed.
    DoubleFree(u8),
}

impl Damage {
    /// The damage in a few words, to follow a colon.
    pub fn phrase(self) -> String {
        match self {
            Damage::FreedReachable(n) => format!("{} freed yet reachable from head", name(n)),
            Damage::Lost(n) => format!("{} lost from the stack", name(n)),
            Damage::Cycle(n) => format!("a loop back to {}", name(n)),
            Damage::DoubleFree(n) => format!("{} freed a second time", name(n)),
        }
    }

    pub fn sentence(self) -> String {
        match self {
            Damage::FreedReachable(n) => format!(
                "Corrupted: {} is reachable from head, but it was freed.",
                name(n)
            ),
            Damage::Lost(n) => format!(
                "Corrupted: {} is lost; it was never popped, yet nothing points to it.",
                name(n)
            ),
            Damage::Cycle(n) => format!(
                "Corrupted: following next from head loops back to {}.",
                name(n)
            ),
            Damage::DoubleFree(n) => {
                format!("Corrupted: {} was popped and freed a second time.", name(n))
            }
        }
    }
}

impl Aba {
    /// The nodes reachable from head, in order, stopping at the first repeat;
    /// and the repeated node if the walk found a cycle.
    pub fn walk(&self) -> (Vec<u8>, Option<u8>) {
        let mut seen = Vec::new();
        let mut at = self.head;
        while let Some(n) = at {
            if seen.contains(&n) {
                return (seen, Some(n));
            }
            seen.push(n);
            at = self.nodes[usize::from(n)].next;
        }
        (seen, None)
    }

    /// Damage present now that is not yet on record.
    pub(super) fn audit(&self) -> Vec<Damage> {
        let (reachable, cycle) = self.walk();
        let mut found: Vec<Damage> = cycle.map(Damage::Cycle).into_iter().collect();
        for (i, node) in self.nodes.iter().enumerate() {
            let n = i as u8;
            let linked = reachable.contains(&n);
            match node.home {
                Home::Free | Home::Retired if linked => found.push(Damage::FreedReachable(n)),
                Home::Linked if !linked => found.push(Damage::Lost(n)),
                _ => {}
            }
        }
        found.retain(|d| !self.damage.contains(d));
        found
    }
}
