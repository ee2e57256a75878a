//! The GPU section's pictures.

pub mod memory;
