//! The operational machines the learner schedules: SC (every operation acts
//! on memory at once, in an interleaving the scheduler picks) and the x86-TSO
//! abstract machine of Sewell et al., "x86-TSO: A rigorous and usable
//! programmer's model for x86 multiprocessors" (CACM 53(7), 2010, §3):
//! - each thread has a FIFO store buffer; a store enters it, and the
//!   scheduler decides when its oldest entry drains to memory;
//! - a load reads the newest buffered store to its location, else memory;
//! - MFENCE (`F`, `F.sc`) may execute only when its thread's buffer is empty;
//! - a locked instruction (`W.sc`, i.e. XCHG) also needs an empty buffer,
//!   and writes memory directly;
//! - other fences (`F.ld`/`F.st` = LFENCE/SFENCE, and the C11 acquire and
//!   release fences, which compile to nothing) do nothing.

use crate::memory::litmus::ast::{Fence, Op, Order, Test, Value};
use crate::memory::litmus::MemModel;
use crate::memory::store_buffer::{Drain, StoreBuffer};
use serde::{Deserialize, Serialize};

/// What a step did, for the narration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Effect {
    /// A load and the value it read; `forwarded` when from the own buffer.
    Loaded { value: u8, forwarded: bool },
    /// A store that went into the store buffer.
    Buffered { value: u8 },
    /// A store that went straight to memory (SC, or a locked store).
    Wrote { value: u8 },
    /// A fence (it could run: the buffer was empty, or it orders nothing here).
    Fenced,
}

/// The state of one run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Machine {
    /// Next operation of each thread.
    pub pc: Vec<u8>,
    /// Value of each register, once loaded.
    pub regs: Vec<Option<u8>>,
    /// Memory, by location.
    pub memory: Vec<u8>,
    /// Each thread's store buffer (always empty under SC).
    pub buffers: Vec<StoreBuffer>,
}

/// Why a thread cannot run its next operation now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blocked {
    Finished,
    /// An MFENCE or a locked store waits for the buffer to drain.
    WaitsForBuffer,
}

impl Machine {
    pub fn new(test: &Test) -> Machine {
        Machine {
            pc: vec![0; test.threads.len()],
            regs: vec![None; test.regs.len()],
            memory: vec![0; test.locs.len()],
            buffers: vec![StoreBuffer::default(); test.threads.len()],
        }
    }

    /// The next operation of thread `t`, if any.
    pub fn next_op<'a>(&self, test: &'a Test, t: usize) -> Option<&'a Op> {
        test.threads.get(t)?.get(*self.pc.get(t)? as usize)
    }

    /// Can thread `t` run its next operation under `model` (SC or TSO)?
    pub fn blocked(&self, test: &Test, t: usize, model: MemModel) -> Option<Blocked> {
        let Some(op) = self.next_op(test, t) else {
            return Some(Blocked::Finished);
        };
        let needs_empty = model == MemModel::Tso
            && matches!(
                op,
                Op::Fence {
                    fence: Fence::Full | Fence::Sc,
                    ..
                } | Op::Write { ord: Order::Sc, .. }
            );
        (needs_empty && !self.buffers[t].is_empty()).then_some(Blocked::WaitsForBuffer)
    }

    /// Runs thread `t`'s next operation; `None` if it is blocked.
    pub fn run(&mut self, test: &Test, t: usize, model: MemModel) -> Option<Effect> {
        if self.blocked(test, t, model).is_some() {
            return None;
        }
        let op = *self.next_op(test, t)?;
        let tso = model == MemModel::Tso;
        let effect = match op {
            Op::Read { loc, reg, .. } => {
                // Litmus values are 0–9: a buffered value always fits a u8.
                let buffered = if tso {
                    self.buffers[t].forward(loc).map(|v| v as u8)
                } else {
                    None
                };
                let value = buffered.unwrap_or(self.memory[loc as usize]);
                self.regs[reg as usize] = Some(value);
                Effect::Loaded {
                    value,
                    forwarded: buffered.is_some(),
                }
            }
            Op::Write {
                ord, loc, value, ..
            } => {
                let value = match value {
                    Value::Const(v) => v,
                    Value::Reg(r) => self.regs[r as usize].unwrap_or(0),
                };
                if tso && ord != Order::Sc {
                    self.buffers[t].push(loc, u32::from(value), false);
                    Effect::Buffered { value }
                } else {
                    self.memory[loc as usize] = value;
                    Effect::Wrote { value }
                }
            }
            Op::Fence { .. } => Effect::Fenced,
        };
        self.pc[t] += 1;
        Some(effect)
    }

    /// Drains thread `t`'s oldest store to memory (TSO: FIFO).
    pub fn drain(&mut self, t: usize) -> Option<(u8, u8)> {
        let (loc, value) = self.buffers.get_mut(t)?.drain(0, Drain::Fifo)?;
        let value = value as u8;
        self.memory[loc as usize] = value;
        Some((loc, value))
    }

    /// Every thread has finished and every buffer is empty.
    pub fn finished(&self, test: &Test) -> bool {
        (0..test.threads.len()).all(|t| self.next_op(test, t).is_none())
            && self.buffers.iter().all(|b| b.is_empty())
    }

    /// The final state as an outcome key: every register, then the
    /// locations in `mem_locs` (the same key the analysis uses).
    pub fn outcome(&self, mem_locs: &[u8]) -> (Vec<u8>, Vec<u8>) {
        (
            self.regs.iter().map(|r| r.unwrap_or(0)).collect(),
            mem_locs.iter().map(|&l| self.memory[l as usize]).collect(),
        )
    }
}
