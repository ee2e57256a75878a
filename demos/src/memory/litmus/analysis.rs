//! Checks every candidate under every model and folds them into outcome
//! rows: for each distinct final state, whether each model allows it and,
//! when it does not, the candidate with the shortest forbidding cycle.

use super::ast::Test;
use super::enumerate::{space, values, Space};
use super::events::Skeleton;
use super::models::{check, explain, race, Exec, MemModel, Statics, Violation};
use super::rel::Rel;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How a model treats one outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    /// Some consistent execution ends this way.
    Allowed,
    /// Every execution ending this way is inconsistent.
    Forbidden,
    /// RC11 only: the consistent executions ending this way all have a data race.
    Racy,
}

/// The verdict on the test's `exists` condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    Allowed,
    Forbidden,
    /// RC11 only: some consistent execution has a data race on a non-atomic
    /// location, so the program has undefined behaviour (herd7 prints `Undef`).
    Undefined,
}

impl Verdict {
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Allowed => "allowed",
            Verdict::Forbidden => "forbidden",
            Verdict::Undefined => "undefined",
        }
    }
}

/// One candidate execution, enough to draw it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Witness {
    /// (read, write it reads from).
    pub rf: Vec<(u8, u8)>,
    /// Per location, its writes in coherence order (initial write first).
    pub co: Vec<Vec<u8>>,
    /// The value each event reads or writes (0 for fences).
    pub values: Vec<u8>,
    /// Does every location on its own behave sequentially? (When not, every
    /// model forbids the execution for that reason alone.)
    pub coherent: bool,
}

/// One model's view of one outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    pub status: Status,
    /// An execution ending this way: consistent if allowed, else the one
    /// with the shortest forbidding cycle.
    pub witness: Option<Witness>,
    pub violation: Option<Violation>,
    /// For [`Status::Racy`]: the two racing events.
    pub race: Option<(u8, u8)>,
}

/// A distinct final state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// Final value of every register, in [`Test::regs`] order.
    pub regs: Vec<u8>,
    /// Final value of each location in [`Analysis::mem_locs`].
    pub mem: Vec<u8>,
    /// Does this state satisfy the `exists` condition?
    pub satisfies: bool,
    /// Indexed by [`MemModel::index`].
    pub cells: Vec<Cell>,
}

/// Everything the explorer shows about a test.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Analysis {
    pub test: Test,
    pub skeleton: Skeleton,
    /// The locations whose final values are part of an outcome: those the condition names.
    pub mem_locs: Vec<u8>,
    /// Outcomes in ascending order of (registers, memory).
    pub rows: Vec<Row>,
    /// Indexed by [`MemModel::index`].
    pub verdicts: Vec<Verdict>,
    /// A data race found in a RC11-consistent execution, if any.
    pub race: Option<(u8, u8)>,
    /// Candidate executions examined.
    pub candidates: u64,
    /// True when only the candidates that are SC per location were generated.
    pub pruned: bool,
    /// Candidates dropped because their values would come out of thin air.
    pub thin_air: u64,
}

impl Analysis {
    /// Explores every candidate of `test`; `Err` when there are too many.
    pub fn of(test: &Test) -> Result<Analysis, String> {
        let sk = Skeleton::new(test);
        let space = space(&sk)?;
        let statics = Statics::new(&sk);
        let mem_locs: Vec<u8> = (0..test.locs.len() as u8)
            .filter(|l| test.cond.locs() & (1 << l) != 0)
            .collect();
        let mut rows: BTreeMap<Vec<u8>, Pending> = BTreeMap::new();
        let mut race_found = None;
        let mut thin_air = 0;
        let mut pick = vec![0usize; space.per_loc.len()];
        let total = space.count();
        for _ in 0..total {
            let need_race = race_found.is_none() && test.has_non_atomic();
            match Built::new(&sk, &statics, &space, &pick) {
                None => thin_air += 1,
                Some(built) => {
                    let key = built.key(&mem_locs);
                    let pending = rows
                        .entry(key)
                        .or_insert_with(|| Pending::new(test, &built, &mem_locs));
                    let race = pending.record(&built, &pick, need_race);
                    race_found = race_found.or(race);
                }
            }
            // Advance the odometer over per-location choices.
            for (digit, choices) in pick.iter_mut().zip(&space.per_loc) {
                *digit += 1;
                if *digit < choices.len() {
                    break;
                }
                *digit = 0;
            }
        }
        // Explaining costs more than checking: with many outcomes, explain
        // one kept candidate per forbidden cell instead of all of them.
        let tries = if rows.len() > MANY_ROWS { 1 } else { KEEP };
        let rows: Vec<Row> = rows
            .into_values()
            .map(|p| p.finish(&sk, &statics, &space, tries))
            .collect();
        let verdicts = MemModel::ALL
            .iter()
            .map(|m| {
                if *m == MemModel::Rc11 && race_found.is_some() {
                    Verdict::Undefined
                } else if rows
                    .iter()
                    .any(|r| r.satisfies && r.cells[m.index()].status == Status::Allowed)
                {
                    Verdict::Allowed
                } else {
                    Verdict::Forbidden
                }
            })
            .collect();
        Ok(Analysis {
            test: test.clone(),
            skeleton: sk,
            mem_locs,
            rows,
            verdicts,
            race: race_found,
            candidates: total,
            pruned: space.pruned,
            thin_air,
        })
    }

