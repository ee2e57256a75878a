//! The NIC datapath: drive a packet between the host and the wire.

pub mod cut_through;
pub mod descriptor_ring;
pub mod mmio;
pub mod napi;
