//! Two address spaces side by side: the device's IOVA pages on the left,
//! host physical memory on the right, and the IOMMU's entries between them.
//! Both columns use the same scale, so passthrough (identity) is a straight
//! line across.

use crate::shell::demo_host::Lab;
use demos::nic::iommu::{hex, Iommu, Owner, Verdict, PAGE, PAGES, REGIONS};
use leptos::prelude::*;

const TOP: f64 = 64.0;
const ROW: f64 = 32.0;
const IOVA_X: f64 = 64.0;
const IOVA_W: f64 = 120.0;
const PA_X: f64 = 412.0;
const PA_W: f64 = 264.0;
const WIDTH: f64 = PA_X + PA_W + 6.0;
const HEIGHT: f64 = TOP + ROW * PAGES as f64 + 34.0;

fn row_y(addr: u64) -> f64 {
    TOP + (addr as f64 / PAGE as f64) * ROW
}

/// The middle of the row holding page `addr`.
fn row_mid(addr: u64) -> f64 {
    row_y(addr & !(PAGE - 1)) + ROW / 2.0
}

/// A curve from an IOVA page's right edge to a physical page's left edge.
fn link(iova: u64, pa: u64) -> String {
    let (y0, y1) = (row_mid(iova), row_mid(pa));
    let (x0, x1) = (IOVA_X + IOVA_W, PA_X);
    let mid = (x0 + x1) / 2.0;
    format!("M{x0} {y0:.1} C{mid} {y0:.1} {mid} {y1:.1} {x1} {y1:.1}")
}

