//! Models of networking and AI fabrics: real bytes on the wire, RFC state
//! machines, congestion control, incast and collectives.

pub mod allreduce;
pub mod congestion;
pub mod encapsulation;
pub mod handshake;
pub mod incast;
pub mod wire;
