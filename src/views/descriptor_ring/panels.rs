//! The driver and NIC panels, host memory as a table, and the traffic strip.

use crate::shell::demo_host::Lab;
use demos::nic::descriptor_ring::{
    hex, DescriptorRing, Direction, Field, NicPhase, SlotState, RING_SIZE,
};
use leptos::prelude::*;

fn field_name(field: Field) -> &'static str {
    match field {
        Field::Addr => "addr",
        Field::Len => "len",
        Field::Flags => "flags",
    }
}

pub fn driver_panel(lab: Lab<DescriptorRing>) -> impl IntoView {
    let stores = move || {
        lab.with(|m| {
            if m.store_buffer.is_empty() {
                return view! { <li class="muted">"empty: every store is visible"</li> }.into_any();
            }
            m.store_buffer
                .iter()
                .map(|s| {
                    let value = match s.field {
                        Field::Addr => hex(s.value),
                        Field::Len => format!("{} B", s.value),
                        Field::Flags => "OWN=1 DD=0".to_string(),
                    };
                    view! { <li class="mono">{format!("#{}.{} ← {value}", s.slot, field_name(s.field))}</li> }
                })
                .collect_view()
                .into_any()
        })
    };
    view! {
        <section class="panel driver-panel" class:focus=move || lab.in_focus("store-buffer")
            aria-label="Driver" data-testid="driver-panel">
            <h3>"Driver · CPU"</h3>
            <dl class="regs">
                <dt>"TAIL"</dt><dd class="mono">{move || lab.with(|m| m.tail)}</dd>
                <dt>"next to reap"</dt><dd class="mono">{move || lab.with(|m| m.next_to_clean)}</dd>
            </dl>
            <h4>"Store buffer"</h4>
            <ul class="stores" data-testid="store-buffer">{stores}</ul>
        </section>
    }
}

pub fn nic_panel(lab: Lab<DescriptorRing>) -> impl IntoView {
    let dma = move || {
        lab.with(|m| match m.nic {
            NicPhase::Idle => "idle".to_string(),
            NicPhase::Fetched { slot, seen } => {
                format!(
                    "holds descriptor #{slot}: {} / {} B",
                    hex(seen.addr),
                    seen.len
                )
            }
            NicPhase::Moved { slot, bytes, .. } => {
                format!("moved {bytes} B for #{slot}; write-back next")
            }
        })
    };
    let fifo = move || {
        lab.with(|m| {
            (m.config.direction == Direction::Rx).then(|| {
                let frames = if m.rx_fifo.is_empty() {
                    view! { <li class="muted">"empty"</li> }.into_any()
                } else {
                    m.rx_fifo
                        .iter()
                        .map(|f| view! { <li class="chip mono">{format!("#{} · {} B", f.id, f.len)}</li> })
                        .collect_view()
                        .into_any()
                };
                view! {
                    <h4>"On-chip FIFO"</h4>
                    <ul class="chips" data-testid="fifo">{frames}</ul>
                }
            })
        })
    };
    view! {
        <section class="panel nic-panel" class:focus=move || lab.in_focus("nic") || lab.in_focus("doorbell")
            aria-label="NIC" data-testid="nic-panel">
            <h3>"NIC"</h3>
            <dl class="regs">
                <dt>"HEAD"</dt><dd class="mono">{move || lab.with(|m| m.head)}</dd>
                <dt>"TAIL register"</dt><dd class="mono" data-testid="nic-tail">{move || lab.with(|m| m.doorbell)}</dd>
            </dl>
            <h4>"DMA engine"</h4>
            <p class="mono dma" data-testid="dma">{dma}</p>
            {fifo}
        </section>
    }
}

pub fn memory_table(lab: Lab<DescriptorRing>) -> impl IntoView {
    let rows = move || {
        lab.with(|m| {
            (0..RING_SIZE)
                .map(|i| {
                    let d = m.memory[i];
                    let slot = &m.slots[i];
                    let state = match slot.state {
                        SlotState::Owned if !m.is_published(i) => "OWN (not published)".to_string(),
                        s => s.label().to_string(),
                    };
                    let buffer = match slot.frame {
                        Some(f) => format!("#{} · {} B", f.id, f.len),
                        None if slot.state == SlotState::Free => "—".into(),
                        None => "empty".into(),
                    };
                    let flag = |on: bool| if on { "1" } else { "0" };
                    view! {
                        <tr class=format!("state-{}", slot.state.label().to_lowercase())>
                            <th scope="row">{format!("#{i}")}</th>
                            <td>{state}</td>
                            <td class="mono">{hex(d.addr)}</td>
                            <td class="mono">{d.len}</td>
                            <td class="mono">{flag(d.own)}</td>
                            <td class="mono">{flag(d.dd)}</td>
                            <td class="mono">{buffer}</td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <details class="memory" open>
            <summary>"Host memory: the descriptors as the NIC would read them"</summary>
            <div class="table-scroll">
                <table data-testid="memory-table">
                    <thead>
                        <tr>
                            <th scope="col">"slot"</th><th scope="col">"state"</th>
                            <th scope="col">"addr"</th><th scope="col">"len"</th>
                            <th scope="col">"OWN"</th><th scope="col">"DD"</th>
                            <th scope="col">"buffer"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </details>
    }
}

pub fn traffic(lab: Lab<DescriptorRing>) -> impl IntoView {
    let heading = move || {
        lab.with(|m| match m.config.direction {
            Direction::Rx => "Handed to the stack",
            Direction::Tx => "Sent on the wire",
        })
    };
    let frames = move || {
        lab.with(|m| {
            if m.delivered.is_empty() {
                return view! { <li class="muted">"none yet"</li> }.into_any();
            }
            m.delivered
                .iter()
                .rev()
                .take(8)
                .map(|f| view! { <li class="chip done mono">{format!("#{} · {} B", f.id, f.len)}</li> })
                .collect_view()
                .into_any()
        })
    };
    let damage = move || {
        lab.with(|m| {
            m.damage
                .iter()
                .map(|d| view! { <li class="fault-item"><span class="tone-word">"Fault: "</span>{d.summary.clone()}</li> })
                .collect_view()
        })
    };
    view! {
        <section class="traffic" class:focus=move || lab.in_focus("wire") aria-label="Traffic">
            <h3>{heading}</h3>
            <ul class="chips" data-testid="delivered">{frames}</ul>
            <ul class="damage" data-testid="damage">{damage}</ul>
        </section>
    }
}
