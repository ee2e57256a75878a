//! Interrupt vs busy-poll (RX): the receive waterfall, and what the polling
//! core costs at the chosen packet rate.

use crate::catalogue::Demo;
use crate::shell::demo_host::{demo_host, DemoParts, Lab};
use crate::views::waterfall::PathView;
use crate::widgets::toggle::Toggle;
use demos::nic::busy_poll::{
    rate_index, rate_text, BusyPoll, BusyPollAction, BUSY, RATES, RATE_MAX, RATE_MIN, SPEC,
};
use demos::nic::stages::{ns, tenths, StageAction, Walk};
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
        {cpu_panel(lab)}
    }
    .into_any()
}

/// Width of a utilisation bar: at most the whole track.
fn bar(util_tenths: u64) -> String {
    format!("{}%", util_tenths.min(1000) as f64 / 10.0)
}

fn cpu_panel(lab: Lab<BusyPoll>) -> impl IntoView {
    let cpu = move || lab.with(|m| m.cpu());
    let busy_on = move || lab.with(|m| m.pipe.uses(BUSY));
    let rate = move || lab.with(|m| rate_text(m.rate_pps.into()));
    let cheaper = move || {
        if cpu().busy_cheaper() {
            "busy polling"
        } else {
            "interrupts"
        }
    };
    let crossover = move || {
        match cpu().crossover_pps {
        Some(x) => format!(
            "Crossover: {}. Below it busy polling costs more CPU per packet than interrupts; above it, less.",
            rate_text(x)
        ),
        None => "No crossover: at these stage costs interrupts cost no CPU, so busy polling never pays.".into(),
    }
    };
    view! {
        <section class="panel cpu-panel" class:focus=move || lab.in_focus("cpu") aria-label="CPU cost" data-testid="cpu-panel">
            <h3>{move || format!("CPU cost at {}", rate())}</h3>
            <div class="table-scroll">
                <table class="cpu-table">
                    <thead>
                        <tr>
                            <th scope="col">"mode"</th>
                            <th scope="col">"CPU per packet"</th>
                            <th scope="col">"core use"</th>
                        </tr>
                    </thead>
                    <tbody>
                        <tr class:in-use=move || !busy_on()>
                            <th scope="row">"interrupts" {move || (!busy_on()).then_some(" (in use)")}</th>
                            <td class="mono" data-testid="irq-per-packet">{move || ns(cpu().irq_ns as i64)}</td>
                            <td>
                                <span class="util"><span class="util-fill irq" style:width=move || bar(cpu().irq_util)></span></span>
                                <span class="mono" data-testid="irq-util">{move || tenths(cpu().irq_util as i64)}</span>
                                {move || (cpu().irq_util > 1000).then_some(" more than a core")}
                            </td>
                        </tr>
                        <tr class:in-use=busy_on>
                            <th scope="row">"busy polling" {move || busy_on().then_some(" (in use)")}</th>
                            <td class="mono" data-testid="busy-per-packet">{move || ns(cpu().busy_ns as i64)}</td>
                            <td>
                                <span class="util"><span class="util-fill busy" style:width="100%"></span></span>
                                <span class="mono" data-testid="busy-util">{move || tenths(cpu().busy_util as i64)}</span>
                                <span class="muted">{move || format!(" ({} on packets)", tenths(cpu().busy_work_util as i64))}</span>
                            </td>
                        </tr>
                    </tbody>
                </table>
            </div>
            <p class="cheaper" data-testid="cheaper">
                {move || format!("Cheaper in CPU at this rate: {}.", cheaper())}
            </p>
            <p class="hint" data-testid="crossover">{crossover}</p>
        </section>
    }
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
