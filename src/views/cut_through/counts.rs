//! The chunks' states now, as a table of counts: the same facts as the
//! strips, in words.

use super::lanes::state_class;
use crate::shell::demo_host::Lab;
use demos::nic::cut_through::{ChunkState, CutThrough};
use leptos::prelude::*;

pub fn table(lab: Lab<CutThrough>) -> impl IntoView {
    let rows = move || {
        lab.with(|m| {
            let now = m.now_units();
            [
                ("Store-and-forward", "sf", m.store_and_forward()),
                ("Cut-through", "ct", m.cut_through()),
            ]
            .into_iter()
            .map(|(name, key, plan)| {
                let cells = ChunkState::ALL
                    .iter()
                    .map(|&s| {
                        view! {
                            <td class="mono" data-testid=format!("{key}-count-{}", state_class(s))>
                                {plan.count(s, now)}
                            </td>
                        }
                    })
                    .collect_view();
                view! { <tr><th scope="row">{name}</th>{cells}</tr> }
            })
            .collect_view()
        })
    };
    let heads = ChunkState::ALL
        .iter()
        .map(|s| view! { <th scope="col">{s.label()}</th> })
        .collect_view();
    view! {
        <div class="table-scroll ct-counts" tabindex="0" role="region" aria-label="Chunk counts">
            <table data-testid="ct-counts">
                <caption>"Chunks in each state now"</caption>
                <thead><tr><th scope="col">"timeline"</th>{heads}</tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}
