//! Verdicts in words: events named herd's way (a, b, c… in thread order),
//! outcomes as `r1=1, r2=0`, cycles as `a: W x=1 -po-> b: W y=1 -rfe-> …`.

use super::analysis::{Analysis, Row, Status, Verdict};
use super::ast::Op;
use super::events::Skeleton;
use super::models::{MemModel, Violation};

/// The event's letter: `a`, `b`, … for operations; initial writes are `init`.
pub fn letter(sk: &Skeleton, e: usize) -> String {
    if e < sk.locs {
        "init".into()
    } else {
        let i = e - sk.locs;
        let c = (b'a' + (i % 26) as u8) as char;
        c.to_string()
    }
}

/// An event with the value it reads or writes, e.g. `c: R y=1`.
pub fn event_text(a: &Analysis, e: usize, values: &[u8]) -> String {
    let sk = &a.skeleton;
    let Some(ev) = sk.events.get(e) else {
        return String::new();
    };
    let value = values.get(e).copied().unwrap_or(0);
    let loc = |l: u8| a.test.locs[l as usize].as_str();
    match ev.op {
        None => format!("init {}={value}", loc(ev.loc.unwrap_or(0))),
        Some(op @ Op::Fence { .. }) => {
            let text = a.test.op_text(&op);
            let head = text.split(' ').next().unwrap_or("F");
            format!("{}: {head}", letter(sk, e))
        }
        Some(Op::Read { loc: l, .. }) => format!("{}: R {}={value}", letter(sk, e), loc(l)),
        Some(Op::Write { loc: l, .. }) => format!("{}: W {}={value}", letter(sk, e), loc(l)),
    }
}

/// A cycle edge by edge, back to its start.
pub fn cycle_text(a: &Analysis, v: &Violation, values: &[u8]) -> String {
    let mut out = String::new();
    for step in &v.cycle {
        out.push_str(&event_text(a, step.from as usize, values));
        out.push_str(&format!(" -{}-> ", step.edge.token()));
    }
    if let Some(first) = v.cycle.first() {
        out.push_str(&letter(&a.skeleton, first.from as usize));
    }
    out
}

/// An outcome as `r1=1, r2=0, x=2`.
pub fn outcome_text(a: &Analysis, row: &Row) -> String {
    let regs = a
        .test
        .regs
        .iter()
        .zip(&row.regs)
        .map(|(r, v)| format!("{r}={v}"));
    let mem = a
        .mem_locs
        .iter()
        .zip(&row.mem)
        .map(|(l, v)| format!("{}={v}", a.test.locs[*l as usize]));
    regs.chain(mem).collect::<Vec<_>>().join(", ")
}

/// One sentence on why a model gives the `exists` condition its verdict.
pub fn verdict_sentence(a: &Analysis, model: MemModel) -> String {
    let m = model.label();
    let cond = a.test.cond_text(&a.test.cond);
    match a.verdict(model) {
        Verdict::Undefined => {
            let (x, y) = a.race.unwrap_or((0, 0));
            let sk = &a.skeleton;
            let loc = sk.events[x as usize].loc.unwrap_or(0);
            format!(
                "{m}: undefined behaviour. {} and {} both touch {}, one of them non-atomic and at least one a store, and neither happens before the other: a data race.",
                letter(sk, x as usize),
                letter(sk, y as usize),
                a.test.locs[loc as usize]
            )
        }
        Verdict::Allowed => format!(
            "{m} allows {cond}: an execution obeying every {m} rule ends this way."
        ),
        Verdict::Forbidden => match a.condition_row(model) {
            None if a.pruned => format!(
                "No execution ends with {cond} without breaking the order of writes to one location, which every model forbids."
            ),
            None => format!(
                "No execution at all ends with {cond}: the values it names are never produced."
            ),
            Some(row) => forbidden_sentence(a, model, row),
        },
    }
}

/// Why a model forbids one outcome, from its best witness.
pub fn forbidden_sentence(a: &Analysis, model: MemModel, row: &Row) -> String {
    let cell = &row.cells[model.index()];
    let (Some(v), Some(w)) = (&cell.violation, &cell.witness) else {
        return match cell.status {
            Status::Racy => format!(
                "{} reaches {} only through a data race.",
                model.label(),
                outcome_text(a, row)
            ),
            _ => format!("{} allows {}.", model.label(), outcome_text(a, row)),
        };
    };
    format!(
        "{} forbids {}: the cycle {} ({}) breaks `{}`: {}.",
        model.label(),
        outcome_text(a, row),
        v.cycle_name(),
        cycle_text(a, v, &w.values),
        v.axiom.name(),
        v.axiom.demands()
    )
}

