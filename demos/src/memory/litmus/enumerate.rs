//! Candidate executions: every choice of reads-from (each read takes its
//! value from some write to its location, the initial one included) and of
//! coherence order (a total order of each location's writes, the initial
//! write first). Locations are independent, so the choices are made per
//! location and combined.
//!
//! Small tests get every candidate. When that space is large, only the
//! choices that keep each location sequentially consistent are generated —
//! all four models demand SC per location (SC; x86tso.cat `uniproc`;
//! aarch64.cat `internal`; rc11.cat `coherence1`), so no allowed execution is
//! lost — much as herd does (its `-speedcheck`/uniproc pruning). The five
//! shapes such a choice must avoid are those of Alglave, Maranget &
//! Tautschnig, "Herding cats" (TOPLAS 2014) §4: coWW, coRW1, coRW2, coWR, coRR.

use super::events::Skeleton;
use super::rel::{members, Rel};

/// Tests with at most this many candidates are enumerated in full, so even a
/// coherence violation is shown with its own cycle.
pub const FULL_LIMIT: u64 = 4_096;
/// Most (coherent) candidates a test may have.
pub const MAX_CANDIDATES: u64 = 50_000;

/// One location's share of a candidate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocChoice {
    /// The location's writes in coherence order, the initial write first.
    pub co: Vec<u8>,
    /// (read, write it reads from) for the location's reads.
    pub rf: Vec<(u8, u8)>,
    /// Does the location behave sequentially (no po-loc ∪ rf ∪ co ∪ fr cycle)?
    pub coherent: bool,
    pub co_rel: Rel,
    pub rf_rel: Rel,
}

/// All candidates, as a product of per-location choices.
#[derive(Clone, Debug)]
pub struct Space {
    pub per_loc: Vec<Vec<LocChoice>>,
    /// True when incoherent choices were left out.
    pub pruned: bool,
}

impl Space {
    pub fn count(&self) -> u64 {
        self.per_loc.iter().map(|c| c.len() as u64).product()
    }
}

fn factorial(n: u64) -> u64 {
    (1..=n).fold(1u64, |a, k| a.saturating_mul(k))
}

/// Builds the candidate space, or says why the test is too big to explore.
pub fn space(sk: &Skeleton) -> Result<Space, String> {
    space_with(sk, full_count(sk) > FULL_LIMIT)
}

/// How many candidates a full enumeration has (saturating).
pub fn full_count(sk: &Skeleton) -> u64 {
    (0..sk.locs)
        .map(|l| {
            let at = sk.at_loc[l];
            let w = (at & sk.writes).count_ones() as u64;
            let r = (at & sk.reads).count_ones();
            factorial(w - 1).saturating_mul(w.saturating_pow(r))
        })
        .fold(1u64, |a, b| a.saturating_mul(b))
}

/// Builds the candidate space, all of it or (`pruned`) only the choices that
/// keep every location sequentially consistent.
pub fn space_with(sk: &Skeleton, pruned: bool) -> Result<Space, String> {
    let mut per_loc = Vec::new();
    let mut product: u64 = 1;
    for l in 0..sk.locs {
        let mut choices = Vec::new();
        generate(sk, l, pruned, &mut choices)?;
        product = product.saturating_mul(choices.len() as u64);
        if product > MAX_CANDIDATES {
            return Err(format!(
                "this test has more than {MAX_CANDIDATES} candidate executions, too many to check here: use fewer stores and loads on the same location"
            ));
        }
        per_loc.push(choices);
    }
    Ok(Space { per_loc, pruned })
}

/// Generates location `l`'s choices (all, or only coherent ones).
fn generate(sk: &Skeleton, l: usize, pruned: bool, out: &mut Vec<LocChoice>) -> Result<(), String> {
    let at = sk.at_loc[l];
    let init = at & sk.init;
    let writes: Vec<usize> = members(at & sk.writes & !init).collect();
    let reads: Vec<usize> = members(at & sk.reads).collect();
    let init = init.trailing_zeros() as usize;
    let mut order = Vec::new();
    let mut used = vec![false; writes.len()];
    let complete = orders(
        sk,
        &writes,
        pruned,
        &mut order,
        &mut used,
        &mut |co_order: &[usize]| {
            let mut co = vec![init];
            co.extend_from_slice(co_order);
            let mut rf = vec![0usize; reads.len()];
            sources(
                sk,
                &co,
                &reads,
                0,
                pruned,
                &mut rf,
                &mut |rf: &[usize]| {
                    out.push(choice(sk, &co, &reads, rf));
                    out.len() as u64 <= MAX_CANDIDATES
                },
            )
        },
    );
    if !complete {
        return Err(format!(
            "this test has more than {MAX_CANDIDATES} candidate executions, too many to check here: use fewer stores and loads on the same location"
        ));
    }
    Ok(())
}

