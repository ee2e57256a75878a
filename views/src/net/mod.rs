//! Pictures of the net section's demos.
pub mod allreduce;
pub mod congestion;
pub mod encapsulation;
pub mod handshake;
pub mod incast;
