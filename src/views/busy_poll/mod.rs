//! Interrupt vs busy-poll (RX): the receive waterfall, and what the polling
//! core costs at the chosen packet rate.

mod chart;
mod cpu_panel;

use crate::catalogue::Demo;
use crate::shell::demo_host::{demo_host, DemoParts, Lab};
use crate::views::waterfall::PathView;
use crate::widgets::toggle::Toggle;
use demos::nic::busy_poll::{
    rate_index, rate_text, BusyPoll, BusyPollAction, BUSY, RATES, RATE_MAX, RATE_MIN, SPEC,
};
use demos::nic::stages::{StageAction, Walk};
use leptos::prelude::*;

pub fn page(demo: &'static Demo) -> AnyView {
    demo_host::<BusyPoll>(demo, DemoParts { visual, controls })
}

fn visual(lab: Lab<BusyPoll>) -> AnyView {
    let data = Signal::derive(move || lab.with(|m| m.pipe.waterfall(&SPEC)));
    view! {
        <PathView data what="receive path"
            act=Callback::new(move |a| lab.act(BusyPollAction::Stage(a)))
            in_focus=Callback::new(move |key: &'static str| lab.in_focus(key)) />
        {cpu_panel::cpu_panel(lab)}
        {chart::crossover_chart(lab)}
    }
    .into_any()
}

fn controls(lab: Lab<BusyPoll>) -> AnyView {
    let busy = Signal::derive(move || lab.with(|m| m.pipe.uses(BUSY)));
    let fresh = Signal::derive(move || lab.with(|m| m.pipe.walk == Walk::Ready));
    let index = move || lab.with(|m| rate_index(m.rate_pps));
    view! {
        <Toggle label="Busy polling" checked=busy testid="use-busy-poll"
            on_change=Callback::new(move |on| lab.act(BusyPollAction::Stage(StageAction::Use { technique: BUSY, on }))) />
        <p class="hint">"The reader spins in the driver's poll (SO_BUSY_POLL): no interrupt, no NAPI schedule, no wakeup, but the core never rests."</p>
        <label class="slider">
            <span class="slider-label">"Packet rate"</span>
            <input type="range" min="0" max=RATES.len() - 1 step="1"
                prop:value=move || index().to_string()
                aria-valuetext=move || lab.with(|m| rate_text(m.rate_pps.into()))
                on:change=move |ev| {
                    if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                        let rate = RATES[i.min(RATES.len() - 1)].clamp(RATE_MIN, RATE_MAX);
                        lab.act(BusyPollAction::SetRate(rate));
                    }
                }
                data-testid="rate" />
            <output class="slider-value" data-testid="rate-value">{move || lab.with(|m| rate_text(m.rate_pps.into()))}</output>
        </label>
        <button type="button" class="btn" data-testid="new-packet" disabled=fresh
            on:click=move |_| lab.act(BusyPollAction::Stage(StageAction::NewPacket))>
            "Receive another packet"
        </button>
        <p class="hint">"Step moves the packet through the next stage on the path."</p>
    }
    .into_any()
}
