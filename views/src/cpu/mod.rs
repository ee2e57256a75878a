//! Pictures of the cpu section's demos.

pub mod batching;
pub mod branch;
pub mod numa;
