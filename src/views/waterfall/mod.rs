//! The latency waterfall shared by the stage-pipeline demos: one row per
//! stage, removed stages faded and labelled, the walked packet's clock, the
//! baseline-vs-now bar, and a cost editor for the selected stage. Every number
//! comes from the model's [`Waterfall`]; this view only lays it out.

mod compare;
mod cost_editor;
mod rows;

use demos::nic::stages::{StageAction, Waterfall};
use leptos::prelude::*;

pub use compare::CompareBar;
pub use cost_editor::CostEditor;
pub use rows::Rows;

/// Waterfall, comparison bar and cost editor, wired to one stage selection.
#[component]
pub fn PathView(
    #[prop(into)] data: Signal<Waterfall>,
    /// Sends a stage action to the demo's model.
    act: Callback<StageAction>,
    /// Whether the latest narration points at a part (a stage key).
    in_focus: Callback<&'static str, bool>,
    /// What the path is, for labels: "send path", "receive path".
    what: &'static str,
) -> impl IntoView {
    let selected = RwSignal::new(0_usize);
    view! {
        <div class="path-view">
            <Rows data selected in_focus what />
            <CompareBar data what />
            <CostEditor data selected act />
        </div>
    }
}
