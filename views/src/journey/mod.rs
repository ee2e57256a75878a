//! One message, end to end: the waterfall of every stage, the stage picked
//! (what it costs, why, and the demo it comes from), the configurations
//! tried, and the techniques and breaks as controls.

mod figure;
mod lesson;

pub use figure::clock_text;

use crate::control::Control;
use crate::live::{Ui, View};
use crate::scene::{Cell, Item, List, Scene, Table};
use demos::journey::{
    Fault, Journey, JourneyAction, Path, StageId, Technique, Tried, MESSAGES, MSSES,
};
use demos::nic::cut_through::WIRE_RATES;
use demos::text::{capitalised, grouped, ns, plural, tenths};

/// What each technique does, in one sentence for its control.
fn technique_note(t: Technique) -> &'static str {
    match t {
        Technique::Moderation => "The receiving NIC holds its interrupt for rx-usecs or rx-frames (ethtool -C).",
        Technique::BusyPoll => "The reader spins in recvmsg() and runs the NAPI poll itself: no interrupt, no wakeup.",
        Technique::Bypass => "Both applications drive their NICs' rings from user space: no system call, kernel stack, interrupt or socket.",
        Technique::Ctpio => "The CPU writes the frame into the NIC, which starts the wire before the frame is all in. Needs kernel bypass.",
        Technique::ZeroCopy => "The payload lands in memory bound to the queue; recvmsg() copies nothing.",
        Technique::Rdma => "A one-sided RDMA WRITE: the peer's NIC puts the bytes in memory, and its CPU only polls.",
        Technique::CutThroughSwitch => "The switch forwards once the first chunk of the frame is in, not the whole frame.",
        Technique::LoadedSwitch => "Other traffic fills the port first: the queue of one incast request.",
    }
}

fn technique_id(t: Technique) -> &'static str {
    match t {
        Technique::Moderation => "use-moderation",
        Technique::BusyPoll => "use-busy-poll",
        Technique::Bypass => "use-bypass",
        Technique::Ctpio => "use-ctpio",
        Technique::ZeroCopy => "use-zero-copy",
        Technique::Rdma => "use-rdma",
        Technique::CutThroughSwitch => "use-cut-through-switch",
        Technique::LoadedSwitch => "use-loaded-switch",
    }
}

fn fault_id(f: Fault) -> &'static str {
    match f {
        Fault::FullRing => "break-full-ring",
        Fault::BusyQdisc => "break-busy-qdisc",
        Fault::Drop => "break-drop",
    }
}

/// The stage picked: what it does, its figures, and where they come from.
fn picked(m: &Journey, path: &Path, selected: usize) -> List {
    let id = StageId::ALL.get(selected).copied().unwrap_or(StageId::Send);
    let s = path.stage(id);
    let mut list = List::new(
        "picked",
        format!("Stage: {}", id.name()),
        "No stage picked.",
    )
    .focus(id.key())
    .item(Item::new("picked-detail", s.detail.clone()));
    let time = if s.on_path {
        format!(
            "{} of {} ({})",
            ns(s.ns as i64),
            ns(path.total_ns as i64),
            tenths(path.share_tenths(id))
        )
    } else {
        format!(
            "off the path: {}; {} if it were on",
            s.off_reason.clone().unwrap_or_default(),
            ns(s.ns as i64)
        )
    };
    list = list.item(Item::new("picked-time", time).tag("Time"));
    list = list.item(
        Item::new(
            "picked-bytes",
            if s.tlps > 0 {
                format!(
                    "{} byte{} in {} PCIe TLP{}",
                    grouped(s.bytes as i64),
                    plural(s.bytes as usize),
                    s.tlps,
                    plural(s.tlps as usize)
                )
            } else {
                format!(
                    "{} byte{}",
                    grouped(s.bytes as i64),
                    plural(s.bytes as usize)
                )
            },
        )
        .tag("Bytes"),
    );
    let drill = m.drill(id);
    list.item(
        Item::new(
            "picked-demo",
            format!("Open /{} as the journey has it", drill.demo),
        )
        .tag("From")
        .link(drill.href()),
    )
}

/// The configurations tried: total, what dominates, and every share.
fn comparison(m: &Journey) -> Table {
    let mut t = Table::new(
        "tried",
        "The configurations tried, each as it was computed",
        &["configuration", "end to end", "dominates", "shares"],
    );
    for (i, tried) in m.tried.iter().enumerate() {
        let dominant = tried
            .dominant
            .map(|d| format!("{} ({})", d.name(), tenths(share(tried, d))))
            .unwrap_or_default();
        let shares: Vec<String> = tried
            .shares
            .iter()
            .filter(|&&(_, t)| t > 0)
            .map(|&(id, t)| format!("{} {}", id.name(), tenths(i64::from(t))))
            .collect();
        let now = tried.is(m);
        let row = t.row(
            format!("tried-{i}"),
            vec![
                Cell::text(tried.label()),
                Cell::mono(ns(tried.total_ns as i64)).key(format!("tried-{i}-total")),
                Cell::text(dominant).key(format!("tried-{i}-dominant")),
                Cell::text(shares.join("; ")),
            ],
        );
        if now {
            row.state("now");
        }
        row.focus("tried");
    }
    t
}

