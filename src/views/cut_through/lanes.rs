//! The two timelines on one time axis: PCIe lane, wire lane, chunk strip.

use crate::shell::demo_host::Lab;
use crate::views::timeline_svg::{
    axis_view, cursor, heading, lane_view, marker, Axis, Bar, LEFT, RIGHT, WIDTH,
};
use demos::nic::cut_through::{ChunkState, CutThrough, Plan};
use leptos::prelude::*;

const LANE: f64 = 28.0;
const GROUP: f64 = 162.0;
const TOP: f64 = 40.0;
const HEIGHT: f64 = TOP + 2.0 * GROUP + 4.0;

pub fn state_class(state: ChunkState) -> &'static str {
    match state {
        ChunkState::NotArrived => "ct-not-arrived",
        ChunkState::Arrived => "ct-arrived",
        ChunkState::OnWire => "ct-on-wire",
        ChunkState::Sent => "ct-sent",
        ChunkState::CutOff => "ct-cut-off",
    }
}

fn glyph(state: ChunkState) -> &'static str {
    match state {
        ChunkState::NotArrived => "·",
        ChunkState::Arrived => "+",
        ChunkState::OnWire => "▶",
        ChunkState::Sent => "✓",
        ChunkState::CutOff => "✗",
    }
}

fn pcie_bars(m: &CutThrough, plan: &Plan) -> Vec<Bar> {
    (0..plan.chunks)
        .map(|k| Bar {
            start: m.ns(plan.arrival(k) - plan.pcie_unit),
            end: m.ns(plan.arrival(k)),
            class: "ct-pcie",
            label: k.to_string(),
            track: 0,
        })
        .collect()
}

fn wire_bars(m: &CutThrough, plan: &Plan) -> Vec<Bar> {
    let mut bars: Vec<Bar> = (0..plan.sent_whole())
        .map(|k| Bar {
            start: m.ns(plan.wire_start(k)),
            end: m.ns(plan.wire_start(k) + plan.wire_unit),
            class: "ct-wire",
            label: k.to_string(),
            track: 0,
        })
        .collect();
    if plan.underrun.is_some() {
        // The poisoned end: a bad FCS where the next chunk should have been.
        let at = m.ns(plan.end);
        bars.push(Bar {
            start: at,
            end: at + m.ns(plan.wire_unit).max(m.ns(plan.pcie_unit) / 4.0),
            class: "ct-poison",
            label: "bad FCS".into(),
            track: 0,
        });
    }
    bars
}

fn group(
    lab: Lab<CutThrough>,
    m: &CutThrough,
    axis: Axis,
    y: f64,
    plan: Plan,
    name: String,
    key: &'static str,
) -> AnyView {
    let now_units = m.now_units();
    let now = m.ns(now_units);
    let n = plan.chunks;
    let cell = ((RIGHT - LEFT) / n as f64).min(36.0);
    let strip_y = y + 2.0 * (LANE + 6.0) + 16.0;
    let cells = (0..n)
        .map(|k| {
            let state = plan.state(k, now_units);
            let x = LEFT + k as f64 * cell;
            view! {
                <g class=format!("ct-cell {}", state_class(state)) data-state=state.label()
                    data-testid=format!("{key}-chunk-{k}")>
                    <rect x=x + 1.0 y=strip_y width=cell - 2.0 height="24" rx="3">
                        <title>{format!("chunk {k}: {}", state.label())}</title>
                    </rect>
                    <text x=x + cell / 2.0 y=strip_y + 17.0>{glyph(state)}</text>
                </g>
            }
        })
        .collect_view();
    let last_label = match plan.underrun {
        Some(_) => format!("poisoned at {:.1} ns", m.ns(plan.end)),
        None => format!("last bit {:.1} ns", m.ns(plan.end)),
    };
    view! {
        <g data-testid=format!("{key}-timeline")>
            {heading(y - 8.0, name)}
            {lane_view(axis, y, LANE, "PCIe → NIC", pcie_bars(m, &plan), now, lab.in_focus("pcie"))}
            {lane_view(axis, y + LANE + 6.0, LANE, "NIC → wire", wire_bars(m, &plan), now, lab.in_focus(key))}
            <text x=LEFT - 8.0 y=strip_y + 17.0 class="tl-lane-name">"chunks now"</text>
            {cells}
            {marker(axis, m.ns(plan.start), y - 4.0, y + 2.0 * LANE + 6.0, y - 8.0,
                format!("first bit {:.1} ns", m.ns(plan.start)), "first")}
            {marker(axis, m.ns(plan.end), y + LANE + 6.0, strip_y + 28.0, strip_y + 40.0,
                last_label, if plan.underrun.is_some() { "poison" } else { "last" })}
        </g>
    }
    .into_any()
}

pub fn timelines(lab: Lab<CutThrough>) -> impl IntoView {
    let content = move || {
        lab.with(|m| {
            let (sf, ct) = (m.store_and_forward(), m.cut_through());
            let end = m.ns(sf.end.max(ct.end).max(m.chunks as u64 * m.tick_units()));
            let axis = Axis::new(end);
            let now = m.ns(m.now_units());
            view! {
                {axis_view(axis, 18.0, HEIGHT - 8.0, "ns")}
                {group(lab, m, axis, TOP + 24.0, sf, "Store-and-forward".into(), "sf")}
                {group(lab, m, axis, TOP + 24.0 + GROUP, ct,
                    "Cut-through".into(), "ct")}
                {cursor(axis, now, 22.0, HEIGHT - 8.0)}
            }
        })
    };
    let title = move || {
        lab.with(|m| {
            let (sf, ct) = (m.store_and_forward(), m.cut_through());
            format!(
                "Tick {}: store-and-forward first bit {:.1} ns, last {:.1} ns; cut-through first bit {:.1} ns, {} {:.1} ns",
                m.tick,
                m.ns(sf.start),
                m.ns(sf.end),
                m.ns(ct.start),
                if ct.underrun.is_some() { "poisoned at" } else { "last" },
                m.ns(ct.end)
            )
        })
    };
    view! {
        <div class="tl-scroll" tabindex="0" role="region" aria-label="Cut-through timelines">
        <svg viewBox=format!("0 0 {WIDTH} {HEIGHT}") role="img" aria-labelledby="ct-title"
            class="tl-svg ct-svg" data-testid="ct-timelines">
            <title id="ct-title">{title}</title>
            {content}
        </svg>
        </div>
    }
}
