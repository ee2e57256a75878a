//! A bare Leptos counter: the yardstick `make bench` compares the lab's
//! navigation → interactive time against (same lockfile, same profile).

use leptos::prelude::*;

#[component]
fn Counter() -> impl IntoView {
    let (count, set_count) = signal(0);
    view! {
        <main>
            <h1>"Counter"</h1>
            <button data-testid="step" on:click=move |_| set_count.update(|n| *n += 1)>"+1"</button>
            <p data-testid="step-count">{move || format!("step {}", count.get())}</p>
        </main>
    }
}

fn main() {
    leptos::mount::mount_to_body(Counter);
}
