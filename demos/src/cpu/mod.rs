//! Models of the CPU underneath the code: caches, TLBs, branch predictors,
//! NUMA sockets and the arithmetic of batching.

pub mod batching;
pub mod branch;
pub mod cache_hierarchy;
pub mod cachesim;
pub mod latency;
pub mod locality;
pub mod mesi;
pub mod numa;
pub mod tlb;
