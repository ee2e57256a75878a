//! x86-TSO, following herdtools7 `herd/libdir/x86tso.cat` (Owens, Sarkar &
//! Sewell, TPHOLs 2009; Sewell et al., "x86-TSO", CACM 53(7) 2010):
//!
//! ```text
//! acyclic po-loc | amo | com                       (* uniproc *)
//! let po_ghb = WW(po) | RM(po)
//! let implied = MA(WR(po)) | AM(WR(po))             (* A = locked accesses *)
//! let ghb = mfence | implied | po_ghb | rfe | fr | co
//! acyclic ghb as tso
//! ```
//!
//! Mapping of the test's operations to x86 (C/C++11 mappings, Sewell et al.,
//! <https://www.cl.cam.ac.uk/~pes20/cpp/cpp0xmappings.html>): every load is a
//! MOV; a store is a MOV except `W.sc`, which is `XCHG` — a locked
//! instruction, so it is in `A`; `F` and `F.sc` are MFENCE; acquire, release
//! and acq_rel fences compile to no instruction at all (TSO already keeps
//! that order; they still stop the compiler moving accesses across them); `F.ld` / `F.st` are
//! LFENCE / SFENCE, which x86tso.cat defines but leaves out of ghb (they order
//! nothing for ordinary write-back memory). Dependencies change nothing on TSO.
//!
//! `XCHG` is really a locked read and write of the same location. We keep
//! only its write: every ghb path through the read part also runs through
//! the write part (the read is po-before the write, reads the co-previous
//! write, and is a locked access too), so acyclicity is unchanged and the
//! `atomic` check (`rmw & (fre; coe)` empty) holds by construction.

use super::super::ast::{Fence, Op, Order};
use super::super::events::Skeleton;
use super::super::rel::Rel;
use super::{shortest_cycle, Axiom, Edge, Exec, Violation};

/// Locked stores (`W.sc` = XCHG).
fn locked(sk: &Skeleton) -> u32 {
    sk.select(|op| matches!(op, Op::Write { ord: Order::Sc, .. }))
}

/// `po; [MFENCE]; po`.
fn mfence(sk: &Skeleton) -> Rel {
    let fences = sk.select(|op| {
        matches!(
            op,
            Op::Fence {
                fence: Fence::Full | Fence::Sc,
                ..
            }
        )
    });
    sk.po.to_set(fences).seq(&sk.po)
}

/// The parts of ghb fixed by the text: ppo, mfence and implied.
fn static_parts(sk: &Skeleton) -> [(Edge, Rel); 3] {
    let (r, w) = (sk.reads, sk.writes);
    let m = r | w;
    let po_ghb = sk.po.between(w, w).union(sk.po.between(r, m));
    // WR(po) with a locked end; only the store of XCHG exists here.
    let implied = sk.po.between(w & locked(sk), r);
    [
        (Edge::Po, po_ghb),
        (Edge::Mfence, mfence(sk).between(m, m)),
        (Edge::Locked, implied),
    ]
}

pub fn statics(sk: &Skeleton) -> Rel {
    static_parts(sk)
        .iter()
        .fold(Rel::EMPTY, |a, (_, r)| a.union(*r))
}

/// The parts of ghb, labelled for explanations.
fn ghb_parts(x: &Exec) -> Vec<(Edge, Rel)> {
    let mut parts = static_parts(x.sk).to_vec();
    parts.extend([
        (Edge::Rfe, x.ext(x.rf)),
        (Edge::Coe, x.ext(x.co)),
        (Edge::Coi, x.internal(x.co)),
        (Edge::Fre, x.ext(x.fr)),
        (Edge::Fri, x.internal(x.fr)),
    ]);
    parts
}

fn uniproc(x: &Exec) -> Rel {
    x.po_loc.union(x.com())
}

pub fn check(x: &Exec) -> bool {
    uniproc(x).is_acyclic()
        && x.statics
            .tso
            .union(x.ext(x.rf))
            .union(x.co)
            .union(x.fr)
            .is_acyclic()
}

pub fn explain(x: &Exec) -> Option<Violation> {
    if !uniproc(x).is_acyclic() {
        let mut parts = vec![(Edge::PoLoc, x.po_loc)];
        parts.extend(x.com_parts());
        return Some(Violation {
            axiom: Axiom::Uniproc,
            cycle: shortest_cycle(&parts)?,
        });
    }
    let cycle = shortest_cycle(&ghb_parts(x))?;
    Some(Violation {
        axiom: Axiom::Tso,
        cycle,
    })
}
