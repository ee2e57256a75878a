//! What one access puts on the bus, and the running counts of bus traffic.

use super::protocol::State;
use serde::{Deserialize, Serialize};

/// A processor-side operation on one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    Read,
    Write,
    /// The cache drops the line (a capacity or conflict eviction, or a flush).
    Evict,
}

impl Op {
    pub fn verb(self) -> &'static str {
        match self {
            Op::Read => "reads",
            Op::Write => "writes",
            Op::Evict => "evicts",
        }
    }
}

/// A request a cache places on the snooping bus (Culler & Singh §5.3 names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BusOp {
    /// Read miss: asks for a copy.
    BusRd,
    /// Write miss: asks for the data and for every other copy to be invalidated.
    BusRdX,
    /// Write to a copy already held (S, or O in MOESI): invalidates the others, no data moves.
    BusUpgr,
}

impl BusOp {
    pub fn label(self) -> &'static str {
        match self {
            BusOp::BusRd => "BusRd",
            BusOp::BusRdX => "BusRdX",
            BusOp::BusUpgr => "BusUpgr",
        }
    }
}

/// Who put the data on the bus for a miss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Supplier {
    Memory,
    /// A cache-to-cache transfer (Flush) from this core.
    Cache(usize),
}

/// How one other cache reacted to the request it snooped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snoop {
    pub core: usize,
    pub from: State,
    pub to: State,
    /// It put its (dirty) copy on the bus.
    pub flushed: bool,
}

/// Everything one access did: the picture and the narration are built from it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Access {
    pub op: Op,
    pub core: usize,
    pub line: usize,
    pub before: State,
    pub after: State,
    /// The request placed on the bus; `None` for a hit, a silent E → M upgrade or a clean eviction.
    pub request: Option<BusOp>,
    /// Who supplied the data on a miss.
    pub supplier: Option<Supplier>,
    /// Other caches whose state changed.
    pub snoops: Vec<Snoop>,
    /// Break-it mode: valid copies that ignored an invalidating request.
    pub ignored: Vec<usize>,
    /// Memory was written (a flush it picked up, or an eviction's write-back).
    pub wrote_back: bool,
    /// Read: the value seen. Write: the value stored. Evict: the value dropped.
    pub value: u32,
    /// A read that returned something other than the last value written:
    /// the value it should have seen.
    pub stale: Option<u32>,
    /// Break-it mode: this access broke the single-writer rule; how, in a sentence.
    pub broke_swmr: Option<String>,
    pub cycles: u32,
}

/// Running totals for one system.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub accesses: u32,
    /// Reads and writes served without a bus transaction.
    pub hits: u32,
    pub bus_rd: u32,
    pub bus_rdx: u32,
    pub bus_upgr: u32,
    /// Cache-to-cache transfers: a cache flushed the line to the requester.
    pub flushes: u32,
    /// Misses whose data came from memory.
    pub memory_reads: u32,
    /// Memory writes: a flush memory picked up, or the write-back of an evicted dirty line.
    pub write_backs: u32,
    /// The write-backs that were evictions: a bus transaction of their own.
    pub eviction_write_backs: u32,
    /// Copies destroyed by snooped BusRdX / BusUpgr.
    pub invalidations: u32,
    /// Reads that returned a value older than the last write (break-it mode only).
    pub stale_reads: u32,
    pub cycles: u64,
}

impl Counts {
    /// Requests on the bus plus eviction write-backs: every time the bus was taken.
    pub fn bus_transactions(&self) -> u32 {
        self.bus_rd + self.bus_rdx + self.bus_upgr + self.eviction_write_backs
    }

    /// Every time the line's data crossed from one cache to another.
    pub fn transfers(&self) -> u32 {
        self.flushes
    }
}
