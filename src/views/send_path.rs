//! Send path latency: the waterfall of a kernel send, and the techniques that
//! take stages off it.

use crate::catalogue::Demo;
use crate::shell::demo_host::{demo_host, DemoParts, Lab};
use crate::views::waterfall::PathView;
use crate::widgets::toggle::Toggle;
use demos::nic::send_path::{SendPath, BYPASS, CTPIO, SPEC, TX_PUSH};
use demos::nic::stages::{StageAction, Walk};
use leptos::prelude::*;

pub fn page(demo: &'static Demo) -> AnyView {
    demo_host::<SendPath>(demo, DemoParts { visual, controls })
}

fn visual(lab: Lab<SendPath>) -> AnyView {
    let data = Signal::derive(move || lab.with(|m| m.pipe.waterfall(&SPEC)));
    view! {
        <PathView data what="send path"
            act=Callback::new(move |a| lab.act(a))
            in_focus=Callback::new(move |key: &'static str| lab.in_focus(key)) />
    }
    .into_any()
}

fn controls(lab: Lab<SendPath>) -> AnyView {
    let uses = move |t: usize| Signal::derive(move || lab.with(|m| m.pipe.uses(t)));
    let set =
        move |t: usize| Callback::new(move |on| lab.act(StageAction::Use { technique: t, on }));
    let fresh = Signal::derive(move || lab.with(|m| m.pipe.walk == Walk::Ready));
    view! {
        <div class="techniques" role="group" aria-label="Techniques">
            <Toggle label="Kernel bypass" checked=uses(BYPASS) on_change=set(BYPASS) testid="use-bypass" />
            <p class="hint">"The app drives the NIC's rings from user space (ef_vi, DPDK): no syscall, stack, copy or wakeup."</p>
            <Toggle label="TX push" checked=uses(TX_PUSH) on_change=set(TX_PUSH) testid="use-tx-push" />
            <p class="hint">"The descriptor rides inside the doorbell write: the NIC need not fetch it."</p>
            <Toggle label="CTPIO" checked=uses(CTPIO) on_change=set(CTPIO) testid="use-ctpio" />
            <p class="hint">"The CPU writes the frame to the NIC, which sends it as it arrives: no fetch, no DMA. Needs kernel bypass, so it turns bypass on."</p>
        </div>
        <button type="button" class="btn" data-testid="new-packet" disabled=fresh
            on:click=move |_| lab.act(StageAction::NewPacket)>
            "Send another packet"
        </button>
        <p class="hint">"Step moves the packet through the next stage on the path."</p>
    }
    .into_any()
}
