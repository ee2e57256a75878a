//! Models of the NIC datapath: how packets move between host memory and the wire.

pub mod busy_poll;
pub mod coalescing;
pub mod cut_through;
pub mod descriptor_ring;
pub mod dma_map;
pub mod interrupt;
pub mod iommu;
pub mod mmio;
pub mod napi;
pub mod rdma_qp;
pub mod send_path;
pub mod stages;
