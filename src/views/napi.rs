//! NAPI poll loop: the NIC, the RX ring, the interrupt line and the poll.

use crate::catalogue::Demo;
use crate::shell::demo_host::{demo_host, DemoParts, Lab};
use crate::widgets::slider::Slider;
use demos::nic::napi::{
    Line, Napi, NapiAction, NapiConfig, BUDGET_MAX, BUDGET_MIN, BURST_MAX, BURST_MIN, RING_MAX,
    RING_MIN,
};
use leptos::prelude::*;

pub fn page(demo: &'static Demo) -> AnyView {
    demo_host::<Napi>(demo, DemoParts { visual, controls })
}

const COLUMNS: usize = 8;
const CELL: f64 = 28.0;
const RING_X: f64 = 176.0;
const RING_Y: f64 = 100.0;

/// Tall enough for the ring's rows of cells and the boxes beside them.
fn view_height(ring_size: usize) -> f64 {
    let rows = ring_size.div_ceil(COLUMNS) as f64;
    (RING_Y + rows * (CELL + 4.0) + 16.0).max(190.0)
}

fn visual(lab: Lab<Napi>) -> AnyView {
    let cells = move || {
        lab.with(|m| {
            (0..m.ring_size)
                .map(|i| {
                    let x = RING_X + (i % COLUMNS) as f64 * (CELL + 4.0);
                    let y = RING_Y + (i / COLUMNS) as f64 * (CELL + 4.0);
                    let full = i < m.occupancy;
                    view! {
                        <rect x=x y=y width=CELL height=CELL rx="3"
                            class=if full { "cell dd" } else { "cell free" } />
                    }
                })
                .collect_view()
        })
    };
    let armed = move || lab.with(|m| m.line == Line::Armed);
    let line_label = move || lab.with(|m| format!("IRQ line {}", m.line.label()));
    let poll_text = move || {
        lab.with(|m| {
            if m.poll_scheduled {
                "poll scheduled".to_string()
            } else {
                "no poll pending".to_string()
            }
        })
    };
    let drained = move || lab.with(|m| format!("drained {}/{}", m.drained_last, m.budget));
    let occupancy = move || lab.with(|m| format!("RX ring {}/{}", m.occupancy, m.ring_size));
    let history = move || {
        lab.with(|m| {
            if m.history.is_empty() {
                return view! { <li class="muted">"no polls yet"</li> }.into_any();
            }
            m.history
                .iter()
                .map(|p| {
                    let width = format!("{}%", 100 * p.drained / p.budget.max(1));
                    let outcome = if p.completed { "re-armed" } else { "poll again" };
                    view! {
                        <li class="poll-bar" class:completed=p.completed>
                            <span class="poll-name">{format!("poll {}", p.number)}</span>
                            <span class="bar"><span class="fill" style:width=width></span></span>
                            <span class="mono">{format!("{}/{} → {outcome}", p.drained, p.budget)}</span>
                        </li>
                    }
                })
                .collect_view()
                .into_any()
        })
    };
    view! {
        <figure class="napi-figure">
            <svg viewBox=move || lab.with(|m| format!("0 0 640 {}", view_height(m.ring_size))) role="img" aria-labelledby="napi-title" class="napi-svg">
                <title id="napi-title">
                    {move || lab.with(|m| format!(
                        "RX ring {} of {} full, interrupt line {}, {}",
                        m.occupancy, m.ring_size, m.line.label(),
                        if m.poll_scheduled { "poll scheduled" } else { "no poll pending" }))}
                </title>
                <g class="box nic" class:focus=move || lab.in_focus("ring")>
                    <rect x="6" y="74" width="134" height="100" rx="8" />
                    <text x="73" y="116" class="box-title">"NIC"</text>
                    <text x="73" y="144" class="box-sub">"DMA into ring"</text>
                </g>
                <line x1="140" y1="124" x2="170" y2="124" class="flow" marker-end="url(#arrow)" />
                <text x=RING_X y=RING_Y - 14.0 class="label-left" data-testid="napi-occupancy">{occupancy}</text>
                <g data-testid="napi-ring">{cells}</g>
                <g class="box cpu" class:focus=move || lab.in_focus("poll")>
                    <rect x="446" y="74" width="188" height="100" rx="8" />
                    <text x="540" y="106" class="box-title">"CPU · softirq"</text>
                    <text x="540" y="134" class="box-sub" data-testid="poll-state">{poll_text}</text>
                    <text x="540" y="158" class="box-sub mono">{drained}</text>
                </g>
                <g class="irq-line" class:armed=armed class:masked=move || !armed()
                    class:focus=move || lab.in_focus("irq-line") data-testid="irq-line">
                    <path d="M73 74 V32 H540 V74" />
                    <rect x="206" y="14" width="200" height="36" rx="18" class="pill" />
                    <text x="306" y="38" class="pill-text">{line_label}</text>
                </g>
                <defs>
                    <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto">
                        <path d="M0 0 L10 5 L0 10 z" class="arrow-head" />
                    </marker>
                </defs>
            </svg>
            <figcaption class="legend">
                <span class="key dd">"packet waiting"</span>
                <span class="key free">"empty descriptor"</span>
                <span class="key armed">"ARMED: next packet interrupts"</span>
                <span class="key masked">"MASKED: polling, no interrupts"</span>
            </figcaption>
        </figure>
        <section class="poll-history" aria-label="Recent polls">
            <h3>"Recent polls"</h3>
            <ol data-testid="poll-history">{history}</ol>
        </section>
    }
    .into_any()
}

fn controls(lab: Lab<Napi>) -> AnyView {
    let burst = RwSignal::new(6_usize);
    let budget = Signal::derive(move || lab.with(|m| m.budget));
    let ring_size = Signal::derive(move || lab.with(|m| m.ring_size));
    view! {
        <Slider label="Burst size" min=BURST_MIN max=BURST_MAX value=burst unit="packets"
            on_change=Callback::new(move |n| burst.set(n)) testid="burst-size" />
        <button type="button" class="btn primary-outline" data-testid="send-burst"
            on:click=move |_| lab.act(NapiAction::Burst(burst.get_untracked()))>
            {move || format!("Send a burst of {}", burst.get())}
        </button>
        <Slider label="Poll budget" min=BUDGET_MIN max=BUDGET_MAX value=budget unit="per poll"
            on_change=Callback::new(move |b| lab.act(NapiAction::SetBudget(b))) testid="budget" />
        <Slider label="Ring size (restarts)" min=RING_MIN max=RING_MAX value=ring_size unit="descriptors"
            on_change=Callback::new(move |n| lab.reconfigure(NapiConfig { ring_size: n, budget: budget.get_untracked() }))
            testid="ring-size" />
        <p class="hint">"Step runs one poll of the softirq."</p>
    }
    .into_any()
}
