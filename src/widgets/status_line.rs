//! The status line: the demo's key figures, as text.

use demos::Figure;
use leptos::prelude::*;

#[component]
pub fn StatusLine(figures: Signal<Vec<Figure>>) -> impl IntoView {
    view! {
        <dl class="status-line" data-testid="status">
            {move || {
                figures
                    .get()
                    .into_iter()
                    .map(|f| {
                        view! {
                            <div class="figure" data-testid=format!("fig-{}", f.key)>
                                <dt>{f.label}</dt>
                                <dd>{f.value}</dd>
                            </div>
                        }
                    })
                    .collect_view()
            }}
        </dl>
    }
}
