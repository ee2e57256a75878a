//! The NIC datapath demos' pictures and controls.
pub mod descriptor_ring;
pub mod send_path;
pub mod busy_poll;
pub mod mmio;
pub mod cut_through;
pub mod napi;
pub mod iommu;
pub mod rdma_qp;
