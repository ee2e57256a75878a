//! Packetized vs streaming NIC interfaces: the classic receive path (a
//! descriptor and a buffer per packet, a write-back per packet) against
//! Ensō's (packets back to back in a byte ring, a notification per batch),
//! on one PCIe link.
//!
//! The classic side is the `/host/pcie` demo's simple NIC
//! (`pcie::nic::per_packet`); Ensō's transactions (`enso`) are costed by
//! the same rules (`pcie::nic::transaction_wire`, `packet_rate`), so both
//! sides are counted alike. `ethernet` holds the port's line rate, `layout`
//! where each interface puts packets in memory (cache lines and jumps),
//! `cpu` one core's budget, `figures` what the demo shows, `why` its
//! sentences, `model` the run.

pub mod cpu;
pub mod enso;
pub mod ethernet;
pub mod figures;
pub mod layout;
mod model;
mod state;
mod why;

pub use state::{Streaming, StreamingAction, StreamingConfig, BATCH, RUN, WINDOW};

#[cfg(test)]
mod tests;
