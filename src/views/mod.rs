//! One thin view per demo: it draws a model snapshot and sends actions.

pub mod busy_poll;
pub mod cut_through;
pub mod descriptor_ring;
pub mod geometry;
pub mod iommu;
pub mod mmio;
pub mod napi;
pub mod rdma_qp;
pub mod send_path;
pub mod timeline_svg;
pub mod waterfall;

use crate::catalogue::{Demo, DemoKind};
use leptos::prelude::AnyView;

/// The view for a catalogue entry.
pub fn render(demo: &'static Demo) -> AnyView {
    match demo.kind {
        DemoKind::DescriptorRing => descriptor_ring::page(demo),
        DemoKind::Napi => napi::page(demo),
        DemoKind::SendPath => send_path::page(demo),
        DemoKind::BusyPoll => busy_poll::page(demo),
        DemoKind::Mmio => mmio::page(demo),
        DemoKind::CutThrough => cut_through::page(demo),
        DemoKind::Iommu => iommu::page(demo),
        DemoKind::RdmaQp => rdma_qp::page(demo),
    }
}
