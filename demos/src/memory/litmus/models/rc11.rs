//! RC11, "Repairing sequential consistency in C/C++11" (Lahav, Vafeiadis,
//! Kang, Hur & Dreyer, PLDI 2017), as herdtools7 `herd/libdir/rc11.cat`
//! writes it (no RMWs here, so `rs` has no `rf; rmw` tail, `rb = fr`, and
//! the `coherencermw` and `atomicity` checks hold trivially):
//!
//! ```text
//! let rs  = [W]; (sb & loc)?; [W & ATOMIC]
//! let sw  = [REL | ACQ_REL | SC]; ([F]; sb)?; rs; rf; [R & ATOMIC];
//!           (sb; [F])?; [ACQ | ACQ_REL | SC]
//! let hb  = (sb | sw)+
//! let eco = (rf | mo | rb)+
//! let scb = sb | sb\loc; hb; sb\loc | hb & loc | mo | rb
//! let pscb = ([SC] | [F & SC]; hb?); scb; ([SC] | hb?; [F & SC])
//! let pscf = [F & SC]; (hb | hb; eco; hb); [F & SC]
//! undefined_unless empty dr as Dr        (* see [`race`] *)
//! irreflexive hb; eco? as coherence1
//! acyclic pscb | pscf as SC
//! acyclic sb | rf as no-thin-air
//! ```
//!
//! Orders: a plain access is `rlx`, `.na` is non-atomic; `F` and `F.sc` are
//! `atomic_thread_fence(memory_order_seq_cst)`. The Arm barriers have no C11
//! counterpart: `F.ld` is read as an acquire fence (the fence Arm's ABI
//! compiles to DMB ISHLD) and `F.st` as a release fence (the weakest C11 fence
//! that keeps earlier stores before later ones). Dependencies do not order
//! anything in RC11. Initial writes are non-atomic and sb-before nothing, as in herd.

use super::super::ast::{Fence, Op, Order};
use super::super::events::Skeleton;
use super::super::rel::{Rel, Set};
use super::{members, shortest_cycle, shortest_cycle_nodes, Axiom, Edge, Exec, Step, Violation};

/// The parts of RC11 fixed by the text.
#[derive(Clone, Debug)]
pub struct Statics {
    atomic: Set,
    sc: Set,
    sc_fence: Set,
    /// Atomic reads: the only ones an sw edge can end on.
    r_atomic: Set,
    /// `[REL | ACQ_REL | SC]; ([F]; sb)?; rs`.
    pre_rf: Rel,
    /// `(sb; [F])?; [ACQ | ACQ_REL | SC]`.
    post_rf: Rel,
}

struct Rc11 {
    atomic: Set,
    sc: Set,
    sc_fence: Set,
    sb: Rel,
    hb: Rel,
    sw: Rel,
    eco: Rel,
}

fn fence_order(f: Fence) -> Order {
    match f {
        Fence::Full | Fence::Sc => Order::Sc,
        Fence::Acq | Fence::Ld => Order::Acq,
        Fence::Rel | Fence::St => Order::Rel,
        Fence::AcqRel => Order::AcqRel,
    }
}

pub fn statics(sk: &Skeleton) -> Statics {
    let order_set = |want: &[Order]| {
        sk.select(|op| match *op {
            Op::Read { ord, .. } | Op::Write { ord, .. } => want.contains(&ord),
            Op::Fence { fence, .. } => want.contains(&fence_order(fence)),
        })
    };
    let atomic = sk.select(
        |op| matches!(op, Op::Read { ord, .. } | Op::Write { ord, .. } if *ord != Order::Na),
    );
    let sc = order_set(&[Order::Sc]);
    let rel = order_set(&[Order::Rel, Order::AcqRel, Order::Sc]);
    let acq = order_set(&[Order::Acq, Order::AcqRel, Order::Sc]);
    let (f, w) = (sk.fences, sk.writes);
    let all = sk.mem() | f;
    let sb = sk.po;
    let rs = sb.inter(sk.loc).opt(w).between(w, w & atomic);
    Statics {
        atomic,
        sc,
        sc_fence: sc & f,
        r_atomic: sk.reads & atomic,
        pre_rf: Rel::id(rel).seq(&sb.from_set(f).opt(all)).seq(&rs),
        post_rf: sb.to_set(f).opt(all).to_set(acq),
    }
}

