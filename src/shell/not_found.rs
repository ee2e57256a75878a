use crate::platform::{base_path, set_title};
use crate::shell::frame::Frame;
use leptos::prelude::*;

#[component]
pub fn NotFound() -> impl IntoView {
    set_title("Not found · Stack Lab");
    let home = format!("{}/", base_path());
    view! {
        <Frame>
            <section class="not-found" data-testid="not-found">
                <h1>"No such page"</h1>
                <p>"This address matches no demo. "<a href=home>"Back to the catalogue"</a></p>
            </section>
        </Frame>
    }
}
