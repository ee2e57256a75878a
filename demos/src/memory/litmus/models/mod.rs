//! The four memory models. Each is a predicate on a candidate execution
//! ([`Exec`]): [`check`] answers consistent or not, fast; [`explain`] names
//! the first axiom (in the order of the model's .cat file) that the execution
//! breaks and the shortest cycle that breaks it, edge by edge.

mod armv8;
mod rc11;
mod sc;
mod tso;

pub use rc11::race;

use super::events::Skeleton;
use super::rel::{members, Rel, Set, MAX_EVENTS};
use serde::{Deserialize, Serialize};

/// The memory models the explorer compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MemModel {
    Sc,
    Tso,
    Armv8,
    Rc11,
}

impl MemModel {
    pub const ALL: [MemModel; 4] = [MemModel::Sc, MemModel::Tso, MemModel::Armv8, MemModel::Rc11];

    /// The name printed by the command line and shown on the switch.
    pub fn label(self) -> &'static str {
        match self {
            MemModel::Sc => "SC",
            MemModel::Tso => "TSO",
            MemModel::Armv8 => "ARMv8",
            MemModel::Rc11 => "RC11",
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// What each model derives from the test's text alone, computed once per
/// test rather than once per candidate.
#[derive(Clone, Debug)]
pub struct Statics {
    /// TSO: `po_ghb | mfence | implied`.
    tso: Rel,
    /// ARMv8: `dob | bob | lws`, between memory events.
    arm: Rel,
    c11: rc11::Statics,
}

impl Statics {
    pub fn new(sk: &Skeleton) -> Statics {
        Statics {
            tso: tso::statics(sk),
            arm: armv8::statics(sk),
            c11: rc11::statics(sk),
        }
    }
}

/// A candidate execution: the test's fixed relations plus one choice of
/// reads-from and coherence order, and the relations derived from them.
#[derive(Clone, Debug)]
pub struct Exec<'a> {
    pub sk: &'a Skeleton,
    pub statics: &'a Statics,
    pub rf: Rel,
    pub co: Rel,
    /// From-reads: `rf^-1 ; co`.
    pub fr: Rel,
    /// `po & loc`.
    pub po_loc: Rel,
}

impl<'a> Exec<'a> {
    pub fn new(sk: &'a Skeleton, statics: &'a Statics, rf: Rel, co: Rel) -> Exec<'a> {
        Exec {
            sk,
            statics,
            rf,
            co,
            fr: rf.inverse().seq(&co),
            po_loc: sk.po.inter(sk.loc),
        }
    }
    pub fn ext(&self, r: Rel) -> Rel {
        r.minus(self.sk.int)
    }
    pub fn internal(&self, r: Rel) -> Rel {
        r.inter(self.sk.int)
    }
    /// `rf | co | fr`.
    pub fn com(&self) -> Rel {
        self.rf.union(self.co).union(self.fr)
    }
    /// rf, co and fr split into external and internal parts, for cycle labels.
    pub fn com_parts(&self) -> Vec<(Edge, Rel)> {
        vec![
            (Edge::Rfe, self.ext(self.rf)),
            (Edge::Rfi, self.internal(self.rf)),
            (Edge::Coe, self.ext(self.co)),
            (Edge::Coi, self.internal(self.co)),
            (Edge::Fre, self.ext(self.fr)),
            (Edge::Fri, self.internal(self.fr)),
        ]
    }
}

/// An axiom a model can break, named as in its .cat file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Axiom {
    /// SC: acyclic(po ∪ rf ∪ co ∪ fr).
    Sc,
    /// x86tso.cat's first check, `acyclic po-loc | com` (SC per location).
    Uniproc,
    /// x86tso.cat `acyclic ghb as tso`.
    Tso,
    /// aarch64.cat `internal`: acyclic(po-loc | ca | rf).
    Internal,
    /// aarch64.cat `external`: irreflexive(ob).
    External,
    /// rc11.cat `coherence1`: irreflexive(hb ; eco?).
    Coherence,
    /// rc11.cat `SC`: acyclic(psc).
    Psc,
    /// rc11.cat `no-thin-air`: acyclic(sb | rf).
    NoThinAir,
}

