//! The `/fabric/ecmp` demo: the flows of one all-reduce step hashed onto a
//! leaf's k equal-cost uplinks (RFC 2992's hash-threshold over a Toeplitz
//! hash of each QP's addresses, ports and destination QP), the collisions
//! and idle paths the closed forms predict beside the ones this draw got,
//! and the step's time set by the busiest uplink. Three fixes: more QPs a
//! connection, flowlet switching and packet spraying (with the reordering
//! it causes).

pub mod flows;
mod model;
pub mod odds;
pub mod send;
#[cfg(test)]
mod tests;

pub use model::*;
