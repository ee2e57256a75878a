//! Property tests of the litmus engine: the parser never panics and prints
//! what it reads; the models nest as the theory says; SC allows no cyclic
//! execution; pruning the candidate space loses nothing any model allows.

use demos::memory::litmus::analysis::Status;
use demos::memory::litmus::catalogue::CATALOGUE;
use demos::memory::litmus::enumerate::space_with;
use demos::memory::litmus::events::Skeleton;
use demos::memory::litmus::models::{check, Exec, Statics};
use demos::memory::litmus::rel::Rel;
use demos::memory::litmus::{parse, Analysis, MemModel, Test, Verdict};
use demos::memory::reordering::reachable;
use proptest::prelude::*;
use std::collections::BTreeSet;

/// One generated operation: each number picks among the choices that are
/// valid where it lands, so every generated test parses.
#[derive(Clone, Debug)]
struct OpSpec {
    kind: u8,
    loc: u8,
    val: u8,
    ord: u8,
    dep: u8,
}

fn op_spec() -> impl Strategy<Value = OpSpec> {
    (0u8..3, 0u8..3, 1u8..3, 0u8..8, 0u8..8).prop_map(|(kind, loc, val, ord, dep)| OpSpec {
        kind,
        loc,
        val,
        ord,
        dep,
    })
}

fn threads(max_threads: usize, max_ops: usize) -> impl Strategy<Value = Vec<Vec<OpSpec>>> {
    prop::collection::vec(
        prop::collection::vec(op_spec(), 1..=max_ops),
        1..=max_threads,
    )
}

/// The text of a test built from the specs; `plain` leaves out fences,
/// orders and dependencies.
fn text(threads: &[Vec<OpSpec>], plain: bool, cond: &[(u8, u8)]) -> String {
    const LOCS: [&str; 3] = ["x", "y", "z"];
    let mut regs = 0;
    let mut atoms = Vec::new();
    let mut out = String::from("name gen\n");
    for ops in threads {
        let mut mine: Vec<usize> = Vec::new();
        let mut line = Vec::new();
        for op in ops {
            let loc = LOCS[op.loc as usize];
            let kind = if plain { op.kind % 2 } else { op.kind };
            let dep_reg = mine.get(op.dep as usize % mine.len().max(1)).copied();
            let dep = |allowed: &[&str]| match (plain, dep_reg) {
                (false, Some(r)) if op.dep % 2 == 1 => {
                    let kind = allowed[(op.dep / 2) as usize % allowed.len()];
                    format!(" {kind}(r{r})")
                }
                _ => String::new(),
            };
            match kind {
                0 => {
                    let ord = if plain {
                        ""
                    } else {
                        ["", ".rel", ".sc", ".na", "", "", "", ""][op.ord as usize]
                    };
                    let value = match dep_reg {
                        Some(r) if !plain && op.ord >= 6 => format!("r{r}"),
                        _ => op.val.to_string(),
                    };
                    line.push(format!(
                        "W{ord} {loc} {value}{}",
                        dep(&["addr", "data", "ctrl"])
                    ));
                    atoms.push(format!("{loc}={}", op.val));
                }
                1 => {
                    regs += 1;
                    let ord = if plain {
                        ""
                    } else {
                        ["", ".acq", ".sc", ".na", "", "", "", ""][op.ord as usize]
                    };
                    line.push(format!("R{ord} {loc} r{regs}{}", dep(&["addr", "ctrl"])));
                    mine.push(regs);
                    atoms.push(format!("r{regs}={}", op.val % 2));
                }
                _ => {
                    let f = [
                        "F", "F.ld", "F.st", "F.acq", "F.rel", "F.acqrel", "F.sc", "F",
                    ][op.ord as usize];
                    line.push(format!("{f}{}", dep(&["ctrl"])));
                }
            }
        }
        out.push_str(&format!("thread {}\n", line.join("; ")));
    }
    // A fence-only test has no location to name: its condition does not
    // parse, and the generator skips it.
    let mut chosen: Vec<String> = if atoms.is_empty() {
        vec!["x=0".into()]
    } else {
        cond.iter()
            .map(|(i, v)| {
                let a = &atoms[*i as usize % atoms.len()];
                format!("{}={v}", a.split('=').next().unwrap_or("x"))
            })
            .collect()
    };
    chosen.dedup();
    out.push_str(&format!("exists {}\n", chosen.join(" /\\ ")));
    out
}

/// A generated test, if its text parses (a fence-only test has no location
/// for its condition, and then does not).
fn generated(threads: &[Vec<OpSpec>], plain: bool, cond: &[(u8, u8)]) -> Option<Test> {
    parse(&text(threads, plain, cond)).ok()
}

