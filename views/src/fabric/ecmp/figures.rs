//! The leaf's uplinks with the QPs hashed onto each, and the two tables:
//! the closed forms beside this draw, and the three balancers compared.

use crate::layout::{Layout, NARROW_WIDTH};
use crate::scene::{Cell, Figure, Shape, Size, Table};
use demos::fabric::ecmp::send::Balancer;
use demos::fabric::ecmp::Ecmp;
use demos::text::decimal;

const TOP: f32 = 30.0;
const ROW_PITCH: f32 = 25.0;
const ROW_H: f32 = 20.0;

/// A QP's name on its chip: the connection's number, and a letter for the
/// QP when a connection has several.
fn chip_text(i: usize, qp: usize, qps: usize) -> String {
    if qps > 1 {
        format!("{i}{}", (b'a' + qp as u8) as char)
    } else {
        i.to_string()
    }
}

pub fn uplinks(m: &Ecmp, layout: Layout) -> Figure {
    let width = layout.pick(720.0, NARROW_WIDTH);
    let label_w = layout.pick(90.0, 62.0);
    let count_w = layout.pick(110.0, 64.0);
    let k = m.paths();
    let hashed = m.hashed();
    let load = m.load();
    let most = load.iter().copied().max().unwrap_or(0).max(1);
    let fair = m.mean().ceil() as usize;
    let track_w = width - label_w - count_w;
    let chip_w = (track_w / most as f32).min(34.0);
    let carried = m.sent.then(|| m.step().carried);
    let height = TOP + k as f32 * ROW_PITCH + 6.0;
    let mut f = Figure::new(
        "uplinks",
        format!(
            "Leaf A's {k} uplinks and the QPs hashed onto each ({} of {} connections placed)",
            m.placed,
            m.flows()
        ),
        width,
        height,
    )
    .legend("idle", "idle uplink")
    .legend("done", "at or under its even share")
    .legend("warn", "over its even share: a collision");
    f.push(
        Shape::text(
            "uplinks-title",
            4.0,
            18.0,
            if m.qps() > 1 {
                "uplink · QPs on it (connection and QP letter)"
            } else {
                "uplink · connections on it"
            },
        )
        .start()
        .size(Size::Small),
    );
    for j in 0..k {
        let y = TOP + j as f32 * ROW_PITCH;
        let (class, state) = match load[j] {
            0 => ("idle", "idle"),
            l if l <= fair => ("done", "even"),
            _ => ("warn", "crowded"),
        };
        let mut parts = vec![
            Shape::text("name", 4.0, y + 15.0, format!("uplink {j}"))
                .start()
                .size(Size::Small),
            Shape::rect("track", label_w, y, track_w, ROW_H)
                .class("track")
                .rounded(3.0),
        ];
        let mut on = Vec::new();
        let mut slot = 0;
        for (i, qps) in hashed.iter().enumerate().take(m.placed) {
            for (qp, &p) in qps.iter().enumerate() {
                if p != j {
                    continue;
                }
                let x = label_w + slot as f32 * chip_w;
                let name = chip_text(i, qp, m.qps());
                parts.push(Shape::group(
                    format!("q{i}-{qp}"),
                    vec![
                        Shape::rect("box", x + 1.0, y + 2.0, chip_w - 2.0, ROW_H - 4.0)
                            .class(class)
                            .rounded(2.0),
                        Shape::text("text", x + chip_w / 2.0, y + 14.0, name.clone())
                            .mono()
                            .size(Size::Small),
                    ],
                ));
                on.push(name);
                slot += 1;
            }
        }
        let count = match &carried {
            Some(c) => format!("{} · {} pkts", load[j], c[j]),
            None => format!("{} QP{}", load[j], if load[j] == 1 { "" } else { "s" }),
        };
        parts.push(
            Shape::text("count", width - 4.0, y + 15.0, count.clone())
                .end()
                .mono()
                .size(Size::Small),
        );
        f.push(
            Shape::group(format!("path-{j}"), parts)
                .state(state)
                .focus("uplinks")
                .label(format!(
                    "Uplink {j}: {}; {count}.",
                    if on.is_empty() {
                        "idle".to_string()
                    } else {
                        on.join(", ")
                    }
                )),
        );
    }
    f
}

/// The closed forms beside this draw.
pub fn odds(m: &Ecmp) -> Table {
    let o = m.odds();
    let (n, k) = (m.hashed_qps(), m.paths());
    let done = m.all_placed();
    let this = |text: String| Cell::mono(if done { text } else { "—".to_string() });
    let mut t = Table::new(
        "odds",
        format!("{n} QPs on {k} uplinks: the closed forms beside this draw"),
        &["figure", "closed form", "this draw"],
    );
    t.row(
        "row-idle",
        vec![
            Cell::text("idle uplinks, k·(1 − 1/k)^N"),
            Cell::mono(decimal(o.idle, 2)),
            this(m.idle_now().to_string()),
        ],
    )
    .focus("odds");
    t.row(
        "row-apart",
        vec![
            Cell::text("no collision, k!/(k − N)!/k^N"),
            Cell::mono(format!("{} %", decimal(o.no_collision * 100.0, 2))),
            this(if m.collided() { "collided" } else { "apart" }.to_string()),
        ],
    )
    .focus("odds");
    t.row(
        "row-busiest",
        vec![
            Cell::text("busiest uplink's QPs"),
            Cell::mono(decimal(o.expected_busiest(), 2)),
            this(m.busiest_now().to_string()),
        ],
    )
    .focus("odds");
    t.row(
        "row-stretch",
        vec![
            Cell::text("ECMP step ÷ one alone, no pauses"),
            Cell::mono(decimal(m.expected_stretch(), 2)),
            this(decimal(m.stretch_for(m.busiest_now()), 2)),
        ],
    )
    .focus("odds");
    t
}

/// The three balancers on this draw, once the step has run.
pub fn compare(m: &Ecmp) -> Table {
    let mut t = Table::new(
        "compare",
        format!(
            "One all-reduce step on this draw ({} ticks for a connection alone)",
            m.alone()
        ),
        &[
            "balancer",
            "step, ticks",
            "÷ one alone",
            "busiest ÷ mean",
            "out of order",
        ],
    );
    for b in Balancer::ALL {
        let key = match b {
            Balancer::Ecmp => "cmp-ecmp",
            Balancer::Flowlet => "cmp-flowlet",
            Balancer::Spray => "cmp-spray",
        };
        let cells = if m.sent {
            let s = m.step_with(b);
            vec![
                Cell::text(b.name()),
                Cell::mono(s.ticks.to_string()),
                Cell::mono(decimal(m.stretch(&s), 2)),
                Cell::mono(decimal(m.packet_peak(&s), 2)),
                Cell::mono(s.out_of_order.to_string()).class(if s.out_of_order > 0 {
                    "warn"
                } else {
                    "done"
                }),
            ]
        } else {
            let mut c = vec![Cell::text(b.name())];
            c.extend((0..4).map(|_| Cell::mono("—")));
            c
        };
        let row = t.row(key, cells);
        row.focus("compare");
        if b == m.config.balancer {
            row.state("chosen");
        }
    }
    t
}
