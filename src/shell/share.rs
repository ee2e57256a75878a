//! "Copy link": a URL that reopens this demo in this state.

use crate::platform::copy_to_clipboard;
use leptos::prelude::*;
use leptos::task::spawn_local;

#[component]
pub fn SharePanel(#[prop(into)] url: Signal<String>) -> impl IntoView {
    let shown = RwSignal::new(None::<String>);
    let message = RwSignal::new(String::new());
    let copy = move |_| {
        let link = url.get_untracked();
        shown.set(Some(link.clone()));
        spawn_local(async move {
            message.set(match copy_to_clipboard(&link).await {
                Ok(()) => "Link copied. It reopens this demo exactly as it is now.".into(),
                Err(()) => "The browser blocked the clipboard: copy the link from the box.".into(),
            });
        });
    };
    view! {
        <div class="share">
            <button type="button" class="btn" on:click=copy data-testid="copy-link">
                "Copy link"
            </button>
            <span class="share-message" role="status" data-testid="share-message">
                {move || message.get()}
            </span>
            {move || {
                shown
                    .get()
                    .map(|link| {
                        view! {
                            <label class="share-url">
                                <span class="visually-hidden">"Link to this state"</span>
                                <input type="text" readonly prop:value=link data-testid="share-url" />
                            </label>
                        }
                    })
            }}
        </div>
    }
}
