//! Models of the CPU underneath the code: caches, TLBs, branch predictors,
//! NUMA sockets and the arithmetic of batching.

pub mod batching;
pub mod branch;
pub mod numa;
