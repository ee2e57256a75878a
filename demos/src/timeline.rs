//! Step, step back, reset: the history every demo shares.
//!
//! The timeline keeps the full action log (so any state can be rebuilt by
//! replay) and a snapshot of the state before each of the last
//! [`SNAPSHOTS_KEPT`] actions (so stepping back is instant). Stepping back past
//! the oldest snapshot replays the log from the start instead: slower, never wrong.

use crate::model::{Event, Model, Refusal, Tone};
use crate::scenario::{Scenario, ScenarioError};
use std::collections::VecDeque;

/// How many steps back are served from snapshots.
pub const SNAPSHOTS_KEPT: usize = 2_000;

/// One line of the narration log: the step it belongs to and what it says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NarrationLine {
    /// Number of actions applied when the line was written.
    pub step: usize,
    pub tone: Tone,
    pub text: String,
    pub focus: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Timeline<M: Model> {
    config: M::Config,
    current: M,
    actions: Vec<M::Action>,
    snapshots: VecDeque<M>,
    narration: Vec<NarrationLine>,
}

impl<M: Model> Timeline<M> {
    /// A fresh timeline; an invalid configuration falls back to the default.
    pub fn new(config: M::Config) -> Self {
        Self::try_new(config).unwrap_or_else(|_| {
            let config = M::Config::default();
            let current = M::new(&config);
            Self::starting(config, current)
        })
    }

    /// A fresh timeline, or why the configuration is invalid.
    pub fn try_new(config: M::Config) -> Result<Self, String> {
        let current = M::build(&config)?;
        Ok(Self::starting(config, current))
    }

    fn starting(config: M::Config, current: M) -> Self {
        let intro = current.intro();
        let mut timeline = Timeline {
            config,
            current,
            actions: Vec::new(),
            snapshots: VecDeque::new(),
            narration: Vec::new(),
        };
        timeline.narrate(vec![intro]);
        timeline
    }

    pub fn model(&self) -> &M {
        &self.current
    }

    pub fn config(&self) -> &M::Config {
        &self.config
    }

    /// Number of actions applied since the initial state.
    pub fn step_count(&self) -> usize {
        self.actions.len()
    }

    pub fn actions(&self) -> &[M::Action] {
        &self.actions
    }

    pub fn narration(&self) -> &[NarrationLine] {
        &self.narration
    }

    pub fn can_back(&self) -> bool {
        !self.actions.is_empty()
    }

    /// Applies an action. A refusal leaves the state untouched and is written
    /// into the narration so the learner sees why.
    pub fn apply(&mut self, action: M::Action) -> Result<(), Refusal> {
        let before = self.current.clone();
        match self.current.apply(&action) {
            Ok(events) => {
                self.snapshots.push_back(before);
                if self.snapshots.len() > SNAPSHOTS_KEPT {
                    self.snapshots.pop_front();
                }
                self.actions.push(action);
                self.narrate(events);
                Ok(())
            }
            Err(refusal) => {
                self.current = before;
                self.narrate_refusal(&refusal);
                Err(refusal)
            }
        }
    }

    /// One automatic step (what Play does on every tick).
    pub fn step(&mut self) -> Result<(), Refusal> {
        match self.current.next_auto() {
            Ok(action) => self.apply(action),
            Err(refusal) => {
                self.narrate_refusal(&refusal);
                Err(refusal)
            }
        }
    }

    /// Undoes the last action. Returns false at the initial state.
    pub fn back(&mut self) -> bool {
        if self.actions.pop().is_none() {
            return false;
        }
        self.current = match self.snapshots.pop_back() {
            Some(snapshot) => snapshot,
            None => self.replayed(self.actions.len()),
        };
        let step = self.actions.len();
        let undone_line = self
            .narration
            .iter()
            .find(|line| line.step == step + 1 && line.tone != Tone::Refused)
            .map(|line| line.text.clone());
        self.narration.retain(|line| line.step <= step);
        let text = match undone_line {
            Some(text) => format!("Stepped back, undoing: {text}"),
            // Never the action's Debug form: that is code, not a sentence
            // (and would put every action's Debug impl in the wasm).
            None => format!("Stepped back to step {step}."),
        };
        self.narration.push(NarrationLine {
            step,
            tone: Tone::Info,
            text,
            focus: Vec::new(),
        });
        true
    }

    /// Back to the initial state of the current configuration.
    pub fn reset(&mut self) {
        // The configuration was valid when this timeline began.
        *self = Self::starting(self.config.clone(), M::new(&self.config));
    }

    /// The configuration and action log that rebuild this state.
    pub fn scenario(&self) -> Scenario<M> {
        Scenario {
            config: self.config.clone(),
            actions: self.actions.clone(),
        }
    }

    /// Rebuilds a timeline by replaying a scenario; any refused step makes the
    /// whole scenario invalid (a share link must reproduce, not approximate).
    pub fn from_scenario(scenario: &Scenario<M>) -> Result<Self, ScenarioError> {
        let mut timeline =
            Self::try_new(scenario.config.clone()).map_err(ScenarioError::BadConfig)?;
        for (index, action) in scenario.actions.iter().enumerate() {
            timeline
                .apply(action.clone())
                .map_err(|refusal| ScenarioError::Refused {
                    step: index + 1,
                    reason: refusal.reason,
                })?;
        }
        Ok(timeline)
    }

    fn replayed(&self, steps: usize) -> M {
        let mut model = M::new(&self.config);
        for action in &self.actions[..steps] {
            // The log only holds accepted actions of a deterministic model, so
            // replaying them cannot be refused.
            let _ = model.apply(action);
        }
        model
    }

    fn narrate_refusal(&mut self, refusal: &Refusal) {
        self.narration.push(NarrationLine {
            step: self.actions.len(),
            tone: Tone::Refused,
            text: refusal.reason.clone(),
            focus: Vec::new(),
        });
    }

    fn narrate(&mut self, events: Vec<Event>) {
        let step = self.actions.len();
        self.narration
            .extend(events.into_iter().map(|event| NarrationLine {
                step,
                tone: event.tone,
                text: event.text,
                focus: event.focus,
            }));
    }
}