impl Axiom {
    /// The axiom as the .cat file names it.
    pub fn name(self) -> &'static str {
        match self {
            Axiom::Sc => "sc",
            Axiom::Uniproc => "uniproc",
            Axiom::Tso => "tso",
            Axiom::Internal => "internal",
            Axiom::External => "external",
            Axiom::Coherence => "coherence",
            Axiom::Psc => "SC",
            Axiom::NoThinAir => "no-thin-air",
        }
    }

    /// What the axiom demands, in a few words.
    pub fn demands(self) -> &'static str {
        match self {
            Axiom::Sc => "one interleaving must explain every read",
            Axiom::Uniproc | Axiom::Internal => "each location on its own must behave sequentially",
            Axiom::Tso => "global happens-before (ghb) must have no cycle",
            Axiom::External => "ordered-before (ob) must have no cycle",
            Axiom::Coherence => "nothing may read or overwrite a write that happens after it",
            Axiom::Psc => "the seq_cst accesses and fences need one total order (psc)",
            Axiom::NoThinAir => "sb ∪ rf must have no cycle, so values cannot come from nowhere",
        }
    }
}

/// The label of one edge of a forbidding cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Edge {
    Po,
    PoLoc,
    Rfe,
    Rfi,
    Coe,
    Coi,
    Fre,
    Fri,
    /// TSO: an MFENCE (or a full fence) between the two.
    Mfence,
    /// TSO: a locked store (XCHG) before a later load.
    Locked,
    /// ARMv8 dependency-ordered-before, by its clause.
    DobAddr,
    DobData,
    DobCtrl,
    DobAddrPo,
    DobLrs,
    /// ARMv8 barrier-ordered-before, by its clause.
    BobDmb,
    BobDmbLd,
    BobDmbSt,
    BobAcq,
    BobRel,
    BobRelAcq,
    /// ARMv8 local write successor (po-loc to a write).
    Lws,
    /// ARMv8 hazard ordering: `[R]; po-loc; [R]; fre`.
    Haz,
    /// RC11 sequenced-before.
    Sb,
    /// RC11 synchronises-with.
    Sw,
}

impl Edge {
    /// The token in the cycle's name, e.g. `po ; rfe ; po ; fre`.
    pub fn token(self) -> &'static str {
        match self {
            Edge::Po => "po",
            Edge::PoLoc => "po-loc",
            Edge::Rfe => "rfe",
            Edge::Rfi => "rfi",
            Edge::Coe => "coe",
            Edge::Coi => "coi",
            Edge::Fre => "fre",
            Edge::Fri => "fri",
            Edge::Mfence => "mfence",
            Edge::Locked => "locked",
            Edge::DobAddr | Edge::DobData | Edge::DobCtrl | Edge::DobAddrPo | Edge::DobLrs => "dob",
            Edge::BobDmb
            | Edge::BobDmbLd
            | Edge::BobDmbSt
            | Edge::BobAcq
            | Edge::BobRel
            | Edge::BobRelAcq => "bob",
            Edge::Lws => "lws",
            Edge::Haz => "haz",
            Edge::Sb => "sb",
            Edge::Sw => "sw",
        }
    }

    /// Why the edge holds, in a few words.
    pub fn meaning(self) -> &'static str {
        match self {
            Edge::Po => "program order",
            Edge::PoLoc => "program order on one location",
            Edge::Rfe => "read from another thread",
            Edge::Rfi => "read from its own thread",
            Edge::Coe | Edge::Coi => "overwritten later",
            Edge::Fre | Edge::Fri => "read a value that is later overwritten",
            Edge::Mfence => "MFENCE between them",
            Edge::Locked => "the locked store drains first",
            Edge::DobAddr => "address dependency",
            Edge::DobData => "data dependency",
            Edge::DobCtrl => "control dependency to a store",
            Edge::DobAddrPo => "address dependency, then a later store",
            Edge::DobLrs => "dependency into a store the load reads after",
            Edge::BobDmb => "DMB ISH between them",
            Edge::BobDmbLd => "DMB ISHLD after the load",
            Edge::BobDmbSt => "DMB ISHST between the stores",
            Edge::BobAcq => "acquire load comes first",
            Edge::BobRel => "release store comes last",
            Edge::BobRelAcq => "release store, then acquire load",
            Edge::Lws => "a later store to the same location",
            Edge::Haz => "a later read of the location saw an older value",
            Edge::Sb => "sequenced before",
            Edge::Sw => "release synchronises with acquire",
        }
    }
}

