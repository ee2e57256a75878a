//! Interrupt vs busy-poll (RX): the receive waterfall, the CPU each mode
//! spends at the chosen packet rate, and the crossover chart.

mod lesson;

use crate::control::Control;
use crate::draw::chart::{decades, Plot};
use crate::draw::waterfall::{compare, cost_editor, edited, waterfall};
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::{Command, Ui, View};
use crate::scene::{Cell, Figure, Item, List, Scene, Shape, Table};
use demos::nic::busy_poll::{
    rate_index, rate_text, BusyPoll, BusyPollAction, BUSY, PMD, PREFER, RATE, RATES, SPEC,
};
use demos::nic::stages::{StageAction, COST_MAX};
use demos::text::{ns, tenths};

/// What the prefer switch stands for. irq_suspend_timeout belongs to epoll
/// only (Documentation/networking/napi.rst, "epoll-based busy polling").
const PREFER_NOTE: &str = "SO_PREFER_BUSY_POLL with napi_defer_hard_irqs and gro_flush_timeout (5.11) keeps the IRQ masked while the app polls. irq_suspend_timeout (6.13) does the same only for busy polling from epoll_wait(), not for a socket spinning in recvmsg().";

/// Half the width of the crossover's label ("crossover 167 k pkt/s").
const CROSSOVER_LABEL_HALF: f32 = 80.0;

/// What each mode costs at the chosen rate.
fn cpu_table(m: &BusyPoll) -> Table {
    let c = m.cpu();
    let busy_on = m.pipe.on != 0;
    let in_use = |on: bool| if on { " (in use)" } else { "" };
    let mut t = Table::new(
        "cpu-panel",
        format!("CPU cost at {}", rate_text(m.rate_pps.into())),
        &["mode", "CPU per packet", "core use"],
    );
    let over = if c.irq_util > 1000 {
        ": more than a core"
    } else {
        ""
    };
    t.row(
        "mode-irq",
        vec![
            Cell::text(format!("interrupts{}{over}", in_use(!busy_on))),
            Cell::mono(ns(c.irq_ns as i64)).key("irq-per-packet"),
            Cell::mono(tenths(c.irq_util as i64)).key("irq-util"),
        ],
    )
    .class(if busy_on { "" } else { "done" });
    t.row(
        "mode-busy",
        vec![
            Cell::text(format!("{}{}", polling_name(m), in_use(busy_on))),
            Cell::mono(ns(c.busy_ns as i64)).key("busy-per-packet"),
            Cell::mono(tenths(c.busy_util as i64)).key("busy-util"),
        ],
    )
    .class(if busy_on { "done" } else { "" })
    .focus("cpu");
    t
}

/// The polling mode the CPU figures describe.
fn polling_name(m: &BusyPoll) -> &'static str {
    if m.pipe.uses(PMD) {
        "user-space polling"
    } else if m.irqs_fire() {
        "busy polling, IRQs still firing"
    } else {
        "busy polling, IRQs masked"
    }
}

fn verdict(m: &BusyPoll) -> List {
    let c = m.cpu();
    let cheaper = if c.busy_cheaper() {
        polling_name(m)
    } else {
        "interrupts"
    };
    let crossover = match c.crossover_pps {
        Some(x) => format!(
            "Crossover: {}. Below it polling costs more CPU per packet than interrupts; above it, less.",
            rate_text(x)
        ),
        None => "No crossover: at these stage costs polling never costs less CPU than interrupts.".into(),
    };
    List::new("cpu-verdict", "Which costs less CPU", "")
        .focus("cpu")
        .item(
            Item::new(
                "cheaper",
                format!("Cheaper in CPU at this rate: {cheaper}."),
            )
            .class("done"),
        )
        .item(Item::new("crossover", crossover))
}

