//! The ring itself: eight sectors, coloured and labelled by owner, with the
//! HEAD, TAIL and doorbell pointers around the outside.

use crate::shell::demo_host::Lab;
use crate::views::geometry::{polar, sector};
use demos::nic::descriptor_ring::{DescriptorRing, Direction, SlotState, RING_SIZE};
use leptos::prelude::*;

const INNER: f64 = 100.0;
const OUTER: f64 = 172.0;
const SLICE: f64 = 360.0 / RING_SIZE as f64;

fn state_class(state: SlotState) -> &'static str {
    match state {
        SlotState::Free => "free",
        SlotState::Owned => "own",
        SlotState::Done => "dd",
    }
}

pub fn ring(lab: Lab<DescriptorRing>) -> impl IntoView {
    let sectors = (0..RING_SIZE)
        .map(|i| {
            let from = i as f64 * SLICE + 1.5;
            let to = (i + 1) as f64 * SLICE - 1.5;
            let mid = (from + to) / 2.0;
            let (tx, ty) = polar((INNER + OUTER) / 2.0, mid);
            let state = move || lab.with(|m| m.slots[i].state);
            let unpublished =
                move || lab.with(|m| m.slots[i].state == SlotState::Owned && !m.is_published(i));
            let pending = move || lab.with(|m| m.store_buffer.iter().any(|s| s.slot == i));
            view! {
                <g class=move || format!("desc {}", state_class(state()))
                    class:unpublished=unpublished
                    class:focus=move || lab.in_focus(&format!("desc-{i}"))
                    data-testid=format!("desc-{i}")
                    data-state=move || state().label()>
                    <path d=sector(INNER, OUTER, from, to) />
                    <text x=tx y=ty - 12.0 class="desc-index">{format!("#{i}")}</text>
                    <text x=tx y=ty + 10.0 class="desc-state">{move || state().label()}</text>
                    <text x=tx y=ty + 27.0 class="desc-note">
                        {move || if pending() { "stores pending" } else if unpublished() { "unpublished" } else { "" }}
                    </text>
                </g>
            }
        })
        .collect_view();

    let pointer = move |label: &'static str,
                        radius: f64,
                        offset: f64,
                        index: Signal<usize>,
                        class: &'static str| {
        view! {
            <g class=format!("pointer {class}") data-testid=format!("ptr-{class}")>
                {move || {
                    let mid = index.get() as f64 * SLICE + SLICE / 2.0 + offset;
                    let (x0, y0) = polar(OUTER + 4.0, mid);
                    let (x1, y1) = polar(radius - 8.0, mid);
                    let (lx, ly) = polar(radius, mid);
                    // Labels on the sides grow away from the ring, not across it.
                    let anchor = match polar(1.0, mid).0 {
                        x if x > 0.35 => "start",
                        x if x < -0.35 => "end",
                        _ => "middle",
                    };
                    view! {
                        <line x1=x0 y1=y0 x2=x1 y2=y1 />
                        <text x=lx y=ly + 6.0 text-anchor=anchor>{format!("{label} {}", index.get())}</text>
                    }
                }}
            </g>
        }
    };
    let head = Signal::derive(move || lab.with(|m| m.head));
    let tail = Signal::derive(move || lab.with(|m| m.tail));
    let doorbell = Signal::derive(move || lab.with(|m| m.doorbell));
    let mode = move || {
        lab.with(|m| match m.config.direction {
            Direction::Rx => "RX ring",
            Direction::Tx => "TX ring",
        })
    };

    view! {
        <figure class="ring-figure">
            <svg viewBox="-330 -250 660 500" role="img" aria-labelledby="ring-title" class="ring-svg">
                <title id="ring-title">
                    {move || lab.with(|m| format!(
                        "{} descriptors: {} FREE, {} OWN, {} DD; HEAD {}, TAIL {}, NIC's TAIL {}",
                        RING_SIZE, m.count(SlotState::Free), m.count(SlotState::Owned),
                        m.count(SlotState::Done), m.head, m.tail, m.doorbell))}
                </title>
                {sectors}
                <text x="0" y="-6" class="ring-centre">{mode}</text>
                <text x="0" y="20" class="ring-sub" data-testid="ring-fill">{move || lab.with(|m| m.fill_label())}</text>
                {pointer("HEAD", 192.0, -12.0, head, "head")}
                {pointer("TAIL", 192.0, 12.0, tail, "tail")}
                {pointer("NIC TAIL", 226.0, 0.0, doorbell, "doorbell")}
            </svg>
            <figcaption class="legend">
                <span class="key free">"FREE · driver's"</span>
                <span class="key own">"OWN · NIC's"</span>
                <span class="key dd">"DD · done, to reap"</span>
            </figcaption>
        </figure>
    }
}
