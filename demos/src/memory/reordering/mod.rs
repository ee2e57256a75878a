//! Memory reordering, the litmus explorer: pick a test and a model, see every
//! outcome the model allows and the cycle that forbids each other one — and,
//! under SC and TSO, be the scheduler: run threads one instruction at a time
//! and drain store buffers, reaching exactly the allowed outcomes.
//!
//! The verdicts come from [`crate::memory::litmus`], computed once per test
//! and shared (behind an `Arc`) by every snapshot of the timeline.

mod explore;
mod machine;
mod narrate;
#[cfg(test)]
mod tests;

pub use explore::{reachable, Outcome};
pub use machine::{Blocked, Effect, Machine};

use crate::memory::litmus::catalogue::CATALOGUE;
use crate::memory::litmus::explain::{comparisons, outcome_text, verdict_sentence};
use crate::memory::litmus::syntax::{thread_code, Syntax};
use crate::memory::litmus::{parse, Analysis, MemModel, Status};
use crate::model::{Event, Figure, Model, Outcome as Answer, Refusal};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Longest test text a share link may carry.
pub const MAX_TEXT: usize = 1_000;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReorderingConfig {
    /// The test in the litmus text format.
    pub text: String,
    pub model: MemModel,
}

impl Default for ReorderingConfig {
    fn default() -> Self {
        ReorderingConfig {
            text: CATALOGUE[0].text.to_string(),
            model: MemModel::Tso,
        }
    }
}

