//! GPUs: how a warp's threads reach memory.

pub mod memory;
