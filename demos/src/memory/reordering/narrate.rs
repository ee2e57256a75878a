//! One sentence per scheduler step, naming the instruction in the model's
//! syntax and the numbers it moved.
//!
//! Focus keys: `thread-T` (a thread's column), `op-T-I` (its I-th
//! instruction), `buffer-T` (its store buffer), `mem-LOC` (a memory cell),
//! `row-I` (an outcome row), `verdict`, `code`, `outcomes`, `graph`.

use super::{Effect, Reordering};
use crate::memory::litmus::analysis::{Row, Status};
use crate::memory::litmus::explain::{forbidden_sentence, outcome_text};
use crate::memory::litmus::syntax::render;
use crate::memory::litmus::{Analysis, MemModel};
use crate::model::Event;

fn loc_name(r: &Reordering, loc: u8) -> &str {
    &r.analysis.test.locs[loc as usize]
}

/// The thread ran instruction `op`.
pub fn ran(r: &Reordering, t: u8, op: u8, effect: Effect) -> Event {
    let test = &r.analysis.test;
    let instr = &test.threads[t as usize][op as usize];
    let code = render(test, instr, op as usize, r.syntax());
    let loc = instr.loc().map_or("", |l| loc_name(r, l));
    let pending = r.machine.buffers[t as usize].stores();
    let text = match effect {
        Effect::Loaded {
            value,
            forwarded: true,
        } => format!(
            "T{t} runs {code}: it reads {loc}={value} from its own store buffer, before any other thread can see that store."
        ),
        Effect::Loaded { value, .. } => {
            format!("T{t} runs {code}: it reads {loc}={value} from memory.")
        }
        Effect::Buffered { value } => format!(
            "T{t} runs {code}: {loc}={value} waits in T{t}'s store buffer ({pending} pending), invisible to the other threads."
        ),
        Effect::Wrote { value } if r.model == MemModel::Tso => format!(
            "T{t} runs {code}: the locked store waited for an empty buffer and writes {loc}={value} straight to memory."
        ),
        Effect::Wrote { value } => format!("T{t} runs {code}: memory now holds {loc}={value}."),
        Effect::Fenced if r.model == MemModel::Sc => format!(
            "T{t} runs {code}: under SC every access is already in program order, so the fence changes nothing."
        ),
        Effect::Fenced if code == "MFENCE" => {
            format!("T{t} runs {code}: its store buffer is empty, so the fence passes.")
        }
        Effect::Fenced => format!(
            "T{t} runs {code}: on x86 this orders nothing for ordinary memory."
        ),
    };
    let mut event = Event::info(text)
        .at(format!("thread-{t}"))
        .at(format!("op-{t}-{op}"));
    match effect {
        Effect::Buffered { .. } => event = event.at(format!("buffer-{t}")),
        Effect::Wrote { .. } => event = event.at(format!("mem-{loc}")),
        Effect::Loaded {
            forwarded: true, ..
        } => event = event.at(format!("buffer-{t}")),
        Effect::Loaded { .. } => event = event.at(format!("mem-{loc}")),
        Effect::Fenced => {}
    }
    event
}

/// The thread's oldest buffered store reached memory.
pub fn drained(r: &Reordering, t: u8, loc: u8, value: u8) -> Event {
    let name = loc_name(r, loc);
    let left = r.machine.buffers[t as usize].stores();
    Event::info(format!(
        "T{t}'s store buffer drains {name}={value} to memory; every thread now sees it ({left} still pending)."
    ))
    .at(format!("buffer-{t}"))
    .at(format!("mem-{name}"))
}

/// The run is over at outcome row `row`.
pub fn finished(r: &Reordering, row: usize) -> Event {
    let a = &r.analysis;
    let text = outcome_text(a, &a.rows[row]);
    let hits = if a.rows[row].satisfies {
        " It is the outcome the exists condition asks about."
    } else {
        ""
    };
    Event::done(format!(
        "The run is over: {text}. {} allows it, as every outcome a schedule can reach.{hits} Reached so far: {} of {}.",
        r.model.label(),
        r.reached.len(),
        r.allowed_count()
    ))
    .at(format!("row-{row}"))
}

/// What the selected outcome row shows under the model.
pub fn row_sentence(a: &Analysis, model: MemModel, row: &Row) -> String {
    let cell = &row.cells[model.index()];
    match cell.status {
        Status::Allowed => format!(
            "{} allows {}: the graph shows one execution that ends this way.",
            model.label(),
            outcome_text(a, row)
        ),
        Status::Racy => format!(
            "{} reaches {} only through a data race on a non-atomic location: undefined behaviour.",
            model.label(),
            outcome_text(a, row)
        ),
        Status::Forbidden => forbidden_sentence(a, model, row),
    }
}
