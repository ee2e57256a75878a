//! The page table as a table (with Unmap per entry) and the kernel's fault log.

use crate::shell::demo_host::Lab;
use demos::nic::iommu::{hex, region_at, Iommu, IommuAction};
use leptos::prelude::*;

pub fn page_table(lab: Lab<Iommu>) -> impl IntoView {
    let rows = move || {
        lab.with(|m| {
            m.mappings
                .iter()
                .map(|e| {
                    let iova = e.iova;
                    let region = region_at(e.pa).map_or("", |(_, r)| r.name);
                    view! {
                        <tr data-testid=format!("pte-{iova:#x}")
                            class:focus=move || lab.in_focus(&format!("pte-{iova:x}"))>
                            <th scope="row" class="mono">{hex(iova)}</th>
                            <td class="mono">{format!("→ {}", hex(e.pa))}</td>
                            <td>{region}</td>
                            <td class="mono">{e.perms()}</td>
                            <td>
                                <button type="button" class="btn small" data-testid=format!("unmap-{iova:#x}")
                                    aria-label=format!("Unmap IOVA {}", hex(iova))
                                    on:click=move |_| lab.act(IommuAction::Unmap { iova })>
                                    "Unmap"
                                </button>
                            </td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <section class="panel page-table" class:focus=move || lab.in_focus("page-table")
            aria-label="IOMMU page table" data-testid="page-table">
            <h3>"Page table of device 03:00.0"</h3>
            <div class="table-scroll">
                <table>
                    <thead>
                        <tr>
                            <th scope="col">"IOVA page"</th><th scope="col">"PA page"</th>
                            <th scope="col">"holds"</th><th scope="col">"perm"</th>
                            <th scope="col"><span class="visually-hidden">"action"</span></th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            <p class="hint">"Any other IOVA: no entry, so the DMA faults."</p>
        </section>
    }
}

pub fn fault_log(lab: Lab<Iommu>) -> impl IntoView {
    let lines = move || {
        lab.with(|m| {
            if m.faults.is_empty() {
                return view! { <li class="muted">"no faults"</li> }.into_any();
            }
            m.faults
                .iter()
                .rev()
                .map(|r| view! { <li class="mono">{r.dmar_line().unwrap_or_default()}</li> })
                .collect_view()
                .into_any()
        })
    };
    let harm = move || {
        lab.with(|m| {
            m.harmed()
                .map(|(r, t)| {
                    let what = if t.written > 0 {
                        format!("{} overwritten ({} B): {}.", r.name, t.written, r.harm)
                    } else {
                        format!("{} read by the device ({} B): its contents leaked.", r.name, t.read)
                    };
                    view! { <li class="fault-item"><span class="tone-word">"Damage: "</span>{what}</li> }
                })
                .collect_view()
        })
    };
    view! {
        <section class="panel fault-log" class:focus=move || lab.in_focus("fault-log")
            aria-label="Kernel log" data-testid="fault-log">
            <h3>"Kernel log (dmesg)"</h3>
            <ol class="dmesg">{lines}</ol>
            <ul class="damage" data-testid="damage">{harm}</ul>
        </section>
    }
}
