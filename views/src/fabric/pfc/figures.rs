//! The fabric as a drawing (nodes, both directions of every cable, an
//! ingress bar where bytes enter a switch), two charts over the run, and
//! the table of flows.

use crate::draw::chart::{whole_ticks, Plot};
use crate::layout::{Layout, NARROW_WIDTH};
use crate::scene::{Cell, Figure, Shape, Size, Table};
use demos::fabric::pfc::config::{HORIZON, XOFF_BYTES, XON_BYTES};
use demos::fabric::pfc::dcqcn::KMIN_BYTES;
use demos::fabric::pfc::model::{kb, micros};
use demos::fabric::pfc::topology::{path, Node, FLOWS, HOSTS};
use demos::fabric::pfc::Pfc;
use demos::text::decimal;

/// Where a node's box is centred.
fn place(n: Node, width: f32) -> (f32, f32) {
    let host_x = |h: u8| width * (f32::from(h) + 0.5) / f32::from(HOSTS);
    match n {
        Node::Host(h) => (host_x(h), 320.0),
        Node::Leaf(l) => (host_x(l * 3 + 1), 190.0),
        Node::Spine(s) => (width * (0.3 + 0.4 * f32::from(s)), 50.0),
    }
}

pub fn fabric(m: &Pfc, layout: Layout) -> Figure {
    let width = layout.pick(720.0, NARROW_WIDTH);
    let (bw, bh) = layout.pick((56.0, 30.0), (44.0, 28.0));
    let f = &m.fabric;
    let t = f.tick;
    let limit = m.config.limit_bytes() as f32;
    let mut fig = Figure::new(
        "fabric-figure",
        format!(
            "The fabric at {} µs: {} of 20 link directions paused",
            micros(t),
            f.paused_count()
        ),
        width,
        360.0,
    )
    .legend("fault", "paused by PFC (the sender may not send)")
    .legend("accent", "sending")
    .legend("idle", "idle")
    .legend("warn", "ingress counter at or above XOFF");
    let mut lines = Vec::new();
    let mut bars = Vec::new();
    for (i, p) in f.ports.iter().enumerate() {
        let (a, b) = (place(p.link.from, width), place(p.link.to, width));
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        // Two directions of one cable, side by side.
        let side = if p.link.from < p.link.to { 4.0 } else { -4.0 };
        let (ox, oy) = (-dy / len * side, dx / len * side);
        let paused = p.paused(t);
        let looped = f.deadlock.contains(&i);
        let (class, state) = if looped {
            ("fault", "deadlock")
        } else if paused {
            ("fault", "paused")
        } else if p.last_window > 0 {
            ("accent", "sending")
        } else {
            ("idle", "idle")
        };
        lines.push(
            Shape::line(p.link.key(), (a.0 + ox, a.1 + oy), (b.0 + ox, b.1 + oy))
                .class(class)
                .state(state)
                .label(format!(
                    "{}: {state}, {} Gb/s over the last 10 µs, {} PFC frame{} sent back",
                    p.link.name(),
                    decimal(p.last_window as f64 * 8.0 / 10_000.0, 1),
                    p.frames_sent,
                    if p.frames_sent == 1 { "" } else { "s" }
                )),
        );
        if !p.link.to.is_switch() {
            continue;
        }
        // The ingress bar sits near the receiving switch.
        let (cx, cy) = (a.0 + dx * 0.72 + ox * 3.0, a.1 + dy * 0.72 + oy * 3.0);
        let h = 34.0;
        let fill = (p.ingress as f32 / limit).min(1.0) * h;
        let xoff_y = cy + h / 2.0 - XOFF_BYTES as f32 / limit * h;
        let (fclass, fstate) = if p.ingress >= m.config.limit_bytes() {
            ("fault", "full")
        } else if p.xoff {
            ("warn", "xoff")
        } else if p.ingress > 0 {
            ("done", "filling")
        } else {
            ("idle", "empty")
        };
        let k = p.link.key();
        bars.push(Shape::group(
            format!("in-{k}"),
            vec![
                Shape::rect(format!("frame-{k}"), cx - 5.0, cy - h / 2.0, 10.0, h).class("idle"),
                Shape::rect(
                    format!("fill-{k}"),
                    cx - 5.0,
                    cy + h / 2.0 - fill,
                    10.0,
                    fill.max(0.5),
                )
                .class(fclass)
                .state(fstate)
                .label(format!(
                    "{}'s counter for bytes from {}: {} KB (XON {}, XOFF {}, limit {} KB)",
                    p.link.to.name(),
                    p.link.from.name(),
                    kb(p.ingress),
                    kb(XON_BYTES),
                    kb(XOFF_BYTES),
                    kb(m.config.limit_bytes())
                )),
                Shape::line(format!("xoff-{k}"), (cx - 8.0, xoff_y), (cx + 8.0, xoff_y))
                    .class("warn"),
            ],
        ));
    }
    fig.push(Shape::group("links", lines).focus("fabric"));
    fig.push(Shape::group("ingress", bars).focus("headroom"));
    let mut nodes = Vec::new();
    let all: Vec<Node> = (0..HOSTS)
        .map(Node::Host)
        .chain((0..2).map(Node::Leaf))
        .chain((0..2).map(Node::Spine))
        .collect();
    let paused_hosts = f.paused_hosts();
    for n in all {
        let (x, y) = place(n, width);
        let key = n.name().to_lowercase();
        let (class, state) = match n {
            Node::Host(h) if paused_hosts.contains(&h) => ("fault", "paused"),
            Node::Host(_) => ("nic", "host"),
            _ => ("panel", "switch"),
        };
        nodes.push(
            Shape::rect(format!("node-{key}"), x - bw / 2.0, y - bh / 2.0, bw, bh)
                .class(class)
                .state(state)
                .rounded(4.0)
                .label(format!("{} ({state})", n.name())),
        );
        nodes.push(Shape::text(format!("name-{key}"), x, y + 5.0, n.name()).size(Size::Small));
    }
    fig.push(Shape::group("nodes", nodes));
    let status = if let Some(since) = f.deadlock_since {
        format!("Deadlock since {} µs: a cycle of pauses.", micros(since))
    } else {
        format!(
            "Bars: bytes in, mark at XOFF, headroom {} KB.",
            m.config.headroom_kb
        )
    };
    fig.push(
        Shape::text("fabric-note", 8.0, 352.0, status)
            .size(Size::Small)
            .start()
            .focus("deadlock"),
    );
    fig
}