fn c11(x: &Exec) -> Rc11 {
    let st = &x.statics.c11;
    let sb = x.sk.po;
    let sw = st.pre_rf.seq(&x.rf.to_set(st.r_atomic)).seq(&st.post_rf);
    let hb = if sw.is_empty() {
        sb
    } else {
        sb.union(sw).plus()
    };
    Rc11 {
        atomic: st.atomic,
        sc: st.sc,
        sc_fence: st.sc_fence,
        sb,
        hb,
        sw,
        eco: x.com().plus(),
    }
}

/// psc = pscb | pscf.
fn psc(x: &Exec, c: &Rc11) -> Rel {
    let sk = x.sk;
    let sbl = c.sb.minus(sk.loc);
    let scb =
        c.sb.union(sbl.seq(&c.hb).seq(&sbl))
            .union(c.hb.inter(sk.loc))
            .union(x.co)
            .union(x.fr);
    let pre = Rel::id(c.sc).union(Rel::id(c.sc_fence).seq(&c.hb));
    let post = Rel::id(c.sc).union(c.hb.seq(&Rel::id(c.sc_fence)));
    let pscf =
        c.hb.union(c.hb.seq(&c.eco).seq(&c.hb))
            .between(c.sc_fence, c.sc_fence);
    pre.seq(&scb).seq(&post).union(pscf)
}

fn coherent(c: &Rc11) -> bool {
    c.hb.is_irreflexive() && c.hb.seq(&c.eco).is_irreflexive()
}

fn psc_ok(x: &Exec, c: &Rc11) -> bool {
    c.sc == 0 || psc(x, c).is_acyclic()
}

fn thin_air_ok(x: &Exec) -> bool {
    x.sk.po.union(x.rf).is_acyclic()
}

pub fn check(x: &Exec) -> bool {
    let c = c11(x);
    coherent(&c) && psc_ok(x, &c) && thin_air_ok(x)
}

pub fn explain(x: &Exec) -> Option<Violation> {
    let c = c11(x);
    if !coherent(&c) {
        return Some(Violation {
            axiom: Axiom::Coherence,
            cycle: coherence_cycle(x, &c)?,
        });
    }
    if !psc_ok(x, &c) {
        return Some(Violation {
            axiom: Axiom::Psc,
            cycle: psc_cycle(x, &c)?,
        });
    }
    if !thin_air_ok(x) {
        let mut parts = vec![(Edge::Sb, x.sk.po)];
        parts.push((Edge::Rfe, x.ext(x.rf)));
        parts.push((Edge::Rfi, x.internal(x.rf)));
        return Some(Violation {
            axiom: Axiom::NoThinAir,
            cycle: shortest_cycle(&parts)?,
        });
    }
    None
}