/// CPU per packet against packet rate, both logarithmic: the interrupt cost
/// is flat, the polling core's cost falls as one core-second is shared by
/// more packets, and the lines cross where interrupts would fill a core.
/// Narrow, the plot is shorter along the rate axis; its five decades still
/// have room for their labels.
fn chart(m: &BusyPoll, layout: Layout) -> Figure {
    let (width, plot_box) = layout.pick(
        (960.0, (100.0, 30.0, 930.0, 300.0)),
        (NARROW_WIDTH, (62.0, 30.0, 404.0, 300.0)),
    );
    let plot = Plot::new(
        plot_box,
        (f64::from(RATE.min), f64::from(RATE.max), true),
        (10.0, 1e6, true),
    );
    let lo = m.cpu_at(RATE.min);
    let hi = m.cpu_at(RATE.max);
    let now = m.cpu();
    let rate = f64::from(m.rate_pps);
    let mut f = Figure::new(
        "chart",
        format!(
            "CPU per packet against packet rate. At {}: interrupts {}, polling {}.",
            rate_text(m.rate_pps.into()),
            ns(now.irq_ns as i64),
            ns(now.busy_ns as i64)
        ),
        width,
        360.0,
    )
    .legend("driver", "interrupts: the stages' CPU work")
    .legend("nic dashed", "polling: a core ÷ rate, plus any IRQ left");
    let rate_ticks = decades(1e3, 1e7, |v| rate_text(v as u64).replace(" pkt/s", ""));
    let ns_ticks = decades(10.0, 1e6, |v| match v as u64 {
        n if n >= 1_000_000 => format!("{} ms", n / 1_000_000),
        n if n >= 1_000 => format!("{} µs", n / 1_000),
        n => format!("{n} ns"),
    });
    f.push(plot.axes(
        &rate_ticks,
        &ns_ticks,
        "packets per second (log)",
        "CPU per packet (log)",
    ));
    f.push(plot.series(
        "irq-line",
        &[
            (f64::from(RATE.min), lo.irq_ns as f64),
            (f64::from(RATE.max), hi.irq_ns as f64),
        ],
        "driver",
    ));
    let busy: Vec<(f64, f64)> = RATES
        .iter()
        .map(|&r| (f64::from(r), m.cpu_at(r).busy_ns as f64))
        .collect();
    f.push(plot.series("busy-line", &busy, "nic dashed"));
    if let Some(x) = now
        .crossover_pps
        .filter(|r| (u64::from(RATE.min)..=u64::from(RATE.max)).contains(r))
    {
        let (cx, cy) = plot.point((x as f64, now.irq_ns as f64));
        // A crossover near either end of the axis would push its centred
        // label past the figure's edge: it stays inside the plot.
        let label_x = demos::float::clamped(
            cx,
            plot.left + CROSSOVER_LABEL_HALF,
            plot.right - CROSSOVER_LABEL_HALF,
        );
        let label = Shape::text(
            "label",
            label_x,
            cy + 30.0,
            format!("crossover {}", rate_text(x)),
        )
        .class("tone");
        f.push(
            Shape::group(
                "chart-crossover",
                vec![Shape::circle("dot", cx, cy, 8.0), label],
            )
            .class("done"),
        );
    }
    f.push(
        Shape::group(
            "rate-marker",
            vec![
                plot.marker(
                    "now",
                    rate,
                    format!("now: {}", rate_text(m.rate_pps.into())),
                    "fault",
                ),
                plot.dot("dot-irq", (rate, now.irq_ns as f64), "driver"),
                plot.dot("dot-busy", (rate, now.busy_ns as f64), "nic"),
            ],
        )
        .focus("cpu"),
    );
    f
}

