//! Models of concurrency and the memory model: litmus tests under SC, x86-TSO,
//! ARMv8 and RC11, and the lock-free structures that live or die by them.

pub mod litmus;
pub mod reordering;
pub mod store_buffer;