fn time_axis(layout: Layout) -> Vec<(f64, String)> {
    let us = HORIZON / 10;
    (0..=us)
        .step_by(layout.pick(250, 500) as usize)
        .map(|u| (f64::from(u), u.to_string()))
        .collect()
}

pub fn queue_chart(m: &Pfc, layout: Layout) -> Figure {
    let width = layout.pick(720.0, NARROW_WIDTH);
    let height = 240.0;
    let limit_kb = m.config.limit_bytes() as f64 / 1_000.0;
    let top = m
        .fabric
        .history
        .iter()
        .map(|s| s.hot_queue as f64 / 1_000.0)
        .fold(XOFF_BYTES as f64 * 2.0 / 1_000.0, f64::max)
        .min(limit_kb * 3.0)
        .ceil();
    let plot = Plot::new(
        (layout.pick(56.0, 48.0), 24.0, width - 14.0, height - 46.0),
        (0.0, f64::from(HORIZON / 10), false),
        (0.0, top, false),
    );
    let mut fig = Figure::new(
        "queue-chart",
        format!(
            "KB queued at L1 for H3 over the run, to {} µs; XOFF is {} KB a port, Kmin {} KB",
            micros(m.fabric.tick),
            kb(XOFF_BYTES),
            kb(KMIN_BYTES)
        ),
        width,
        height,
    )
    .legend("warn", "queue for H3");
    fig.push(plot.axes(&time_axis(layout), &whole_ticks(top, 4), "µs", "KB"));
    let points: Vec<(f64, f64)> = m
        .fabric
        .history
        .iter()
        .map(|s| (f64::from(s.tick) / 10.0, s.hot_queue as f64 / 1_000.0))
        .collect();
    fig.push(plot.steps("hot-line", &points, "warn").focus("flows"));
    fig
}

pub fn victim_chart(m: &Pfc, layout: Layout) -> Figure {
    let width = layout.pick(720.0, NARROW_WIDTH);
    let height = 220.0;
    let plot = Plot::new(
        (layout.pick(56.0, 48.0), 24.0, width - 14.0, height - 46.0),
        (0.0, f64::from(HORIZON / 10), false),
        (0.0, 100.0, false),
    );
    let mut fig = Figure::new(
        "victim-chart",
        format!(
            "V's rate in Gb/s (H2 to the idle H5) over the run, to {} µs",
            micros(m.fabric.tick)
        ),
        width,
        height,
    )
    .legend("done", "V's rate, each 10 µs");
    fig.push(plot.axes(&time_axis(layout), &whole_ticks(100.0, 4), "µs", "Gb/s"));
    let points: Vec<(f64, f64)> = m
        .fabric
        .history
        .iter()
        .map(|s| (f64::from(s.tick) / 10.0, s.victim_gbps))
        .collect();
    fig.push(plot.steps("victim-line", &points, "done").focus("flows"));
    fig
}

pub fn flows(m: &Pfc) -> Table {
    let mut t = Table::new(
        "flows",
        "The flows: rate over the last 10 µs, DCQCN's state at the sender, bytes delivered and dropped",
        &["Flow", "Path", "Rate Gb/s", "RC / RT", "α", "Stage", "Delivered MB", "Dropped"],
    );
    for (i, (spec, fl)) in FLOWS.iter().zip(&m.fabric.flows).enumerate() {
        let route: Vec<String> = path(spec, m.config.loop_route, 6)
            .iter()
            .map(|n| n.name())
            .collect();
        let arrives = route.last() == Some(&format!("H{}", spec.dst));
        let route = route.join("→") + if arrives { "" } else { "→…" };
        let (rc, alpha, stage) = if m.config.dcqcn {
            (
                format!("{} / {}", decimal(fl.rp.rc, 1), decimal(fl.rp.rt, 1)),
                decimal(fl.rp.alpha, 3),
                fl.rp.stage.name().to_string(),
            )
        } else {
            ("off".to_string(), "–".to_string(), "no ECN".to_string())
        };
        let row = t.row(
            format!("flow-{i}"),
            vec![
                Cell::text(format!("{} ({})", spec.name, spec.role)).key("name"),
                Cell::mono(route).key("path"),
                Cell::mono(decimal(fl.gbps(), 1)).key("rate"),
                Cell::mono(rc).key("rc"),
                Cell::mono(alpha).key("alpha"),
                Cell::text(stage).key("stage"),
                Cell::mono(decimal(fl.delivered as f64 / 1e6, 2)).key("delivered"),
                Cell::mono(fl.dropped().to_string()).key("dropped"),
            ],
        );
        row.focus("flows");
        if fl.dropped() > 0 {
            row.class("fault");
        } else if i == demos::fabric::pfc::topology::VICTIM {
            row.class("warn");
        }
    }
    t
}
