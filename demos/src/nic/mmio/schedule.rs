//! When each MMIO operation issues, reaches the device and (for a read)
//! completes: pure functions of the settings.
//!
//! - A posted write (PCIe Base Specification, "Posted Request": a Memory Write
//!   Request needs no Completion) costs the core only its issue time; the
//!   write then crosses the link on its own and lands one way later.
//! - Posted writes stay in order (PCIe Base Specification §2.4.1, ordering
//!   rules: a Posted Request may not pass another Posted Request), so they
//!   land in the order they were issued.
//! - A read is non-posted: the device answers with a Completion, and the core
//!   cannot retire the load until it returns (Linux
//!   `Documentation/driver-api/device-io.rst`: `readl()` waits for the value).
//!   One core issues in order, so reads serialise: read i+1 starts only when
//!   read i has completed.

use super::Mmio;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OpKind {
    Write,
    Read,
}

impl OpKind {
    pub fn letter(self) -> &'static str {
        match self {
            OpKind::Write => "W",
            OpKind::Read => "R",
        }
    }
}

/// One MMIO operation's timing, in ns from t = 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Op {
    pub kind: OpKind,
    pub index: usize,
    pub issue_start: u64,
    /// The core has issued it: a write is posted, a read's request leaves.
    pub issue_end: u64,
    /// The request reaches the device.
    pub at_device: u64,
    /// A read's Completion is back at the core; `None` for a posted write.
    pub completed: Option<u64>,
}

impl Op {
    pub fn name(&self) -> String {
        format!("{}{}", self.kind.letter(), self.index)
    }
    /// When the core may go on after this operation.
    pub fn core_free(&self) -> u64 {
        self.completed.unwrap_or(self.issue_end)
    }
}

/// What a core is doing at an instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoreState {
    Issuing(usize),
    Stalled(usize),
    Free,
}

impl CoreState {
    pub fn label(self, kind: OpKind) -> String {
        match self {
            CoreState::Issuing(i) => format!("issuing {}{i}", kind.letter()),
            CoreState::Stalled(i) => format!("stalled on {}{i}", kind.letter()),
            CoreState::Free => "free".to_string(),
        }
    }
}

/// The kinds of bar on the timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SegmentKind {
    /// The core spends its issue cost on the operation.
    Issue,
    /// The core waits for a read's Completion.
    Stall,
    /// The core has nothing left to wait for.
    Free,
    /// A posted write or a read request crossing the link to the device.
    ToDevice,
    /// A read's Completion crossing back to the core.
    Completion,
    /// Real work in the per-packet loop.
    Work,
}

impl SegmentKind {
    pub fn label(self) -> &'static str {
        match self {
            SegmentKind::Issue => "issue",
            SegmentKind::Stall => "stalled",
            SegmentKind::Free => "free",
            SegmentKind::ToDevice => "to device",
            SegmentKind::Completion => "completion",
            SegmentKind::Work => "work",
        }
    }
}

/// One bar on a lane, in ns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    pub start: u64,
    pub end: u64,
    pub kind: SegmentKind,
    pub label: String,
}

impl Segment {
    fn new(start: u64, end: u64, kind: SegmentKind, label: impl Into<String>) -> Self {
        Segment {
            start,
            end,
            kind,
            label: label.into(),
        }
    }
}

impl Mmio {
    /// Time for a request to cross the link one way: half the round trip.
    pub fn one_way(&self) -> u64 {
        self.rtt_ns / 2
    }

    /// The operations of one kind, in issue order.
    fn ops_of(&self, kind: OpKind) -> Vec<Op> {
        match kind {
            OpKind::Write => self.writes(),
            OpKind::Read => self.reads(),
        }
    }

    pub fn writes(&self) -> Vec<Op> {
        (0..self.count)
            .map(|i| {
                let issue_start = i as u64 * self.issue_ns;
                let issue_end = issue_start + self.issue_ns;
                Op {
                    kind: OpKind::Write,
                    index: i,
                    issue_start,
                    issue_end,
                    at_device: issue_end + self.one_way(),
                    completed: None,
                }
            })
            .collect()
    }

