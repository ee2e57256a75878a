//! The NIC datapath: drive a packet between the host and the wire.

pub mod descriptor_ring;
pub mod iommu;
pub mod napi;
pub mod rdma_qp;