fn allowed(a: &Analysis, m: MemModel) -> BTreeSet<(Vec<u8>, Vec<u8>)> {
    a.allowed(m)
        .map(|r| (r.regs.clone(), r.mem.clone()))
        .collect()
}

/// Independent of `Rel`: is po ∪ rf ∪ co ∪ fr acyclic? (depth-first search)
fn sc_acyclic(n: usize, edges: &[(usize, usize)]) -> bool {
    fn visit(v: usize, adj: &[Vec<usize>], state: &mut [u8]) -> bool {
        state[v] = 1;
        for &w in &adj[v] {
            if state[w] == 1 || (state[w] == 0 && !visit(w, adj, state)) {
                return false;
            }
        }
        state[v] = 2;
        true
    }
    let mut adj = vec![Vec::new(); n];
    for &(a, b) in edges {
        adj[a].push(b);
    }
    let mut state = vec![0u8; n];
    (0..n).all(|v| state[v] != 0 || visit(v, &adj, &mut state))
}

fn mutate(text: &str, edits: &[(usize, u8, char)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for &(at, what, c) in edits {
        let at = at % (chars.len() + 1);
        match what % 3 {
            0 => chars.insert(at, c),
            1 if at < chars.len() => {
                chars.remove(at);
            }
            _ if at < chars.len() => chars[at] = c,
            _ => {}
        }
    }
    chars.into_iter().collect()
}

fn litmus_char() -> impl Strategy<Value = char> {
    prop::sample::select(
        "WRF.xyzr0123456789;() =/\\\n#natdcqlsbepk_-+é"
            .chars()
            .collect::<Vec<_>>(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn the_parser_never_panics_on_any_text(s in any::<String>()) {
        let _ = parse(&s);
    }

    #[test]
    fn the_parser_never_panics_on_litmus_like_text(chars in prop::collection::vec(litmus_char(), 0..300)) {
        let s: String = chars.into_iter().collect();
        if let Ok(t) = parse(&s) {
            prop_assert_eq!(parse(&t.to_text()), Ok(t));
        }
    }

    #[test]
    fn mutated_catalogue_tests_never_panic_and_round_trip(
        which in 0..CATALOGUE.len(),
        edits in prop::collection::vec((0usize..400, 0u8..3, litmus_char()), 1..6),
    ) {
        let s = mutate(CATALOGUE[which].text, &edits);
        if let Ok(t) = parse(&s) {
            prop_assert_eq!(parse(&t.to_text()), Ok(t.clone()));
            // Whatever parses, analyses without panicking.
            let _ = Analysis::of(&t);
        }
    }

    #[test]
    fn printing_then_parsing_gives_the_same_test(
        ts in threads(4, 6),
        plain in any::<bool>(),
        cond in prop::collection::vec((0u8..20, 0u8..3), 1..4),
    ) {
        if let Some(t) = generated(&ts, plain, &cond) {
            prop_assert_eq!(parse(&t.to_text()), Ok(t.clone()));
        }
    }

    #[test]
    fn sc_within_tso_within_armv8_for_plain_tests(
        ts in threads(4, 3),
        cond in prop::collection::vec((0u8..20, 0u8..3), 1..3),
    ) {
        let Some(t) = generated(&ts, true, &cond) else { return Ok(()) };
        prop_assert!(t.is_plain());
        let a = Analysis::of(&t).unwrap();
        let (sc, tso, arm) = (allowed(&a, MemModel::Sc), allowed(&a, MemModel::Tso), allowed(&a, MemModel::Armv8));
        prop_assert!(sc.is_subset(&tso), "SC allows more than TSO for\n{}", t.to_text());
        prop_assert!(tso.is_subset(&arm), "TSO allows more than ARMv8 for\n{}", t.to_text());
        prop_assert!(!sc.is_empty(), "some interleaving always exists");
    }

    #[test]
    fn no_sc_allowed_outcome_rests_on_a_cyclic_execution(
        ts in threads(4, 3),
        plain in any::<bool>(),
        cond in prop::collection::vec((0u8..20, 0u8..3), 1..3),
    ) {
        let Some(t) = generated(&ts, plain, &cond) else { return Ok(()) };
        let a = Analysis::of(&t).unwrap();
        let n = a.skeleton.len();
        for row in a.allowed(MemModel::Sc) {
            let w = row.cells[MemModel::Sc.index()].witness.as_ref().unwrap();
            let (rf, co) = a.relations(w);
            let fr = rf.inverse().seq(&co);
            let all = a.skeleton.po.union(rf).union(co).union(fr);
            let edges: Vec<(usize, usize)> = all.pairs().collect();
            prop_assert!(sc_acyclic(n, &edges), "SC allowed a cyclic execution of\n{}", t.to_text());
        }
    }

    #[test]
    fn no_candidate_with_a_po_rf_co_fr_cycle_is_sc_consistent(
        ts in threads(3, 3),
        plain in any::<bool>(),
        cond in prop::collection::vec((0u8..20, 0u8..3), 1..3),
    ) {
        let Some(t) = generated(&ts, plain, &cond) else { return Ok(()) };
        let sk = Skeleton::new(&t);
        // Past MAX_CANDIDATES the engine refuses the test; past 5,000 this
        // exhaustive walk is only skipped to bound the run time.
        let Ok(full) = space_with(&sk, false) else { return Ok(()) };
        if full.count() > 5_000 {
            return Ok(());
        }
        let statics = Statics::new(&sk);
        let mut pick = vec![0usize; full.per_loc.len()];
        for _ in 0..full.count() {
            let (mut rf, mut co) = (Rel::EMPTY, Rel::EMPTY);
            for (&i, choices) in pick.iter().zip(&full.per_loc) {
                rf = rf.union(choices[i].rf_rel);
                co = co.union(choices[i].co_rel);
            }
            let fr = rf.inverse().seq(&co);
            let edges: Vec<(usize, usize)> = sk.po.union(rf).union(co).union(fr).pairs().collect();
            if !sc_acyclic(sk.len(), &edges) {
                prop_assert!(!check(MemModel::Sc, &Exec::new(&sk, &statics, rf, co)));
            }
            for (digit, choices) in pick.iter_mut().zip(&full.per_loc) {
                *digit += 1;
                if *digit < choices.len() {
                    break;
                }
                *digit = 0;
            }
        }
    }

    #[test]
    fn pruning_keeps_exactly_the_coherent_choices_and_every_model_rejects_the_rest(
        ts in threads(3, 3),
        plain in any::<bool>(),
        cond in prop::collection::vec((0u8..20, 0u8..3), 1..3),
    ) {
        let Some(t) = generated(&ts, plain, &cond) else { return Ok(()) };
        let sk = Skeleton::new(&t);
        // A space past MAX_CANDIDATES is refused by the engine: nothing to compare.
        let (Ok(full), Ok(pruned)) = (space_with(&sk, false), space_with(&sk, true)) else { return Ok(()) };
        let statics = Statics::new(&sk);
        for (all, kept) in full.per_loc.iter().zip(&pruned.per_loc) {
            let coherent: Vec<_> = all.iter().filter(|c| c.coherent).collect();
            prop_assert_eq!(coherent.len(), kept.len(), "pruning differs for\n{}", t.to_text());
            prop_assert!(kept.iter().all(|k| k.coherent && all.contains(k)));
            // An incoherent choice for one location, every other location
            // at its first choice: no model may accept it.
            for bad in all.iter().filter(|c| !c.coherent) {
                let (mut rf, mut co) = (bad.rf_rel, bad.co_rel);
                for other in full.per_loc.iter().filter(|o| !std::ptr::eq(*o, all)) {
                    rf = rf.union(other[0].rf_rel);
                    co = co.union(other[0].co_rel);
                }
                let x = Exec::new(&sk, &statics, rf, co);
                for m in MemModel::ALL {
                    prop_assert!(!check(m, &x), "{} accepts an incoherent execution of\n{}", m.label(), t.to_text());
                }
            }
        }
    }

    #[test]
    fn only_non_atomic_accesses_can_make_a_test_undefined(
        ts in threads(3, 3),
        cond in prop::collection::vec((0u8..20, 0u8..3), 1..3),
    ) {
        let Some(t) = generated(&ts, false, &cond) else { return Ok(()) };
        let a = Analysis::of(&t).unwrap();
        if !t.has_non_atomic() {
            prop_assert_ne!(a.verdict(MemModel::Rc11), Verdict::Undefined);
        }
        for row in &a.rows {
            // The first three cells are SC, TSO and ARMv8: only RC11 knows races.
            prop_assert!(row.cells.iter().take(3).all(|c| c.status != Status::Racy));
        }
    }

    #[test]
    fn the_scheduler_reaches_exactly_the_allowed_outcomes_under_sc_and_tso(
        ts in threads(4, 3),
        plain in any::<bool>(),
        cond in prop::collection::vec((0u8..20, 0u8..3), 1..3),
    ) {
        let Some(t) = generated(&ts, plain, &cond) else { return Ok(()) };
        let a = Analysis::of(&t).unwrap();
        for m in [MemModel::Sc, MemModel::Tso] {
            let operational = reachable(&t, m, &a.mem_locs);
            prop_assert_eq!(&operational, &allowed(&a, m), "{} differs for\n{}", m.label(), t.to_text());
        }
    }
}
