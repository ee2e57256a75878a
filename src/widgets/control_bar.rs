//! The common control bar: Step, Back, Play/Pause, speed, Reset.

use leptos::prelude::*;

/// Autoplay speeds, in steps per second.
const SPEEDS: &[(f64, &str)] = &[(0.5, "0.5×"), (1.0, "1×"), (2.0, "2×"), (4.0, "4×")];

#[component]
pub fn ControlBar(
    playing: RwSignal<bool>,
    speed: RwSignal<f64>,
    can_back: Signal<bool>,
    step_count: Signal<usize>,
    step: Callback<()>,
    back: Callback<()>,
    reset: Callback<()>,
    toggle_play: Callback<()>,
) -> impl IntoView {
    view! {
        <div class="control-bar" role="group" aria-label="Playback">
            <button type="button" class="btn" on:click=move |_| back.run(())
                disabled=move || !can_back.get() aria-keyshortcuts="ArrowLeft"
                title="Step back (←)" data-testid="back">
                "◀ Back"
            </button>
            <button type="button" class="btn primary" on:click=move |_| step.run(())
                aria-keyshortcuts="ArrowRight" title="Step (→)" data-testid="step">
                "Step ▶"
            </button>
            <button type="button" class="btn" on:click=move |_| toggle_play.run(())
                aria-pressed=move || playing.get().to_string() aria-keyshortcuts="Space"
                title="Play or pause (Space)" data-testid="play">
                {move || if playing.get() { "❚❚ Pause" } else { "▶▶ Play" }}
            </button>
            <label class="speed">
                <span>"Speed"</span>
                <select data-testid="speed" on:change=move |ev| {
                    if let Ok(v) = event_target_value(&ev).parse::<f64>() {
                        speed.set(v);
                    }
                }>
                    {SPEEDS
                        .iter()
                        .map(|(value, label)| {
                            view! { <option value=value.to_string() selected=*value == 1.0>{*label}</option> }
                        })
                        .collect_view()}
                </select>
            </label>
            <button type="button" class="btn" on:click=move |_| reset.run(())
                aria-keyshortcuts="R" title="Reset (R)" data-testid="reset">
                "↺ Reset"
            </button>
            <span class="step-count" data-testid="step-count">
                "step " {move || step_count.get()}
            </span>
        </div>
    }
}