/// How two models' allowed outcomes compare on this test, computed from the
/// rows: no model is assumed weaker than another. Over all tests only SC is
/// below the others. ARMv8 allows LB, which TSO and RC11 forbid, yet it
/// forbids SB with STLR then LDAR (TSO's plain MOVs allow it) and
/// IRIW+acqs (RC11 allows it).
pub fn comparison(a: &Analysis, first: MemModel, second: MemModel) -> String {
    let (f, s) = (first.label(), second.label());
    match (only(a, first, second), only(a, second, first)) {
        (0, 0) => format!("{f} and {s} allow the same outcomes"),
        (0, n) => format!("{s} allows every outcome {f} does, and {n} more"),
        (n, 0) => format!("{f} allows every outcome {s} does, and {n} more"),
        (m, n) => format!("{f} and {s} each allow outcomes the other forbids ({m} and {n})"),
    }
}

/// Outcomes of this test that `model` allows and `other` does not.
fn only(a: &Analysis, model: MemModel, other: MemModel) -> usize {
    let allows = |r: &Row, m: MemModel| r.cells[m.index()].status == Status::Allowed;
    a.rows
        .iter()
        .filter(|r| allows(r, model) && !allows(r, other))
        .count()
}

/// True when, on this test, `model` allows every outcome `than` allows and
/// at least one more: only then is switching to it "weakening".
pub fn weaker_here(a: &Analysis, model: MemModel, than: MemModel) -> bool {
    only(a, model, than) > 0 && only(a, than, model) == 0
}

/// The comparisons the explorer prints: each model against the next in
/// [`MemModel::ALL`], skipping RC11 when a data race leaves it no outcomes.
pub fn comparisons(a: &Analysis) -> Vec<String> {
    MemModel::ALL
        .windows(2)
        .filter(|w| !w.contains(&MemModel::Rc11) || a.verdict(MemModel::Rc11) != Verdict::Undefined)
        .map(|w| comparison(a, w[0], w[1]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::litmus::catalogue::find;
    use crate::memory::litmus::parse;

    fn analyse(name: &str) -> Analysis {
        Analysis::of(&parse(find(name).unwrap().text).unwrap()).unwrap()
    }

    #[test]
    fn mp_under_tso_names_the_textbook_cycle() {
        let a = analyse("MP");
        let s = verdict_sentence(&a, MemModel::Tso);
        assert_eq!(
            s,
            "TSO forbids r1=1, r2=0: the cycle po ; rfe ; po ; fre (a: W x=1 -po-> b: W y=1 -rfe-> c: R y=1 -po-> d: R x=0 -fre-> a) breaks `tso`: global happens-before (ghb) must have no cycle."
        );
        assert!(verdict_sentence(&a, MemModel::Armv8).starts_with("ARMv8 allows r1=1 /\\ r2=0"));
    }

    #[test]
    fn a_race_is_named_with_its_events() {
        let a = analyse("MP+na");
        assert!(verdict_sentence(&a, MemModel::Rc11)
            .starts_with("RC11: undefined behaviour. a and d both touch x"));
    }
    #[test]
    fn comparisons_are_computed_and_find_rc11_and_armv8_incomparable_both_ways() {
        // LB: ARMv8 allows r1=1, r2=1; RC11 forbids it (no-thin-air).
        let lb = analyse("LB");
        assert_eq!(
            comparison(&lb, MemModel::Armv8, MemModel::Rc11),
            "ARMv8 allows every outcome RC11 does, and 1 more"
        );
        // IRIW+acqs: RC11 allows the readers to disagree; ARMv8 forbids it.
        let iriw = analyse("IRIW+acqs");
        assert_eq!(
            comparison(&iriw, MemModel::Armv8, MemModel::Rc11),
            "RC11 allows every outcome ARMv8 does, and 1 more"
        );
        assert_eq!(
            comparisons(&analyse("SB")),
            [
                "TSO allows every outcome SC does, and 1 more",
                "TSO and ARMv8 allow the same outcomes",
                "ARMv8 and RC11 allow the same outcomes"
            ]
        );
        assert_eq!(
            comparisons(&analyse("MP+na")).len(),
            2,
            "RC11 is undefined there"
        );
    }
    /// Issue 30: on this language TSO is not always stronger than ARMv8:
    /// STLR then LDAR stay in order on Arm, while x86 compiles both to MOV.
    #[test]
    fn weaker_is_decided_per_test() {
        let mp = analyse("MP");
        assert!(weaker_here(&mp, MemModel::Armv8, MemModel::Tso));
        assert!(!weaker_here(&mp, MemModel::Tso, MemModel::Armv8));
        let text = "name SB+rel+acq\nthread W.rel x 1; R.acq y r1\nthread W.rel y 1; R.acq x r2\nexists r1=0 /\\ r2=0\n";
        let sb = Analysis::of(&parse(text).unwrap()).unwrap();
        assert!(!weaker_here(&sb, MemModel::Armv8, MemModel::Tso));
        assert_eq!(
            comparison(&sb, MemModel::Tso, MemModel::Armv8),
            "TSO allows every outcome ARMv8 does, and 1 more"
        );
    }
}