/// One step of the current run, for the view's trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RunStep {
    /// Thread `thread` ran its operation `op`.
    Ran { thread: u8, op: u8, effect: Effect },
    /// Thread `thread`'s buffer drained `value` to location `loc`.
    Drained { thread: u8, loc: u8, value: u8 },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reordering {
    /// The test's text as loaded.
    pub text: String,
    /// The catalogue entry loaded, if the text is one.
    pub entry: Option<usize>,
    pub model: MemModel,
    /// Every outcome judged under every model, computed once per test.
    pub analysis: Arc<Analysis>,
    /// The outcome row whose execution graph is shown.
    pub selected: Option<usize>,
    /// The operational run (SC and TSO only).
    pub machine: Machine,
    /// What the current run has done so far.
    pub steps: Vec<RunStep>,
    /// Outcome rows reached by finished runs under the current model.
    pub reached: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReorderingAction {
    /// Load catalogue entry `i`.
    ChooseTest(usize),
    /// Load a typed test.
    LoadText(String),
    ChooseModel(MemModel),
    /// Show outcome row `i`'s execution graph.
    SelectOutcome(usize),
    ClearSelection,
    /// Run thread `t`'s next instruction.
    Run(u8),
    /// Drain thread `t`'s oldest buffered store.
    Drain(u8),
    /// Start the run again.
    Restart,
}

/// Parses and analyses a test text, or says why not, in a sentence.
fn analyse(text: &str) -> Result<Analysis, String> {
    let count = text.chars().count();
    if count > MAX_TEXT {
        return Err(format!(
            "The test is {count} characters long; the explorer takes at most {MAX_TEXT}."
        ));
    }
    let test =
        parse(text).map_err(|e| format!("Line {}, column {}: {}.", e.line, e.col, e.reason))?;
    Analysis::of(&test).map_err(|e| crate::text::capitalised(&e) + ".")
}

impl Reordering {
    /// Whether the explorer has a machine to step under `model`: SC and TSO
    /// only; ARMv8 and RC11 are judged from their axioms.
    pub fn schedules(model: MemModel) -> bool {
        matches!(model, MemModel::Sc | MemModel::Tso)
    }

    fn steppable(&self) -> bool {
        Self::schedules(self.model)
    }

    fn test(&self) -> &crate::memory::litmus::Test {
        &self.analysis.test
    }

    /// The syntax the view and narration use for this model.
    pub fn syntax(&self) -> Syntax {
        Syntax::of(self.model)
    }

    /// Each thread's code in the model's syntax.
    pub fn code(&self) -> Vec<Vec<String>> {
        (0..self.test().threads.len())
            .map(|t| thread_code(self.test(), t, self.syntax()))
            .collect()
    }

    /// How many outcomes the current model allows.
    pub fn allowed_count(&self) -> usize {
        self.analysis.allowed(self.model).count()
    }

    /// The row of the finished run's final state.
    pub fn run_row(&self) -> Option<usize> {
        if !self.machine.finished(self.test()) {
            return None;
        }
        let (regs, mem) = self.machine.outcome(&self.analysis.mem_locs);
        self.analysis
            .rows
            .iter()
            .position(|r| r.regs == regs && r.mem == mem)
    }

    fn load(&mut self, text: String, entry: Option<usize>, analysis: Analysis) -> Event {
        let name = analysis.test.name.clone();
        let rows = analysis.rows.len();
        let dropped = self.steppable() && !self.steps.is_empty();
        self.text = text;
        self.entry = entry;
        self.analysis = Arc::new(analysis);
        self.selected = None;
        self.reached.clear();
        self.restart_run();
        let teaches = entry.map_or(String::new(), |i| format!(" {}", CATALOGUE[i].teaches));
        let restart = if dropped {
            " The run in progress is dropped: Step starts the new test from its first instruction."
        } else {
            ""
        };
        Event::info(format!(
            "Loaded {name}: {rows} distinct outcome{}, {} allowed under {}.{teaches}{restart}",
            crate::text::plural(rows),
            self.allowed_count(),
            self.model.label()
        ))
        .at("code")
        .at("outcomes")
    }

    fn restart_run(&mut self) {
        self.machine = Machine::new(self.test());
        self.steps.clear();
    }

    fn choose_test(&mut self, i: usize) -> Answer {
        let Some(entry) = CATALOGUE.get(i) else {
            return Err(Refusal::new(format!(
                "The catalogue has {} tests: pick one of them.",
                CATALOGUE.len()
            )));
        };
        if self.entry == Some(i) {
            return Err(Refusal::new(format!("{} is already loaded.", entry.name)));
        }
        let analysis = analyse(entry.text).map_err(Refusal::new)?;
        Ok(vec![self.load(entry.text.to_string(), Some(i), analysis)])
    }

    fn load_text(&mut self, text: &str) -> Answer {
        let analysis = analyse(text).map_err(Refusal::new)?;
        let entry = CATALOGUE.iter().position(|e| e.text == text);
        Ok(vec![self.load(text.to_string(), entry, analysis)])
    }

    fn choose_model(&mut self, model: MemModel) -> Answer {
        if model == self.model {
            return Err(Refusal::new(format!(
                "{} is already the model.",
                model.label()
            )));
        }
        self.model = model;
        self.reached.clear();
        self.restart_run();
        let mut events = vec![Event::info(verdict_sentence(&self.analysis, model)).at("verdict")];
        if !self.steppable() {
            events.push(Event::info(format!(
                "{} is judged axiomatically; the scheduler steps SC and TSO only.",
                model.label()
            )));
        }
        Ok(events)
    }

    fn select(&mut self, i: usize) -> Answer {
        let Some(row) = self.analysis.rows.get(i) else {
            return Err(Refusal::new(format!(
                "There are {} outcomes: pick one from the table.",
                self.analysis.rows.len()
            )));
        };
        if self.selected == Some(i) {
            return Err(Refusal::new("That outcome is already shown."));
        }
        let text = narrate::row_sentence(&self.analysis, self.model, row);
        self.selected = Some(i);
        Ok(vec![Event::info(text).at(format!("row-{i}")).at("graph")])
    }

    fn scheduler_refusal(&self) -> Option<Refusal> {
        if !self.steppable() {
            return Some(Refusal::new(format!(
                "{} has no machine to step here: switch the model to SC or TSO to schedule a run.",
                self.model.label()
            )));
        }
        if self.machine.finished(self.test()) {
            return Some(Refusal::new(
                "The run is over: restart it to try another schedule.",
            ));
        }
        None
    }

    fn run(&mut self, t: u8) -> Answer {
        if let Some(r) = self.scheduler_refusal() {
            return Err(r);
        }
        let threads = self.test().threads.len();
        if t as usize >= threads {
            return Err(Refusal::new(format!(
                "This test has {threads} thread{}: T0 to T{}.",
                crate::text::plural(threads),
                threads - 1
            )));
        }
        match self.machine.blocked(self.test(), t as usize, self.model) {
            Some(Blocked::Finished) => {
                return Err(Refusal::new(format!(
                    "T{t} has run all its instructions: pick another thread{}.",
                    if self.machine.buffers[t as usize].is_empty() {
                        ""
                    } else {
                        " or drain its buffer"
                    }
                )))
            }
            Some(Blocked::WaitsForBuffer) => {
                return Err(Refusal::new(format!(
                    "T{t}'s next instruction waits for an empty store buffer: drain T{t}'s buffer first."
                )))
            }
            None => {}
        }
        let op = self.machine.pc[t as usize];
        let analysis = Arc::clone(&self.analysis);
        let effect = self
            .machine
            .run(&analysis.test, t as usize, self.model)
            .ok_or_else(|| Refusal::new("That instruction cannot run now."))?;
        self.steps.push(RunStep::Ran {
            thread: t,
            op,
            effect,
        });
        let mut events = vec![narrate::ran(self, t, op, effect)];
        events.extend(self.finish_if_done());
        Ok(events)
    }

    fn drain(&mut self, t: u8) -> Answer {
        if let Some(r) = self.scheduler_refusal() {
            return Err(r);
        }
        if self.model != MemModel::Tso {
            return Err(Refusal::new(
                "Under SC a store goes straight to memory: there is no buffer to drain.",
            ));
        }
        let Some((loc, value)) = self.machine.drain(t as usize) else {
            return Err(Refusal::new(format!(
                "T{t} has no buffered store to drain."
            )));
        };
        self.steps.push(RunStep::Drained {
            thread: t,
            loc,
            value,
        });
        let mut events = vec![narrate::drained(self, t, loc, value)];
        events.extend(self.finish_if_done());
        Ok(events)
    }

    fn finish_if_done(&mut self) -> Option<Event> {
        let row = self.run_row()?;
        // Kept sorted and without repeats, by inserting in place.
        if let Err(at) = self.reached.binary_search(&row) {
            self.reached.insert(at, row);
        }
        Some(narrate::finished(self, row))
    }

    fn restart(&mut self) -> Answer {
        if self.steps.is_empty() {
            return Err(Refusal::new("The run is already at its start."));
        }
        self.restart_run();
        Ok(vec![Event::info(
            "The run starts again: every thread at its first instruction, memory all 0.",
        )
        .at("code")])
    }
}

impl Model for Reordering {
    type Config = ReorderingConfig;
    type Action = ReorderingAction;

    fn validate(config: &ReorderingConfig) -> Result<(), String> {
        analyse(&config.text).map(|_| ())
    }

    fn new(config: &ReorderingConfig) -> Self {
        // An invalid text (never from a validated config) falls back to MP.
        Self::build(config).unwrap_or_else(|_| {
            Self::build(&ReorderingConfig {
                text: CATALOGUE[0].text.to_string(),
                model: config.model,
            })
            .expect("the catalogue's MP is valid")
        })
    }

    /// Validating the text analyses the whole test, which is most of
    /// building the model: one analysis serves both.
    fn build(config: &ReorderingConfig) -> Result<Self, String> {
        let analysis = analyse(&config.text)?;
        let machine = Machine::new(&analysis.test);
        Ok(Reordering {
            text: config.text.clone(),
            entry: CATALOGUE.iter().position(|e| e.text == config.text),
            model: config.model,
            analysis: Arc::new(analysis),
            selected: None,
            machine,
            steps: Vec::new(),
            reached: Vec::new(),
        })
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "{} under {}: {}",
            self.test().name,
            self.model.label(),
            verdict_sentence(&self.analysis, self.model)
        ))
        .at("verdict")
    }

    fn apply(&mut self, action: &ReorderingAction) -> Answer {
        match action {
            ReorderingAction::ChooseTest(i) => self.choose_test(*i),
            ReorderingAction::LoadText(text) => self.load_text(text),
            ReorderingAction::ChooseModel(m) => self.choose_model(*m),
            ReorderingAction::SelectOutcome(i) => self.select(*i),
            ReorderingAction::ClearSelection => {
                if self.selected.take().is_none() {
                    return Err(Refusal::new("No outcome is selected."));
                }
                Ok(vec![
                    Event::info("The execution graph is closed.").at("graph")
                ])
            }
            ReorderingAction::Run(t) => self.run(*t),
            ReorderingAction::Drain(t) => self.drain(*t),
            ReorderingAction::Restart => self.restart(),
        }
    }

    fn next_auto(&self) -> Result<ReorderingAction, Refusal> {
        if !self.steppable() {
            return Err(Refusal::new(format!(
                "Step has nothing to run under {}, which is judged from its axioms alone: switch the model to SC or TSO to schedule a run.",
                self.model.label()
            )));
        }
        if let Some(r) = self.scheduler_refusal() {
            return Err(r);
        }
        let threads = self.test().threads.len();
        if let Some(t) =
            (0..threads).find(|&t| self.machine.blocked(self.test(), t, self.model).is_none())
        {
            return Ok(ReorderingAction::Run(t as u8));
        }
        (0..threads)
            .find(|&t| !self.machine.buffers[t].is_empty())
            .map(|t| ReorderingAction::Drain(t as u8))
            .ok_or_else(|| Refusal::new("Nothing can move."))
    }

    fn check(&self) -> Result<(), String> {
        let test = self.test();
        let rows = &self.analysis.rows;
        if self.selected.is_some_and(|i| i >= rows.len()) {
            return Err("the selected outcome is not in the table".into());
        }
        if self.machine.pc.len() != test.threads.len()
            || self
                .machine
                .pc
                .iter()
                .zip(&test.threads)
                .any(|(pc, ops)| *pc as usize > ops.len())
        {
            return Err("a thread's position is outside its code".into());
        }
        if self.model != MemModel::Tso && self.machine.buffers.iter().any(|b| !b.entries.is_empty())
        {
            return Err("a store is buffered outside TSO".into());
        }
        let allowed = |i: &usize| {
            rows.get(*i)
                .is_some_and(|r| r.cells[self.model.index()].status == Status::Allowed)
        };
        if !self.reached.iter().all(allowed) {
            return Err("a run reached an outcome the model forbids".into());
        }
        if self.steppable()
            && self.machine.finished(test)
            && !self.run_row().as_ref().is_some_and(allowed)
        {
            return Err("the finished run's outcome is not an allowed row".into());
        }
        Ok(())
    }

    fn status(&self) -> Vec<Figure> {
        let a = &self.analysis;
        let position = if !self.steppable() {
            "axiomatic only".to_string()
        } else if self.machine.finished(self.test()) {
            "finished".to_string()
        } else {
            self.machine
                .pc
                .iter()
                .zip(&self.test().threads)
                .enumerate()
                .map(|(t, (pc, ops))| format!("T{t} {pc}/{}", ops.len()))
                .collect::<Vec<_>>()
                .join(", ")
        };
        vec![
            Figure::new("test", "test", &self.test().name),
            Figure::new("model", "model", self.model.label()),
            Figure::new(
                "allowed",
                "outcomes allowed",
                format!("{} of {}", self.allowed_count(), a.rows.len()),
            ),
            Figure::new("verdict", "exists", a.verdict(self.model).word()),
            Figure::new("position", "scheduler", position),
            Figure::new(
                "reached",
                "outcomes reached",
                format!("{} of {}", self.reached.len(), self.allowed_count()),
            ),
        ]
    }

    fn why(&self) -> Vec<String> {
        let a = &self.analysis;
        let counts: Vec<String> = MemModel::ALL
            .iter()
            .map(|m| format!("{} {}", m.label(), a.allowed(*m).count()))
            .collect();
        let mut out = vec![
            verdict_sentence(a, self.model),
            format!(
                "Of {} distinct outcomes, each model allows: {}. On this test {}.",
                a.rows.len(),
                counts.join(", "),
                comparisons(a).join("; ")
            ),
        ];
        if self.steppable() {
            out.push(format!(
                "Your runs have reached {} of the {} outcomes {} allows; no schedule can reach a forbidden one.",
                self.reached.len(),
                self.allowed_count(),
                self.model.label()
            ));
        }
        if let Some(row) = self.selected.and_then(|i| a.rows.get(i)) {
            out.push(format!("Selected: {}.", outcome_text(a, row)));
        }
        out
    }

    fn leaves_out() -> &'static str {
        // RC11 is herd's rc11.cat (Lahav et al., PLDI 2017), not ISO C11 or
        // C++20: C11 and C++ allow LB for relaxed atomics (only thin-air values
        // are ruled out); C11's seq_cst fences allow RWC+fences (C++20 took
        // RC11's repair, P0668R5); C++20 shortened release sequences
        // (P0982R1), rc11.cat keeps C11's.
        "Leaves out: read-modify-writes and locks, mixed-size accesses, ISB and the other Arm barriers, consume, branches that change what runs (a ctrl dependency branches to the next instruction), and a stepping machine for ARMv8 and RC11, which are judged axiomatically only. RC11 is a repaired C11, not the standard: ISO C11 and C++20 allow LB with relaxed atomics, which RC11 forbids; ISO C11 also allows RWC+fences, since its seq_cst fences are weaker; and C++20 shortened release sequences (P0982R1), so after W.rel y 1; W y 2 an acquire load reading 2 synchronises in RC11 but not in C++20."
    }
}
