//! Branch prediction: the loop `for (i…) if (a[i] >= 128) sum += a[i];` over
//! a seeded byte array, one conditional branch per iteration, predicted by
//! always-taken, 1-bit, 2-bit counter or gshare (see `predictor.rs`).
//!
//! Cycle model (this demo's own, stated on the page): every iteration costs
//! `base_cycles`, and every mispredict adds `penalty` cycles for the work
//! thrown away and the refetch. An iteration retires
//! [`INSTRUCTIONS_PER_ITERATION`] instructions, so IPC = instructions / cycles.

mod data;
mod predictor;
mod report;
#[cfg(test)]
mod tests;

pub use data::{generate, taken, Data, Pattern, PATTERN_MAX, PATTERN_MIN};
pub use predictor::{
    count_mispredicts, counter_label, Lookup, Predictor, PredictorKind, BRANCH_PC,
};

use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::text::plural;
use serde::{Deserialize, Serialize};

pub const LENGTH_MIN: usize = 16;
pub const LENGTH_MAX: usize = 1024;
pub const INDEX_BITS_MIN: u8 = 1;
pub const INDEX_BITS_MAX: u8 = 8;
pub const PENALTY_MIN: u32 = 1;
pub const PENALTY_MAX: u32 = 50;
pub const BASE_MIN: u32 = 1;
pub const BASE_MAX: u32 = 8;
/// Branches kept for the strip of recent predictions.
pub const RECENT_KEPT: usize = 64;
/// Load, compare, branch, add, increment, compare-and-branch of the loop:
/// an approximation that ignores the add being skipped when not taken.
pub const INSTRUCTIONS_PER_ITERATION: u64 = 6;
/// Mispredict penalty, cycles. The original lab flushes for 15 cycles;
/// LLVM's Skylake scheduling model says 14 (`MispredictPenalty = 14` in
/// `llvm/lib/Target/X86/X86SchedSkylakeServer.td`).
pub const DEFAULT_PENALTY: u32 = 15;
/// Base cycles per iteration: an assumption of this model (about six
/// instructions on a core that retires three or so per cycle).
pub const DEFAULT_BASE: u32 = 2;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BranchConfig {
    pub data: Data,
    /// Array length: iterations of the loop.
    pub length: usize,
    pub predictor: PredictorKind,
    /// The table has 2^index_bits entries.
    pub index_bits: u8,
    /// gshare's global history length, 0..=index_bits.
    pub history_bits: u8,
    pub penalty: u32,
    pub base_cycles: u32,
    pub seed: u64,
}

impl Default for BranchConfig {
    fn default() -> Self {
        BranchConfig {
            data: Data::Sorted,
            length: 256,
            predictor: PredictorKind::TwoBit,
            index_bits: 4,
            history_bits: 4,
            penalty: DEFAULT_PENALTY,
            base_cycles: DEFAULT_BASE,
            seed: 0x5EED_0B1A,
        }
    }
}

/// One resolved branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BranchRecord {
    pub index: usize,
    pub value: u8,
    pub predicted: bool,
    pub actual: bool,
    /// Table entry consulted and its value before and after the update.
    pub slot: Option<usize>,
    pub before: u8,
    pub after: u8,
    /// The global history register when the prediction was made.
    pub history: u16,
}

