//! Frame size, rates, the threshold, and the break-it shortcut.

use crate::shell::demo_host::Lab;
use crate::widgets::choice::Choice;
use crate::widgets::slider::Slider;
use demos::nic::cut_through::{CtAction, CutThrough, CHUNKS_MAX, CHUNKS_MIN, PCIE_MAX, PCIE_MIN};
use leptos::prelude::*;

const WIRES: &[(&str, &str)] = &[
    ("10", "10 GbE"),
    ("25", "25 GbE"),
    ("50", "50 GbE"),
    ("100", "100 GbE"),
];

pub fn controls(lab: Lab<CutThrough>) -> AnyView {
    let chunks = Memo::new(move |_| lab.with(|m| m.chunks));
    let pcie = Signal::derive(move || lab.with(|m| m.pcie_gbps as usize));
    let threshold = Signal::derive(move || lab.with(|m| m.threshold));
    let safe = Signal::derive(move || lab.with(|m| m.safe_threshold()));
    let wire = Signal::derive(move || {
        lab.with(|m| {
            WIRES
                .iter()
                .find(|(v, _)| v.parse::<u32>().ok() == Some(m.wire_gbps))
                .map_or("25", |(v, _)| *v)
        })
    });
    let threshold_slider = move || {
        let max = chunks.get();
        view! {
            <Slider label="Cut-through threshold" min=1 max=max value=threshold unit="× 64 B chunks"
                on_change=Callback::new(move |v| lab.act(CtAction::SetThreshold(v))) testid="threshold" />
        }
    };
    let break_it = move |_| {
        if lab.with(|m| m.pcie_gbps) >= 100 {
            lab.act(CtAction::SetPcie(32));
        }
        lab.act(CtAction::SetWire(100));
        if lab.with(|m| m.threshold) != 1 {
            lab.act(CtAction::SetThreshold(1));
        }
    };
    view! {
        <Slider label="Frame size" min=CHUNKS_MIN max=CHUNKS_MAX value=Signal::derive(move || chunks.get())
            unit="× 64 B chunks" on_change=Callback::new(move |v| lab.act(CtAction::SetChunks(v))) testid="frame-size" />
        <Slider label="PCIe delivery rate" min=PCIE_MIN as usize max=PCIE_MAX as usize value=pcie unit="Gb/s"
            on_change=Callback::new(move |v: usize| lab.act(CtAction::SetPcie(v as u32))) testid="pcie-rate" />
        <Choice legend="Wire rate" name="wire" options=WIRES selected=wire
            on_change=Callback::new(move |v: &'static str| {
                if let Ok(g) = v.parse::<u32>() {
                    lab.act(CtAction::SetWire(g));
                }
            }) />
        {threshold_slider}
        <div class="button-group" role="group" aria-label="Threshold and clock">
            <button type="button" class="btn" data-testid="use-safe"
                on:click=move |_| lab.act(CtAction::UseSafeThreshold)>
                {move || format!("Use the safe threshold ({})", safe.get())}
            </button>
            <button type="button" class="btn" data-testid="run-to-end"
                on:click=move |_| lab.act(CtAction::RunToEnd)>"Run to the end"</button>
        </div>
        <p class="hint">"Step delivers one more chunk over PCIe; changing a setting restarts the clock."</p>
        <button type="button" class="btn break-it" data-testid="break-it" on:click=break_it>
            "Break it: a 100 GbE wire, threshold 1"
        </button>
    }
    .into_any()
}