/// A choice among `offered` values with `unit`, `now` selected; a value
/// it does not offer (from a link) joins the options.
fn choice<T: Copy + PartialEq + std::fmt::Display>(
    id: &str,
    legend: &str,
    offered: &[T],
    now: T,
    unit: &str,
    mut send: impl FnMut(T) -> crate::live::Slot,
) -> Control {
    let mut values = offered.to_vec();
    if !values.contains(&now) {
        values.push(now);
    }
    let selected = values.iter().position(|&v| v == now).unwrap_or(0);
    let options = values
        .iter()
        .map(|&v| (v.to_string(), format!("{v}{unit}"), send(v)))
        .collect();
    Control::choice(id, legend, selected, options)
}

fn share(tried: &Tried, id: StageId) -> i64 {
    tried.share_of(id).map(i64::from).unwrap_or(0)
}

impl View for Journey {
    /// The stage picked, as an index into [`StageId::ALL`].
    type Look = usize;

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, selected: &usize, ui: &mut Ui<Self>) -> Scene {
        let path = self.path();
        let summary = match path.dominant() {
            Some(top) => format!(
                "{} byte{} from one application to another across one switch: {} stages, {} end to end; {} dominates with {}.",
                self.message_bytes,
                plural(self.message_bytes),
                path.on_path().count(),
                ns(path.total_ns as i64),
                top.id.name(),
                tenths(path.share_tenths(top.id))
            ),
            None => "No stage is on the path.".into(),
        };
        let layout = ui.layout();
        Scene::new("One message, end to end", summary)
            .figure(figure::waterfall(self, &path, *selected, layout, |i| {
                ui.look(i)
            }))
            .list(picked(self, &path, *selected))
            .table(comparison(self))
    }

    fn controls(&self, _: &usize, ui: &mut Ui<Self>) -> Vec<Control> {
        // A value from a link that a choice does not offer joins it, so the
        // choice always shows the journey's own.
        let message = choice(
            "message",
            "Message size",
            &MESSAGES,
            self.message_bytes,
            " B",
            |b| ui.act(JourneyAction::SetMessage(b)),
        );
        let mss = choice("mss", "TCP's MSS", &MSSES, self.config.mss, " B", |v| {
            ui.act(JourneyAction::SetMss(v))
        });
        let line = choice(
            "line",
            "Line rate",
            WIRE_RATES,
            self.config.line_gbps,
            " Gb/s",
            |v| ui.act(JourneyAction::SetLine(v)),
        );
        let mut techniques = Vec::new();
        for t in Technique::ALL {
            let on = self.setup.uses(t);
            techniques.push(Control::toggle(
                technique_id(t),
                capitalised(t.name()),
                on,
                ui.act(JourneyAction::Use(t, !on)),
            ));
            techniques.push(Control::note(technique_note(t)));
        }
        let breaks = Fault::ALL
            .iter()
            .map(|&f| {
                let on = self.setup.breaks(f);
                Control::toggle(
                    fault_id(f),
                    capitalised(f.name()),
                    on,
                    ui.act(JourneyAction::Break(f, !on)),
                )
                .danger()
            })
            .collect();
        vec![
            message,
            mss,
            line,
            Control::group("Techniques", techniques),
            Control::button("again", "Walk it again", ui.act(JourneyAction::Again)),
            Control::note("Step moves the message through the next stage on the path."),
            Control::danger_group("Break it", breaks),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::journey::JourneyConfig;
    use demos::Model;

    #[test]
    fn every_stage_is_a_shape_keyed_stage_with_its_state() {
        let m = Journey::new(&JourneyConfig::default());
        let scene = crate::build(&m, &0).0;
        for id in StageId::ALL {
            let shape = scene.find(id.key()).unwrap_or_else(|| panic!("{id:?}"));
            assert!(shape.key.starts_with("stage-"));
            assert!(shape.on_click.is_some());
        }
        assert_eq!(
            scene.find("stage-pio").unwrap().state.as_deref(),
            Some("off")
        );
        assert_eq!(
            scene.find("total").unwrap().text_content(),
            Some("9,036 ns")
        );
    }

    #[test]
    fn stepping_marks_the_stage_the_message_is_at() {
        let mut m = Journey::new(&JourneyConfig::default());
        m.apply(&JourneyAction::Step).unwrap();
        let scene = crate::build(&m, &0).0;
        assert_eq!(
            scene.find("stage-send").unwrap().state.as_deref(),
            Some("here")
        );
        assert_eq!(
            scene.find("clock").unwrap().text_content(),
            Some(
                "Message clock t = 170 ns: the message has just finished “send() syscall + copy”."
            )
        );
    }

    #[test]
    fn the_comparison_lists_each_configuration_tried() {
        let mut m = Journey::new(&JourneyConfig::default());
        m.apply(&JourneyAction::Use(Technique::BusyPoll, true))
            .unwrap();
        m.apply(&JourneyAction::Use(Technique::Bypass, true))
            .unwrap();
        let scene = crate::build(&m, &0).0;
        let table = scene.table_named("tried").unwrap();
        assert_eq!(table.rows.len(), 3);
        let cell = |row: usize, key: &str| {
            table.rows[row]
                .cells
                .iter()
                .find(|c| c.key.as_deref() == Some(key))
                .map(|c| c.text.clone())
        };
        assert_eq!(cell(0, "tried-0-total").as_deref(), Some("9,036 ns"));
        assert_eq!(cell(2, "tried-2-total").as_deref(), Some("1,246 ns"));
        assert!(cell(2, "tried-2-dominant")
            .unwrap()
            .starts_with("NIC fetches descriptor + payload (PCIe)"));
    }

    /// Every text of the narrow waterfall, under every single technique
    /// and fault and the message sizes, ends inside 420 units (small text
    /// estimated as the phone test does, `Size::advance`).
    #[test]
    fn every_setting_fits_a_phone() {
        use crate::layout::{Layout, NARROW_WIDTH};
        use crate::scene::{Anchor, Kind, Shape};
        fn ends(s: &Shape, dx: f32, out: &mut Vec<(String, f32)>) {
            match &s.kind {
                Kind::Text {
                    x,
                    text,
                    anchor,
                    size,
                    mono,
                    ..
                } => {
                    let w = text.chars().count() as f32 * size.advance(*mono);
                    let right = match anchor {
                        Anchor::Start => x + w,
                        Anchor::Middle => x + w / 2.0,
                        Anchor::End => *x,
                    };
                    out.push((text.clone(), right + dx));
                }
                Kind::Group { x, children, .. } => {
                    children.iter().for_each(|c| ends(c, dx + x, out))
                }
                _ => {}
            }
        }
        let mut setups: Vec<Vec<JourneyAction>> = Technique::ALL
            .iter()
            .map(|&t| vec![JourneyAction::Use(t, true)])
            .chain(
                Fault::ALL
                    .iter()
                    .map(|&f| vec![JourneyAction::Break(f, true)]),
            )
            .chain(MESSAGES.iter().map(|&b| vec![JourneyAction::SetMessage(b)]))
            .collect();
        setups.push(vec![
            JourneyAction::Use(Technique::Ctpio, true),
            JourneyAction::Break(Fault::Drop, true),
            JourneyAction::Use(Technique::LoadedSwitch, true),
        ]);
        for actions in setups {
            let mut m = Journey::new(&JourneyConfig::default());
            for a in &actions {
                let _ = m.apply(a);
            }
            let scene = crate::build_for(&m, &0, Layout::Narrow).0;
            let figure = scene.figures().next().unwrap();
            let mut out = Vec::new();
            figure.shapes.iter().for_each(|s| ends(s, 0.0, &mut out));
            for (text, right) in out {
                assert!(
                    right <= NARROW_WIDTH + 4.0,
                    "{actions:?}: “{text}” ends at {right}"
                );
            }
        }
    }

    /// Each row's "from" opens the stage's demo as the journey has it, and
    /// is a link of its own: no clickable shape holds it.
    #[test]
    fn every_row_links_to_its_demo_outside_the_rows_button() {
        let mut m = Journey::new(&JourneyConfig::default());
        m.apply(&JourneyAction::Use(Technique::BusyPoll, true))
            .unwrap();
        let scene = crate::build(&m, &0).0;
        let figure = scene.figures().next().unwrap();
        for id in StageId::ALL {
            let link = figure
                .shapes
                .iter()
                .find(|s| s.key == format!("{}-demo", id.key()))
                .unwrap_or_else(|| panic!("{id:?}"));
            assert_eq!(link.link.as_deref(), Some(m.drill(id).href().as_str()));
            assert!(link.on_click.is_none());
        }
        fn no_link_inside(s: &crate::scene::Shape, in_button: bool) {
            assert!(!(in_button && s.link.is_some()), "{}", s.key);
            for c in s.children() {
                no_link_inside(c, in_button || s.on_click.is_some());
            }
        }
        figure.shapes.iter().for_each(|s| no_link_inside(s, false));
    }

    #[test]
    fn the_picked_stage_names_its_demo() {
        let m = Journey::new(&JourneyConfig::default());
        let moderation = StageId::ALL
            .iter()
            .position(|&s| s == StageId::Moderation)
            .unwrap();
        let scene = crate::build(&m, &moderation).0;
        let list = scene.list_named("picked").unwrap();
        let from = list.items.iter().find(|i| i.key == "picked-demo").unwrap();
        assert_eq!(from.text, "Open /nic/coalescing as the journey has it");
        let link = from.link.as_deref().unwrap();
        assert_eq!(link, m.drill(StageId::Moderation).href());
    }
}
