use super::*;
use crate::memory::litmus::catalogue::find;

fn at(name: &str, model: MemModel) -> Reordering {
    Reordering::new(&ReorderingConfig {
        text: find(name).unwrap().text.to_string(),
        model,
    })
}

fn play(r: &mut Reordering, actions: &[ReorderingAction]) {
    for a in actions {
        r.apply(a).unwrap_or_else(|e| panic!("{a:?}: {}", e.reason));
        r.check().unwrap();
    }
}

#[test]
fn the_default_is_mp_under_tso_with_the_stale_read_forbidden() {
    let r = Reordering::new(&ReorderingConfig::default());
    assert_eq!(r.test().name, "MP");
    assert_eq!(
        r.analysis.verdict(MemModel::Tso),
        crate::memory::litmus::Verdict::Forbidden
    );
    assert!(r.intro().text.contains("po ; rfe ; po ; fre"));
    let fig = |k: &str| r.status().into_iter().find(|f| f.key == k).unwrap().value;
    assert_eq!(fig("verdict"), "forbidden");
    assert_eq!(fig("allowed"), "3 of 4");
}

#[test]
fn sb_under_tso_reaches_zero_zero_by_buffering_both_stores() {
    use ReorderingAction::*;
    let mut r = at("SB", MemModel::Tso);
    play(&mut r, &[Run(0), Run(0), Run(1), Run(1)]);
    assert_eq!(
        r.machine.regs,
        [Some(0), Some(0)],
        "both loads missed the buffered stores"
    );
    assert_eq!(r.machine.buffers[0].stores(), 1);
    play(&mut r, &[Drain(0), Drain(1)]);
    let row = r.run_row().unwrap();
    assert!(r.analysis.rows[row].satisfies);
    assert_eq!(r.reached, [row]);
}

#[test]
fn sb_under_sc_cannot_reach_zero_zero_on_any_schedule() {
    let r = at("SB", MemModel::Sc);
    let reach = reachable(r.test(), MemModel::Sc, &r.analysis.mem_locs);
    assert_eq!(reach.len(), 3);
    assert!(!reach.contains(&(vec![0, 0], vec![])));
    assert!(
        reachable(r.test(), MemModel::Tso, &r.analysis.mem_locs).contains(&(vec![0, 0], vec![]))
    );
}

#[test]
fn mfence_waits_for_the_buffer_and_play_drains_it() {
    use ReorderingAction::*;
    let mut r = at("SB+mfences", MemModel::Tso);
    play(&mut r, &[Run(0)]);
    let refusal = r.apply(&Run(0)).unwrap_err();
    assert!(
        refusal.reason.contains("drain T0's buffer first"),
        "{}",
        refusal.reason
    );
    let before = r.clone();
    assert!(r.apply(&Drain(1)).is_err());
    assert_eq!(r, before);
    // Play runs T1 as far as it can, then drains.
    assert_eq!(r.next_auto().unwrap(), Run(1));
    play(&mut r, &[Run(1)]);
    assert_eq!(r.next_auto().unwrap(), Drain(0));
    while let Ok(a) = r.next_auto() {
        play(&mut r, &[a]);
    }
    assert!(r.machine.finished(r.test()));
    let row = &r.analysis.rows[r.run_row().unwrap()];
    assert!(!row.satisfies, "a fenced run never ends with both loads 0");
}

#[test]
fn own_stores_are_forwarded_from_the_buffer() {
    use ReorderingAction::*;
    let mut r = at("SB+rfi-pos", MemModel::Tso);
    play(&mut r, &[Run(0), Run(0)]);
    assert_eq!(r.machine.regs[0], Some(1));
    assert_eq!(r.machine.memory[0], 0, "x is still 0 in memory");
    assert!(matches!(
        r.steps[1],
        RunStep::Ran {
            effect: Effect::Loaded {
                forwarded: true,
                ..
            },
            ..
        }
    ));
}

#[test]
fn the_scheduler_is_refused_outside_sc_and_tso_and_after_the_end() {
    use ReorderingAction::*;
    let mut r = at("MP", MemModel::Armv8);
    assert!(r
        .apply(&Run(0))
        .unwrap_err()
        .reason
        .contains("switch the model"));
    assert!(r.next_auto().is_err());
    play(&mut r, &[ChooseModel(MemModel::Sc)]);
    assert!(r.apply(&Drain(0)).unwrap_err().reason.contains("no buffer"));
    while let Ok(a) = r.next_auto() {
        play(&mut r, &[a]);
    }
    assert!(r.apply(&Run(0)).unwrap_err().reason.contains("run is over"));
    play(&mut r, &[Restart]);
    assert!(r.apply(&Restart).is_err());
    assert!(r.apply(&Run(7)).is_err());
}