impl View for BusyPoll {
    /// The stage picked for the cost editor.
    type Look = usize;

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, selected: &usize, ui: &mut Ui<Self>) -> Scene {
        let w = self.pipe.waterfall(&SPEC);
        let layout = ui.layout();
        Scene::new(
            "Interrupt vs busy-poll (RX)",
            format!(
                "A packet's way from the NIC to the app: {} in all, against {} with interrupts. At {} interrupts cost {} of CPU per packet and polling {}.",
                ns(w.total_ns),
                ns(w.baseline_ns),
                rate_text(self.rate_pps.into()),
                ns(self.cpu().irq_ns as i64),
                ns(self.cpu().busy_ns as i64)
            ),
        )
        .figure(waterfall(&w, "receive path", *selected, layout, |i| ui.look(i)))
        .figure(compare(&w, "receive path", layout))
        .table(cpu_table(self))
        .list(verdict(self))
        .figure(chart(self, layout))
    }

    fn controls(&self, selected: &usize, ui: &mut Ui<Self>) -> Vec<Control> {
        let w = self.pipe.waterfall(&SPEC);
        let last = RATES.len() as i64 - 1;
        let stage = BusyPollAction::Stage;
        let edit = edited(&w, *selected);
        let set_cost = ui.number(move |v| {
            let ns = v.clamp(0, i64::from(COST_MAX)) as u32;
            Ok(Command::Do(stage(StageAction::SetCost { stage: edit, ns })))
        });
        let restore = ui.act(stage(StageAction::RestoreCosts));
        let editor = cost_editor(&w, *selected, |i| ui.look(i), set_cost, restore);
        let mut toggle = |id: &str, label: &str, technique: usize| {
            let on = self.pipe.uses(technique);
            Control::toggle(
                id,
                label,
                on,
                ui.act(stage(StageAction::Use { technique, on: !on })),
            )
        };
        let techniques = vec![
            toggle("use-busy-poll", "Kernel busy polling (SO_BUSY_POLL)", BUSY),
            Control::note("The reader spins in recvmsg(), running the driver's poll and the stack itself: no wakeup. The device IRQ still fires."),
            toggle("use-prefer", "Prefer busy polling, defer the IRQ", PREFER),
            Control::note(PREFER_NOTE),
            toggle("use-pmd", "User-space poll-mode driver (ef_vi, DPDK)", PMD),
            Control::note("The app polls the NIC's ring itself: no syscall, stack or copy."),
        ];
        vec![
            Control::group("Polling", techniques),
            Control::slider(
                "rate",
                "Packet rate",
                (rate_index(self.rate_pps) as i64, 0, last),
                "",
                ui.number(move |i| {
                    let rate = RATES[i.clamp(0, last) as usize].clamp(RATE.min, RATE.max);
                    Ok(Command::Do(BusyPollAction::SetRate(rate)))
                }),
            )
            .shown(rate_text(self.rate_pps.into())),
            Control::button(
                "new-packet",
                "Receive another packet",
                ui.act(stage(StageAction::NewPacket)),
            ),
            Control::note("Step moves the packet through the next stage on the path."),
            editor,
            Control::danger_group(
                "Break it",
                vec![
                    Control::toggle(
                        "zero-flush-timeout",
                        "Prefer busy polling with napi_defer_hard_irqs set but gro_flush_timeout left at 0",
                        self.zero_flush_timeout,
                        ui.act(BusyPollAction::SetZeroFlushTimeout(!self.zero_flush_timeout)),
                    )
                    .danger(),
                    Control::note("The deferral needs both settings, so the IRQ fires after every busy poll. Step walks the same path as before: the cost is CPU, in the table."),
                ],
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::Model;

    #[test]
    fn at_a_million_packets_interrupts_need_more_than_a_core() {
        let mut m = BusyPoll::new(&Default::default());
        m.apply(&BusyPollAction::SetRate(1_000_000)).unwrap();
        let scene = crate::build(&m, &0).0;
        let table = scene.table_named("cpu-panel").unwrap();
        assert!(table.rows[0].cells[0].text.ends_with("more than a core"));
        assert_eq!(table.rows[0].cells[2].text, "700.0 %");
        let cheaper = &scene.list_named("cpu-verdict").unwrap().items[0].text;
        assert!(cheaper.contains("IRQs still firing"));
    }

    fn notes(controls: &[Control], out: &mut Vec<String>) {
        for c in controls {
            match c {
                Control::Note(text) => out.push(text.clone()),
                Control::Group(g) => notes(&g.controls, out),
                _ => {}
            }
        }
    }

    #[test]
    fn irq_suspend_timeout_is_said_to_be_for_epoll_only() {
        let m = BusyPoll::new(&Default::default());
        let mut all = Vec::new();
        notes(&crate::build(&m, &0).1, &mut all);
        let note = all
            .iter()
            .find(|n| n.contains("irq_suspend_timeout"))
            .unwrap();
        assert!(
            note.contains("only for busy polling from epoll_wait()"),
            "{note}"
        );
    }

    #[test]
    fn break_it_leaves_gro_flush_timeout_at_zero_and_the_table_shows_the_irq() {
        let mut m = BusyPoll::new(&Default::default());
        let (_, controls, ui) = crate::build(&m, &0);
        let group = Control::danger_zone(&controls).expect("a Break it group");
        assert_eq!(group.label, "Break it");
        let Some(Control::Toggle(t)) = Control::find(&group.controls, "zero-flush-timeout") else {
            panic!("the gro_flush_timeout toggle");
        };
        assert!(!t.on);
        let command = ui.resolve(t.send, &crate::Input::Press).unwrap();
        assert_eq!(
            command,
            Command::Do(BusyPollAction::SetZeroFlushTimeout(true))
        );
        let Command::Do(action) = command else {
            unreachable!()
        };
        m.apply(&BusyPollAction::SetRate(1_000_000)).unwrap();
        m.apply(&action).unwrap();
        let scene = crate::build(&m, &0).0;
        let table = scene.table_named("cpu-panel").unwrap();
        assert_eq!(
            table.rows[1].cells[0].text,
            "busy polling, IRQs still firing (in use)"
        );
        assert_eq!(table.rows[1].cells[1].text, "2,000 ns");
        let (_, controls, _) = crate::build(&m, &0);
        let Some(Control::Toggle(t)) = Control::find(&controls, "zero-flush-timeout") else {
            panic!("the gro_flush_timeout toggle");
        };
        assert!(t.on);
    }

    #[test]
    fn the_chart_marks_the_crossover_inside_the_plot() {
        let m = BusyPoll::new(&Default::default());
        let scene = crate::build(&m, &0).0;
        let crossover = scene.find("chart-crossover").unwrap();
        let label = crossover.children()[1].text_content().unwrap();
        assert_eq!(label, "crossover 167 k pkt/s");
    }
}
