//! The ring's own controls: mode, driver actions, the wire, and break-it.

use crate::shell::demo_host::Lab;
use crate::widgets::choice::Choice;
use crate::widgets::toggle::Toggle;
use demos::nic::descriptor_ring::{DescriptorRing, Direction, RingAction, RingConfig};
use leptos::prelude::*;

const MODES: &[(&str, &str)] = &[("rx", "RX (receive)"), ("tx", "TX (send)")];

pub fn controls(lab: Lab<DescriptorRing>) -> AnyView {
    let direction = move || lab.with(|m| m.config.direction);
    let selected = Signal::derive(move || match direction() {
        Direction::Rx => "rx",
        Direction::Tx => "tx",
    });
    let set_mode = Callback::new(move |value: &'static str| {
        let direction = if value == "tx" {
            Direction::Tx
        } else {
            Direction::Rx
        };
        lab.reconfigure(RingConfig {
            direction,
            ..lab.config()
        });
    });
    let skip = Signal::derive(move || lab.with(|m| m.skip_barrier));
    let button = move |label: &'static str, action: RingAction, testid: &'static str| {
        view! {
            <button type="button" class="btn" on:click=move |_| lab.act(action) data-testid=testid>
                {label}
            </button>
        }
    };
    view! {
        <Choice legend="Direction" name="mode" options=MODES selected on_change=set_mode />
        <div class="button-group" role="group" aria-label="Driver">
            <span class="group-label">"Driver"</span>
            {button("Post a buffer", RingAction::Post, "post")}
            {button("wmb() barrier", RingAction::Barrier, "barrier")}
            {button("Ring the doorbell", RingAction::Doorbell, "doorbell")}
            {button("Reap completions", RingAction::Reap, "reap")}
        </div>
        <Show when=move || direction() == Direction::Rx>
            <div class="button-group" role="group" aria-label="Wire">
                <span class="group-label">"Wire"</span>
                {button("A frame arrives", RingAction::FrameArrives, "arrive")}
            </div>
        </Show>
        <p class="hint">"Step runs the NIC: fetch, DMA, write-back."</p>
        <Toggle label="Break it: skip the barrier" checked=skip danger=true testid="skip-barrier"
            on_change=Callback::new(move |on| lab.act(RingAction::SetSkipBarrier(on))) />
    }
    .into_any()
}
