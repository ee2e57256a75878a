//! Checks every candidate under every model and folds them into outcome
//! rows: for each distinct final state, whether each model allows it and,
//! when it does not, the candidate with the shortest forbidding cycle.

use super::ast::Test;
use super::enumerate::{space, values, Space};
use super::events::Skeleton;
use super::models::{check, explain, race, Exec, MemModel, Violation};
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
    /// C11 only: the consistent executions ending this way all have a data race.
    Racy,
}

/// The verdict on the test's `exists` condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    Allowed,
    Forbidden,
    /// C11 only: some consistent execution has a data race on a non-atomic
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
    /// A data race found in a C11-consistent execution, if any.
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
        let mem_locs: Vec<u8> = (0..test.locs.len() as u8)
            .filter(|l| test.cond.locs() & (1 << l) != 0)
            .collect();
        let mut rows: BTreeMap<Vec<u8>, Row> = BTreeMap::new();
        let mut race_found = None;
        let mut thin_air = 0;
        let mut pick = vec![0usize; space.per_loc.len()];
        let total = space.count();
        for _ in 0..total {
            let need_race = race_found.is_none() && test.has_non_atomic();
            match candidate(test, &sk, &space, &pick, &mem_locs, need_race, &mut rows) {
                Some(r) => {
                    if race_found.is_none() {
                        race_found = r;
                    }
                }
                None => thin_air += 1,
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
        let rows: Vec<Row> = rows.into_values().collect();
        let verdicts = MemModel::ALL
            .iter()
            .map(|m| {
                if *m == MemModel::C11 && race_found.is_some() {
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

/// How good an explanation a forbidden cell holds: lower is better. A cycle
/// through a location that is not even sequential on its own explains less
/// than one that shows the model's ordering rules at work.
fn forbid_rank(cell: &Cell) -> usize {
    let coherent = cell.witness.as_ref().is_some_and(|w| w.coherent);
    2 + cell.violation.as_ref().map_or(99, |v| v.cycle.len()) + if coherent { 0 } else { 100 }
}

/// Checks one candidate and records it in its row (looking for a C11 data
/// race even in allowed rows while `need_race`). Returns `None` when its
/// values are circular (dropped), else the C11 data race it has, if consistent and racy.
fn candidate(
    test: &Test,
    sk: &Skeleton,
    space: &Space,
    pick: &[usize],
    mem_locs: &[u8],
    need_race: bool,
    rows: &mut BTreeMap<Vec<u8>, Row>,
) -> Option<Option<(u8, u8)>> {
    let choices: Vec<_> = pick
        .iter()
        .zip(&space.per_loc)
        .map(|(&i, c)| &c[i])
        .collect();
    let (mut rf, mut co) = (Rel::EMPTY, Rel::EMPTY);
    let mut rf_src = vec![0u8; sk.len()];
    for c in &choices {
        rf = rf.union(c.rf_rel);
        co = co.union(c.co_rel);
        for &(r, w) in &c.rf {
            rf_src[r as usize] = w;
        }
    }
    let coherent = choices.iter().all(|c| c.coherent);
    let vals = values(sk, &rf_src)?;
    let regs: Vec<u8> = sk.reg_event.iter().map(|&e| vals[e as usize]).collect();
    let final_mem: Vec<u8> = choices
        .iter()
        .map(|c| vals[*c.co.last().unwrap_or(&0) as usize])
        .collect();
    let mem: Vec<u8> = mem_locs.iter().map(|&l| final_mem[l as usize]).collect();
    let mut key = regs.clone();
    key.extend_from_slice(&mem);
    let satisfies = test.cond.holds(&regs, &final_mem);
    let row = rows.entry(key).or_insert_with(|| Row {
        regs,
        mem,
        satisfies,
        cells: vec![
            Cell {
                status: Status::Forbidden,
                witness: None,
                violation: None,
                race: None,
            };
            4
        ],
    });
    let exec = Exec::new(sk, rf, co);
    let witness = || Witness {
        rf: choices.iter().flat_map(|c| c.rf.iter().copied()).collect(),
        co: choices.iter().map(|c| c.co.clone()).collect(),
        values: vals.clone(),
        coherent,
    };
    let mut test_race = None;
    for model in MemModel::ALL {
        let cell = &mut row.cells[model.index()];
        let hunting_race = need_race && model == MemModel::C11;
        if cell.status == Status::Allowed && !hunting_race {
            continue;
        }
        if coherent && check(model, &exec) {
            let racy = if model == MemModel::C11 {
                race(&exec)
            } else {
                None
            };
            if racy.is_some() {
                test_race = test_race.or(racy);
                if cell.status == Status::Forbidden {
                    *cell = Cell {
                        status: Status::Racy,
                        witness: Some(witness()),
                        violation: None,
                        race: racy,
                    };
                }
            } else if cell.status != Status::Allowed {
                *cell = Cell {
                    status: Status::Allowed,
                    witness: Some(witness()),
                    violation: None,
                    race: None,
                };
            }
        } else if cell.status == Status::Forbidden {
            let Some(v) = explain(model, &exec) else {
                continue;
            };
            let rank = 2 + v.cycle.len() + if coherent { 0 } else { 100 };
            if cell.violation.is_none() || rank < forbid_rank(cell) {
                cell.violation = Some(v);
                cell.witness = Some(witness());
            }
        }
    }
    Some(test_race)
}
