//! IOMMU / IOVA: the device's IOVA space, the IOMMU between, host memory.

mod controls;
mod panels;
mod spaces_svg;

use crate::catalogue::Demo;
use crate::shell::demo_host::{demo_host, DemoParts, Lab};
use demos::nic::iommu::Iommu;
use leptos::prelude::*;

pub fn page(demo: &'static Demo) -> AnyView {
    demo_host::<Iommu>(
        demo,
        DemoParts {
            visual,
            controls: controls::controls,
        },
    )
}

fn visual(lab: Lab<Iommu>) -> AnyView {
    view! {
        {spaces_svg::spaces(lab)}
        <div class="iommu-panels">
            {panels::page_table(lab)}
            {panels::fault_log(lab)}
        </div>
    }
    .into_any()
}
