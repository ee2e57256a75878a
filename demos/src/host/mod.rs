//! Host I/O: what happens between the NIC and the host's memory and cores
//! (PCIe, multi-queue receive and its steering).

pub mod pcie;
pub mod ring_sizing;
pub mod rss;
pub mod streaming;
pub mod toeplitz;
pub mod zero_copy;
