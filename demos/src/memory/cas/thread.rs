//! One thread's registers and its next micro-step, per method.

use super::{names, Cas, Method, UpdateSet, INCREMENTS};
use crate::model::Event;
use serde::{Deserialize, Serialize};

/// The micro-step a thread takes next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Plain and CAS: read the counter into a register (`expected` for CAS).
    Load,
    /// Plain: add 1 in the register.
    Add,
    /// Plain: write the register back.
    Store,
    /// CAS: `desired = expected + 1`.
    Compute,
    /// CAS: `compare_exchange(expected, desired)`.
    Cas,
    /// `fetch_add(1)`.
    FetchAdd,
    Done,
}

/// What one entry of the interleaving did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MoveKind {
    /// Read the counter (`value` = what it read).
    Load,
    /// Computed in a register (`value` = the result).
    Add,
    /// Plain store (`value` = what it wrote).
    Store,
    /// A compare_exchange that stored `value`.
    CasOk,
    /// A compare_exchange that found `value` instead of what it expected.
    CasFail,
    /// fetch_add (`value` = the counter after it).
    FetchAdd,
    /// An outside atomic add (`value` = the counter after it).
    Inject,
}

/// One step of the interleaving, as the picture of it needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    /// The thread (0-based), or `None` for an outside write.
    pub thread: Option<u8>,
    pub kind: MoveKind,
    pub value: u32,
    /// The updates a plain store overwrote: lost here.
    pub erased: UpdateSet,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Thread {
    pub phase: Phase,
    /// Increments completed.
    pub done: u8,
    /// The value loaded (CAS: `expected`).
    pub loaded: Option<u32>,
    /// The value to store (plain: the register after the add; CAS: `desired`).
    pub desired: Option<u32>,
    /// The updates the loaded value includes.
    pub carried: UpdateSet,
    pub retries: u32,
}

impl Thread {
    pub fn new(method: Method) -> Self {
        Thread {
            phase: first_phase(method),
            done: 0,
            loaded: None,
            desired: None,
            carried: 0,
            retries: 0,
        }
    }

    /// "next: CAS 0 → 1 · 1/2" for the status line.
    pub fn summary(&self, increments: u8) -> String {
        let reg = |r: Option<u32>| r.map_or("—".to_string(), |v| v.to_string());
        let next = match self.phase {
            Phase::Load => "next: load".to_string(),
            Phase::Add => format!("next: add to {}", reg(self.loaded)),
            Phase::Store => format!("next: store {}", reg(self.desired)),
            Phase::Compute => format!("next: compute from expected {}", reg(self.loaded)),
            Phase::Cas => format!("next: CAS {} → {}", reg(self.loaded), reg(self.desired)),
            Phase::FetchAdd => "next: fetch_add".to_string(),
            Phase::Done => "done".to_string(),
        };
        format!("{next} · {}/{increments}", self.done)
    }
}

fn first_phase(method: Method) -> Phase {
    match method {
        Method::FetchAdd => Phase::FetchAdd,
        _ => Phase::Load,
    }
}

impl Cas {
    /// Thread `t` (not done) takes one micro-step.
    pub(super) fn micro_step(&mut self, t: usize) -> Vec<Event> {
        let name = format!("T{}", t + 1);
        let th = self.threads[t];
        let own: UpdateSet = 1 << (t as u32 * u32::from(INCREMENTS.max) + u32::from(th.done));
        let mut events = Vec::new();
        let mut next = th;
        // What this step goes down in the interleaving as.
        let mut moved = (MoveKind::Load, self.value, 0);
        let text = match th.phase {
            Phase::Load => {
                next.loaded = Some(self.value);
                next.carried = self.included;
                next.phase = match self.method {
                    Method::Plain => Phase::Add,
                    _ => Phase::Compute,
                };
                match self.method {
                    Method::Plain => format!("{name} loads the counter: {}.", self.value),
                    _ => format!("{name} loads {} into expected.", self.value),
                }
            }
            Phase::Add | Phase::Compute => {
                let d = th.loaded.unwrap_or(0) + 1;
                next.desired = Some(d);
                moved = (MoveKind::Add, d, 0);
                if th.phase == Phase::Add {
                    next.phase = Phase::Store;
                    format!("{name} adds 1 in its register: {d}.")
                } else {
                    next.phase = Phase::Cas;
                    format!("{name} computes desired = {} + 1 = {d}.", d - 1)
                }
            }
            Phase::Store => {
                let d = th.desired.unwrap_or(0);
                let overwritten = self.included & !th.carried;
                self.value = d;
                self.included = th.carried | own;
                self.committed |= own;
                next.done += 1;
                moved = (MoveKind::Store, d, overwritten);
                if overwritten != 0 {
                    events.push(
                        Event::fault(format!(
                            "{name}'s store was computed from {}, so it erases {}: lost.",
                            th.loaded.unwrap_or(0),
                            names(overwritten)
                        ))
                        .at("counter"),
                    );
                }
                format!("{name} stores {d}: the counter is {d}.")
            }
            Phase::Cas => {
                let (e, d) = (th.loaded.unwrap_or(0), th.desired.unwrap_or(0));
                if self.value == e {
                    self.value = d;
                    self.included |= own;
                    self.committed |= own;
                    next.done += 1;
                    moved = (MoveKind::CasOk, d, 0);
                    format!("{name}'s CAS finds {e} as expected and stores {d}.")
                } else {
                    let seen = self.value;
                    moved = (MoveKind::CasFail, seen, 0);
                    next.loaded = Some(seen);
                    next.desired = None;
                    next.carried = self.included;
                    next.retries += 1;
                    next.phase = Phase::Compute;
                    events.push(
                        Event::warn(format!(
                            "{name}'s CAS fails: the counter holds {seen}, not {e}. compare_exchange copies {seen} into expected, and {name} retries (retry {}).",
                            next.retries
                        ))
                        .at(format!("thread-{t}"))
                        .at("counter"),
                    );
                    String::new()
                }
            }
            Phase::FetchAdd => {
                let old = self.value;
                self.value += 1;
                self.included |= own;
                self.committed |= own;
                next.done += 1;
                moved = (MoveKind::FetchAdd, self.value, 0);
                format!(
                    "{name}'s fetch_add(1) returns {old} and leaves {}, in one atomic step.",
                    self.value
                )
            }
            Phase::Done => String::new(),
        };
        if next.done > th.done {
            next.loaded = None;
            next.desired = None;
            next.phase = if next.done == self.increments {
                Phase::Done
            } else {
                first_phase(self.method)
            };
        }
        self.threads[t] = next;
        self.log.push(Move {
            thread: Some(t as u8),
            kind: moved.0,
            value: moved.1,
            erased: moved.2,
        });
        if !text.is_empty() {
            let tone = if next.done > th.done {
                Event::done
            } else {
                Event::info
            };
            events.insert(0, tone(text).at(format!("thread-{t}")).at("counter"));
        }
        events
    }
}