impl BranchRecord {
    pub fn hit(&self) -> bool {
        self.predicted == self.actual
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Branch {
    pub config: BranchConfig,
    /// The array `a`.
    pub values: Vec<u8>,
    pub predictor: Predictor,
    /// Iterations done; the next branch is at `a[next]`.
    pub next: usize,
    pub mispredicts: u32,
    pub taken: u32,
    /// The last [`RECENT_KEPT`] branches, oldest first.
    pub recent: Vec<BranchRecord>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BranchAction {
    /// Run one iteration: predict, resolve, update.
    Step,
    /// Run this many iterations (at most what is left).
    Run(usize),
    /// Run to the end of the array.
    Finish,
    SetData(Data),
    SetPredictor(PredictorKind),
    SetIndexBits(u8),
    SetHistory(u8),
    SetPenalty(u32),
    SetBaseCycles(u32),
    SetLength(usize),
    /// The T T N pattern under the 2-bit counter: one in three mispredicted.
    BreakIt,
}

impl Branch {
    pub fn remaining(&self) -> usize {
        self.values.len() - self.next
    }

    pub fn cycles(&self) -> u64 {
        self.next as u64 * u64::from(self.config.base_cycles)
            + u64::from(self.mispredicts) * u64::from(self.config.penalty)
    }

    pub fn instructions(&self) -> u64 {
        self.next as u64 * INSTRUCTIONS_PER_ITERATION
    }

    pub fn last(&self) -> Option<&BranchRecord> {
        self.recent.last()
    }

    fn iterate(&mut self) -> BranchRecord {
        let index = self.next;
        let value = self.values[index];
        let actual = taken(value);
        let history = self.predictor.ghr;
        let look = self.predictor.resolve(actual);
        let record = BranchRecord {
            index,
            value,
            predicted: look.predicted,
            actual,
            slot: look.slot,
            before: look.before,
            after: look.slot.map_or(0, |s| self.predictor.pht[s]),
            history,
        };
        self.next += 1;
        self.taken += u32::from(actual);
        self.mispredicts += u32::from(!record.hit());
        self.recent.push(record);
        if self.recent.len() > RECENT_KEPT {
            self.recent.remove(0);
        }
        record
    }

    fn ensure_left(&self) -> Result<(), Refusal> {
        if self.remaining() == 0 {
            return Err(Refusal::new(format!(
                "All {} iterations have run. Change the data, the predictor or a setting to run the loop again.",
                self.values.len()
            )));
        }
        Ok(())
    }

    fn step(&mut self) -> Outcome {
        self.ensure_left()?;
        let r = self.iterate();
        Ok(vec![report::narrate(self, &r)])
    }

    fn run(&mut self, n: usize) -> Outcome {
        self.ensure_left()?;
        if n == 0 || n > self.remaining() {
            return Err(Refusal::new(format!(
                "Run 1 to {} iterations: that is what is left of the array.",
                self.remaining()
            )));
        }
        let before = self.mispredicts;
        for _ in 0..n {
            self.iterate();
        }
        let missed = self.mispredicts - before;
        Ok(vec![Event::info(format!(
            "{n} iteration{} ran: {missed} mispredict{}, {} cycles so far.",
            plural(n),
            plural(missed as usize),
            self.cycles()
        ))
        .at("strip")
        .at("cycles")])
    }

    /// Applies a new configuration and restarts the loop from `a[0]`.
    fn reconfigure(&mut self, config: BranchConfig, what: String) -> Outcome {
        if let Err(reason) = Self::validate(&config) {
            return Err(Refusal::new(reason));
        }
        if config == self.config {
            return Err(Refusal::new(format!(
                "Nothing changes: that is the current setting ({what})."
            )));
        }
        *self = Self::new(&config);
        Ok(vec![Event::info(format!(
            "{}. The loop restarts at a[0] with a cold predictor.",
            crate::text::capitalised(&what)
        ))
        .at("predictor")])
    }
}

impl Model for Branch {
    type Config = BranchConfig;
    type Action = BranchAction;

    fn validate(c: &BranchConfig) -> Result<(), String> {
        if !c.data.is_valid() {
            return Err(format!(
                "A pattern repeats every {PATTERN_MIN} to {PATTERN_MAX} branches, and predictability is 0 to 100 %."
            ));
        }
        if !(LENGTH_MIN..=LENGTH_MAX).contains(&c.length) {
            return Err(format!(
                "The array holds {LENGTH_MIN} to {LENGTH_MAX} elements."
            ));
        }
        if !(INDEX_BITS_MIN..=INDEX_BITS_MAX).contains(&c.index_bits) {
            return Err(format!(
                "The table has 2 to {} entries ({INDEX_BITS_MIN} to {INDEX_BITS_MAX} index bits).",
                1 << INDEX_BITS_MAX
            ));
        }
        if c.history_bits > c.index_bits {
            return Err(format!(
                "gshare's history is at most as long as the table index: 0 to {} bits here.",
                c.index_bits
            ));
        }
        if !(PENALTY_MIN..=PENALTY_MAX).contains(&c.penalty) {
            return Err(format!(
                "The mispredict penalty is {PENALTY_MIN} to {PENALTY_MAX} cycles."
            ));
        }
        if !(BASE_MIN..=BASE_MAX).contains(&c.base_cycles) {
            return Err(format!(
                "An iteration costs {BASE_MIN} to {BASE_MAX} cycles when predicted right."
            ));
        }
        Ok(())
    }

    fn new(config: &BranchConfig) -> Self {
        Branch {
            config: config.clone(),
            values: generate(config.data, config.length, config.seed),
            predictor: Predictor::new(config.predictor, config.index_bits, config.history_bits),
            next: 0,
            mispredicts: 0,
            taken: 0,
            recent: Vec::new(),
        }
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "{} bytes, {}; the {} predictor is cold. Each step runs one `if (a[i] >= 128)`.",
            self.values.len(),
            self.config.data.label(),
            self.config.predictor.label()
        ))
    }

    fn apply(&mut self, action: &BranchAction) -> Outcome {
        let mut c = self.config.clone();
        match *action {
            BranchAction::Step => self.step(),
            BranchAction::Run(n) => self.run(n),
            BranchAction::Finish => {
                self.ensure_left()?;
                self.run(self.remaining())
            }
            BranchAction::SetData(data) => {
                c.data = data;
                self.reconfigure(c, format!("data: {}", data.label()))
            }
            BranchAction::SetPredictor(kind) => {
                c.predictor = kind;
                self.reconfigure(c, format!("predictor: {}", kind.label()))
            }
            BranchAction::SetIndexBits(bits) => {
                c.index_bits = bits;
                c.history_bits = c.history_bits.min(bits);
                let entries = 1u32.checked_shl(u32::from(bits)).unwrap_or(0);
                self.reconfigure(c, format!("table: {entries} entries"))
            }
            BranchAction::SetHistory(bits) => {
                c.history_bits = bits;
                self.reconfigure(c, format!("global history: {bits} outcomes"))
            }
            BranchAction::SetPenalty(p) => {
                c.penalty = p;
                self.reconfigure(c, format!("mispredict penalty: {p} cycles"))
            }
            BranchAction::SetBaseCycles(b) => {
                c.base_cycles = b;
                self.reconfigure(c, format!("base cost: {b} cycles per iteration"))
            }
            BranchAction::SetLength(n) => {
                c.length = n;
                self.reconfigure(c, format!("array: {n} elements"))
            }
            BranchAction::BreakIt => {
                c.data = Data::Pattern(Pattern::TTN);
                c.predictor = PredictorKind::TwoBit;
                if c == self.config {
                    return Err(Refusal::new(
                        "Already broken: T T N under the 2-bit counter. Switch the predictor to gshare.",
                    ));
                }
                self.reconfigure(
                    c,
                    "break it: T T N repeating under a 2-bit counter, which misses every N; then switch to gshare and watch its history learn the pattern".into(),
                )
            }
        }
    }

    fn next_auto(&self) -> Result<BranchAction, Refusal> {
        self.ensure_left().map(|_| BranchAction::Step)
    }

    fn check(&self) -> Result<(), String> {
        report::check(self)
    }

    fn status(&self) -> Vec<Figure> {
        report::figures(self)
    }

    fn why(&self) -> Vec<String> {
        report::why(self)
    }

    fn leaves_out() -> &'static str {
        "Leaves out: the branch target buffer, the loop's own closing branch, other branches sharing (aliasing in) the table, modern TAGE-style predictors, and the out-of-order overlap that hides part of a real penalty; the cycle cost is a fixed base per iteration plus a fixed penalty per mispredict."
    }
}
