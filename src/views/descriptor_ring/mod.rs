//! Descriptor ring (RX/TX): the ring, the driver and the NIC side by side.

mod controls;
mod panels;
mod ring_svg;

use crate::catalogue::Demo;
use crate::shell::demo_host::{demo_host, DemoParts, Lab};
use demos::nic::descriptor_ring::DescriptorRing;
use leptos::prelude::*;

pub fn page(demo: &'static Demo) -> AnyView {
    demo_host::<DescriptorRing>(
        demo,
        DemoParts {
            visual,
            controls: controls::controls,
        },
    )
}

fn visual(lab: Lab<DescriptorRing>) -> AnyView {
    view! {
        <div class="ring-layout">
            {panels::driver_panel(lab)}
            {ring_svg::ring(lab)}
            {panels::nic_panel(lab)}
        </div>
        {panels::memory_table(lab)}
        {panels::traffic(lab)}
    }
    .into_any()
}
