//! The reordering explorer obeys the laws every model obeys, and Play always
//! ends a run at an outcome the model allows.

use demos::laws::check_laws;
use demos::memory::litmus::ast::{Op, Order, Test};
use demos::memory::litmus::catalogue::CATALOGUE;
use demos::memory::litmus::{parse, MemModel};
use demos::memory::reordering::{Reordering, ReorderingAction, ReorderingConfig};
use demos::{Model, Timeline};
use proptest::prelude::*;

fn model() -> impl Strategy<Value = MemModel> {
    prop::sample::select(MemModel::ALL.to_vec())
}

fn config() -> impl Strategy<Value = ReorderingConfig> {
    (0..CATALOGUE.len(), model()).prop_map(|(i, model)| ReorderingConfig {
        text: CATALOGUE[i].text.to_string(),
        model,
    })
}

/// Play's steps: each instruction runs once, and under TSO each store that
/// went into a buffer (any but a `W.sc`) drains once more.
fn play_steps(test: &Test, model: MemModel) -> usize {
    let ops = test.threads.iter().flatten();
    let buffered = ops
        .clone()
        .filter(|op| matches!(op, Op::Write { ord, .. } if *ord != Order::Sc))
        .count();
    ops.count() + if model == MemModel::Tso { buffered } else { 0 }
}

/// Runs Play to the end; returns how many steps it took.
fn play(text: &str, model: MemModel) -> usize {
    let mut t = Timeline::<Reordering>::new(ReorderingConfig {
        text: text.to_string(),
        model,
    });
    let mut steps = 0;
    // A guard against a Play that never ends; the count is checked exactly.
    while steps < 100 && t.step().is_ok() {
        steps += 1;
    }
    steps
}

fn action() -> impl Strategy<Value = ReorderingAction> {
    use ReorderingAction::*;
    prop_oneof![
        2 => (0usize..40).prop_map(ChooseTest),
        1 => prop_oneof![
            (0..CATALOGUE.len()).prop_map(|i| CATALOGUE[i].text.to_string()),
            "[a-zW R.;0-9\n]{0,40}",
        ]
        .prop_map(LoadText),
        2 => model().prop_map(ChooseModel),
        2 => (0usize..20).prop_map(SelectOutcome),
        1 => Just(ClearSelection),
        6 => (0u8..5).prop_map(Run),
        4 => (0u8..5).prop_map(Drain),
        1 => Just(Restart),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn reordering_obeys_the_laws(config in config(), actions in prop::collection::vec(action(), 0..60)) {
        prop_assert_eq!(check_laws::<Reordering>(config, &actions), Ok(()));
    }

    #[test]
    fn play_ends_every_sc_and_tso_run_at_an_allowed_outcome(i in 0..CATALOGUE.len(), tso in any::<bool>()) {
        let model = if tso { MemModel::Tso } else { MemModel::Sc };
        let mut t = Timeline::<Reordering>::new(ReorderingConfig { text: CATALOGUE[i].text.to_string(), model });
        let mut steps = 0;
        while t.step().is_ok() {
            steps += 1;
            prop_assert!(steps < 100);
        }
        // Exactly one step per instruction, plus one per buffered store.
        let test = parse(CATALOGUE[i].text).unwrap();
        prop_assert_eq!(steps, play_steps(&test, model));
        let m = t.model();
        let row = m.run_row().expect("Play finishes the run");
        prop_assert_eq!(m.reached.clone(), vec![row]);
        prop_assert!(m.check().is_ok());
    }
}

/// Store buffering: four instructions. SC plays them in four steps; TSO
/// buffers both stores and needs two drains more.
#[test]
fn play_on_store_buffering_takes_four_steps_under_sc_and_six_under_tso() {
    let sb = "name SB\nthread W x 1; R y r1\nthread W y 1; R x r2\nexists r1=0 /\\ r2=0\n";
    assert_eq!(play(sb, MemModel::Sc), 4);
    assert_eq!(play(sb, MemModel::Tso), 6);
    // A W.sc goes straight to memory under TSO: nothing to drain for it.
    let sc = "name SBsc\nthread W.sc x 1; R y r1\nthread W y 1; R x r2\nexists r1=0 /\\ r2=0\n";
    assert_eq!(play(sc, MemModel::Tso), 5);
}
