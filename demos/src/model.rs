//! The contract every demo model fulfils.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

/// How a narration line should be read: the UI gives each tone a colour
/// *and* a text prefix, so the meaning never rests on colour alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tone {
    /// An ordinary state change.
    Info,
    /// Something completed as intended.
    Done,
    /// Legal, but costly or risky: the learner should notice.
    Warn,
    /// The model shows damage: corruption, a fault, a loss.
    Fault,
    /// An action the model declined (see [`Refusal`]).
    Refused,
}

/// One narration line produced by an action, plus the parts of the picture
/// it concerns (stable keys such as `desc-3` or `irq-line` that views mark).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub tone: Tone,
    pub text: String,
    pub focus: Vec<String>,
}

impl Event {
    pub fn new(tone: Tone, text: impl Into<String>) -> Self {
        Event {
            tone,
            text: text.into(),
            focus: Vec::new(),
        }
    }
    pub fn info(text: impl Into<String>) -> Self {
        Self::new(Tone::Info, text)
    }
    pub fn done(text: impl Into<String>) -> Self {
        Self::new(Tone::Done, text)
    }
    pub fn warn(text: impl Into<String>) -> Self {
        Self::new(Tone::Warn, text)
    }
    pub fn fault(text: impl Into<String>) -> Self {
        Self::new(Tone::Fault, text)
    }
    /// Marks a part of the picture this line is about.
    pub fn at(mut self, key: impl Into<String>) -> Self {
        self.focus.push(key.into());
        self
    }
}

/// Why an action cannot be taken in the current state. Shown to the learner
/// verbatim, so it is written as a sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub reason: String,
}

impl Refusal {
    pub fn new(reason: impl Into<String>) -> Self {
        Refusal {
            reason: reason.into(),
        }
    }
}

/// The answer to an action: what happened, or why nothing did.
pub type Outcome = Result<Vec<Event>, Refusal>;

/// A key figure for a demo's status line, e.g. `HEAD` = `3`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Figure {
    pub key: &'static str,
    pub label: &'static str,
    pub value: String,
}

impl Figure {
    pub fn new(key: &'static str, label: &'static str, value: impl ToString) -> Self {
        Figure {
            key,
            label,
            value: value.to_string(),
        }
    }
}

/// A demo's simulation: deterministic plain data.
///
/// Autoplay is nothing but [`Model::next_auto`] applied repeatedly, so
/// pressing Step and watching Play always agree.
pub trait Model: Clone + PartialEq + Debug + Serialize + DeserializeOwned + Send + Sync {
    type Config: Clone + PartialEq + Debug + Default + Serialize + DeserializeOwned + Send + Sync;
    type Action: Clone + PartialEq + Debug + Serialize + DeserializeOwned + Send + Sync;

    /// Checks a configuration (e.g. one decoded from a share link).
    fn validate(config: &Self::Config) -> Result<(), String>;

    /// The initial state for a valid configuration.
    fn new(config: &Self::Config) -> Self;

    /// `validate`, then `new`: the initial state, or why the configuration
    /// is invalid. A model whose check already does most of building it
    /// (reordering analyses the whole litmus test to validate its text)
    /// answers both at once; it must agree with the pair.
    fn build(config: &Self::Config) -> Result<Self, String> {
        Self::validate(config).map(|()| Self::new(config))
    }

    /// The narration shown before the first action.
    fn intro(&self) -> Event;

    /// Applies a learner action or an automatic step.
    fn apply(&mut self, action: &Self::Action) -> Outcome;

    /// The next automatic step, or why there is none.
    fn next_auto(&self) -> Result<Self::Action, Refusal>;

    /// The model's invariants; `Err` names the first one broken.
    fn check(&self) -> Result<(), String>;

    /// Why `apply(action)` would be refused now, without changing anything:
    /// the controls grey out refused buttons with this reason on every frame.
    /// The default tries the action on a copy; a model with a costly action
    /// (a whole sweep of runs) answers directly, and must agree with `apply`.
    fn refusal(&self, action: &Self::Action) -> Option<Refusal> {
        trial_refusal(self, action)
    }

    /// Key figures for the status line.
    fn status(&self) -> Vec<Figure>;

    /// "Why it matters": sentences built from the current numbers.
    fn why(&self) -> Vec<String>;

    /// One line on what the model deliberately leaves out.
    fn leaves_out() -> &'static str;
}

/// [`Model::refusal`]'s default: try the action on a copy. A model that
/// answers some actions directly calls this for the rest.
pub fn trial_refusal<M: Model>(model: &M, action: &M::Action) -> Option<Refusal> {
    model.clone().apply(action).err()
}
