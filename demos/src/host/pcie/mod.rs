//! The PCIe budget: what a link's generation, width and programming leave
//! of its bandwidth for a device's DMA writes and reads.
//!
//! `link` holds the configuration and each TLP's byte costs, `dllp` the
//! ACK, flow-control and SKP traffic beside the TLPs, `transfer` a DMA cut
//! into TLPs and the bandwidth it gets, `nic` a simple NIC's transactions per
//! packet and the packet rate they allow, `cli` the `pcie` example's contract.
//!
//! What it leaves out, as the open model it follows does: replays after bit
//! errors, the credit limits and tag counts that can stall a link before its
//! bandwidth does, and the latency of a read (a rate model, not a timing
//! one).

pub mod cli;
pub mod dllp;
pub mod link;
mod model;
pub mod nic;
pub mod transfer;

pub use model::{Kind, Pcie, PcieAction, PcieConfig, Tlp, TlpKind, LATENCY, PACKETS, SIZE, TAGS};

#[cfg(test)]
mod tests;
