//! A warp's memory access: the `/gpu/memory` demo.
//!
//! `coalescing` holds the rule for a global load (the 32 threads' addresses,
//! the 32-byte sectors and 128-byte lines they touch, the bytes used of the
//! bytes moved), `banks` the rule for shared memory (32 banks of 4-byte
//! words, the n-way conflict and the broadcast of one word), `model` the demo.

pub mod banks;
pub mod coalescing;
mod model;

pub use model::{GpuMemory, GpuMemoryAction, GpuMemoryConfig, FIELDS, OFFSET, SMEM_STRIDE, STRIDE};

#[cfg(test)]
mod tests;
