//! Models of concurrency and the memory model: litmus tests under SC, x86-TSO,
//! ARMv8 and RC11, and the lock-free structures that live or die by them.

pub mod aba;
pub mod cas;
pub mod false_sharing;
pub mod litmus;
pub mod mpmc;
pub mod rcu;
pub mod reordering;
pub mod spsc;
pub mod store_buffer;