/// Every order of `writes` (only those keeping each thread's program order
/// when pruning: coWW). Stops, returning false, as soon as `emit` does.
fn orders(
    sk: &Skeleton,
    writes: &[usize],
    pruned: bool,
    order: &mut Vec<usize>,
    used: &mut [bool],
    emit: &mut dyn FnMut(&[usize]) -> bool,
) -> bool {
    if order.len() == writes.len() {
        return emit(order);
    }
    for i in 0..writes.len() {
        if used[i] {
            continue;
        }
        let w = writes[i];
        // coWW: a write may not come before an unplaced write po-before it.
        if pruned
            && writes
                .iter()
                .enumerate()
                .any(|(j, &v)| !used[j] && j != i && sk.po.has(v, w))
        {
            continue;
        }
        used[i] = true;
        order.push(w);
        let go_on = orders(sk, writes, pruned, order, used, emit);
        order.pop();
        used[i] = false;
        if !go_on {
            return false;
        }
    }
    true
}

/// Every reads-from assignment for `reads[k..]` given the coherence order.
fn sources(
    sk: &Skeleton,
    co: &[usize],
    reads: &[usize],
    k: usize,
    pruned: bool,
    rf: &mut Vec<usize>,
    emit: &mut dyn FnMut(&[usize]) -> bool,
) -> bool {
    if k == reads.len() {
        return emit(rf);
    }
    let r = reads[k];
    for &w in co {
        if pruned && !allowed_source(sk, co, reads, rf, k, r, w) {
            continue;
        }
        rf[k] = w;
        if !sources(sk, co, reads, k + 1, pruned, rf, emit) {
            return false;
        }
    }
    true
}

/// May read `r` take its value from `w`, given the sources chosen for the
/// earlier reads, without breaking SC on this location?
fn allowed_source(
    sk: &Skeleton,
    co: &[usize],
    reads: &[usize],
    rf: &[usize],
    k: usize,
    r: usize,
    w: usize,
) -> bool {
    let pos = |e: usize| co.iter().position(|&v| v == e).unwrap_or(0);
    // coRW1: not from a write po-after the read.
    if sk.po.has(r, w) {
        return false;
    }
    let p = pos(w);
    for &v in &co[1..] {
        // coWR: not from before a write the thread did earlier.
        if sk.po.has(v, r) && p < pos(v) {
            return false;
        }
        // coRW2: not from after a write the thread does later.
        if sk.po.has(r, v) && p >= pos(v) {
            return false;
        }
    }
    // coRR: not older than what an earlier read of the thread saw.
    reads[..k]
        .iter()
        .zip(rf)
        .all(|(&r0, &w0)| !sk.po.has(r0, r) || p >= pos(w0))
}

fn choice(sk: &Skeleton, co: &[usize], reads: &[usize], rf: &[usize]) -> LocChoice {
    let mut co_rel = Rel::EMPTY;
    for (i, &a) in co.iter().enumerate() {
        for &b in &co[i + 1..] {
            co_rel.add(a, b);
        }
    }
    let mut rf_rel = Rel::EMPTY;
    for (&r, &w) in reads.iter().zip(rf) {
        rf_rel.add(w, r);
    }
    let fr = rf_rel.inverse().seq(&co_rel);
    let coherent = sk
        .po
        .inter(sk.loc)
        .union(rf_rel)
        .union(co_rel)
        .union(fr)
        .is_acyclic();
    LocChoice {
        co: co.iter().map(|&e| e as u8).collect(),
        rf: reads
            .iter()
            .zip(rf)
            .map(|(&r, &w)| (r as u8, w as u8))
            .collect(),
        coherent,
        co_rel,
        rf_rel,
    }
}

/// The values every memory event reads or writes, or `None` when they
/// depend on each other in a circle (a value out of thin air: every model
/// forbids the po ∪ rf cycle that such a circle needs).
pub fn values(sk: &Skeleton, rf_src: &[u8]) -> Option<Vec<u8>> {
    use super::ast::{Op, Value};
    let n = sk.len();
    let mut val = vec![0u8; n];
    let mut known: u32 = sk.init;
    let mem = sk.mem();
    while known & mem != mem {
        let before = known;
        for e in members(mem & !known) {
            let v = match sk.events[e].op {
                Some(Op::Read { .. }) => {
                    let src = rf_src[e] as usize;
                    (known & (1 << src) != 0).then(|| val[src])
                }
                Some(Op::Write {
                    value: Value::Const(c),
                    ..
                }) => Some(c),
                Some(Op::Write {
                    value: Value::Reg(r),
                    ..
                }) => {
                    let src = sk.reg_event[r as usize] as usize;
                    (known & (1 << src) != 0).then(|| val[src])
                }
                _ => None,
            };
            if let Some(v) = v {
                val[e] = v;
                known |= 1 << e;
            }
        }
        if known == before {
            return None;
        }
    }
    Some(val)
}