/// The shortest cycle of the shape `(sb | sw)+ ; (rf | co | fr)*` — one
/// happens-before stretch, then at most one stretch of eco — which is what
/// `irreflexive hb; eco?` forbids.
fn coherence_cycle(x: &Exec, c: &Rc11) -> Option<Vec<Step>> {
    let hb_parts = [(Edge::Sb, c.sb), (Edge::Sw, c.sw.minus(c.sb))];
    let eco_parts = x.com_parts();
    let n = x.sk.len();
    let mut best: Option<Vec<Step>> = None;
    for s in 0..n {
        // Breadth-first over (event, phase): phase 0 = inside hb, 1 = inside eco.
        let mut prev: Vec<[Option<(usize, usize, Edge)>; 2]> = vec![[None, None]; n];
        let mut frontier: Vec<(usize, usize)> = Vec::new();
        for (edge, rel) in hb_parts.iter() {
            for b in super::members(rel.rows[s]) {
                if prev[b][0].is_none() {
                    prev[b][0] = Some((s, 2, *edge));
                    frontier.push((b, 0));
                }
            }
        }
        let mut found = None;
        while !frontier.is_empty() && found.is_none() {
            if let Some((a, p)) = frontier.iter().copied().find(|&(a, _)| a == s) {
                found = Some((a, p));
                break;
            }
            let mut next = Vec::new();
            for &(a, p) in &frontier {
                let mut go = |parts: &[(Edge, Rel)], q: usize| {
                    for (edge, rel) in parts {
                        for b in super::members(rel.rows[a]) {
                            if prev[b][q].is_none() {
                                prev[b][q] = Some((a, p, *edge));
                                next.push((b, q));
                            }
                        }
                    }
                };
                if p == 0 {
                    go(&hb_parts, 0);
                }
                go(&eco_parts, 1);
            }
            frontier = next;
        }
        let Some((mut at, mut phase)) = found else {
            continue;
        };
        let mut steps = Vec::new();
        loop {
            let (from, from_phase, edge) = prev[at][phase]?;
            steps.push(Step {
                from: from as u8,
                to: at as u8,
                edge,
            });
            if from_phase == 2 {
                break;
            }
            at = from;
            phase = from_phase;
        }
        steps.reverse();
        if best.as_ref().is_none_or(|b| steps.len() < b.len()) {
            best = Some(steps);
        }
    }
    best
}

/// A data race in a consistent execution, herd's `dr`: two accesses to the
/// same location on different threads, at least one a write and one
/// non-atomic, not ordered by hb either way (initial writes excluded).
pub fn race(x: &Exec) -> Option<(u8, u8)> {
    let c = c11(x);
    let sk = x.sk;
    let accesses = sk.mem() & !sk.init;
    let w = sk.writes & !sk.init;
    let conflicting = Rel::cross(w, accesses).union(Rel::cross(accesses, w));
    let dr = x
        .ext(conflicting.inter(sk.loc))
        .minus(c.hb)
        .minus(c.hb.inverse())
        .minus(Rel::cross(c.atomic, c.atomic));
    let first = dr.pairs().find(|(a, b)| a < b);
    first.map(|(a, b)| (a as u8, b as u8))
}

/// A piece of a psc edge, to be spelled out in base edges.
#[derive(Clone, Copy)]
enum Seg {
    Sb,
    SbNotLoc,
    Hb,
    HbLoc,
    Co,
    Fr,
    Eco,
}

/// The shortest psc cycle, each psc edge spelled out as the sb, sw, rf, co
/// and fr edges that make it.
fn psc_cycle(x: &Exec, c: &Rc11) -> Option<Vec<Step>> {
    use Seg::*;
    let nodes = shortest_cycle_nodes(&psc(x, c))?;
    let (sc, scf) = (c.sc, c.sc_fence);
    let mut cycle = Vec::new();
    for (i, &a) in nodes.iter().enumerate() {
        let b = nodes[(i + 1) % nodes.len()];
        let mut best: Option<Vec<Step>> = None;
        let scbs: [&[Seg]; 5] = [&[Sb], &[SbNotLoc, Hb, SbNotLoc], &[HbLoc], &[Co], &[Fr]];
        let mut tries: Vec<Vec<Seg>> = Vec::new();
        for pre in [&[][..], &[Hb][..]] {
            for post in [&[][..], &[Hb][..]] {
                let from_ok = if pre.is_empty() { sc } else { scf };
                let to_ok = if post.is_empty() { sc } else { scf };
                if from_ok & (1 << a) == 0 || to_ok & (1 << b) == 0 {
                    continue;
                }
                for scb in scbs {
                    tries.push([pre, scb, post].concat());
                }
            }
        }
        if scf & (1 << a) != 0 && scf & (1 << b) != 0 {
            tries.push(vec![Hb]);
            tries.push(vec![Hb, Eco, Hb]);
        }
        for segs in tries {
            if let Some(path) = chain(x, c, &segs, a, b) {
                if best.as_ref().is_none_or(|p| path.len() < p.len()) {
                    best = Some(path);
                }
            }
        }
        cycle.extend(best?);
    }
    Some(cycle)
}

