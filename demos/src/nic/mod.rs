//! Models of the NIC datapath: how packets move between host memory and the wire.

pub mod descriptor_ring;
pub mod napi;
