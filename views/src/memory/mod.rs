//! Pictures of the memory section's demos.
pub mod reordering;
pub mod spsc;