    pub fn reads(&self) -> Vec<Op> {
        let period = self.issue_ns + self.rtt_ns;
        (0..self.count)
            .map(|i| {
                let issue_start = i as u64 * period;
                let issue_end = issue_start + self.issue_ns;
                Op {
                    kind: OpKind::Read,
                    index: i,
                    issue_start,
                    issue_end,
                    at_device: issue_end + self.one_way(),
                    completed: Some(issue_end + self.rtt_ns),
                }
            })
            .collect()
    }

    /// The writes are finished, for the core, when it is free again.
    pub fn writes_core_free(&self) -> u64 {
        self.count as u64 * self.issue_ns
    }

    /// The last posted write reaches the device.
    pub fn last_write_lands(&self) -> u64 {
        self.writes_core_free() + self.one_way()
    }

    /// The last read's Completion is back: the core is free again.
    pub fn reads_core_free(&self) -> u64 {
        self.count as u64 * (self.issue_ns + self.rtt_ns)
    }

    /// The end of the time axis: everything has happened by then.
    pub fn horizon(&self) -> u64 {
        self.reads_core_free().max(self.last_write_lands())
    }

    /// How many times sooner the core is free after N writes than after N reads.
    pub fn speedup(&self) -> f64 {
        self.reads_core_free() as f64 / self.writes_core_free() as f64
    }

    /// Every instant at which something happens, in order, without repeats.
    pub fn event_times(&self) -> Vec<u64> {
        let mut times: Vec<u64> = self
            .writes()
            .iter()
            .chain(self.reads().iter())
            .flat_map(|op| [Some(op.issue_end), Some(op.at_device), op.completed])
            .flatten()
            .collect();
        times.sort_unstable();
        times.dedup();
        times
    }

    /// The first event after the clock, if any.
    pub fn next_event(&self) -> Option<u64> {
        self.event_times().into_iter().find(|&t| t > self.now)
    }

    pub fn core_state(&self, kind: OpKind, t: u64) -> CoreState {
        let ops = self.ops_of(kind);
        for op in ops {
            if (op.issue_start..op.issue_end).contains(&t) {
                return CoreState::Issuing(op.index);
            }
            if let Some(done) = op.completed {
                if (op.issue_end..done).contains(&t) {
                    return CoreState::Stalled(op.index);
                }
            }
        }
        CoreState::Free
    }

    /// Writes (or reads) that have reached the device by `t`.
    pub fn landed(&self, kind: OpKind, t: u64) -> usize {
        let ops = self.ops_of(kind);
        ops.iter().filter(|op| op.at_device <= t).count()
    }

    /// Reads whose Completion is back by `t`.
    pub fn retired_reads(&self, t: u64) -> usize {
        self.reads()
            .iter()
            .filter(|op| op.completed.is_some_and(|c| c <= t))
            .count()
    }

    /// The core's own lane: issuing, stalled, then free.
    pub fn core_segments(&self, kind: OpKind) -> Vec<Segment> {
        let ops = self.ops_of(kind);
        let mut out = Vec::new();
        for op in &ops {
            out.push(Segment::new(
                op.issue_start,
                op.issue_end,
                SegmentKind::Issue,
                op.name(),
            ));
            if let Some(done) = op.completed {
                out.push(Segment::new(
                    op.issue_end,
                    done,
                    SegmentKind::Stall,
                    format!("{} stalled", op.name()),
                ));
            }
        }
        let free_from = ops.last().map_or(0, Op::core_free);
        if free_from < self.horizon() {
            out.push(Segment::new(
                free_from,
                self.horizon(),
                SegmentKind::Free,
                "core free",
            ));
        }
        out
    }

    /// The link lane: requests to the device and Completions back.
    pub fn link_segments(&self, kind: OpKind) -> Vec<Segment> {
        let ops = self.ops_of(kind);
        let mut out = Vec::new();
        for op in &ops {
            out.push(Segment::new(
                op.issue_end,
                op.at_device,
                SegmentKind::ToDevice,
                op.name(),
            ));
            if let Some(done) = op.completed {
                out.push(Segment::new(
                    op.at_device,
                    done,
                    SegmentKind::Completion,
                    format!("{} cpl", op.name()),
                ));
            }
        }
        out
    }
}
