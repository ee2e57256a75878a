//! The `/fabric/pfc` demo: lossless Ethernet. Priority flow control (IEEE
//! 802.1Qbb; the frame is IEEE 802.3 Annex 31D's MAC Control frame, opcode
//! 0x0101 to 01-80-C2-00-00-01, a class-enable vector and eight pause
//! times in quanta of 512 bit times, as Huawei's and IP Infusion's PFC
//! guides describe it) stops a sender per priority when a switch's
//! ingress counter reaches XOFF, and lets it go at XON. The bytes already
//! on their way need headroom (`headroom.rs`). Pauses stall flows that
//! share a link with congestion (head-of-line blocking of a victim flow),
//! spread up the tree, and, around a cycle of buffers, deadlock (Guo et
//! al., "RDMA over Commodity Ethernet at Scale", SIGCOMM 2016, abstract:
//! "PFC-induced deadlock (yes, it happened!)"). ECN marking with DCQCN
//! (Zhu et al., SIGCOMM 2015, whose abstract names head-of-line blocking
//! and unfairness as PFC's problems) keeps queues short so pauses are
//! rare. The model is ours: a fluid of bytes, one tick at a time.

pub mod config;
pub mod dcqcn;
pub mod fabric;
pub mod headroom;
pub mod model;
pub mod port;
pub mod topology;
pub mod waits;

#[cfg(test)]
mod tests;

pub use config::PfcConfig;
pub use model::{Pfc, PfcAction};
