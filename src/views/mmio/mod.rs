//! MMIO write vs read: one timeline, posted writes above, non-posted reads
//! below, and (break it) a per-packet loop with and without a register read.

mod controls;
mod lanes;

use crate::catalogue::Demo;
use crate::shell::demo_host::{demo_host, DemoParts, Lab};
use demos::nic::mmio::Mmio;
use leptos::prelude::*;

pub fn page(demo: &'static Demo) -> AnyView {
    demo_host::<Mmio>(
        demo,
        DemoParts {
            visual,
            controls: controls::controls,
        },
    )
}

fn visual(lab: Lab<Mmio>) -> AnyView {
    view! {
        <figure class="mmio-figure">
            {lanes::timeline(lab)}
            <figcaption class="legend">
                <span class="key mmio-issue">"issue: the core sends it"</span>
                <span class="key mmio-stall">"stalled: waiting for the Completion"</span>
                <span class="key mmio-free">"free: the core can go on"</span>
                <span class="key mmio-flight">"crossing PCIe to the device"</span>
                <span class="key mmio-cpl">"Completion coming back"</span>
                <span class="key mmio-work">"real work per packet"</span>
            </figcaption>
        </figure>
    }
    .into_any()
}
