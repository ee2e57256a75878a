//! Sequential consistency (Lamport 1979): some interleaving of the threads
//! explains every read. Axiomatically, herd's `sc.cat`:
//! `acyclic po | rf | co | fr`.

use super::{shortest_cycle, Axiom, Edge, Exec, Violation};

pub fn check(x: &Exec) -> bool {
    x.sk.po.union(x.com()).is_acyclic()
}

pub fn explain(x: &Exec) -> Option<Violation> {
    if check(x) {
        return None;
    }
    let mut parts = vec![(Edge::Po, x.sk.po)];
    parts.extend(x.com_parts());
    Some(Violation {
        axiom: Axiom::Sc,
        cycle: shortest_cycle(&parts)?,
    })
}
