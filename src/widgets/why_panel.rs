//! "Why it matters": sentences the model writes from its current numbers.

use leptos::prelude::*;

#[component]
pub fn WhyPanel(sentences: Signal<Vec<String>>) -> impl IntoView {
    view! {
        <section class="why" data-testid="why">
            <h2>"Why it matters"</h2>
            <ul>
                {move || sentences.get().into_iter().map(|s| view! { <li>{s}</li> }).collect_view()}
            </ul>
        </section>
    }
}
