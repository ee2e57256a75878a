//! Settings, run-to-end, and the break-it switch.

use crate::shell::demo_host::Lab;
use crate::widgets::slider::Slider;
use crate::widgets::toggle::Toggle;
use demos::nic::mmio::{
    Mmio, MmioAction, COUNT_MAX, COUNT_MIN, ISSUE_MAX, ISSUE_MIN, RTT_MAX, RTT_MIN, WORK_MAX,
    WORK_MIN,
};
use leptos::prelude::*;

pub fn controls(lab: Lab<Mmio>) -> AnyView {
    let issue = Signal::derive(move || lab.with(|m| m.issue_ns as usize));
    let rtt = Signal::derive(move || lab.with(|m| m.rtt_ns as usize));
    let count = Signal::derive(move || lab.with(|m| m.count));
    let work = Signal::derive(move || lab.with(|m| m.work_ns as usize));
    let hot = Signal::derive(move || lab.with(|m| m.hot_read));
    view! {
        <Slider label="Issue cost" min=ISSUE_MIN as usize max=ISSUE_MAX as usize value=issue unit="ns"
            on_change=Callback::new(move |v: usize| lab.act(MmioAction::SetIssue(v as u64))) testid="issue-cost" />
        <Slider label="PCIe round trip" min=RTT_MIN as usize max=RTT_MAX as usize value=rtt unit="ns"
            on_change=Callback::new(move |v: usize| lab.act(MmioAction::SetRoundTrip(v as u64))) testid="round-trip" />
        <Slider label="Operations of each kind" min=COUNT_MIN max=COUNT_MAX value=count unit="each"
            on_change=Callback::new(move |v| lab.act(MmioAction::SetCount(v))) testid="op-count" />
        <div class="button-group" role="group" aria-label="Clock">
            <span class="group-label">"Clock"</span>
            <button type="button" class="btn" data-testid="run-to-end"
                on:click=move |_| lab.act(MmioAction::RunToEnd)>"Run to the end"</button>
        </div>
        <p class="hint">"Step moves the clock to the next event; changing a setting restarts it."</p>
        <Toggle label="Break it: read a NIC register every packet" checked=hot danger=true testid="hot-read"
            on_change=Callback::new(move |on| lab.act(MmioAction::SetHotRead(on))) />
        <Show when=move || hot.get()>
            <Slider label="Real work per packet" min=WORK_MIN as usize max=WORK_MAX as usize value=work unit="ns"
                on_change=Callback::new(move |v: usize| lab.act(MmioAction::SetWork(v as u64))) testid="work" />
        </Show>
    }
    .into_any()
}
