//! Replaying a stop's actions, and trying more on a copy of its model: the
//! few ways every lesson builds its states and computes its answers and
//! explanations from the model. One home each, so that every lesson quotes
//! the model's narration the same way and a stop's state means the same
//! thing in every demo.

#[cfg(test)]
use crate::{
    lesson::{Lesson, Question, Setup},
    live::View,
};
use demos::{Model, Outcome, Scenario};

/// A stop's state on the demo's default configuration: most stops differ
/// only in the actions replayed on it.
pub fn at<M: Model>(actions: &[M::Action]) -> Scenario<M> {
    at_config(M::Config::default(), actions)
}

/// A stop's state on `config`, for the stops that set one up themselves.
pub fn at_config<M: Model>(config: M::Config, actions: &[M::Action]) -> Scenario<M> {
    Scenario {
        config,
        actions: actions.to_vec(),
    }
}

/// The words the model said with `outcome`: its events' texts joined by
/// spaces, or the refusal's reason. An explanation quotes the model, and
/// quotes it the same way in every lesson.
pub fn texts(outcome: Outcome) -> String {
    match outcome {
        Ok(events) => events
            .into_iter()
            .map(|e| e.text)
            .collect::<Vec<_>>()
            .join(" "),
        Err(refusal) => refusal.reason,
    }
}

/// A copy of `m` after `action`, with what the model said: a question
/// looks one action ahead of its stop without changing the stop.
pub fn after<M: Model>(m: &M, action: M::Action) -> (M, String) {
    let mut next = m.clone();
    let said = texts(next.apply(&action));
    (next, said)
}

/// A copy of `m` after each of `actions` in turn, with everything the model
/// said on the way: each event's text, or a refusal's reason. A refused
/// action leaves the copy as it was and the next is tried, as the learner
/// would: what a question asks about includes the refusals.
pub fn run<M: Model>(m: &M, actions: &[M::Action]) -> (M, Vec<String>) {
    let mut next = m.clone();
    let mut said = Vec::new();
    for a in actions {
        match next.apply(a) {
            Ok(events) => said.extend(events.into_iter().map(|e| e.text)),
            Err(refusal) => said.push(refusal.reason),
        }
    }
    (next, said)
}

/// A copy of `m` after each of `actions` in turn, with what the model said
/// (see [`run`]): [`after`] for a question that looks several actions ahead.
pub fn after_all<M: Model>(m: &M, actions: &[M::Action]) -> (M, String) {
    let (next, said) = run(m, actions);
    (next, said.join(" "))
}

/// What the model says over `actions` from `m` (see [`run`]), as one text.
pub fn narration<M: Model>(m: &M, actions: &[M::Action]) -> String {
    after_all(m, actions).1
}

/// [`narration`], then the model's "why it matters" at the end: the
/// explanation of a question about where the actions lead.
pub fn narration_and_why<M: Model>(m: &M, actions: &[M::Action]) -> String {
    let (next, mut said) = run(m, actions);
    said.extend(next.why());
    said.join(" ")
}

/// Applies `m`'s automatic steps until `stop` holds, there is none, or
/// `limit` steps have run, and gives what each step said: a question about
/// what the model does next, left to itself.
pub fn auto_until<M: Model>(m: &mut M, limit: usize, stop: impl Fn(&M) -> bool) -> Vec<String> {
    let mut said = Vec::new();
    for _ in 0..limit {
        if stop(m) {
            break;
        }
        let Ok(action) = m.next_auto() else { break };
        said.push(texts(m.apply(&action)));
    }
    said
}

/// The automatic steps from `m` to the end of its run, as actions: a task's
/// way to finish, or the actions a question replays.
pub fn to_the_end<M: Model>(m: &M) -> Vec<M::Action> {
    let mut next = m.clone();
    let mut steps = Vec::new();
    while let Ok(a) = next.next_auto() {
        if next.apply(&a).is_err() {
            break;
        }
        steps.push(a);
    }
    steps
}

/// The right answers to each question of `lesson`, in order, as the reveal
/// shows them, computed at its stop's state changed by `change` (given the
/// question): the unit tests check each lesson's answers against the
/// textbook's, at the stop and under a change. A state that does not replay
/// is left out.
#[cfg(test)]
pub(crate) fn answers<M: View>(
    lesson: &Lesson<M>,
    change: impl Fn(&Question<M>, &mut Setup<M>),
) -> Vec<Vec<String>> {
    lesson
        .stops
        .iter()
        .filter_map(|stop| {
            let q = stop.question.as_ref()?;
            let mut setup = Setup::of(&stop.state);
            change(q, &mut setup);
            let model = demos::Timeline::from_scenario(&setup.scenario())
                .ok()?
                .model()
                .clone();
            Some(q.answers(&model))
        })
        .collect()
}

/// Each question's right answers as one text, computed at its stop's state
/// with `change` made to the configuration: what each lesson's unit test
/// pins, at the stop (`|_| {}`) and under a change.
#[cfg(test)]
pub(crate) fn answer_texts<M: View>(lesson: &Lesson<M>, change: fn(&mut M::Config)) -> Vec<String> {
    answers(lesson, |_, setup| change(setup))
        .into_iter()
        .map(|a| a.concat())
        .collect()
}

/// Each question's right answers as one text, at its stop or, with
/// `contrasted`, under the question's own contrast (`Question::contrast`):
/// what a lesson's unit test pins when its questions carry contrasts.
#[cfg(test)]
pub(crate) fn contrast_texts<M: View>(lesson: &Lesson<M>, contrasted: bool) -> Vec<String> {
    answers(lesson, |q, setup| {
        if contrasted {
            (q.contrast)(setup)
        }
    })
    .into_iter()
    .map(|a| a.concat())
    .collect()
}
