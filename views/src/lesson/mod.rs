//! Lessons: a guided path through one demo, as data. A lesson is a goal and a
//! few stops; a stop is a state (a configuration and the actions replayed on
//! it, never a picture of its own), a sentence or two, the part of the
//! picture to look at, and optionally a task to do or a question to answer.
//!
//! Invariant: no answer is written in lesson data. A question holds the
//! functions that compute its right answers from the model at its stop, and
//! the one that gives the model's own explanation; grading calls them.

use crate::live::View;
use demos::{Model, Scenario, ScenarioError, Timeline};

mod replay;
pub use replay::{
    after, after_all, at, at_config, auto_until, narration, narration_and_why, run, texts,
    to_the_end,
};
#[cfg(test)]
pub(crate) use replay::{answer_texts, answers, contrast_texts};

/// A demo's lesson.
pub struct Lesson<M: View> {
    /// One sentence: "After this you can explain why …".
    pub goal: &'static str,
    pub stops: Vec<Stop<M>>,
    /// Where the idea continues, as routes (`/nic/napi`).
    pub next: &'static [&'static str],
}

/// One stop of a lesson.
pub struct Stop<M: View> {
    pub title: &'static str,
    /// One or two sentences.
    pub text: &'static str,
    /// The state of the stop: replayed on the model when the stop opens.
    pub state: Scenario<M>,
    /// The narration focus key of what to look at (the renderer highlights it).
    pub focus: &'static str,
    pub task: Option<Task<M>>,
    pub question: Option<Question<M>>,
}

/// Something for the learner to do before moving on, recognised from the
/// model's state.
pub struct Task<M: View> {
    /// What to do, in one sentence.
    pub ask: &'static str,
    /// Whether the model's state shows it done.
    pub done: fn(&M) -> bool,
    /// One way to do it from the stop's state: the tests check it reaches
    /// `done`, so every task can be done.
    pub witness: fn() -> Vec<M::Action>,
}

/// A prediction the learner commits to before the reveal.
pub struct Question<M: View> {
    pub ask: &'static str,
    pub kind: Ask<M>,
    /// The model's own explanation of the answer (its why, cycle or
    /// narration), shown with the reveal, right or wrong.
    pub explain: fn(&M) -> String,
    /// One change to the stop's state (usually one configuration value;
    /// for a demo with nothing to configure, one of its actions), under
    /// which the right answer differs: the tests replay the changed state
    /// and check that the computed answer moves (it would not, were it
    /// written down).
    pub contrast: fn(&mut Setup<M>),
}

/// A stop's state while a contrast changes it. It reads as its
/// configuration (`setup.protocol = …` changes a configuration value), and
/// `setup.actions` are the actions replayed on it.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup<M: Model> {
    pub config: M::Config,
    pub actions: Vec<M::Action>,
}

impl<M: Model> Setup<M> {
    pub fn of(state: &Scenario<M>) -> Self {
        Setup {
            config: state.config.clone(),
            actions: state.actions.clone(),
        }
    }

    pub fn scenario(self) -> Scenario<M> {
        Scenario {
            config: self.config,
            actions: self.actions,
        }
    }
}

impl<M: Model> std::ops::Deref for Setup<M> {
    type Target = M::Config;
    fn deref(&self) -> &M::Config {
        &self.config
    }
}

impl<M: Model> std::ops::DerefMut for Setup<M> {
    fn deref_mut(&mut self) -> &mut M::Config {
        &mut self.config
    }
}

/// What kind of answer a question takes.
pub enum Ask<M: View> {
    /// Pick one of `options`; any of the ones `right` computes is right.
    Choice {
        options: &'static [&'static str],
        right: fn(&M) -> Vec<usize>,
    },
    /// A number, right within `tolerance` of what `answer` computes; shown
    /// with `decimals` decimals and its unit (empty for a count).
    Number {
        unit: &'static str,
        decimals: u32,
        tolerance: f64,
        answer: fn(&M) -> f64,
    },
}

/// The learner's answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    Choice(usize),
    Number(f64),
}

/// A graded answer: whether it was right, every right answer, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub right: bool,
    /// All the right answers, as the reveal shows them.
    pub answers: Vec<String>,
    pub explain: String,
}

