//! A warp's memory access: the `/gpu/memory` demo.
//!
//! `coalescing` holds the rule for a global load (the 32 threads' addresses,
//! the 32-byte sectors and 128-byte lines they touch, the bytes used of the
//! bytes moved), `banks` the rule for shared memory (32 banks of 4-byte
//! words, the n-way conflict and the broadcast of one word), `occupancy`
//! the blocks an SM holds at once, `roofline` the rate a kernel of a given
//! intensity can reach, `model` the demo.

pub mod banks;
pub mod coalescing;
mod model;
pub mod occupancy;
pub mod roofline;

pub use model::{
    GpuMemory, GpuMemoryAction, GpuMemoryConfig, FIELDS, FLOPS, OFFSET, REGISTERS, SHARED_KB,
    SMEM_STRIDE, STRIDE, THREADS,
};

#[cfg(test)]
mod tests;
