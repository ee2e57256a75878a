//! The two controls that program a PCIe link — generation and width — for
//! every Host I/O demo that runs on one (`/host/pcie`, `/host/streaming`).

use crate::control::Control;
use crate::live::{Ui, View};
use demos::host::pcie::link::{Generation, LANES};
use demos::text::decimal;

/// The generation and width dropdowns, each option sending its action.
pub fn link_controls<M: View>(
    ui: &mut Ui<M>,
    generation: u32,
    lanes: u32,
    set_generation: fn(u32) -> M::Action,
    set_lanes: fn(u32) -> M::Action,
) -> [Control; 2] {
    let generations = Generation::ALL
        .iter()
        .map(|g| {
            let n = g.number();
            (
                format!("gen{n}"),
                format!("Gen{n} ({} GT/s)", decimal(g.gigatransfers(), 1)),
                ui.act(set_generation(n)),
            )
        })
        .collect();
    let widths = LANES
        .iter()
        .map(|&l| (format!("x{l}"), format!("×{l}"), ui.act(set_lanes(l))))
        .collect();
    let width_at = LANES.iter().position(|&l| l == lanes).unwrap_or(0);
    [
        Control::choice(
            "generation",
            "Generation",
            generation.saturating_sub(1) as usize,
            generations,
        )
        .dropdown(),
        Control::choice("lanes", "Width", width_at, widths).dropdown(),
    ]
}
