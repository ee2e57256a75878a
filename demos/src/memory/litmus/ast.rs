//! A litmus test as data: threads of memory operations and an `exists`
//! condition over the final registers and memory.
//!
//! The text form (see [`super::parse`]) is the single source of truth for
//! what a test may contain; these types only hold what parsed.

use serde::{Deserialize, Serialize};

/// Most threads a test may have.
pub const MAX_THREADS: usize = 4;
/// Most operations in one thread.
pub const MAX_OPS: usize = 6;
/// Most shared locations (all start at 0).
pub const MAX_LOCS: usize = 3;
/// Largest value a store may write or a condition may name: values are the
/// single digits 0–9, enough for every classic test (2+2W uses 1 and 2) and
/// small enough to read at a glance.
pub const MAX_VALUE: u8 = 9;
/// Longest name of a test, a location or a register.
pub const MAX_NAME: usize = 40;

/// The memory order of an access. Under the hardware models every order but
/// `sc`/`acq`/`rel` is a plain access; under RC11 an access with no suffix is
/// `rlx`, and `na` is non-atomic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Order {
    Na,
    Rlx,
    Acq,
    Rel,
    AcqRel,
    Sc,
}

impl Order {
    /// The suffix as typed after `R.` / `W.` (`rlx` is the default and prints as nothing).
    pub fn suffix(self) -> &'static str {
        match self {
            Order::Na => "na",
            Order::Rlx => "rlx",
            Order::Acq => "acq",
            Order::Rel => "rel",
            Order::AcqRel => "acqrel",
            Order::Sc => "sc",
        }
    }
}

/// A fence: `F` is the full fence, `F.ld`/`F.st` the Arm load/store barriers,
/// the others C11 fences.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Fence {
    Full,
    Ld,
    St,
    Acq,
    Rel,
    AcqRel,
    Sc,
}

impl Fence {
    /// The suffix after `F.` (none for the full fence).
    pub fn suffix(self) -> &'static str {
        match self {
            Fence::Full => "",
            Fence::Ld => "ld",
            Fence::St => "st",
            Fence::Acq => "acq",
            Fence::Rel => "rel",
            Fence::AcqRel => "acqrel",
            Fence::Sc => "sc",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DepKind {
    Addr,
    Data,
    Ctrl,
}

impl DepKind {
    pub fn word(self) -> &'static str {
        match self {
            DepKind::Addr => "addr",
            DepKind::Data => "data",
            DepKind::Ctrl => "ctrl",
        }
    }
}

/// A dependency on the register `reg`, loaded by an earlier read of the same thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Dep {
    pub kind: DepKind,
    pub reg: u8,
}

/// What a store writes: a constant, or a register (itself a data dependency).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Value {
    Const(u8),
    Reg(u8),
}

/// One operation. Locations and registers are indices into [`Test::locs`]
/// and [`Test::regs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Op {
    Write {
        ord: Order,
        loc: u8,
        value: Value,
        dep: Option<Dep>,
    },
    Read {
        ord: Order,
        loc: u8,
        reg: u8,
        dep: Option<Dep>,
    },
    Fence {
        fence: Fence,
        dep: Option<Dep>,
    },
}

impl Op {
    pub fn dep(&self) -> Option<Dep> {
        match *self {
            Op::Write { dep, .. } | Op::Read { dep, .. } | Op::Fence { dep, .. } => dep,
        }
    }
    pub fn loc(&self) -> Option<u8> {
        match *self {
            Op::Write { loc, .. } | Op::Read { loc, .. } => Some(loc),
            Op::Fence { .. } => None,
        }
    }
}

/// The `exists` condition: `/\` binds tighter than `\/`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Cond {
    /// Register = value.
    Reg(u8, u8),
    /// Final memory value of a location = value.
    Mem(u8, u8),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
}

impl Cond {
    /// Evaluates against final register values and final memory (indexed by location).
    pub fn holds(&self, regs: &[u8], mem: &[u8]) -> bool {
        match self {
            Cond::Reg(r, v) => regs.get(*r as usize) == Some(v),
            Cond::Mem(l, v) => mem.get(*l as usize) == Some(v),
            Cond::And(a, b) => a.holds(regs, mem) && b.holds(regs, mem),
            Cond::Or(a, b) => a.holds(regs, mem) || b.holds(regs, mem),
        }
    }

    /// Locations the condition reads, as a bit set.
    pub fn locs(&self) -> u8 {
        match self {
            Cond::Reg(..) => 0,
            Cond::Mem(l, _) => 1 << l,
            Cond::And(a, b) | Cond::Or(a, b) => a.locs() | b.locs(),
        }
    }
}

/// A whole litmus test.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Test {
    pub name: String,
    /// Location names in order of first use.
    pub locs: Vec<String>,
    /// Register names in order of the reads that load them.
    pub regs: Vec<String>,
    pub threads: Vec<Vec<Op>>,
    pub cond: Cond,
}

impl Test {
    /// The thread whose read loads register `reg`.
    pub fn reg_thread(&self, reg: u8) -> usize {
        self.threads
            .iter()
            .position(|ops| {
                ops.iter()
                    .any(|op| matches!(op, Op::Read { reg: r, .. } if *r == reg))
            })
            .unwrap_or(0)
    }

    /// True when the test uses nothing but plain loads and stores: no fences,
    /// dependencies or memory orders (the tests the model-inclusion laws speak of).
    pub fn is_plain(&self) -> bool {
        self.threads.iter().flatten().all(|op| match *op {
            Op::Write {
                ord, value, dep, ..
            } => ord == Order::Rlx && dep.is_none() && matches!(value, Value::Const(_)),
            Op::Read { ord, dep, .. } => ord == Order::Rlx && dep.is_none(),
            Op::Fence { .. } => false,
        })
    }

    /// True when some access is non-atomic (`.na`): only then can RC11 find a data race.
    pub fn has_non_atomic(&self) -> bool {
        self.threads.iter().flatten().any(|op| {
            matches!(
                op,
                Op::Write { ord: Order::Na, .. } | Op::Read { ord: Order::Na, .. }
            )
        })
    }
}
