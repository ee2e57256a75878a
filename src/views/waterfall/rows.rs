//! One row per stage: name, a bar on the shared time axis, cost and share,
//! and where the walked packet is. Off-path stages keep their row, faded,
//! with the reason written out.

use demos::nic::stages::{RowWalk, Waterfall};
use demos::text::{ns, tenths};
use leptos::prelude::*;

fn percent(part: u32, whole: u32) -> String {
    format!("{:.2}%", 100.0 * f64::from(part) / f64::from(whole.max(1)))
}

fn walk_word(walk: RowWalk) -> (&'static str, &'static str) {
    match walk {
        RowWalk::Passed => ("passed", "✓ passed"),
        RowWalk::Here => ("here", "● packet here"),
        RowWalk::Ahead => ("ahead", ""),
        RowWalk::OffPath => ("off", "off the path"),
    }
}

#[component]
pub fn Rows(
    data: Signal<Waterfall>,
    selected: RwSignal<usize>,
    in_focus: Callback<&'static str, bool>,
    what: &'static str,
) -> impl IntoView {
    let clock = move || {
        data.with(|w| {
            let here = w.rows.iter().find(|r| r.walk == RowWalk::Here);
            match here {
                None => {
                    format!("Packet clock t = 0 ns: the packet waits at the start of the {what}.")
                }
                Some(_) if w.walk_done => {
                    format!(
                        "Packet clock t = {}: the packet has left the last stage.",
                        ns(w.clock_ns)
                    )
                }
                Some(r) => format!(
                    "Packet clock t = {}: the packet has just finished “{}”.",
                    ns(w.clock_ns),
                    r.name
                ),
            }
        })
    };
    let clock_left = move || data.with(|w| percent(w.clock_ns, w.scale_ns));
    let clock_shown = move || data.with(|w| w.rows.iter().any(|r| r.walk == RowWalk::Here));
    let rows = move || {
        data.with(|w| {
            w.rows
                .iter()
                .map(|r| {
                    let index = r.index;
                    let key = r.key;
                    let (state, word) = walk_word(r.walk);
                    let left = percent(r.start_ns, w.scale_ns);
                    let width = percent(r.cost_ns, w.scale_ns);
                    let figures = if r.active {
                        format!("{} · {}", ns(r.cost_ns), tenths(r.share_tenths.into()))
                    } else if r.extra {
                        format!("{} if used", ns(r.cost_ns))
                    } else {
                        format!("{} saved", ns(r.cost_ns))
                    };
                    let kind = if r.cpu { "CPU" } else { "NIC" };
                    let off = r.off_reason.clone();
                    view! {
                        <li class=format!("wf-row {state}") class:cpu=r.cpu class:nic=!r.cpu
                            class:selected=move || selected.get() == index
                            class:focus=move || in_focus.run(key)
                            data-state=state data-testid=format!("row-{key}")>
                            <button type="button" class="wf-name" aria-pressed=move || (selected.get() == index).to_string()
                                title="Select this stage to change its cost"
                                on:click=move |_| selected.set(index)>
                                <span class="wf-kind">{kind}</span>
                                <span class="wf-label">{r.name}</span>
                            </button>
                            <span class="wf-track" aria-hidden="true">
                                {match off.clone() {
                                    None => view! { <span class="wf-bar" style:left=left style:width=width></span> }.into_any(),
                                    Some(_) => view! { <span class="wf-ghost" style:left=left style:width=width></span> }.into_any(),
                                }}
                                <Show when=clock_shown>
                                    <span class="wf-clock-line" style:left=clock_left></span>
                                </Show>
                            </span>
                            <span class="wf-figs">
                                <span class="mono" data-testid=format!("cost-{key}")>{figures}</span>
                                {match off {
                                    Some(reason) => view! { <span class="wf-off" data-testid=format!("off-{key}")>{reason}</span> }.into_any(),
                                    None => view! { <span class="wf-walk">{word}</span> }.into_any(),
                                }}
                            </span>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    let total = move || data.with(|w| ns(w.total_ns));
    view! {
        <section class="waterfall" aria-label=format!("Stages of the {what}")>
            <p class="wf-clock" data-testid="clock" aria-live="off">{clock}</p>
            <ol class="wf-rows" data-testid="waterfall">{rows}</ol>
            <p class="wf-total">
                <span>{format!("Total {what}")}</span>
                <strong class="mono" data-testid="total">{total}</strong>
            </p>
            <p class="legend">
                <span class="key cpu">"CPU work"</span>
                <span class="key nic">"NIC / PCIe work"</span>
                <span class="key passed">"passed by the packet"</span>
                <span class="key off">"off the path (reason given)"</span>
            </p>
        </section>
    }
}
