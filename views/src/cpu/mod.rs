//! Pictures of the cpu section's demos.
pub mod cache_hierarchy;
mod kit;
pub mod locality;
pub mod mesi;
mod sets;
pub mod tlb;
