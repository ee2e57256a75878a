//! A choice between a few options, as a radio group.

use leptos::prelude::*;

#[component]
pub fn Choice(
    legend: &'static str,
    name: &'static str,
    options: &'static [(&'static str, &'static str)],
    #[prop(into)] selected: Signal<&'static str>,
    on_change: Callback<&'static str>,
) -> impl IntoView {
    view! {
        <fieldset class="choice">
            <legend>{legend}</legend>
            {options
                .iter()
                .map(|(value, label)| {
                    let value = *value;
                    view! {
                        <label>
                            <input type="radio" name=name value=value
                                prop:checked=move || selected.get() == value
                                on:change=move |_| on_change.run(value)
                                data-testid=format!("{name}-{value}") />
                            <span>{*label}</span>
                        </label>
                    }
                })
                .collect_view()}
        </fieldset>
    }
}
