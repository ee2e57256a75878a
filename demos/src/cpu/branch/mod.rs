//! Branch prediction: the loop `for (i…) if (a[i] >= 128) sum += a[i];` over
//! a seeded byte array, one conditional branch per iteration, predicted by
//! always-taken, 1-bit, 2-bit counter or gshare (see `predictor.rs`).
//!
//! Cycle model (this demo's own, stated on the page): every iteration costs
//! `base_cycles`, and every mispredict adds `penalty` cycles. The penalty is
//! the whole time from fetching down the wrong path to fetching the right
//! one: the branch travels down the pipeline until it executes and resolves
//! (longer when its compare waits for a load), then the wrong-path work is
//! flushed and the front end refetches and refills. An iteration retires
//! [`INSTRUCTIONS_PER_ITERATION`] instructions, so IPC = instructions / cycles.

mod data;
mod predictor;
mod report;
#[cfg(test)]
mod tests;

pub use data::{
    generate, taken, Data, Pattern, PATTERN_LEN, PATTERN_MAX, PATTERN_MIN, PREDICTABILITY,
};
pub use predictor::{
    count_mispredicts, counter_label, Lookup, Predictor, PredictorKind, BRANCH_PC,
};

use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::text::plural;
use crate::Bound;
use serde::{Deserialize, Serialize};

/// Elements in the array: iterations of the loop.
pub const LENGTH: Bound<usize> = Bound::new("array length", " elements", 16, 1024);
/// The table has 2^bits entries (2 to 256).
pub const INDEX_BITS: Bound<u8> = Bound::new("table index", " bits", 1, 8);
pub const PENALTY: Bound<u32> = Bound::new("mispredict penalty", " cycles", 1, 50);
/// Cycles of an iteration whose branch was predicted right.
pub const BASE: Bound<u32> = Bound::new("cost of a predicted iteration", " cycles", 1, 8);
/// Branches kept for the strip of recent predictions.
pub const RECENT_KEPT: usize = 64;
/// Load, compare, branch, add, increment, compare-and-branch of the loop:
/// an approximation that ignores the add being skipped when not taken.
pub const INSTRUCTIONS_PER_ITERATION: u64 = 6;
/// Mispredict penalty, cycles, from fetch of the wrong path to fetch of the
/// right one (branch resolution included). The original lab flushes for 15
/// cycles; LLVM's Skylake scheduling model says 14 (`MispredictPenalty = 14`
/// in `llvm/lib/Target/X86/X86SchedSkylakeServer.td`), the minimum for a
/// branch whose operands are ready.
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
        match c.data {
            Data::Pattern(p) if !p.is_valid() => {
                PATTERN_LEN.check(p.len)?;
                return Err(format!(
                    "This pattern's bits run past its {} letters.",
                    p.len
                ));
            }
            Data::Predictable(p) => {
                PREDICTABILITY.check(p)?;
            }
            _ => {}
        }
        LENGTH.check(c.length)?;
        INDEX_BITS.check(c.index_bits)?;
        if c.history_bits > c.index_bits {
            return Err(format!(
                "gshare's history is at most as long as the table index: 0 to {} bits here.",
                c.index_bits
            ));
        }
        PENALTY.check(c.penalty)?;
        BASE.check(c.base_cycles)?;
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
        "Leaves out: the branch target buffer, the loop's own closing branch, other branches sharing (aliasing in) the table, modern TAGE-style predictors, and the out-of-order overlap that hides part of a real penalty; the cycle cost is a fixed base per iteration plus a fixed penalty per mispredict, where a real penalty grows while the branch waits for its operands before it can resolve."
    }
}
