//! Step, step back, reset: the history every demo shares.
//!
//! The timeline keeps the full action log (so any state can be rebuilt by
//! replay), the state before each of the last [`RECENT_KEPT`] actions (so
//! stepping back is instant), and at most [`CHECKPOINTS_KEPT`] older states,
//! spaced more thinly the longer the run (so stepping back further replays at
//! most one checkpoint's gap of actions). What a run costs in memory is so
//! bounded by the size of a state, not by the run's length: a demo left
//! playing for an hour holds no more snapshots than one played for a minute.

use crate::model::{Event, Model, Refusal, Tone};
use crate::scenario::{Scenario, ScenarioError};
use std::collections::VecDeque;

/// How many steps back are served from a snapshot each, with no replay.
pub const RECENT_KEPT: usize = 64;
/// How many older states are kept as checkpoints for replay.
pub const CHECKPOINTS_KEPT: usize = 64;
/// The narration log keeps at least this many of its newest lines, the
/// ones the page lists; it is trimmed back to this when it holds twice as
/// many, so trimming is rare and the log's memory bounded.
pub const NARRATION_KEPT: usize = 200;

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
    /// The states before each of the last actions: `recent[i]` is the state
    /// at step `step_count() - recent.len() + i`.
    recent: VecDeque<M>,
    /// Older states `(step, state)`, in step order, one every `spacing` steps.
    checkpoints: Vec<(usize, M)>,
    spacing: usize,
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
            recent: VecDeque::new(),
            checkpoints: Vec::new(),
            spacing: 1,
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

    /// How many past states are held for stepping back (snapshots and
    /// checkpoints): bounded, however long the run.
    pub fn kept_states(&self) -> usize {
        self.recent.len() + self.checkpoints.len()
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
                self.recent.push_back(before);
                self.actions.push(action);
                if self.recent.len() > RECENT_KEPT {
                    let step = self.actions.len() - self.recent.len();
                    if let Some(oldest) = self.recent.pop_front() {
                        self.keep_checkpoint(step, oldest);
                    }
                }
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
        let step = self.actions.len();
        self.checkpoints.retain(|(at, _)| *at <= step);
        self.current = match self.recent.pop_back() {
            Some(snapshot) => snapshot,
            None => self.rebuilt(step),
        };
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
        self.trim_narration();
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

    /// Keeps the state at `step` as a checkpoint if it falls on the current
    /// spacing; past [`CHECKPOINTS_KEPT`], every other one goes and the
    /// spacing doubles (step 0 always stays).
    fn keep_checkpoint(&mut self, step: usize, state: M) {
        let newer = self.checkpoints.last().is_none_or(|(at, _)| *at < step);
        if !step.is_multiple_of(self.spacing) || !newer {
            return;
        }
        self.checkpoints.push((step, state));
        if self.checkpoints.len() > CHECKPOINTS_KEPT {
            self.spacing *= 2;
            let spacing = self.spacing;
            self.checkpoints
                .retain(|(at, _)| at.is_multiple_of(spacing));
        }
    }

    /// The state at `step`, replayed from the nearest checkpoint at or before
    /// it; the states passed on the way refill the recent snapshots, so the
    /// next steps back are instant again.
    fn rebuilt(&mut self, step: usize) -> M {
        let (from, mut model) = match self.checkpoints.iter().rev().find(|(at, _)| *at <= step) {
            Some((at, state)) => (*at, state.clone()),
            None => (0, M::new(&self.config)),
        };
        let window = step.saturating_sub(RECENT_KEPT);
        for (at, action) in self.actions[from..step].iter().enumerate() {
            if from + at >= window {
                self.recent.push_back(model.clone());
            }
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
        self.trim_narration();
    }

    /// Drops the oldest lines once the log holds more than twice
    /// [`NARRATION_KEPT`].
    fn trim_narration(&mut self) {
        if self.narration.len() > 2 * NARRATION_KEPT {
            self.narration
                .drain(..self.narration.len() - NARRATION_KEPT);
        }
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
        self.trim_narration();
    }
}
