//! ARMv8 (AArch64), other-multi-copy-atomic, following herdtools7
//! `herd/libdir/aarch64.cat` and the files it includes (`aarch64hwreqs.cat`
//! for dob/bob/lob, `aarch64util.cat`), restricted to the instructions a
//! test here can use: LDR/STR, LDAR (`R.acq`, `R.sc`), STLR (`W.rel`,
//! `W.sc`), DMB ISH/ISHLD/ISHST and register dependencies. No RMWs, so `aob` and
//! the `atomic` check are empty; no ISB, so the ISB clauses of `dob` vanish.
//!
//! ```text
//! acyclic po-loc | ca | rf as internal
//! let obs = rfe | fre | coe
//! let lws = po-loc; [W]                            (* local write successor *)
//! let lrs = [W]; (po-loc \ (po-loc; [W]; po-loc)); [R]   (* local read successor *)
//! let dob = addr | data | ctrl; [W] | addr; po; [W]
//!         | addr; lrs | data; lrs
//! let bob = po; [dmb.full]; po | [R]; po; [dmb.ld]; po
//!         | [W]; po; [dmb.st]; po; [W]
//!         | [L]; po; [A] | [A]; po | po; [L]
//! let lob = (lws | dob | bob)+
//! let ob = (obs | lob | [R]; po-loc; [R]; fre)+
//! irreflexive ob as external
//! ```
//!
//! The internal axiom is written as in herdtools7's 2019 `aarch64.cat`; the
//! current file spells it as five separate coherence checks plus the hazard
//! clause of `ob`, which forbid the same executions (they are the five
//! SC-per-location shapes of Alglave et al., "Herding cats", TOPLAS 2014).
//!
//! C11 fences map as Arm's C/C++ atomics ABI does (ARM-software/abi-aa,
//! `atomicsabi64`): an acquire fence is DMB ISHLD; release, acq_rel and
//! seq_cst fences are DMB ISH. aarch64.cat treats ISH and SY alike; the
//! demo names them as the mapping writes them, DMB ISH, ISHLD and ISHST.

use super::super::ast::{Fence, Op, Order};
use super::super::events::Skeleton;
use super::super::rel::{Rel, Set};
use super::{shortest_cycle, Axiom, Edge, Exec, Violation};

struct Sets {
    /// LDAR: acquire loads.
    acq: Set,
    /// STLR: release stores.
    rel: Set,
    dmb_full: Set,
    dmb_ld: Set,
    dmb_st: Set,
}

fn sets(sk: &Skeleton) -> Sets {
    let fence = |want: &[Fence]| {
        sk.select(|op| matches!(op, Op::Fence { fence, .. } if want.contains(fence)))
    };
    Sets {
        acq: sk.select(|op| {
            matches!(
                op,
                Op::Read {
                    ord: Order::Acq | Order::Sc,
                    ..
                }
            )
        }),
        rel: sk.select(|op| {
            matches!(
                op,
                Op::Write {
                    ord: Order::Rel | Order::Sc,
                    ..
                }
            )
        }),
        dmb_full: fence(&[Fence::Full, Fence::Sc, Fence::Rel, Fence::AcqRel]),
        dmb_ld: fence(&[Fence::Ld, Fence::Acq]),
        dmb_st: fence(&[Fence::St]),
    }
}

fn internal(x: &Exec) -> Rel {
    x.po_loc.union(x.com())
}

/// The parts of lob fixed by the text (dob, bob, lws), labelled, between memory events.
fn static_parts(sk: &Skeleton) -> Vec<(Edge, Rel)> {
    let s = sets(sk);
    let (r, w) = (sk.reads, sk.writes);
    let m = r | w;
    let po = sk.po;
    let po_loc = po.inter(sk.loc);
    let through = |f: Set| po.to_set(f).seq(&po);
    let lrs = po_loc.minus(po_loc.to_set(w).seq(&po_loc)).between(w, r);
    let dep_lrs = sk.addr.union(sk.data).seq(&lrs);
    let parts = vec![
        (Edge::DobAddr, sk.addr),
        (Edge::DobData, sk.data),
        (Edge::DobCtrl, sk.ctrl.to_set(w)),
        (Edge::DobAddrPo, sk.addr.seq(&po).to_set(w)),
        (Edge::DobLrs, dep_lrs),
        (Edge::BobDmb, through(s.dmb_full)),
        (Edge::BobDmbLd, through(s.dmb_ld).from_set(r)),
        (Edge::BobDmbSt, through(s.dmb_st).between(w, w)),
        (Edge::BobRelAcq, po.between(s.rel, s.acq)),
        (Edge::BobAcq, po.from_set(s.acq)),
        (Edge::BobRel, po.to_set(s.rel)),
        (Edge::Lws, po_loc.to_set(w)),
    ];
    parts
        .into_iter()
        .map(|(e, rel)| (e, rel.between(m, m)))
        .collect()
}

pub fn statics(sk: &Skeleton) -> Rel {
    static_parts(sk)
        .iter()
        .fold(Rel::EMPTY, |a, (_, r)| a.union(*r))
}

/// `[R]; po-loc; [R]; fre`.
fn haz(x: &Exec) -> Rel {
    let r = x.sk.reads;
    x.po_loc.between(r, r).seq(&x.ext(x.fr))
}

/// All the parts of ob before closure, labelled.
fn ob_parts(x: &Exec) -> Vec<(Edge, Rel)> {
    let mut parts = vec![
        (Edge::Rfe, x.ext(x.rf)),
        (Edge::Fre, x.ext(x.fr)),
        (Edge::Coe, x.ext(x.co)),
    ];
    parts.extend(static_parts(x.sk));
    parts.push((Edge::Haz, haz(x)));
    parts
}

pub fn check(x: &Exec) -> bool {
    internal(x).is_acyclic()
        && x.statics
            .arm
            .union(x.ext(x.com()))
            .union(haz(x))
            .is_acyclic()
}

pub fn explain(x: &Exec) -> Option<Violation> {
    if !internal(x).is_acyclic() {
        let mut parts = vec![(Edge::PoLoc, x.po_loc)];
        parts.extend(x.com_parts());
        return Some(Violation {
            axiom: Axiom::Internal,
            cycle: shortest_cycle(&parts)?,
        });
    }
    Some(Violation {
        axiom: Axiom::External,
        cycle: shortest_cycle(&ob_parts(x))?,
    })
}