pub fn spaces(lab: Lab<Iommu>) -> impl IntoView {
    let iova_cells = (0..PAGES)
        .map(|p| {
            let addr = p * PAGE;
            let y = row_y(addr);
            let entry = move || lab.with(|m| m.mapping(addr).copied());
            let hit = move || {
                lab.with(|m| {
                    m.last
                        .is_some_and(|r| r.iova < 0x1_0000 && r.iova & !(PAGE - 1) == addr)
                })
            };
            view! {
                <g class="iova-page" class:mapped=move || entry().is_some() class:hit=hit
                    data-testid=format!("iova-{addr:#x}")
                    data-state=move || if entry().is_some() { "mapped" } else { "no entry" }>
                    <rect x=IOVA_X y=y + 1.0 width=IOVA_W height=ROW - 2.0 rx="3" />
                    <text x=IOVA_X + 8.0 y=y + 21.0 class="addr">{hex(addr)}</text>
                    <text x=IOVA_X + IOVA_W - 8.0 y=y + 21.0 class="perm">
                        {move || entry().map_or("—".to_string(), |e| match (e.read, e.write) {
                            (true, true) => "R W".to_string(),
                            (true, false) => "R".to_string(),
                            _ => "W".to_string(),
                        })}
                    </text>
                </g>
            }
        })
        .collect_view();

    let regions = REGIONS
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let y = row_y(r.start);
            let h = (r.end - r.start) as f64 / PAGE as f64 * ROW;
            let touch = move || lab.with(|m| m.touched[i]);
            let harmed = move || r.owner != Owner::App && { let t = touch(); t.written > 0 || t.read > 0 };
            let state = move || {
                let t = touch();
                if r.owner == Owner::App {
                    if t.written + t.read == 0 { String::new() } else { format!("device I/O {} B", t.written + t.read) }
                } else if t.written > 0 {
                    format!("OVERWRITTEN {} B", t.written)
                } else if t.read > 0 {
                    format!("LEAKED {} B", t.read)
                } else {
                    String::new()
                }
            };
            let range = format!("{}–{:#06x} · {}", hex(r.start), r.end - 1, r.owner.label());
            // One-page regions carry their state beside the name; taller ones on their last row.
            let state_y = if h > ROW { y + h - 10.0 } else { y + 20.0 };
            let owner_class = match r.owner {
                Owner::App => "app",
                Owner::Kernel => "kernel",
                Owner::OtherProcess => "other",
            };
            view! {
                <g class=format!("region {owner_class}") class:harmed=harmed
                    class:focus=move || lab.in_focus(&format!("region-{}", r.key))
                    data-testid=format!("region-{}", r.key)
                    data-state=move || if harmed() { "harmed" } else { "intact" }>
                    <rect x=PA_X y=y + 1.0 width=PA_W height=h - 2.0 rx="4" />
                    <text x=PA_X + 8.0 y=y + 20.0 class="region-name">{r.name}</text>
                    <text x=PA_X + PA_W - 8.0 y=state_y class="region-state" class:quiet=move || state().is_empty()>
                        {move || { let s = state(); if s.is_empty() && h <= ROW { hex(r.start) } else { s } }}
                    </text>
                    {(h > ROW).then(|| view! {
                        <text x=PA_X + 8.0 y=y + 20.0 + ROW class="region-range">{range.clone()}</text>
                    })}
                </g>
            }
        })
        .collect_view();

    let links = move || {
        lab.with(|m| {
            m.mappings
                .iter()
                .map(|e| {
                    let hot = m.last.is_some_and(|r| {
                        matches!(r.verdict, Verdict::Allowed { .. })
                            && r.iova & !(PAGE - 1) == e.iova
                    });
                    view! {
                        <path d=link(e.iova, e.pa) class="pte-link" class:hot=hot
                            class:ignored=!m.translating />
                    }
                })
                .collect_view()
        })
    };

    // The latest DMA: an arrow into its IOVA row, and what became of it.
    let last = move || {
        lab.with(|m| {
            let r = m.last?;
            let in_window = r.iova < 0x1_0000;
            let y = if in_window { row_mid(r.iova) } else { TOP + ROW * PAGES as f64 + 16.0 };
            let (class, outcome, to) = match r.verdict {
                Verdict::Allowed { pa } => ("allowed", format!("ALLOWED → {}", hex(pa)), Some(pa)),
                Verdict::Blocked(reason) => ("blocked", format!("BLOCKED · fault {:#04x}", reason.code()), None),
                Verdict::Unchecked { pa } => ("unchecked", format!("UNCHECKED → {}", hex(pa)), Some(pa)),
                Verdict::NoMemory => ("blocked", "NO MEMORY THERE".to_string(), None),
            };
            let arrow = to.map(|pa| {
                let y1 = row_mid(pa);
                let path = if m.translating { link(r.iova, pa) } else {
                    format!("M{} {y:.1} L{PA_X} {y1:.1}", IOVA_X + IOVA_W)
                };
                view! {
                    <path d=path class="dma-path" marker-end="url(#iommu-arrow)" />
                    <circle cx=PA_X + 4.0 cy=y1 r="5" class="dma-dot" />
                }
            });
            Some(view! {
                <g class=format!("last-dma {class}") data-testid="last-dma" data-verdict=class>
                    <line x1="6" y1=y x2=IOVA_X - 4.0 y2=y class="dma-in" marker-end="url(#iommu-arrow)" />
                    <text x="2" y=y - 7.0 class="dma-label">{r.access.label()}</text>
                    {arrow}
                    <rect x="200" y="68" width="196" height="50" rx="12" class="verdict-pill" />
                    <text x="298" y="89" class="verdict-text">{format!("{} {}", r.access.label(), hex(r.iova))}</text>
                    <text x="298" y="109" class="verdict-text">{outcome}</text>
                </g>
            })
        })
    };

    let mode = move || {
        lab.with(|m| {
            if m.translating {
                "IOMMU · TRANSLATING"
            } else {
                "IOMMU · PASSTHROUGH"
            }
        })
    };

    view! {
        <figure class="iommu-figure">
            <div class="svg-scroll" tabindex="0" role="region" aria-label="Address spaces diagram, scrollable">
                <svg viewBox=format!("0 0 {WIDTH} {HEIGHT}") role="img" aria-labelledby="iommu-svg-title" class="iommu-svg">
                    <title id="iommu-svg-title">
                        {move || lab.with(|m| format!(
                            "Device IOVA space and host physical memory; {} mapping{}; IOMMU {}",
                            m.mappings.len(), if m.mappings.len() == 1 { "" } else { "s" },
                            if m.translating { "translating" } else { "in passthrough" }))}
                    </title>
                    <defs>
                        <marker id="iommu-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto">
                            <path d="M0 0 L10 5 L0 10 z" class="arrow-head" />
                        </marker>
                    </defs>
                    <text x=IOVA_X + IOVA_W / 2.0 y="28" class="col-title">"Device's IOVA space"</text>
                    <text x=IOVA_X + IOVA_W / 2.0 y="48" class="col-sub">"what the NIC addresses"</text>
                    <text x=PA_X + PA_W / 2.0 y="28" class="col-title">"Host physical memory"</text>
                    <text x=PA_X + PA_W / 2.0 y="48" class="col-sub">"what really gets touched"</text>
                    <g class="iommu-band" class:passthrough=move || lab.with(|m| !m.translating)
                        class:focus=move || lab.in_focus("iommu") data-testid="iommu-mode">
                        <rect x="196" y="60" width="204" height=ROW * PAGES as f64 + 8.0 rx="10" />
                        <text x="298" y=TOP + ROW * PAGES as f64 - 10.0 class="band-title">{mode}</text>
                    </g>
                    {iova_cells}
                    {regions}
                    <g class="links">{links}</g>
                    {last}
                    <text x=IOVA_X y=HEIGHT - 8.0 class="col-sub left">"≥ 0x10000: outside the window"</text>
                </svg>
            </div>
            <figcaption class="legend">
                <span class="key iommu-mapped">"mapped IOVA page"</span>
                <span class="key iommu-app">"device owner's memory"</span>
                <span class="key iommu-kernel">"kernel / other process"</span>
                <span class="key iommu-harmed">"harmed by stray DMA"</span>
            </figcaption>
        </figure>
    }
}
