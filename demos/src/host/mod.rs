//! Host I/O: what happens between the NIC and the host's memory and cores
//! (PCIe, multi-queue receive).

pub mod pcie;
pub mod toeplitz;
