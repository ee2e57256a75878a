//! Pictures of the cpu section's demos.

pub mod batching;
pub mod branch;
pub mod cache_hierarchy;
mod kit;
pub mod locality;
pub mod mesi;
pub mod numa;
mod sets;
pub mod tlb;
