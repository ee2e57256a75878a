//! Pictures of the cpu section's demos.
<<<<<<< HEAD

pub mod batching;
pub mod branch;
pub mod numa;
=======
pub mod cache_hierarchy;
pub mod locality;
pub mod mesi;
mod sets;
pub mod tlb;
>>>>>>> eng-v-cpu-a
