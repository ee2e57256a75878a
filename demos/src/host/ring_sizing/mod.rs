//! How deep a receive ring: deep enough to absorb the core's stalls (the
//! bandwidth-delay product: a 1,024-entry ring of full-size frames at
//! 100 Gb/s absorbs about 126 µs), shallow enough that its buffers stay in
//! the few LLC ways DDIO writes into (beyond them, "leaky DMA").
//!
//! `wire` holds a frame's cost on the line, `ring` the `ice` driver's ring
//! sizes and entries, `ddio` the cache the NIC writes into, `run` the
//! microsecond-by-microsecond run, `sizing` the two answers, and `model`
//! the demo.

pub mod ddio;
mod model;
pub mod ring;
pub mod run;
pub mod sizing;
pub mod wire;

pub use model::{
    mib, micros, nanos, RingSizing, RingSizingAction, RingSizingConfig, CORE_NS, QUEUES, STALL_US,
};

#[cfg(test)]
mod tests;
