//! Unit tests of the stage pipeline on a small made-up path.

use super::*;
use crate::model::Outcome;

const A: u8 = 1;
const B: u8 = 2;
static STAGES: &[StageDef] = &[
    StageDef {
        key: "one",
        name: "stage one",
        base_ns: 100,
        removed_by: A,
        only_with: 0,
        cpu: true,
    },
    StageDef {
        key: "two",
        name: "stage two",
        base_ns: 50,
        removed_by: 0,
        only_with: B,
        cpu: false,
    },
    StageDef {
        key: "three",
        name: "stage three",
        base_ns: 30,
        removed_by: 0,
        only_with: 0,
        cpu: true,
    },
];
static TECHS: &[TechDef] = &[
    TechDef {
        key: "a",
        name: "alpha",
        requires: 0,
        requires_why: "",
        excludes: 0,
        excludes_why: "",
    },
    TechDef {
        key: "b",
        name: "beta",
        requires: A,
        requires_why: "runs only under alpha",
        excludes: 0,
        excludes_why: "",
    },
];
static SPEC: Spec = Spec {
    stages: STAGES,
    techniques: TECHS,
    start: "it begins",
    finish: "it ends",
};

fn use_(p: &mut Pipeline, technique: usize, on: bool) -> Outcome {
    p.apply(&SPEC, &StageAction::Use { technique, on })
}

#[test]
fn total_is_the_sum_of_active_stages() {
    let p = Pipeline::new(&SPEC);
    assert_eq!(p.total(&SPEC), 130);
    assert_eq!(p.baseline(&SPEC), 130);
    assert_eq!(p.cpu_ns_with(&SPEC, 0), 130);
}

#[test]
fn a_technique_removes_its_stages_and_adds_its_own() {
    let mut p = Pipeline::new(&SPEC);
    use_(&mut p, 0, true).unwrap();
    assert_eq!(p.total(&SPEC), 30);
    use_(&mut p, 1, true).unwrap();
    assert_eq!(p.total(&SPEC), 80);
    assert_eq!(p.off_reason(&SPEC, 0).as_deref(), Some("removed by alpha"));
    p.check(&SPEC).unwrap();
}

#[test]
fn requirements_are_enforced_both_ways() {
    let mut p = Pipeline::new(&SPEC);
    let events = use_(&mut p, 1, true).unwrap();
    assert!(p.uses(0) && p.uses(1));
    assert!(events[0].text.contains("alpha turns on too"));
    let events = use_(&mut p, 0, false).unwrap();
    assert!(!p.uses(0) && !p.uses(1));
    assert!(events[0].text.contains("beta off too"));
}

#[test]
fn walk_runs_the_clock_through_active_stages_only() {
    let mut p = Pipeline::new(&SPEC);
    p.apply(&SPEC, &StageAction::Advance).unwrap();
    assert_eq!((p.walk, p.clock(&SPEC)), (Walk::After(0), 100));
    p.apply(&SPEC, &StageAction::Advance).unwrap();
    assert_eq!((p.walk, p.clock(&SPEC)), (Walk::After(2), 130));
    assert!(p.walk_done(&SPEC));
    assert!(p.next_auto(&SPEC).is_err());
    p.apply(&SPEC, &StageAction::NewPacket).unwrap();
    assert_eq!(p.next_auto(&SPEC), Ok(StageAction::Advance));
}

#[test]
fn changing_the_path_recalls_the_packet() {
    let mut p = Pipeline::new(&SPEC);
    p.apply(&SPEC, &StageAction::Advance).unwrap();
    p.apply(&SPEC, &StageAction::SetCost { stage: 2, ns: 300 })
        .unwrap();
    assert_eq!(p.walk, Walk::Ready);
    assert_eq!(p.total(&SPEC), 400);
    let w = p.waterfall(&SPEC);
    assert_eq!(w.rows[2].share_tenths, 750);
    assert_eq!(w.rows[2].start_ns, 100);
}

#[test]
fn bad_inputs_are_refused_without_change() {
    let mut p = Pipeline::new(&SPEC);
    let before = p.clone();
    for action in [
        StageAction::SetCost { stage: 9, ns: 10 },
        StageAction::SetCost {
            stage: 0,
            ns: COST_MAX + 1,
        },
        StageAction::SetCost { stage: 0, ns: 100 },
        StageAction::Use {
            technique: 7,
            on: true,
        },
        StageAction::Use {
            technique: 0,
            on: false,
        },
        StageAction::NewPacket,
        StageAction::RestoreCosts,
    ] {
        assert!(p.apply(&SPEC, &action).is_err(), "{action:?}");
        assert_eq!(p, before);
    }
}

#[test]
fn a_stage_on_the_path_with_either_of_two_techniques_says_or() {
    // The old label joined them with "and", as if both were needed.
    static EITHER: &[StageDef] = &[StageDef {
        key: "wait",
        name: "wait",
        base_ns: 10,
        removed_by: 0,
        only_with: A | B,
        cpu: true,
    }];
    static EITHER_SPEC: Spec = Spec {
        stages: EITHER,
        techniques: TECHS,
        start: "start",
        finish: "finish",
    };
    let p = Pipeline::new(&EITHER_SPEC);
    assert_eq!(
        p.off_reason(&EITHER_SPEC, 0).as_deref(),
        Some("only with alpha or beta")
    );
}

#[test]
fn a_cost_out_of_range_is_refused_with_the_bound() {
    let mut p = Pipeline::new(&SPEC);
    let refused = p
        .apply(
            &SPEC,
            &StageAction::SetCost {
                stage: 0,
                ns: COST.max + 1,
            },
        )
        .unwrap_err();
    assert_eq!(refused.reason, COST.out_of_range(COST.max + 1));
}
