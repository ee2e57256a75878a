//! CPU per packet against packet rate, both on log scales: the interrupt
//! cost is flat, the polling core's cost falls as one core-second is shared by
//! more packets, and the lines cross where interrupts would fill a core.

use crate::shell::demo_host::Lab;
use demos::nic::busy_poll::{rate_text, BusyPoll, RATE_MAX, RATE_MIN};
use demos::text::ns;
use leptos::prelude::*;

const LEFT: f64 = 78.0;
const RIGHT: f64 = 500.0;
const TOP: f64 = 24.0;
const BOTTOM: f64 = 214.0;
/// The y axis spans 10 ns to 1 ms.
const NS_LOG_MIN: f64 = 1.0;
const NS_LOG_MAX: f64 = 6.0;
const X_TICKS: &[(u32, &str)] = &[
    (1_000, "1k"),
    (10_000, "10k"),
    (100_000, "100k"),
    (1_000_000, "1M"),
    (10_000_000, "10M"),
];
const Y_TICKS: &[(u64, &str)] = &[
    (10, "10 ns"),
    (100, "100 ns"),
    (1_000, "1 µs"),
    (10_000, "10 µs"),
    (100_000, "100 µs"),
    (1_000_000, "1 ms"),
];

fn x(rate: f64) -> f64 {
    let (lo, hi) = (f64::from(RATE_MIN).log10(), f64::from(RATE_MAX).log10());
    LEFT + (RIGHT - LEFT) * (rate.max(1.0).log10() - lo) / (hi - lo)
}

fn y(ns: f64) -> f64 {
    let v = ns.max(1.0).log10().clamp(NS_LOG_MIN, NS_LOG_MAX);
    BOTTOM - (BOTTOM - TOP) * (v - NS_LOG_MIN) / (NS_LOG_MAX - NS_LOG_MIN)
}

pub fn crossover_chart(lab: Lab<BusyPoll>) -> impl IntoView {
    let at_min = move || lab.with(|m| m.cpu_at(RATE_MIN));
    let at_max = move || lab.with(|m| m.cpu_at(RATE_MAX));
    let now = move || lab.with(|m| (m.rate_pps, m.cpu()));
    let irq_y = move || y(at_min().irq_ns as f64);
    let busy_line = move || {
        format!(
            "M{:.1} {:.1} L{:.1} {:.1}",
            x(f64::from(RATE_MIN)),
            y(at_min().busy_ns as f64),
            x(f64::from(RATE_MAX)),
            y(at_max().busy_ns as f64)
        )
    };
    let crossover = move || {
        let c = now().1;
        c.crossover_pps
            .filter(|&r| (u64::from(RATE_MIN)..=u64::from(RATE_MAX)).contains(&r))
            .map(|r| {
                let cx = x(r as f64);
                let cy = y(c.irq_ns as f64);
                let anchor = if cx > 380.0 { "end" } else { "start" };
                let tx = if cx > 380.0 { cx - 8.0 } else { cx + 8.0 };
                view! {
                    <g class="crossover" data-testid="chart-crossover">
                        <circle cx=cx cy=cy r="7" />
                        <text x=tx y=cy + 26.0 text-anchor=anchor>{format!("crossover {}", rate_text(r))}</text>
                    </g>
                }
            })
    };
    let marker = move || {
        let (rate, c) = now();
        let mx = x(f64::from(rate));
        let anchor = if mx > 380.0 { "end" } else { "start" };
        let tx = if mx > 380.0 { mx - 6.0 } else { mx + 6.0 };
        view! {
            <g class="rate-marker">
                <line x1=mx y1=TOP x2=mx y2=BOTTOM />
                <text x=tx y=BOTTOM - 8.0 text-anchor=anchor>{format!("now: {}", rate_text(rate.into()))}</text>
                <circle cx=mx cy=y(c.irq_ns as f64) r="5" class="dot irq" />
                <circle cx=mx cy=y(c.busy_ns as f64) r="5" class="dot busy" />
            </g>
        }
    };
    let title = move || {
        let (rate, c) = now();
        format!(
            "CPU per packet against packet rate. At {}: interrupts {}, busy polling {}.",
            rate_text(rate.into()),
            ns(c.irq_ns as i64),
            ns(c.busy_ns as i64)
        )
    };
    view! {
        <figure class="panel chart">
            <svg viewBox="0 0 520 262" role="img" aria-labelledby="chart-title" class="chart-svg" data-testid="chart">
                <title id="chart-title">{title}</title>
                <g class="axes">
                    {X_TICKS.iter().map(|&(r, label)| {
                        let tx = x(f64::from(r));
                        view! {
                            <line x1=tx y1=TOP x2=tx y2=BOTTOM class="grid" />
                            <text x=tx y=BOTTOM + 20.0 class="tick" text-anchor="middle">{label}</text>
                        }
                    }).collect_view()}
                    {Y_TICKS.iter().map(|&(v, label)| {
                        let ty = y(v as f64);
                        view! {
                            <line x1=LEFT y1=ty x2=RIGHT y2=ty class="grid" />
                            <text x=LEFT - 6.0 y=ty + 5.0 class="tick" text-anchor="end">{label}</text>
                        }
                    }).collect_view()}
                    <text x=(LEFT + RIGHT) / 2.0 y="256" class="axis-label" text-anchor="middle">"packets per second (log)"</text>
                </g>
                <line x1=LEFT y1=irq_y x2=RIGHT y2=irq_y class="series irq" />
                <text x=LEFT + 6.0 y=move || irq_y() - 8.0 class="series-label irq">"interrupts: the stages' CPU work"</text>
                <path d=busy_line class="series busy" />
                <text x="262" y="62" class="series-label busy">"busy polling: a core ÷ rate"</text>
                {crossover}
                {marker}
            </svg>
            <figcaption class="hint">"CPU per packet (log scale). Left of the crossover the spinning core costs more; right of it, interrupts would need more than a whole core."</figcaption>
        </figure>
    }
}