    pub fn verdict(&self, model: MemModel) -> Verdict {
        self.verdicts[model.index()]
    }

    /// The outcomes a model allows.
    pub fn allowed(&self, model: MemModel) -> impl Iterator<Item = &Row> {
        self.rows
            .iter()
            .filter(move |r| r.cells[model.index()].status == Status::Allowed)
    }

    /// The row that best explains a forbidden `exists`: a satisfying outcome
    /// with the shortest forbidding cycle under the model.
    pub fn condition_row(&self, model: MemModel) -> Option<&Row> {
        self.rows.iter().filter(|r| r.satisfies).min_by_key(|r| {
            let cell = &r.cells[model.index()];
            match cell.status {
                Status::Allowed => 0,
                Status::Racy => 1,
                Status::Forbidden => forbid_rank(cell),
            }
        })
    }

    /// The relations of a witness, rebuilt.
    pub fn relations(&self, w: &Witness) -> (Rel, Rel) {
        let mut rf = Rel::EMPTY;
        for &(r, s) in &w.rf {
            rf.add(s as usize, r as usize);
        }
        let mut co = Rel::EMPTY;
        for order in &w.co {
            for (i, &a) in order.iter().enumerate() {
                for &b in &order[i + 1..] {
                    co.add(a as usize, b as usize);
                }
            }
        }
        (rf, co)
    }
}

/// Forbidding candidates kept per outcome and model; the one with the
/// shortest cycle is explained.
const KEEP: usize = 4;
/// Above this many outcomes, only the first kept candidate is explained.
const MANY_ROWS: usize = 256;

/// One candidate, built from its per-location choices.
struct Built<'a> {
    exec: Exec<'a>,
    coherent: bool,
    values: Vec<u8>,
    regs: Vec<u8>,
    /// Final value of every location.
    memory: Vec<u8>,
}

impl<'a> Built<'a> {
    /// `None` when the values are circular (out of thin air).
    fn new(
        sk: &'a Skeleton,
        statics: &'a Statics,
        space: &Space,
        pick: &[usize],
    ) -> Option<Built<'a>> {
        let (mut rf, mut co) = (Rel::EMPTY, Rel::EMPTY);
        let mut rf_src = [0u8; 32];
        let mut coherent = true;
        let mut last = Vec::with_capacity(pick.len());
        for (&i, choices) in pick.iter().zip(&space.per_loc) {
            let c = &choices[i];
            rf = rf.union(c.rf_rel);
            co = co.union(c.co_rel);
            coherent &= c.coherent;
            for &(r, w) in &c.rf {
                rf_src[r as usize] = w;
            }
            last.push(*c.co.last().unwrap_or(&0));
        }
        let values = values(sk, &rf_src[..sk.len()])?;
        Some(Built {
            exec: Exec::new(sk, statics, rf, co),
            coherent,
            regs: sk.reg_event.iter().map(|&e| values[e as usize]).collect(),
            memory: last.iter().map(|&w| values[w as usize]).collect(),
            values,
        })
    }

    fn key(&self, mem_locs: &[u8]) -> Vec<u8> {
        let mut key = self.regs.clone();
        key.extend(mem_locs.iter().map(|&l| self.memory[l as usize]));
        key
    }

    fn witness(&self, space: &Space, pick: &[usize]) -> Witness {
        let choices = pick.iter().zip(&space.per_loc).map(|(&i, c)| &c[i]);
        Witness {
            rf: choices.clone().flat_map(|c| c.rf.iter().copied()).collect(),
            co: choices.map(|c| c.co.clone()).collect(),
            values: self.values.clone(),
            coherent: self.coherent,
        }
    }
}

