//! Models of the CPU underneath the code: caches, TLBs, branch predictors,
//! NUMA sockets and the arithmetic of batching.

pub mod branch;
pub mod numa;
pub mod batching;
