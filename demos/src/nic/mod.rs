//! The NIC datapath: drive a packet between the host and the wire.

pub mod busy_poll;
pub mod descriptor_ring;
pub mod napi;
pub mod send_path;
pub mod stages;
