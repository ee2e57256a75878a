//! One thin view per demo: it draws a model snapshot and sends actions.

pub mod descriptor_ring;
pub mod geometry;
pub mod iommu;
pub mod napi;
pub mod rdma_qp;

use crate::catalogue::{Demo, DemoKind};
use leptos::prelude::AnyView;

/// The view for a catalogue entry.
pub fn render(demo: &'static Demo) -> AnyView {
    match demo.kind {
        DemoKind::DescriptorRing => descriptor_ring::page(demo),
        DemoKind::Napi => napi::page(demo),
        DemoKind::Iommu => iommu::page(demo),
        DemoKind::RdmaQp => rdma_qp::page(demo),
    }
}
