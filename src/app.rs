//! The root component: router, routes and the page frame.

use crate::platform::base_path;
use crate::shell::{demo_route::DemoRoute, home::Home, not_found::NotFound};
use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;

#[component]
pub fn App() -> impl IntoView {
    let base = base_path();
    view! {
        <div id="app-root">
            <Router base=base>
                <Routes fallback=NotFound>
                    <Route path=path!("/") view=Home />
                    <Route path=path!("/:section/:demo") view=DemoRoute />
                </Routes>
            </Router>
        </div>
    }
}