/// A row being filled: its cells, and for each forbidden cell a few
/// candidates to explain at the end.
struct Pending {
    row: Row,
    keep: [Vec<(Vec<usize>, bool)>; 4],
    witness_picks: [Option<Vec<usize>>; 4],
}

impl Pending {
    fn new(test: &Test, b: &Built, mem_locs: &[u8]) -> Pending {
        let blank = Cell {
            status: Status::Forbidden,
            witness: None,
            violation: None,
            race: None,
        };
        Pending {
            row: Row {
                regs: b.regs.clone(),
                mem: mem_locs.iter().map(|&l| b.memory[l as usize]).collect(),
                satisfies: test.cond.holds(&b.regs, &b.memory),
                cells: vec![blank; 4],
            },
            keep: Default::default(),
            witness_picks: Default::default(),
        }
    }

    /// Judges one candidate under every model; returns a RC11 data race
    /// found in it (looked for, while `need_race`, even in allowed rows).
    fn record(&mut self, b: &Built, pick: &[usize], need_race: bool) -> Option<(u8, u8)> {
        let mut found = None;
        for model in MemModel::ALL {
            let m = model.index();
            let cell = &mut self.row.cells[m];
            let hunting_race = need_race && model == MemModel::Rc11;
            if cell.status == Status::Allowed && !hunting_race {
                continue;
            }
            if b.coherent && check(model, &b.exec) {
                let racy = if model == MemModel::Rc11 {
                    race(&b.exec)
                } else {
                    None
                };
                found = found.or(racy);
                let status = if racy.is_some() {
                    Status::Racy
                } else {
                    Status::Allowed
                };
                if cell.status == Status::Forbidden
                    || (cell.status == Status::Racy && racy.is_none())
                {
                    cell.status = status;
                    cell.race = racy;
                    self.witness_picks[m] = Some(pick.to_vec());
                }
            } else if cell.status == Status::Forbidden {
                // Keep a few candidates to explain; a coherent one explains
                // more than one whose locations are not even sequential.
                let keep = &mut self.keep[m];
                if keep.len() < KEEP {
                    keep.push((pick.to_vec(), b.coherent));
                } else if b.coherent {
                    if let Some(slot) = keep.iter_mut().find(|(_, c)| !c) {
                        *slot = (pick.to_vec(), true);
                    }
                }
            }
        }
        found
    }

    /// Fills in witnesses, and for forbidden cells the best explanation.
    fn finish(mut self, sk: &Skeleton, statics: &Statics, space: &Space, tries: usize) -> Row {
        for model in MemModel::ALL {
            let m = model.index();
            let cell = &mut self.row.cells[m];
            if let Some(pick) = &self.witness_picks[m] {
                if let Some(b) = Built::new(sk, statics, space, pick) {
                    cell.witness = Some(b.witness(space, pick));
                }
                continue;
            }
            let mut best: Option<(usize, Violation, Witness)> = None;
            // Coherent candidates first: they explain more. (Two passes, not
            // a stable sort: the same order, without a sort's code in the
            // page's wasm.)
            let keep = &self.keep[m];
            let coherent_first = keep
                .iter()
                .filter(|(_, coherent)| *coherent)
                .chain(keep.iter().filter(|(_, coherent)| !*coherent));
            for (pick, _) in coherent_first.take(tries) {
                let Some(b) = Built::new(sk, statics, space, pick) else {
                    continue;
                };
                let Some(v) = explain(model, &b.exec) else {
                    continue;
                };
                let rank = v.cycle.len() + if b.coherent { 0 } else { 100 };
                if best.as_ref().is_none_or(|(r, _, _)| rank < *r) {
                    best = Some((rank, v, b.witness(space, pick)));
                }
            }
            if let Some((_, v, w)) = best {
                cell.violation = Some(v);
                cell.witness = Some(w);
            }
        }
        self.row
    }
}

/// How good an explanation a forbidden cell holds: lower is better. A cycle
/// through a location that is not even sequential on its own explains less
/// than one that shows the model's ordering rules at work.
fn forbid_rank(cell: &Cell) -> usize {
    let coherent = cell.witness.as_ref().is_some_and(|w| w.coherent);
    2 + cell.violation.as_ref().map_or(99, |v| v.cycle.len()) + if coherent { 0 } else { 100 }
}
