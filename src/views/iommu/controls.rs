//! The IOMMU's controls: DMA to an address, map a page, break it.

use crate::shell::demo_host::Lab;
use crate::widgets::choice::Choice;
use crate::widgets::toggle::Toggle;
use demos::nic::iommu::{parse_addr, Access, Iommu, IommuAction};
use leptos::prelude::*;

const ACCESS: &[(&str, &str)] = &[("write", "DMA Write"), ("read", "DMA Read")];
const PRESETS: &[(&str, &str)] = &[
    ("0x1000", "RX buffer"),
    ("0x1234", "inside RX page"),
    ("0x2000", "TX buffer"),
    ("0x5000", "unmapped"),
    ("0x0100", "stray, low"),
    ("0xf000", "stray, high"),
];

/// A text field's problem, if any, as the engine's parser words it.
fn addr_problem(text: &str) -> Option<String> {
    parse_addr(text).err().map(|e| e.to_string())
}

pub fn controls(lab: Lab<Iommu>) -> AnyView {
    let access = RwSignal::new(Access::Write);
    let selected = Signal::derive(move || match access.get() {
        Access::Write => "write",
        Access::Read => "read",
    });
    let set_access = Callback::new(move |v: &'static str| {
        access.set(if v == "read" {
            Access::Read
        } else {
            Access::Write
        });
    });
    let dma = move |addr: String| {
        lab.act(IommuAction::Dma {
            access: access.get_untracked(),
            addr,
        })
    };
    let typed = RwSignal::new("0x3000".to_string());
    let typed_problem = Signal::derive(move || typed.with(|t| addr_problem(t)));
    let presets = PRESETS
        .iter()
        .map(|(addr, note)| {
            view! {
                <button type="button" class="btn preset" data-testid=format!("preset-{addr}")
                    on:click=move |_| dma(addr.to_string())>
                    <span class="mono">{*addr}</span>
                    <span class="preset-note">{*note}</span>
                </button>
            }
        })
        .collect_view();

    let map_iova = RwSignal::new("0x3000".to_string());
    let map_pa = RwSignal::new("0x6000".to_string());
    let map_read = RwSignal::new(true);
    let map_write = RwSignal::new(true);
    let passthrough = Signal::derive(move || lab.with(|m| !m.translating));

    view! {
        <Choice legend="The device makes a" name="access" options=ACCESS selected on_change=set_access />
        <div class="button-group presets" role="group" aria-label="DMA to a preset address">
            <span class="group-label">"DMA to"</span>
            {presets}
        </div>
        <form class="addr-form" on:submit=move |ev| { ev.prevent_default(); dma(typed.get_untracked()); }>
            <label for="dma-addr">"Any address (hex)"</label>
            <div class="addr-row">
                <input id="dma-addr" type="text" class="mono" inputmode="text" autocomplete="off" spellcheck="false"
                    maxlength="40" prop:value=move || typed.get()
                    aria-invalid=move || if typed_problem.get().is_some() { "true" } else { "false" }
                    aria-describedby="dma-addr-help"
                    on:input=move |ev| typed.set(event_target_value(&ev)) data-testid="dma-addr" />
                <button type="submit" class="btn primary-outline" data-testid="dma-go">"DMA"</button>
            </div>
            <p id="dma-addr-help" class="hint" class:addr-error=move || typed_problem.get().is_some()
                data-testid="addr-help" aria-live="polite">
                {move || typed_problem.get().unwrap_or_else(|| "0x-prefixed or bare hex; underscores allowed.".to_string())}
            </p>
        </form>
        <form class="map-form" on:submit=move |ev| {
            ev.prevent_default();
            lab.act(IommuAction::Map {
                iova: map_iova.get_untracked(),
                pa: map_pa.get_untracked(),
                read: map_read.get_untracked(),
                write: map_write.get_untracked(),
            });
        }>
            <fieldset>
                <legend>"VFIO_IOMMU_MAP_DMA"</legend>
                <div class="map-grid">
                    <label for="map-iova">"IOVA page"</label>
                    <input id="map-iova" type="text" class="mono" autocomplete="off" spellcheck="false" maxlength="40"
                        prop:value=move || map_iova.get() on:input=move |ev| map_iova.set(event_target_value(&ev))
                        data-testid="map-iova" />
                    <label for="map-pa">"PA page"</label>
                    <input id="map-pa" type="text" class="mono" autocomplete="off" spellcheck="false" maxlength="40"
                        prop:value=move || map_pa.get() on:input=move |ev| map_pa.set(event_target_value(&ev))
                        data-testid="map-pa" />
                </div>
                <div class="map-flags">
                    <label><input type="checkbox" prop:checked=move || map_read.get()
                        on:change=move |ev| map_read.set(event_target_checked(&ev)) data-testid="map-read" />" READ"</label>
                    <label><input type="checkbox" prop:checked=move || map_write.get()
                        on:change=move |ev| map_write.set(event_target_checked(&ev)) data-testid="map-write" />" WRITE"</label>
                    <button type="submit" class="btn" data-testid="map-go">"Map page"</button>
                </div>
                <p class="hint">"Spare memory the device owner may map: 0x5000-0x7fff."</p>
            </fieldset>
        </form>
        <p class="hint">"Step makes ordinary traffic: RX writes, TX reads."</p>
        <Toggle label="Break it: IOMMU off (passthrough)" checked=passthrough danger=true testid="passthrough"
            on_change=Callback::new(move |on: bool| lab.act(IommuAction::SetTranslation(!on))) />
    }
    .into_any()
}
