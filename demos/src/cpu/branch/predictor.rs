//! The four direction predictors, as plain state machines.
//!
//! - Static always-taken: no state at all.
//! - 1-bit: a table of last outcomes, indexed by branch address bits; it
//!   predicts whatever the branch did last time.
//! - 2-bit saturating counter (J. E. Smith, "A Study of Branch Prediction
//!   Strategies", ISCA 1981): 0 strongly not-taken, 1 weakly not-taken,
//!   2 weakly taken, 3 strongly taken; predict taken at 2 or 3; count up on
//!   taken, down on not-taken, saturating at 0 and 3. Every outcome moves
//!   the counter one step, so one surprise moves a strong state only to the
//!   weak one and a single odd outcome costs one mispredict, not the two a
//!   1-bit scheme pays per loop exit (Hennessy & Patterson, *Computer
//!   Architecture: A Quantitative Approach*, 5th ed., Appendix C.2).
//!   The 2-bit diagram in Patterson & Hennessy's *Computer Organization and
//!   Design* (the section on dynamic branch prediction) is another machine:
//!   a miss in a weak state jumps to the strong state of the other side
//!   (hysteresis), where this counter steps to the other weak state.
//! - gshare (S. McFarling, "Combining Branch Predictors", DEC WRL TN-36,
//!   1993): the same 2-bit counters, indexed by the branch address XOR the
//!   global history register (the last outcomes, newest in bit 0).
//!
//! Counters start weakly not-taken (1) and 1-bit entries not-taken (0): a
//! choice of this model, stated so the warm-up mispredicts can be counted.

use serde::{Deserialize, Serialize};

/// The address of the loop's one conditional branch; its low bits index the
/// tables. Any fixed value works: with one branch, XOR by a constant only
/// permutes the gshare table, so there is no aliasing to model.
pub const BRANCH_PC: u32 = 0x0040_1136;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum PredictorKind {
    AlwaysTaken,
    OneBit,
    #[default]
    TwoBit,
    Gshare,
}

impl PredictorKind {
    pub const ALL: [PredictorKind; 4] = [
        PredictorKind::AlwaysTaken,
        PredictorKind::OneBit,
        PredictorKind::TwoBit,
        PredictorKind::Gshare,
    ];

    pub fn label(self) -> &'static str {
        match self {
            PredictorKind::AlwaysTaken => "always taken",
            PredictorKind::OneBit => "1-bit",
            PredictorKind::TwoBit => "2-bit counter",
            PredictorKind::Gshare => "gshare",
        }
    }

    /// Whether the predictor's table holds 2-bit saturating counters.
    pub fn counts(self) -> bool {
        matches!(self, PredictorKind::TwoBit | PredictorKind::Gshare)
    }

    /// Whether the predictor keeps a pattern history table.
    pub fn has_table(self) -> bool {
        self != PredictorKind::AlwaysTaken
    }
}

/// The state name of a 2-bit counter, for the table picture.
pub fn counter_label(counter: u8) -> &'static str {
    match counter {
        0 => "strongly not-taken",
        1 => "weakly not-taken",
        2 => "weakly taken",
        _ => "strongly taken",
    }
}

/// A predictor's whole state: the pattern history table and the global
/// history register.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Predictor {
    pub kind: PredictorKind,
    /// Pattern history table: 2-bit counters (0..=3), or last outcomes (0/1)
    /// for the 1-bit predictor. 2^index_bits entries.
    pub pht: Vec<u8>,
    /// Global history register, newest outcome in bit 0 (gshare only).
    pub ghr: u16,
    pub history_bits: u8,
}

/// What one prediction looked at, so the picture can show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lookup {
    /// The table entry consulted, if the predictor has a table.
    pub slot: Option<usize>,
    /// That entry before the update.
    pub before: u8,
    pub predicted: bool,
}

impl Predictor {
    pub fn new(kind: PredictorKind, index_bits: u8, history_bits: u8) -> Self {
        let initial = if kind == PredictorKind::OneBit { 0 } else { 1 };
        Predictor {
            kind,
            pht: vec![initial; 1 << index_bits],
            ghr: 0,
            history_bits,
        }
    }

    fn mask(&self) -> usize {
        self.pht.len() - 1
    }

    fn history_mask(&self) -> u16 {
        ((1u32 << self.history_bits) - 1) as u16
    }

    /// The table entry this branch uses now.
    pub fn slot(&self) -> Option<usize> {
        let pc = BRANCH_PC as usize;
        match self.kind {
            PredictorKind::AlwaysTaken => None,
            PredictorKind::OneBit | PredictorKind::TwoBit => Some(pc & self.mask()),
            PredictorKind::Gshare => Some((pc ^ usize::from(self.ghr)) & self.mask()),
        }
    }

    pub fn lookup(&self) -> Lookup {
        let slot = self.slot();
        let before = slot.map_or(0, |s| self.pht[s]);
        let predicted = match self.kind {
            PredictorKind::AlwaysTaken => true,
            PredictorKind::OneBit => before == 1,
            PredictorKind::TwoBit | PredictorKind::Gshare => before >= 2,
        };
        Lookup {
            slot,
            before,
            predicted,
        }
    }

    /// Predicts, then learns the real outcome. Returns what was looked at.
    pub fn resolve(&mut self, taken: bool) -> Lookup {
        let look = self.lookup();
        if let Some(slot) = look.slot {
            let entry = &mut self.pht[slot];
            *entry = match self.kind {
                PredictorKind::OneBit => u8::from(taken),
                _ if taken => (*entry + 1).min(3),
                _ => entry.saturating_sub(1),
            };
        }
        if self.kind == PredictorKind::Gshare {
            self.ghr = ((self.ghr << 1) | u16::from(taken)) & self.history_mask();
        }
        look
    }

    /// The history register as `T`/`N` letters, oldest first.
    pub fn history_text(&self) -> String {
        (0..self.history_bits)
            .rev()
            .map(|bit| if self.ghr >> bit & 1 == 1 { 'T' } else { 'N' })
            .collect()
    }
}

/// Mispredicts of `kind` over `outcomes` from a cold start.
pub fn count_mispredicts(
    kind: PredictorKind,
    index_bits: u8,
    history_bits: u8,
    outcomes: impl Iterator<Item = bool>,
) -> u32 {
    let mut p = Predictor::new(kind, index_bits, history_bits);
    outcomes
        .map(|taken| u32::from(p.resolve(taken).predicted != taken))
        .sum()
}