fn seg_rel(x: &Exec, c: &Rc11, s: Seg) -> Rel {
    match s {
        Seg::Sb => c.sb,
        Seg::SbNotLoc => c.sb.minus(x.sk.loc),
        Seg::Hb => c.hb,
        Seg::HbLoc => c.hb.inter(x.sk.loc),
        Seg::Co => x.co,
        Seg::Fr => x.fr,
        Seg::Eco => c.eco,
    }
}

/// A path from `a` to `b` through the segments in turn, in base edges.
fn chain(x: &Exec, c: &Rc11, segs: &[Seg], a: usize, b: usize) -> Option<Vec<Step>> {
    let Some((&first, rest)) = segs.split_first() else {
        return (a == b).then(Vec::new);
    };
    let all = x.sk.mem() | x.sk.fences;
    let rest_rel = rest
        .iter()
        .fold(Rel::id(all), |r, s| r.seq(&seg_rel(x, c, *s)));
    for u in members(seg_rel(x, c, first).rows[a]) {
        if rest_rel.has(u, b) {
            let mut path = spell(x, c, first, a, u)?;
            path.extend(chain(x, c, rest, u, b)?);
            return Some(path);
        }
    }
    None
}

/// One segment from `a` to `b` in base edges: hb as sb and sw steps, eco as rf, co and fr.
fn spell(x: &Exec, c: &Rc11, s: Seg, a: usize, b: usize) -> Option<Vec<Step>> {
    let step = |edge| {
        vec![Step {
            from: a as u8,
            to: b as u8,
            edge,
        }]
    };
    let ext = |r: Rel| !x.sk.int.has(a, b) && r.has(a, b);
    Some(match s {
        Seg::Sb | Seg::SbNotLoc => step(Edge::Sb),
        Seg::Co => step(if ext(x.co) { Edge::Coe } else { Edge::Coi }),
        Seg::Fr => step(if ext(x.fr) { Edge::Fre } else { Edge::Fri }),
        Seg::Hb | Seg::HbLoc => path(&[(Edge::Sb, c.sb), (Edge::Sw, c.sw)], a, b)?,
        Seg::Eco => path(&x.com_parts(), a, b)?,
    })
}

/// A shortest path from `a` to `b` over labelled relations.
fn path(parts: &[(Edge, Rel)], a: usize, b: usize) -> Option<Vec<Step>> {
    let all = parts.iter().fold(Rel::EMPTY, |r, (_, p)| r.union(*p));
    let mut parent = [usize::MAX; 32];
    let mut seen: u32 = 1 << a;
    let mut frontier: u32 = 1 << a;
    while frontier != 0 && seen & (1 << b) == 0 {
        let mut next = 0;
        for u in members(frontier) {
            for v in members(all.rows[u] & !seen) {
                parent[v] = u;
                seen |= 1 << v;
                next |= 1 << v;
            }
        }
        frontier = next;
    }
    if seen & (1 << b) == 0 {
        return None;
    }
    let mut steps = Vec::new();
    let mut at = b;
    while at != a {
        let from = parent[at];
        let edge = parts
            .iter()
            .find(|(_, r)| r.has(from, at))
            .map(|(e, _)| *e)?;
        steps.push(Step {
            from: from as u8,
            to: at as u8,
            edge,
        });
        at = from;
    }
    steps.reverse();
    Some(steps)
}
