//! A time axis with labelled lanes of bars, shared by the timeline demos
//! (MMIO write vs read, cut-through). Pure drawing: every time comes from a
//! model; this file only maps times to x and clips bars at the clock.

use leptos::prelude::*;

/// Width of the SVG's coordinate space.
pub const WIDTH: f64 = 760.0;
/// Where the plot starts (lane names sit to its left) and ends.
pub const LEFT: f64 = 150.0;
pub const RIGHT: f64 = 730.0;

/// Maps times in `0..=end` onto the plot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Axis {
    pub end: f64,
}

impl Axis {
    pub fn new(end: f64) -> Self {
        Axis {
            end: if end > 0.0 { end } else { 1.0 },
        }
    }

    pub fn x(self, t: f64) -> f64 {
        LEFT + (RIGHT - LEFT) * (t / self.end).clamp(0.0, 1.0)
    }

    /// Round tick spacing: 1, 2 or 5 × 10ⁿ, giving at most `max_ticks` ticks.
    pub fn tick_step(self, max_ticks: f64) -> f64 {
        let raw = self.end / max_ticks;
        let power = 10f64.powf(raw.log10().floor());
        [1.0, 2.0, 5.0, 10.0]
            .into_iter()
            .map(|m| m * power)
            .find(|step| *step >= raw)
            .unwrap_or(10.0 * power)
    }
}

/// One bar on a lane. `track` stacks overlapping bars inside the lane.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub start: f64,
    pub end: f64,
    pub class: &'static str,
    pub label: String,
    pub track: usize,
}

/// The time axis along the top of the plot, from `y` down to `bottom`.
pub fn axis_view(axis: Axis, y: f64, bottom: f64, unit: &'static str) -> AnyView {
    let step = axis.tick_step(7.0);
    let count = (axis.end / step).floor() as usize;
    let ticks = (0..=count)
        .map(|i| {
            let t = i as f64 * step;
            let x = axis.x(t);
            view! {
                <line x1=x y1=y + 4.0 x2=x y2=bottom class="tl-grid" />
                <text x=x y=y class="tl-tick">{format!("{} {unit}", (t * 100.0).round() / 100.0)}</text>
            }
        })
        .collect_view();
    view! { <g class="tl-axis" aria-hidden="true">{ticks}</g> }.into_any()
}

/// A lane: its name on the left, a track, and its bars clipped at `now`.
pub fn lane_view(
    axis: Axis,
    y: f64,
    height: f64,
    name: &'static str,
    bars: Vec<Bar>,
    now: f64,
    focus: bool,
) -> AnyView {
    let tracks = bars.iter().map(|b| b.track + 1).max().unwrap_or(1) as f64;
    let bar_h = (height - 4.0) / tracks;
    let drawn = bars
        .into_iter()
        .filter(|b| b.start < now)
        .map(|b| {
            let x = axis.x(b.start);
            let w = (axis.x(b.end.min(now)) - x).max(1.0);
            let top = y + 2.0 + b.track as f64 * bar_h;
            let fits = w > b.label.chars().count() as f64 * 7.5 + 6.0 && bar_h >= 14.0;
            let label = fits.then(|| {
                view! { <text x=x + w / 2.0 y=top + bar_h / 2.0 + 4.5 class="tl-bar-label">{b.label.clone()}</text> }
            });
            view! {
                <g class=format!("tl-bar {}", b.class)>
                    <rect x=x y=top width=w height=bar_h - 1.0 rx="2"><title>{b.label.clone()}</title></rect>
                    {label}
                </g>
            }
        })
        .collect_view();
    view! {
        <g class="tl-lane" class:focus=focus>
            <text x=LEFT - 8.0 y=y + height / 2.0 + 5.0 class="tl-lane-name">{name}</text>
            <rect x=LEFT y=y width=RIGHT - LEFT height=height class="tl-track" />
            {drawn}
        </g>
    }
    .into_any()
}

/// A section heading in the name column.
pub fn heading(y: f64, text: String) -> AnyView {
    view! { <text x="8" y=y class="tl-heading">{text}</text> }.into_any()
}

/// A labelled vertical line at time `t`; the label sits at `label_y`.
pub fn marker(
    axis: Axis,
    t: f64,
    y0: f64,
    y1: f64,
    label_y: f64,
    label: String,
    class: &'static str,
) -> AnyView {
    let x = axis.x(t);
    let anchor_end = x > RIGHT - 160.0;
    let tx = if anchor_end { x - 4.0 } else { x + 4.0 };
    view! {
        <g class=format!("tl-marker {class}")>
            <line x1=x y1=y0 x2=x y2=y1 />
            <text x=tx y=label_y class:end=anchor_end>{label}</text>
        </g>
    }
    .into_any()
}

/// The clock: a line at `now` across the plot.
pub fn cursor(axis: Axis, now: f64, y0: f64, y1: f64) -> AnyView {
    let x = axis.x(now);
    view! { <line x1=x y1=y0 x2=x y2=y1 class="tl-cursor" /> }.into_any()
}

/// Tracks for bars that may overlap: each bar takes the lowest free track,
/// up to `max` tracks (beyond that they share).
pub fn assign_tracks(spans: &[(f64, f64)], max: usize) -> Vec<usize> {
    let mut ends: Vec<f64> = Vec::new();
    spans
        .iter()
        .map(|&(start, end)| {
            let free = ends.iter().position(|&e| e <= start);
            let track = match free {
                Some(i) => i,
                None if ends.len() < max => {
                    ends.push(f64::MIN);
                    ends.len() - 1
                }
                None => {
                    // All tracks busy: reuse the one that frees first.
                    let mut best = 0;
                    for (i, e) in ends.iter().enumerate() {
                        if *e < ends[best] {
                            best = i;
                        }
                    }
                    best
                }
            };
            ends[track] = end;
            track
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_steps_are_round() {
        assert_eq!(Axis::new(3300.0).tick_step(7.0), 500.0);
        assert_eq!(Axis::new(100.0).tick_step(7.0), 20.0);
        assert_eq!(Axis::new(7.0).tick_step(7.0), 1.0);
    }

    #[test]
    fn overlapping_spans_take_separate_tracks() {
        let spans = [(0.0, 10.0), (5.0, 15.0), (10.0, 20.0), (16.0, 30.0)];
        assert_eq!(assign_tracks(&spans, 4), vec![0, 1, 0, 1]);
        assert_eq!(
            assign_tracks(&[(0.0, 9.0), (1.0, 9.0), (2.0, 9.0)], 2),
            vec![0, 1, 0]
        );
    }

    #[test]
    fn times_map_inside_the_plot() {
        let axis = Axis::new(200.0);
        assert_eq!(axis.x(0.0), LEFT);
        assert_eq!(axis.x(200.0), RIGHT);
        assert_eq!(axis.x(500.0), RIGHT);
    }
}
