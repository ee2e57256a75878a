//! Laws every model must obey, checked by each model's property tests over
//! random action sequences:
//! - building a model agrees with validating its configuration, then
//!   making it;
//! - no action panics, and the model's own invariants hold after every step;
//! - a refused action leaves the state untouched;
//! - the model's `refusal` (what the page asks to mark a button refused)
//!   says what applying the action says;
//! - replaying the scenario (also through its share-link encoding) rebuilds the
//!   identical state;
//! - stepping back N times equals the state N steps earlier.

use crate::model::Model;
use crate::scenario::Scenario;
use crate::timeline::Timeline;

/// Applies `actions` (accepted or not) and, every `auto_every` actions, one
/// automatic step; then checks every law. Returns the first law broken.
pub fn check_laws<M: Model>(config: M::Config, actions: &[M::Action]) -> Result<(), String> {
    if M::build(&config) != M::validate(&config).map(|()| M::new(&config)) {
        return Err("build disagrees with validate then new".into());
    }
    let mut timeline = Timeline::<M>::new(config);
    let mut states = vec![timeline.model().clone()];
    timeline
        .model()
        .check()
        .map_err(|e| format!("initial: {e}"))?;
    for (i, action) in actions.iter().enumerate() {
        let before = timeline.model().clone();
        let asked = before.refusal(action).map(|r| r.reason);
        let outcome = timeline.apply(action.clone());
        let accepted = outcome.is_ok();
        let taken = outcome.err().map(|r| r.reason);
        if asked != taken {
            return Err(format!(
                "refusal of {action:?} says {asked:?}, applying it says {taken:?}"
            ));
        }
        if !accepted && *timeline.model() != before {
            return Err(format!("refused action {action:?} changed the state"));
        }
        timeline
            .model()
            .check()
            .map_err(|e| format!("after action {i} {action:?}: {e}"))?;
        if accepted {
            states.push(timeline.model().clone());
        }
        if i % 3 == 2 && timeline.step().is_ok() {
            timeline
                .model()
                .check()
                .map_err(|e| format!("after auto step at {i}: {e}"))?;
            states.push(timeline.model().clone());
        }
    }

    let encoded = timeline.scenario().encode();
    let decoded =
        Scenario::<M>::decode(&encoded).map_err(|e| format!("own scenario rejected: {e}"))?;
    let replayed =
        Timeline::<M>::from_scenario(&decoded).map_err(|e| format!("replay refused: {e}"))?;
    if replayed.model() != timeline.model() {
        return Err("replaying the scenario gave a different state".into());
    }

    let total = timeline.step_count();
    for back in 1..=total {
        if !timeline.back() {
            return Err(format!("back refused at {back} of {total}"));
        }
        if *timeline.model() != states[total - back] {
            return Err(format!("{back} steps back differs from the state then"));
        }
    }
    if timeline.back() {
        return Err("back accepted at the initial state".into());
    }
    Ok(())
}
