//! Baseline vs now: two stacked bars on one axis, and the saving.

use demos::nic::stages::Waterfall;
use demos::text::{ns, share_tenths, tenths};
use leptos::prelude::*;

const X0: f64 = 124.0;
const WIDTH: f64 = 286.0;

#[component]
pub fn CompareBar(data: Signal<Waterfall>, what: &'static str) -> impl IntoView {
    let x = move |t: u32, scale: u32| X0 + WIDTH * f64::from(t) / f64::from(scale.max(1));
    let segments = move || {
        data.with(|w| {
            w.rows
                .iter()
                .filter(|r| r.active && r.cost_ns > 0)
                .map(|r| {
                    let x0 = x(r.start_ns, w.scale_ns);
                    let x1 = x(r.start_ns + r.cost_ns, w.scale_ns);
                    view! {
                        <rect x=x0 y="62" width=(x1 - x0).max(0.0) height="30"
                            class=if r.cpu { "seg cpu" } else { "seg nic" } />
                    }
                })
                .collect_view()
        })
    };
    let base_end = move || data.with(|w| x(w.baseline_ns, w.scale_ns));
    let now_end = move || data.with(|w| x(w.total_ns, w.scale_ns));
    let saving = move || {
        data.with(|w| {
            let saved = i64::from(w.baseline_ns) - i64::from(w.total_ns);
            if saved >= 0 {
                format!(
                    "saves {} ({})",
                    ns(saved),
                    tenths(share_tenths(saved, w.baseline_ns.into()))
                )
            } else {
                format!(
                    "costs {} more ({})",
                    ns(-saved),
                    tenths(share_tenths(-saved, w.baseline_ns.into()))
                )
            }
        })
    };
    let title = move || {
        data.with(|w| {
            format!(
                "Baseline {} against {} now",
                ns(w.baseline_ns),
                ns(w.total_ns)
            )
        })
    };
    view! {
        <figure class="compare">
            <svg viewBox="0 0 520 128" preserveAspectRatio="xMinYMid meet" role="img" aria-labelledby="compare-title" class="compare-svg" data-testid="compare">
                <title id="compare-title">{title}</title>
                <text x="114" y="38" class="cmp-label">"baseline"</text>
                <rect x=X0 y="16" width=move || base_end() - X0 height="30" class="seg base" />
                <text x=move || base_end() + 8.0 y="38" class="cmp-value">{move || data.with(|w| ns(w.baseline_ns))}</text>
                <text x="114" y="84" class="cmp-label">"now"</text>
                {segments}
                <text x=move || now_end() + 8.0 y="84" class="cmp-value">{move || data.with(|w| ns(w.total_ns))}</text>
                <text x=X0 y="120" class="cmp-saving" data-testid="saving">{saving}</text>
            </svg>
            <figcaption class="visually-hidden">{format!("The {what} with no technique, and as it is now.")}</figcaption>
        </figure>
    }
}
