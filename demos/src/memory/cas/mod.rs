//! CAS retry loop: 2–4 threads each increment one shared counter a few times;
//! the learner is the scheduler and picks which thread takes its next
//! micro-step.
//!
//! Methods:
//! - plain `load; add; store`: three steps, so another thread's update that
//!   lands between this thread's load and store is overwritten (lost);
//! - a CAS loop, `expected = load(); do { desired = expected + 1; } while
//!   (!compare_exchange(expected, desired));` — a failed compare_exchange writes
//!   the value it found back into `expected` (C++ [atomics.types.operations]:
//!   "Otherwise, loads the actual value … into expected"), so the retry
//!   recomputes from the fresh value without a separate load (x86 `lock
//!   cmpxchg`, Intel SDM vol. 2 CMPXCHG);
//! - `fetch_add(1)`: one atomic read-modify-write where the machine has one
//!   (x86 `lock xadd`, Intel SDM vol. 2 XADD; Armv8.1 LSE `LDADD`). On
//!   load-linked/store-conditional machines (Armv8.0 without LSE, POWER)
//!   the compiler emits a retry loop instead: `LDXR`/`STXR` (Arm ARM C6,
//!   "Load/Store Exclusive"), `lwarx`/`stwcx.` on POWER, which retries when
//!   another core wrote the line in between. This model shows the
//!   single-instruction form.
//!
//! Every update (a thread's increment, or an outside write) is tracked by
//! identity: the counter's value is `initial` plus the number of updates its
//! current contents include, so the model can say exactly which update a
//! plain store overwrote.

#[cfg(test)]
mod tests;
mod thread;

use crate::bound::Bound;
use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::text::plural;
use serde::{Deserialize, Serialize};
pub use thread::{Move, MoveKind, Phase, Thread};

pub const THREADS: Bound<usize> = Bound::new("number of threads", "", 2, 4);
/// Increments each thread makes; the update ids (see [`update_name`]) leave
/// room for `INCREMENTS.max` per thread.
pub const INCREMENTS: Bound<u8> = Bound::new("number of increments per thread", "", 1, 5);
pub const INJECTIONS_MAX: u8 = 8;
pub const INITIAL: Bound<u32> = Bound::new("initial value", "", 0, 1000);

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Method {
    Plain,
    #[default]
    CasLoop,
    FetchAdd,
}

