//! What happened when, for the timeline of critical sections and grace
//! periods. Time is counted in accepted actions: action k happens at tick
//! k + 1, so a critical section that began before a grace period has a
//! smaller start tick.

use super::Waiter;
use serde::{Deserialize, Serialize};

/// How many closed sections, grace periods and marks are kept (the oldest go).
pub const KEPT: usize = 32;

/// One read-side critical section on one reader CPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Section {
    pub reader: u8,
    pub start: u32,
    /// `None` while the CPU is still inside.
    pub end: Option<u32>,
    /// The version of the replaced element this section reached, if any.
    pub saw: Option<u8>,
    /// It touched freed memory.
    pub damaged: bool,
}

/// One grace period, from synchronize_rcu() or call_rcu() to its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    /// The old version it protects.
    pub node: u8,
    pub waiter: Waiter,
    pub start: u32,
    pub end: Option<u32>,
}

/// A moment on the updater's lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mark {
    /// rcu_assign_pointer() made this version the linked one.
    Publish(u8),
    /// This version was freed; `early` when no grace period protected it.
    Free { node: u8, early: bool },
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct History {
    /// Accepted actions so far.
    pub now: u32,
    pub sections: Vec<Section>,
    pub spans: Vec<Span>,
    pub marks: Vec<(u32, Mark)>,
}

impl History {
    /// The open critical section of reader `r`.
    pub fn open(&mut self, r: usize) -> Option<&mut Section> {
        self.sections
            .iter_mut()
            .rev()
            .find(|s| usize::from(s.reader) == r && s.end.is_none())
    }

    pub fn enter(&mut self, r: usize) {
        self.sections.push(Section {
            reader: r as u8,
            start: self.now,
            end: None,
            saw: None,
            damaged: false,
        });
        trim(&mut self.sections, |s| s.end.is_some());
    }

    pub fn leave(&mut self, r: usize) {
        let now = self.now;
        if let Some(s) = self.open(r) {
            s.end = Some(now);
        }
    }

    pub fn begin_grace(&mut self, node: u8, waiter: Waiter) {
        self.spans.push(Span {
            node,
            waiter,
            start: self.now,
            end: None,
        });
        trim(&mut self.spans, |s| s.end.is_some());
    }

    /// The grace period protecting `node` ended, and `node` was freed.
    pub fn end_grace(&mut self, node: u8) {
        let now = self.now;
        if let Some(s) = self
            .spans
            .iter_mut()
            .find(|s| s.node == node && s.end.is_none())
        {
            s.end = Some(now);
        }
        self.mark(Mark::Free { node, early: false });
    }

    pub fn mark(&mut self, mark: Mark) {
        self.marks.push((self.now, mark));
        trim(&mut self.marks, |_| true);
    }
}

/// Drops the oldest entry that may go, once there are more than [`KEPT`].
fn trim<T>(list: &mut Vec<T>, may_go: impl Fn(&T) -> bool) {
    if list.len() > KEPT {
        if let Some(i) = list.iter().position(may_go) {
            list.remove(i);
        }
    }
}
