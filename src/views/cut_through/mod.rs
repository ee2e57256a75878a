//! Cut-through (CTPIO): store-and-forward and cut-through on one time axis,
//! each with its PCIe lane, its wire lane and its chunks' states now.

mod controls;
mod counts;
mod lanes;

use crate::catalogue::Demo;
use crate::shell::demo_host::{demo_host, DemoParts, Lab};
use demos::nic::cut_through::CutThrough;
use leptos::prelude::*;

pub fn page(demo: &'static Demo) -> AnyView {
    demo_host::<CutThrough>(
        demo,
        DemoParts {
            visual,
            controls: controls::controls,
        },
    )
}

fn visual(lab: Lab<CutThrough>) -> AnyView {
    view! {
        <figure class="ct-figure">
            {lanes::timelines(lab)}
            <figcaption class="legend">
                <span class="key ct-not-arrived">"· not yet arrived"</span>
                <span class="key ct-arrived">"+ arrived over PCIe"</span>
                <span class="key ct-on-wire">"▶ transmitting on the wire"</span>
                <span class="key ct-sent">"✓ sent"</span>
                <span class="key ct-cut-off">"✗ cut off (frame poisoned)"</span>
            </figcaption>
        </figure>
        {counts::table(lab)}
    }
    .into_any()
}
