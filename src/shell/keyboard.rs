//! Demo keyboard shortcuts: Space play/pause, → step, ← back, R reset, ? help.
//! Keys typed into a form control, or with a modifier, are left alone; Space
//! on a focused button presses that button, as it should.

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

pub const SHORTCUTS: &[(&str, &str)] = &[
    ("Space", "play / pause"),
    ("→", "step"),
    ("←", "step back"),
    ("R", "reset"),
    ("?", "show or hide this list"),
    ("Esc", "close this list"),
];

#[derive(Clone, Copy)]
pub struct Keys {
    pub toggle_play: Callback<()>,
    pub step: Callback<()>,
    pub back: Callback<()>,
    pub reset: Callback<()>,
    pub help: RwSignal<bool>,
}

/// Listens on the window while the calling component is mounted.
pub fn install(keys: Keys) {
    let handle = window_event_listener(ev::keydown, move |e: web_sys::KeyboardEvent| {
        if e.ctrl_key() || e.meta_key() || e.alt_key() || e.default_prevented() {
            return;
        }
        let tag = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok())
            .map(|el| (el.tag_name(), el.is_content_editable()));
        let (tag, editable) = tag.unwrap_or_default();
        if editable || matches!(tag.as_str(), "INPUT" | "TEXTAREA" | "SELECT") {
            return;
        }
        let pressable = matches!(tag.as_str(), "BUTTON" | "A" | "SUMMARY");
        let handled = match e.key().as_str() {
            " " if !pressable => {
                keys.toggle_play.run(());
                true
            }
            "ArrowRight" => {
                keys.step.run(());
                true
            }
            "ArrowLeft" => {
                keys.back.run(());
                true
            }
            "r" | "R" => {
                keys.reset.run(());
                true
            }
            "?" => {
                keys.help.update(|open| *open = !*open);
                true
            }
            "Escape" if keys.help.get_untracked() => {
                keys.help.set(false);
                true
            }
            _ => false,
        };
        if handled {
            e.prevent_default();
        }
    });
    on_cleanup(move || handle.remove());
}

#[component]
pub fn ShortcutsHelp(open: RwSignal<bool>) -> impl IntoView {
    view! {
        <Show when=move || open.get()>
            <div class="shortcuts" role="dialog" aria-label="Keyboard shortcuts" data-testid="shortcuts">
                <h2>"Keyboard shortcuts"</h2>
                <dl>
                    {SHORTCUTS
                        .iter()
                        .map(|(key, what)| view! { <dt><kbd>{*key}</kbd></dt><dd>{*what}</dd> })
                        .collect_view()}
                </dl>
                <button type="button" class="btn" on:click=move |_| open.set(false)>"Close"</button>
            </div>
        </Show>
    }
}
