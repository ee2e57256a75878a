//! The reordering explorer obeys the laws every model obeys, and Play always
//! ends a run at an outcome the model allows.

use demos::laws::check_laws;
use demos::memory::litmus::catalogue::CATALOGUE;
use demos::memory::litmus::MemModel;
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
        let m = t.model();
        let row = m.run_row().expect("Play finishes the run");
        prop_assert_eq!(m.reached.clone(), vec![row]);
        prop_assert!(m.check().is_ok());
    }
}
