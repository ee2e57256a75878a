//! Send path latency: the waterfall of a kernel send, the baseline against
//! now, and the techniques that take stages off it.

mod lesson;

use crate::control::Control;
use crate::draw::waterfall::edited;
use crate::draw::waterfall::{compare, cost_editor, waterfall};
use crate::live::{Command, Ui, View};
use crate::scene::Scene;
use demos::nic::send_path::{SendPath, BYPASS, CONTENDED, CTPIO, SPEC, STOPPED, TX_PUSH};
use demos::nic::stages::StageAction;
use demos::text::ns;
use demos::Quantity;

impl View for SendPath {
    /// The stage picked for the cost editor.
    type Look = usize;

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, selected: &usize, ui: &mut Ui<Self>) -> Scene {
        let w = self.pipe.waterfall(&SPEC);
        let layout = ui.layout();
        Scene::new(
            "Send path latency",
            format!(
                "A frame's way from send() to the wire: {} of {} stages on the path, {} in all, against {} with no technique.",
                w.rows.iter().filter(|r| r.active).count(),
                w.rows.len(),
                ns(w.total_ns),
                ns(w.baseline_ns)
            ),
        )
        .figure(waterfall(&w, "send path", *selected, layout, |i| ui.look(i)))
        .figure(compare(&w, "send path", layout))
    }

    fn controls(&self, selected: &usize, ui: &mut Ui<Self>) -> Vec<Control> {
        let w = self.pipe.waterfall(&SPEC);
        let mut toggle = |id: &str, label: &str, technique: usize| {
            let on = self.pipe.uses(technique);
            Control::toggle(
                id,
                label,
                on,
                ui.act(StageAction::Use { technique, on: !on }),
            )
        };
        let techniques = vec![
            toggle("use-bypass", "Kernel bypass", BYPASS),
            Control::note("The app drives the NIC's rings from user space (ef_vi, DPDK): no syscall, stack, copy or qdisc."),
            toggle("use-tx-push", "TX push", TX_PUSH),
            Control::note("The descriptor rides inside the doorbell write: the NIC need not fetch it. sfc pushes only one descriptor added to an empty ring."),
            toggle("use-ctpio", "CTPIO", CTPIO),
            Control::note("The CPU writes the frame to the NIC, which sends it as it arrives; on X2 a fallback DMA descriptor follows, off the wire path (X3 has none). Needs kernel bypass, so it turns bypass on."),
        ];
        let conditions = vec![
            toggle("use-contended", "qdisc busy on another CPU", CONTENDED),
            Control::note("Otherwise send() runs the driver in the caller's own context: no softirq. Contended, the packet waits for the qdisc's owner or NET_TX."),
        ];
        let breaks = vec![
            toggle(
                "use-stopped",
                "TX ring too small for the app's bursts: it fills, the driver stops the queue",
                STOPPED,
            )
            .danger(),
            Control::note("A TX completion then wakes the queue and NET_TX sends the frame; TX push needs an empty ring, so it turns off. Step walks the frame through this broken path."),
        ];
        // Refused (and drawn so, with the reason) while a packet waits at the start.
        let new_packet = Control::button(
            "new-packet",
            "Send another packet",
            ui.act(StageAction::NewPacket),
        );
        let stage = edited(&w, *selected);
        let set_cost = ui.number(move |v| {
            // Out of range, the model refuses it with the bound's sentence.
            let ns = u32::from_i64(v);
            Ok(Command::Do(StageAction::SetCost { stage, ns }))
        });
        let restore = ui.act(StageAction::RestoreCosts);
        vec![
            Control::group("Techniques", techniques),
            Control::group("Conditions", conditions),
            new_packet,
            Control::note("Step moves the packet through the next stage on the path."),
            cost_editor(&w, *selected, |i| ui.look(i), set_cost, restore),
            Control::danger_group("Break it", breaks),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::Model;

    #[test]
    fn bypass_fades_the_kernel_stages_and_names_why() {
        let mut m = SendPath::new(&Default::default());
        m.apply(&StageAction::Use {
            technique: BYPASS,
            on: true,
        })
        .unwrap();
        let scene = crate::build(&m, &0).0;
        let row = scene.find("row-syscall").unwrap();
        assert_eq!(row.state.as_deref(), Some("off"));
        let off = scene.find("off-syscall").unwrap();
        assert_eq!(off.text_content(), Some("removed by kernel bypass"));
        assert_eq!(scene.find("total").unwrap().text_content(), Some("730 ns"));
        assert_eq!(
            scene.find("saving").unwrap().text_content(),
            Some("saves 390 ns (34.8 %)")
        );
    }

    #[test]
    fn the_net_tx_stage_is_off_the_path_unless_the_qdisc_is_contended() {
        let mut m = SendPath::new(&Default::default());
        let scene = crate::build(&m, &0).0;
        assert_eq!(
            scene.find("off-net-tx").unwrap().text_content(),
            Some("only with qdisc contention or TX queue stopped")
        );
        m.apply(&StageAction::Use {
            technique: CONTENDED,
            on: true,
        })
        .unwrap();
        let scene = crate::build(&m, &0).0;
        assert_eq!(
            scene.find("total").unwrap().text_content(),
            Some("1,620 ns")
        );
    }

    #[test]
    fn break_it_fills_the_tx_ring_and_the_queue_stops() {
        let m = SendPath::new(&Default::default());
        let (_, controls, ui) = crate::build(&m, &0);
        let group = Control::danger_zone(&controls).expect("a Break it group");
        assert_eq!(group.label, "Break it");
        assert!(group
            .controls
            .iter()
            .any(|c| matches!(c, Control::Note(n) if n.contains("Step walks"))));
        let Some(Control::Toggle(t)) = Control::find(&group.controls, "use-stopped") else {
            panic!("stopped toggle");
        };
        assert_eq!(t.emphasis, crate::control::Emphasis::Danger);
        assert_eq!(
            ui.resolve(t.send, &crate::Input::Press).unwrap(),
            Command::Do(StageAction::Use {
                technique: STOPPED,
                on: true
            })
        );
    }

    #[test]
    fn the_broken_path_draws_the_net_tx_wait_on_the_waterfall() {
        let mut m = SendPath::new(&Default::default());
        m.apply(&StageAction::Use {
            technique: STOPPED,
            on: true,
        })
        .unwrap();
        let scene = crate::build(&m, &0).0;
        assert_ne!(
            scene.find("row-net-tx").unwrap().state.as_deref(),
            Some("off")
        );
        assert_eq!(
            scene.find("total").unwrap().text_content(),
            Some("1,620 ns")
        );
    }

    #[test]
    fn the_cost_editor_edits_the_stage_picked() {
        let m = SendPath::new(&Default::default());
        let (_, controls, ui) = crate::build(&m, &7);
        let Some(Control::Number(cost)) = Control::find(&controls, "stage-cost") else {
            panic!("cost slider");
        };
        assert_eq!(cost.value, 300, "stage 7 is the descriptor fetch");
        let command = ui.resolve(cost.send, &crate::Input::Number(900)).unwrap();
        assert_eq!(
            command,
            Command::Do(StageAction::SetCost { stage: 7, ns: 900 })
        );
    }
}
