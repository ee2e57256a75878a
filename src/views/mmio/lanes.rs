//! The timeline SVG: each core's own lane and its link lane, with the clock.

use crate::shell::demo_host::Lab;
use crate::views::timeline_svg::{
    assign_tracks, axis_view, cursor, heading, lane_view, marker, Axis, Bar, LEFT, WIDTH,
};
use demos::nic::mmio::{Mmio, OpKind, Segment, SegmentKind};
use demos::text::plural;
use leptos::prelude::*;

const LANE: f64 = 32.0;

fn class(kind: SegmentKind) -> &'static str {
    match kind {
        SegmentKind::Issue => "mmio-issue",
        SegmentKind::Stall => "mmio-stall",
        SegmentKind::Free => "mmio-free",
        SegmentKind::ToDevice => "mmio-flight",
        SegmentKind::Completion => "mmio-cpl",
        SegmentKind::Work => "mmio-work",
    }
}

fn bars(segments: Vec<Segment>, stack: bool) -> Vec<Bar> {
    let spans: Vec<(f64, f64)> = segments
        .iter()
        .map(|s| (s.start as f64, s.end as f64))
        .collect();
    let tracks = if stack {
        assign_tracks(&spans, 4)
    } else {
        vec![0; spans.len()]
    };
    segments
        .into_iter()
        .zip(tracks)
        .map(|(s, track)| Bar {
            start: s.start as f64,
            end: s.end as f64,
            class: class(s.kind),
            label: s.label,
            track,
        })
        .collect()
}

fn svg_height(hot: bool) -> f64 {
    if hot {
        372.0
    } else {
        262.0
    }
}

pub fn timeline(lab: Lab<Mmio>) -> impl IntoView {
    let content = move || {
        lab.with(|m| {
            let axis = Axis::new(m.horizon() as f64);
            let now = m.now as f64;
            let bottom = svg_height(m.hot_read) - 24.0;
            let ns = |t: u64| t as f64;
            let hot = m.hot_read.then(|| {
                let (plain, read) = m.loop_packets(m.now);
                view! {
                    {heading(270.0, "Per-packet loop".to_string())}
                    <text x="8" y="286" class="tl-sub">"break it"</text>
                    {lane_view(axis, 278.0, LANE, "work only", bars(m.loop_segments(false), false), now, lab.in_focus("hot-loop"))}
                    {lane_view(axis, 314.0, LANE, "work + readl()", bars(m.loop_segments(true), false), now, lab.in_focus("hot-loop"))}
                    <text x=LEFT y="362" class="tl-note" data-testid="loop-count">
                        {format!("by {} ns: {plain} packet{} without the read, {read} with it", m.now, plural(plain as usize))}
                    </text>
                }
            });
            view! {
                {axis_view(axis, 18.0, bottom, "ns")}
                {heading(44.0, "Posted writes".to_string())}
                {lane_view(axis, 52.0, LANE, "core", bars(m.core_segments(OpKind::Write), false), now, lab.in_focus("writes-core"))}
                {lane_view(axis, 88.0, LANE, "PCIe → device", bars(m.link_segments(OpKind::Write), true), now, lab.in_focus("writes-link"))}
                {marker(axis, ns(m.writes_core_free()), 40.0, 86.0, 44.0,
                    format!("core free {} ns", m.writes_core_free()), "free")}
                {marker(axis, ns(m.last_write_lands()), 86.0, 132.0, 134.0,
                    format!("last write lands {} ns", m.last_write_lands()), "lands")}
                {heading(162.0, "Non-posted reads".to_string())}
                {lane_view(axis, 170.0, LANE, "core", bars(m.core_segments(OpKind::Read), false), now, lab.in_focus("reads-core"))}
                {lane_view(axis, 206.0, LANE, "PCIe ⇄ device", bars(m.link_segments(OpKind::Read), false), now, lab.in_focus("reads-link"))}
                {marker(axis, ns(m.reads_core_free()), 158.0, 238.0, 162.0,
                    format!("core free {} ns", m.reads_core_free()), "free")}
                {hot}
                {cursor(axis, now, 22.0, bottom)}
            }
        })
    };
    let title = move || {
        lab.with(|m| {
            format!(
                "At {} ns: writes core {}, {} of {} writes landed; reads core {}, {} of {} reads retired",
                m.now,
                m.core_state(OpKind::Write, m.now).label(OpKind::Write),
                m.landed(OpKind::Write, m.now),
                m.count,
                m.core_state(OpKind::Read, m.now).label(OpKind::Read),
                m.retired_reads(m.now),
                m.count
            )
        })
    };
    view! {
        <div class="tl-scroll" tabindex="0" role="region" aria-label="MMIO timeline">
        <svg viewBox=move || lab.with(|m| format!("0 0 {WIDTH} {}", svg_height(m.hot_read)))
            role="img" aria-labelledby="mmio-title" class="tl-svg mmio-svg" data-testid="mmio-timeline">
            <title id="mmio-title">{title}</title>
            {content}
        </svg>
        </div>
        <p class="core-states" data-testid="core-states">
            <span class="chip">{move || lab.with(|m| format!("writes core: {}", m.core_state(OpKind::Write, m.now).label(OpKind::Write)))}</span>
            <span class="chip">{move || lab.with(|m| format!("reads core: {}", m.core_state(OpKind::Read, m.now).label(OpKind::Read)))}</span>
        </p>
    }
}
