//! RDMA queue pair: the app's memory, the NIC, and a sockets send beside it.

mod controls;
mod panels;
mod queues_svg;

use crate::catalogue::Demo;
use crate::shell::demo_host::{demo_host, DemoParts, Lab};
use demos::nic::rdma_qp::RdmaQp;
use leptos::prelude::*;

pub fn page(demo: &'static Demo) -> AnyView {
    demo_host::<RdmaQp>(
        demo,
        DemoParts {
            visual,
            controls: controls::controls,
        },
    )
}

fn visual(lab: Lab<RdmaQp>) -> AnyView {
    view! {
        {queues_svg::queues(lab)}
        <div class="rdma-panels">
            {panels::contrast(lab)}
            {panels::polled(lab)}
        </div>
    }
    .into_any()
}
