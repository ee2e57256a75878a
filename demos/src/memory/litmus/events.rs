//! The events of a test and the relations fixed by its text alone: program
//! order and the dependencies. Event `l` for `l < locs` is the initial write
//! of 0 to location `l` (on no thread); then come the threads' operations in
//! order, so events are numbered the way herd letters them (a, b, c…).

use super::ast::{Dep, DepKind, Op, Order, Test, Value};
use super::rel::{Rel, Set};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    Read,
    Write,
    Fence,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// `None` for an initial write.
    pub thread: Option<u8>,
    /// Position within the thread (the location for an initial write).
    pub index: u8,
    pub kind: Kind,
    pub loc: Option<u8>,
    /// The operation, `None` for an initial write.
    pub op: Option<Op>,
}

impl Event {
    /// The access's memory order (`Rlx` for fences and initial writes, which have none).
    pub fn order(&self) -> Order {
        match self.op {
            Some(Op::Read { ord, .. }) | Some(Op::Write { ord, .. }) => ord,
            _ => Order::Rlx,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skeleton {
    pub events: Vec<Event>,
    pub locs: usize,
    pub reads: Set,
    pub writes: Set,
    pub fences: Set,
    pub init: Set,
    /// Events on each location, initial write included.
    pub at_loc: Vec<Set>,
    /// Program order (transitive, within a thread).
    pub po: Rel,
    /// Pairs on the same thread (an initial write is alone on its own).
    pub int: Rel,
    /// Same location, both memory events, identity included.
    pub loc: Rel,
    pub addr: Rel,
    pub data: Rel,
    pub ctrl: Rel,
    /// The read event that loads each register.
    pub reg_event: Vec<u8>,
}

impl Skeleton {
    pub fn new(test: &Test) -> Skeleton {
        let locs = test.locs.len();
        let mut events: Vec<Event> = (0..locs)
            .map(|l| Event {
                thread: None,
                index: l as u8,
                kind: Kind::Write,
                loc: Some(l as u8),
                op: None,
            })
            .collect();
        let mut reg_event = vec![0u8; test.regs.len()];
        let mut first_of_thread = Vec::new();
        for (t, ops) in test.threads.iter().enumerate() {
            first_of_thread.push(events.len());
            for (i, op) in ops.iter().enumerate() {
                let kind = match op {
                    Op::Read { reg, .. } => {
                        reg_event[*reg as usize] = events.len() as u8;
                        Kind::Read
                    }
                    Op::Write { .. } => Kind::Write,
                    Op::Fence { .. } => Kind::Fence,
                };
                events.push(Event {
                    thread: Some(t as u8),
                    index: i as u8,
                    kind,
                    loc: op.loc(),
                    op: Some(*op),
                });
            }
        }
        let set_of = |f: &dyn Fn(&Event) -> bool| {
            events
                .iter()
                .enumerate()
                .filter(|(_, e)| f(e))
                .fold(0u32, |s, (i, _)| s | (1 << i))
        };
        let reads = set_of(&|e| e.kind == Kind::Read);
        let writes = set_of(&|e| e.kind == Kind::Write);
        let fences = set_of(&|e| e.kind == Kind::Fence);
        let init = set_of(&|e| e.thread.is_none());
        let at_loc: Vec<Set> = (0..locs)
            .map(|l| set_of(&|e| e.loc == Some(l as u8)))
            .collect();
        let mut po = Rel::EMPTY;
        let mut int = Rel::EMPTY;
        let mut loc = Rel::EMPTY;
        for (a, ea) in events.iter().enumerate() {
            for (b, eb) in events.iter().enumerate() {
                let same_thread = match (ea.thread, eb.thread) {
                    (Some(x), Some(y)) => x == y,
                    _ => a == b,
                };
                if same_thread {
                    int.add(a, b);
                    if ea.index < eb.index {
                        po.add(a, b);
                    }
                }
                if ea.loc.is_some() && ea.loc == eb.loc {
                    loc.add(a, b);
                }
            }
        }
        let (mut addr, mut data, mut ctrl) = (Rel::EMPTY, Rel::EMPTY, Rel::EMPTY);
        for (e, ev) in events.iter().enumerate() {
            let Some(op) = ev.op else { continue };
            if let Op::Write {
                value: Value::Reg(r),
                ..
            } = op
            {
                data.add(reg_event[r as usize] as usize, e);
            }
            if let Some(Dep { kind, reg }) = op.dep() {
                let from = reg_event[reg as usize] as usize;
                match kind {
                    DepKind::Addr => addr.add(from, e),
                    DepKind::Data => data.add(from, e),
                    // A branch on the register sits just before this operation:
                    // it and everything after it in the thread depend on the load.
                    DepKind::Ctrl => {
                        let t = ev.thread.unwrap_or(0) as usize;
                        let len = test.threads[t].len();
                        let start = first_of_thread[t] + ev.index as usize;
                        for later in start..first_of_thread[t] + len {
                            ctrl.add(from, later);
                        }
                    }
                }
            }
        }
        Skeleton {
            events,
            locs,
            reads,
            writes,
            fences,
            init,
            at_loc,
            po,
            int,
            loc,
            addr,
            data,
            ctrl,
            reg_event,
        }
    }

    pub fn len(&self) -> usize {
        self.events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// Memory accesses (reads and writes, initial writes included).
    pub fn mem(&self) -> Set {
        self.reads | self.writes
    }

    /// Events (accesses or fences) matching a predicate on their operation.
    pub fn select(&self, f: impl Fn(&Op) -> bool) -> Set {
        self.events
            .iter()
            .enumerate()
            .filter(|(_, e)| e.op.as_ref().is_some_and(&f))
            .fold(0, |s, (i, _)| s | (1 << i))
    }
}
