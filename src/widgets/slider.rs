//! A labelled range slider that shows its value.

use leptos::prelude::*;

#[component]
pub fn Slider(
    label: &'static str,
    min: usize,
    max: usize,
    #[prop(into)] value: Signal<usize>,
    on_change: Callback<usize>,
    testid: &'static str,
    #[prop(optional)] unit: &'static str,
) -> impl IntoView {
    view! {
        <label class="slider">
            <span class="slider-label">{label}</span>
            <input type="range" min=min max=max prop:value=move || value.get().to_string()
                on:change=move |ev| {
                    if let Ok(v) = event_target_value(&ev).parse::<usize>() {
                        on_change.run(v.clamp(min, max));
                    }
                }
                data-testid=testid />
            <output class="slider-value">{move || format!("{} {unit}", value.get())}</output>
        </label>
    }
}