impl Method {
    pub fn label(self) -> &'static str {
        match self {
            Method::Plain => "plain load/add/store",
            Method::CasLoop => "CAS loop",
            Method::FetchAdd => "fetch_add",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CasConfig {
    pub threads: usize,
    /// Increments each thread makes.
    pub increments: u8,
    pub method: Method,
    pub initial: u32,
}

impl Default for CasConfig {
    fn default() -> Self {
        CasConfig {
            threads: 2,
            increments: 2,
            method: Method::CasLoop,
            initial: 0,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CasAction {
    /// This thread takes its next micro-step.
    Step(usize),
    /// Someone outside the threads atomically adds 1 to the counter.
    Inject,
    /// Start over with another method.
    SetMethod(Method),
}

/// Who made an update: bit `id` of an update set. Thread `t`'s `k`-th
/// increment is `t * INCREMENTS.max + k`; outside write `j` is `20 + j`.
pub type UpdateSet = u32;
const INJECT_BASE: u32 = THREADS.max as u32 * INCREMENTS.max as u32;

/// "T2's increment 1" or "outside write 1" for update `id`.
pub fn update_name(id: u32) -> String {
    if id >= INJECT_BASE {
        format!("outside write {}", id - INJECT_BASE + 1)
    } else {
        let (t, k) = (
            id / u32::from(INCREMENTS.max),
            id % u32::from(INCREMENTS.max),
        );
        format!("T{}'s increment {}", t + 1, k + 1)
    }
}

fn names(set: UpdateSet) -> String {
    let all: Vec<String> = (0..32)
        .filter(|b| set >> b & 1 == 1)
        .map(update_name)
        .collect();
    all.join(", ")
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cas {
    pub method: Method,
    pub initial: u32,
    pub increments: u8,
    /// The shared counter.
    pub value: u32,
    /// The updates the counter's current value includes.
    pub included: UpdateSet,
    /// Every update ever written to the counter.
    pub committed: UpdateSet,
    pub threads: Vec<Thread>,
    pub injected: u8,
    /// The thread that stepped last (Step continues round-robin after it).
    pub last: Option<usize>,
    /// Every micro-step and outside write so far, in order: the interleaving.
    pub log: Vec<Move>,
}

impl Cas {
    /// Updates written but no longer reflected in the counter.
    pub fn lost(&self) -> UpdateSet {
        self.committed & !self.included
    }

    /// What the counter would read had no update been lost.
    pub fn expected(&self) -> u32 {
        self.initial + self.committed.count_ones()
    }

    pub fn retries(&self) -> u32 {
        self.threads.iter().map(|t| t.retries).sum()
    }

    pub fn finished(&self) -> bool {
        self.threads.iter().all(|t| t.phase == Phase::Done)
    }

    fn step(&mut self, t: usize) -> Outcome {
        let Some(thread) = self.threads.get(t) else {
            return Err(Refusal::new(format!(
                "There are {} threads, T1 to T{}.",
                self.threads.len(),
                self.threads.len()
            )));
        };
        if thread.phase == Phase::Done {
            return Err(Refusal::new(format!(
                "T{} has made all {} of its increments: step another thread.",
                t + 1,
                self.increments
            )));
        }
        let mut events = self.micro_step(t);
        self.last = Some(t);
        if self.threads[t].phase == Phase::Done {
            events.push(
                Event::done(format!(
                    "T{} has finished its {} increment{}.",
                    t + 1,
                    self.increments,
                    plural(self.increments.into())
                ))
                .at(format!("thread-{t}")),
            );
        }
        Ok(events)
    }

    fn inject(&mut self) -> Outcome {
        if self.injected >= INJECTIONS_MAX {
            return Err(Refusal::new(format!(
                "At most {INJECTIONS_MAX} outside writes per run."
            )));
        }
        let id = INJECT_BASE + u32::from(self.injected);
        self.injected += 1;
        self.value += 1;
        self.included |= 1 << id;
        self.committed |= 1 << id;
        self.log.push(Move {
            thread: None,
            kind: MoveKind::Inject,
            value: self.value,
            erased: 0,
        });
        Ok(vec![Event::warn(format!(
            "An outside write atomically adds 1: the counter is now {}. Any thread holding an older value is out of date.",
            self.value
        ))
        .at("counter")])
    }

    fn set_method(&mut self, method: Method) -> Outcome {
        if method == self.method {
            return Err(Refusal::new(format!(
                "The method is already {}.",
                method.label()
            )));
        }
        *self = Cas::new(&CasConfig {
            threads: self.threads.len(),
            increments: self.increments,
            method,
            initial: self.initial,
        });
        Ok(vec![Event::info(format!(
            "Method: {}. The counter is back to {} and every thread starts again.",
            method.label(),
            self.initial
        ))
        .at("method")])
    }
}

impl Model for Cas {
    type Config = CasConfig;
    type Action = CasAction;

    fn validate(config: &CasConfig) -> Result<(), String> {
        THREADS.check(config.threads)?;
        INCREMENTS.check(config.increments)?;
        INITIAL.check(config.initial)?;
        Ok(())
    }

    fn new(config: &CasConfig) -> Self {
        Cas {
            method: config.method,
            initial: config.initial,
            increments: config.increments,
            value: config.initial,
            included: 0,
            committed: 0,
            threads: vec![Thread::new(config.method); config.threads],
            injected: 0,
            last: None,
            log: Vec::new(),
        }
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "The counter holds {}; {} threads will each increment it {} time{}. Method: {}. You choose who runs next.",
            self.value,
            self.threads.len(),
            self.increments,
            plural(self.increments.into()),
            self.method.label()
        ))
    }

    fn apply(&mut self, action: &CasAction) -> Outcome {
        match *action {
            CasAction::Step(t) => self.step(t),
            CasAction::Inject => self.inject(),
            CasAction::SetMethod(m) => self.set_method(m),
        }
    }

    fn next_auto(&self) -> Result<CasAction, Refusal> {
        let n = self.threads.len();
        let start = self.last.map_or(0, |t| t + 1);
        (0..n)
            .map(|i| (start + i) % n)
            .find(|&t| self.threads[t].phase != Phase::Done)
            .map(CasAction::Step)
            .ok_or_else(|| {
                Refusal::new("Every thread has finished: compare the counter with the expected total, or Reset.")
            })
    }

    fn check(&self) -> Result<(), String> {
        if self.value != self.initial + self.included.count_ones() {
            return Err("the counter does not match the updates it includes".into());
        }
        if self.included & !self.committed != 0 {
            return Err("the counter includes an update never written".into());
        }
        let outside = self.log.iter().filter(|e| e.thread.is_none()).count();
        if outside != usize::from(self.injected) {
            return Err("the interleaving log misses an outside write".into());
        }
        if self.method != Method::Plain && self.lost() != 0 {
            return Err(format!("{} lost an update", self.method.label()));
        }
        for (i, t) in self.threads.iter().enumerate() {
            let own = self.committed >> (i as u32 * u32::from(INCREMENTS.max))
                & ((1 << INCREMENTS.max) - 1);
            if own.count_ones() != u32::from(t.done) || t.done > self.increments {
                return Err(format!(
                    "T{}'s finished increments do not match what it wrote",
                    i + 1
                ));
            }
        }
        Ok(())
    }

    fn status(&self) -> Vec<Figure> {
        const KEYS: [&str; THREADS.max] = ["thread-0", "thread-1", "thread-2", "thread-3"];
        const LABELS: [&str; THREADS.max] = ["T1", "T2", "T3", "T4"];
        let mut figures = vec![
            Figure::new("method", "method", self.method.label()),
            Figure::new("counter", "counter", self.value),
            Figure::new("expected", "expected", self.expected()),
            Figure::new("lost", "lost updates", self.lost().count_ones()),
            Figure::new("retries", "retries", self.retries()),
            Figure::new("injected", "outside writes", self.injected),
        ];
        for (i, t) in self.threads.iter().enumerate() {
            figures.push(Figure::new(KEYS[i], LABELS[i], t.summary(self.increments)));
        }
        figures
    }

    fn why(&self) -> Vec<String> {
        let (lost, retries) = (self.lost().count_ones(), self.retries());
        let mut out = vec![match self.method {
            Method::Plain if lost > 0 => format!(
                "{lost} update{} lost ({}): each was overwritten by a store computed from a value read before it landed. The counter reads {} instead of {}.",
                plural(lost as usize),
                names(self.lost()),
                self.value,
                self.expected()
            ),
            Method::Plain => "A plain increment is a load, an add and a store: run two threads' loads before either store and one update vanishes.".into(),
            Method::CasLoop => format!(
                "No update is lost: a CAS stores only if the counter still holds what the thread loaded. The price so far is {retries} retr{}, one per CAS that found the counter changed.",
                if retries == 1 { "y" } else { "ies" }
            ),
            Method::FetchAdd => "fetch_add reads, adds and writes in one indivisible step, as x86's LOCK XADD and Armv8.1's LDADD do, so nothing retries. Without such an instruction (Armv8.0, POWER) it compiles to an LDXR/STXR or lwarx/stwcx. loop, which does retry.".into(),
        }];
        if self.finished() {
            out.push(format!(
                "Final count {}; expected {} + {} increment{} + {} outside write{} = {}.",
                self.value,
                self.initial,
                self.threads.len() * usize::from(self.increments),
                plural(self.threads.len() * usize::from(self.increments)),
                self.injected,
                plural(self.injected.into()),
                self.expected()
            ));
        }
        out
    }

    fn leaves_out() -> &'static str {
        "Leaves out: memory ordering (every step here is sequentially consistent), spurious failures of compare_exchange_weak, the load-linked/store-conditional loop fetch_add becomes on Armv8.0 or POWER, the cache-line transfer each atomic costs, and backoff between retries."
    }
}
