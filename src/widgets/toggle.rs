//! An on/off switch: a real checkbox, styled, with its state written out.

use leptos::prelude::*;

#[component]
pub fn Toggle(
    label: &'static str,
    #[prop(into)] checked: Signal<bool>,
    on_change: Callback<bool>,
    testid: &'static str,
    #[prop(optional)] danger: bool,
) -> impl IntoView {
    view! {
        <label class="toggle" class:danger=danger>
            <input type="checkbox" role="switch" prop:checked=move || checked.get()
                on:change=move |ev| on_change.run(event_target_checked(&ev)) data-testid=testid />
            <span class="toggle-label">{label}</span>
            <span class="toggle-state">{move || if checked.get() { "on" } else { "off" }}</span>
        </label>
    }
}