impl<M: View> Stop<M> {
    /// The model at this stop: the state replayed.
    pub fn model(&self) -> Result<M, ScenarioError> {
        Timeline::from_scenario(&self.state).map(|t| t.model().clone())
    }
}

impl<M: View> Question<M> {
    /// The right answers at `model`, as text.
    pub fn answers(&self, model: &M) -> Vec<String> {
        match &self.kind {
            Ask::Choice { options, right } => right(model)
                .into_iter()
                .filter_map(|i| options.get(i).map(|o| o.to_string()))
                .collect(),
            Ask::Number {
                unit,
                decimals,
                answer,
                ..
            } => {
                let number = demos::text::decimal(answer(model), *decimals);
                vec![format!("{number} {unit}").trim_end().to_string()]
            }
        }
    }

    /// Grades `reply` against what the model computes at `model`.
    pub fn grade(&self, model: &M, reply: &Reply) -> Verdict {
        let right = match (&self.kind, reply) {
            (Ask::Choice { right, .. }, Reply::Choice(i)) => right(model).contains(i),
            (
                Ask::Number {
                    tolerance, answer, ..
                },
                Reply::Number(x),
            ) => x.is_finite() && (x - answer(model)).abs() <= *tolerance,
            _ => false,
        };
        Verdict {
            right,
            answers: self.answers(model),
            explain: (self.explain)(model),
        }
    }
}

/// A lesson as the page shows it: plain data, no functions, the same type
/// for every demo (see [`crate::live::LiveDemo::lesson`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Outline {
    pub goal: &'static str,
    pub stops: Vec<StopOutline>,
    pub next: &'static [&'static str],
}

/// One stop as the page shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct StopOutline {
    pub title: &'static str,
    pub text: &'static str,
    pub focus: &'static str,
    /// What to do, if the stop has a task.
    pub task: Option<&'static str>,
    pub question: Option<AskOutline>,
}

/// A question as the page shows it: what it asks and what kind of answer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AskOutline {
    pub ask: &'static str,
    pub kind: AskKind,
}

/// The kind of answer a question takes, without its answer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AskKind {
    Choice {
        options: &'static [&'static str],
    },
    Number {
        unit: &'static str,
        decimals: u32,
        tolerance: f64,
    },
}

impl<M: View> Lesson<M> {
    /// The lesson without its functions.
    pub fn outline(&self) -> Outline {
        Outline {
            goal: self.goal,
            next: self.next,
            stops: self
                .stops
                .iter()
                .map(|s| StopOutline {
                    title: s.title,
                    text: s.text,
                    focus: s.focus,
                    task: s.task.as_ref().map(|t| t.ask),
                    question: s.question.as_ref().map(|q| AskOutline {
                        ask: q.ask,
                        kind: match &q.kind {
                            Ask::Choice { options, .. } => AskKind::Choice { options },
                            Ask::Number {
                                unit,
                                decimals,
                                tolerance,
                                ..
                            } => AskKind::Number {
                                unit,
                                decimals: *decimals,
                                tolerance: *tolerance,
                            },
                        },
                    }),
                })
                .collect(),
        }
    }
}

impl Outline {
    /// How many stops ask a question.
    pub fn predictions(&self) -> usize {
        self.stops.iter().filter(|s| s.question.is_some()).count()
    }
}

/// A lesson's stop number read from a link (`lesson=N`, counted from 1):
/// the stop's index, or why it cannot be opened.
pub fn read_stop(text: &str, stops: usize) -> Result<usize, String> {
    let n = (1..=3).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_digit());
    stop_index(if n { text.parse().unwrap_or(0) } else { 0 }, stops)
}

/// Stop `n`, counted from 1, as an index from 0, if a lesson of `stops`
/// stops has it; else why not. The one range rule for a link's `lesson=N`
/// and the slide API's `stop`.
pub fn stop_index(n: usize, stops: usize) -> Result<usize, String> {
    match stops {
        0 => Err("this demo has no lesson".into()),
        _ if (1..=stops).contains(&n) => Ok(n - 1),
        _ => Err(format!("this lesson has stops 1 to {stops}")),
    }
}

/// The notice for a link whose lesson stop could not be opened.
pub fn stop_notice(error: &str) -> String {
    format!(
        "This link's lesson stop could not be opened: {error}. The demo opened without its lesson."
    )
}
