//! Pictures of the memory section's demos.
pub mod aba;
pub mod cas;
pub mod false_sharing;
mod kit;
pub mod mpmc;
pub mod rcu;
pub mod reordering;
pub mod spsc;
