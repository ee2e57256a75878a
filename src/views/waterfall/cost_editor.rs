//! Change one stage's cost and watch the total: a stage picker and a slider.

use demos::nic::stages::{StageAction, Waterfall, COST_MAX};
use demos::text::ns;
use leptos::prelude::*;

#[component]
pub fn CostEditor(
    data: Signal<Waterfall>,
    selected: RwSignal<usize>,
    act: Callback<StageAction>,
) -> impl IntoView {
    let row = move || data.with(|w| w.rows.get(selected.get()).cloned());
    let cost = move || row().map_or(0, |r| r.cost_ns);
    let options = move || {
        data.with(|w| {
            w.rows
                .iter()
                .map(|r| {
                    let index = r.index;
                    view! { <option value=index.to_string() prop:selected=move || selected.get() == index>{r.name}</option> }
                })
                .collect_view()
        })
    };
    let note = move || {
        row().map_or(String::new(), |r| {
            let mut text = format!("default {}", ns(r.base_ns));
            if let Some(reason) = r.off_reason {
                text.push_str(&format!(" · {reason}, so it does not count now"));
            }
            text
        })
    };
    view! {
        <section class="cost-editor" aria-label="Stage cost">
            <label class="cost-pick">
                <span class="slider-label">"Stage"</span>
                <select data-testid="stage-pick" on:change=move |ev| {
                    if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                        selected.set(i);
                    }
                }>{options}</select>
            </label>
            <label class="slider">
                <span class="slider-label">"Its cost"</span>
                <input type="range" min="0" max=COST_MAX step="10"
                    prop:value=move || cost().to_string()
                    on:change=move |ev| {
                        if let Ok(v) = event_target_value(&ev).parse::<u32>() {
                            act.run(StageAction::SetCost { stage: selected.get_untracked(), ns: v.min(COST_MAX) });
                        }
                    }
                    data-testid="stage-cost" />
                <output class="slider-value" data-testid="stage-cost-value">{move || ns(cost())}</output>
            </label>
            <p class="hint">{note}</p>
            <button type="button" class="btn" data-testid="restore-costs"
                on:click=move |_| act.run(StageAction::RestoreCosts)>
                "Restore default costs"
            </button>
        </section>
    }
}