/// One edge of a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    pub from: u8,
    pub to: u8,
    pub edge: Edge,
}

/// Why a candidate is inconsistent: the axiom and its shortest cycle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Violation {
    pub axiom: Axiom,
    pub cycle: Vec<Step>,
}

impl Violation {
    /// The cycle's name, e.g. `po ; rfe ; po ; fre`.
    pub fn cycle_name(&self) -> String {
        self.cycle
            .iter()
            .map(|s| s.edge.token())
            .collect::<Vec<_>>()
            .join(" ; ")
    }
}

/// Is the execution consistent under the model?
pub fn check(model: MemModel, x: &Exec) -> bool {
    match model {
        MemModel::Sc => sc::check(x),
        MemModel::Tso => tso::check(x),
        MemModel::Armv8 => armv8::check(x),
        MemModel::Rc11 => rc11::check(x),
    }
}

/// Why the execution is inconsistent (`None` if it is consistent).
pub fn explain(model: MemModel, x: &Exec) -> Option<Violation> {
    match model {
        MemModel::Sc => sc::explain(x),
        MemModel::Tso => tso::explain(x),
        MemModel::Armv8 => armv8::explain(x),
        MemModel::Rc11 => rc11::explain(x),
    }
}

/// The shortest cycle in the union of labelled relations; each step takes
/// the first label whose relation holds the edge.
pub fn shortest_cycle(parts: &[(Edge, Rel)]) -> Option<Vec<Step>> {
    let all = parts.iter().fold(Rel::EMPTY, |a, (_, r)| a.union(*r));
    let label = |a: usize, b: usize| {
        parts
            .iter()
            .find(|(_, r)| r.has(a, b))
            .map_or(Edge::Po, |(e, _)| *e)
    };
    let path = shortest_cycle_nodes(&all)?;
    Some(
        path.iter()
            .zip(path.iter().cycle().skip(1))
            .map(|(&a, &b)| Step {
                from: a as u8,
                to: b as u8,
                edge: label(a, b),
            })
            .collect(),
    )
}

/// The nodes of a shortest cycle of `r`, in order (lowest start node among
/// the shortest, so the answer is deterministic).
pub(super) fn shortest_cycle_nodes(r: &Rel) -> Option<Vec<usize>> {
    let mut best: Option<Vec<usize>> = None;
    for s in members(r.domain()) {
        // Breadth-first search from s; a cycle closes when an edge leads back to s.
        let mut parent = [usize::MAX; MAX_EVENTS];
        let mut seen: Set = 0;
        let mut frontier: Set = 1 << s;
        let mut depth = 0;
        'search: while frontier != 0 {
            depth += 1;
            if best.as_ref().is_some_and(|b| depth >= b.len()) {
                break;
            }
            let mut next: Set = 0;
            for a in members(frontier) {
                if r.rows[a] & (1 << s) != 0 {
                    let mut path = vec![a];
                    let mut at = a;
                    while at != s {
                        at = parent[at];
                        path.push(at);
                    }
                    path.reverse();
                    if best.as_ref().is_none_or(|b| path.len() < b.len()) {
                        best = Some(path);
                    }
                    break 'search;
                }
                for b in members(r.rows[a] & !seen & !(1 << s)) {
                    parent[b] = a;
                    seen |= 1 << b;
                    next |= 1 << b;
                }
            }
            frontier = next;
        }
    }
    best
}