#[test]
fn loading_tests_and_selecting_outcomes() {
    use ReorderingAction::*;
    let mut r = at("MP", MemModel::Tso);
    let bad = r
        .apply(&LoadText("thread W x 1\nthread Q\nexists x=1".into()))
        .unwrap_err();
    assert_eq!(
        bad.reason,
        "Line 2, column 8: `Q` is not an operation: use W, R or F."
    );
    assert!(r.apply(&LoadText("#".repeat(1001))).is_err());
    play(
        &mut r,
        &[LoadText(
            "name mine\nthread W x 1; R y r1\nthread W y 1; R x r2\nexists r1=0 /\\ r2=0\n".into(),
        )],
    );
    assert_eq!(r.test().name, "mine");
    assert_eq!(r.entry, None);
    let sb = CATALOGUE.iter().position(|e| e.name == "SB").unwrap();
    play(&mut r, &[ChooseTest(sb)]);
    assert!(r.apply(&ChooseTest(sb)).is_err());
    assert!(r.apply(&ChooseTest(999)).is_err());
    let forbidden = r
        .analysis
        .rows
        .iter()
        .position(|row| row.satisfies)
        .unwrap();
    play(
        &mut r,
        &[ChooseModel(MemModel::Sc), SelectOutcome(forbidden)],
    );
    assert!(r.why().iter().any(|s| s.contains("po ; fre ; po ; fre")));
    assert!(r.apply(&SelectOutcome(forbidden)).is_err());
    assert!(r.apply(&SelectOutcome(99)).is_err());
    play(&mut r, &[ClearSelection]);
    assert!(r.apply(&ClearSelection).is_err());
}

#[test]
fn narration_uses_the_models_syntax() {
    use ReorderingAction::*;
    let mut r = at("SB+sc", MemModel::Tso);
    let events = r.apply(&Run(0)).unwrap();
    assert!(
        events[0]
            .text
            .starts_with("T0 runs XCHG [x], 1: the locked store"),
        "{}",
        events[0].text
    );
    assert_eq!(events[0].focus, ["thread-0", "op-0-0", "mem-x"]);
}

/// Issue 30: the model is RC11, and what it leaves out says how it differs
/// from ISO C11 and C++20; each example it names is checked against the model.
#[test]
fn rc11_is_named_and_its_differences_from_c11_and_cpp20_hold_in_the_model() {
    use crate::memory::litmus::Verdict;
    assert_eq!(MemModel::Rc11.label(), "RC11");
    let out = Reordering::leaves_out();
    for part in ["LB", "RWC+fences", "P0982R1", "W.rel y 1; W y 2"] {
        assert!(out.contains(part), "leaves_out names {part}");
    }
    let rc11 = |name: &str| at(name, MemModel::Rc11).analysis.verdict(MemModel::Rc11);
    assert_eq!(rc11("LB"), Verdict::Forbidden);
    assert_eq!(rc11("RWC+fences"), Verdict::Forbidden);
    // The release sequence RC11 keeps: the acquire load reads the later
    // relaxed store 2, which still carries the release, so x=0 is forbidden.
    let text = "name MP+rel-rs\nthread W x 1; W.rel y 1; W y 2\nthread R.acq y r1; R x r2\nexists r1=2 /\\ r2=0\n";
    let a = Analysis::of(&parse(text).unwrap()).unwrap();
    assert_eq!(a.verdict(MemModel::Rc11), Verdict::Forbidden);
}

#[test]
fn why_compares_the_models_on_this_test_instead_of_ranking_them() {
    let why = at("LB", MemModel::Rc11).why().join(" ");
    assert!(!why.contains("weaker model allows more"));
    assert!(
        why.contains("On this test SC and TSO allow the same outcomes"),
        "{why}"
    );
    assert!(
        why.contains("ARMv8 allows every outcome RC11 does, and 1 more"),
        "{why}"
    );
}

/// Issue 37: weakening to ARMv8 (the Break it button) takes away the
/// machine; Step then refuses, and its reason names Step and the way back.
#[test]
fn step_under_an_axiomatic_model_refuses_and_says_why() {
    let mut t = crate::Timeline::<Reordering>::new(ReorderingConfig::default());
    assert!(t.model().next_auto().is_ok(), "TSO steps");
    t.apply(ReorderingAction::ChooseModel(MemModel::Armv8))
        .unwrap();
    let reason = "Step has nothing to run under ARMv8, which is judged from its axioms alone: switch the model to SC or TSO to schedule a run.";
    assert_eq!(t.model().next_auto().unwrap_err().reason, reason);
    assert!(t.step().is_err());
    let last = t.narration().last().unwrap();
    assert_eq!(last.tone, crate::Tone::Refused);
    assert_eq!(last.text, reason);
    // Run and Drain keep their own refusal.
    assert!(t
        .model()
        .refusal(&ReorderingAction::Run(0))
        .unwrap()
        .reason
        .starts_with("ARMv8 has no machine to step here"));
    assert!(!Reordering::schedules(MemModel::Rc11));
    assert!(Reordering::schedules(MemModel::Sc));
}

/// Loading a test (Break it's "Remove the fences and orders" among them)
/// mid-run drops the run, and the narration says where Step starts.
#[test]
fn a_load_mid_run_says_step_starts_the_new_test_over() {
    use ReorderingAction::*;
    let mut r = at("SB+mfences", MemModel::Tso);
    let sb = find("SB").unwrap().text.to_string();
    let fresh = r.clone().apply(&LoadText(sb.clone())).unwrap();
    assert!(!fresh[0].text.contains("Step"), "{}", fresh[0].text);
    play(&mut r, &[Run(0)]);
    let events = r.apply(&LoadText(sb)).unwrap();
    assert!(events[0].text.ends_with(
        " The run in progress is dropped: Step starts the new test from its first instruction."
    ));
    assert!(r.steps.is_empty());
    assert_eq!(r.next_auto().unwrap(), Run(0));
}
