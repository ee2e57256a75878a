//! Lossless Ethernet: the fabric with its paused links and ingress
//! counters, the hot receiver's queue and the victim's rate over the run,
//! and the flows with DCQCN's state.

mod figures;
mod lesson;

use crate::control::Control;
use crate::knob::bounded;
use crate::live::{Ui, View};
use crate::scene::Scene;
use demos::fabric::pfc::config::{CABLE, HEADROOM_KB, MTUS, SMALL_HEADROOM_KB};
use demos::fabric::pfc::model::{kb, micros};
use demos::fabric::pfc::{Pfc, PfcAction as A};
use demos::text::decimal;

/// Ticks the two Run buttons run: 10 µs and 100 µs.
const SHORT: u32 = 100;
const LONG: u32 = 1_000;

impl View for Pfc {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        let layout = ui.layout();
        let f = &self.fabric;
        let hosts: Vec<String> = f.paused_hosts().iter().map(|h| format!("H{h}")).collect();
        let summary = format!(
            "At {} µs: {} link directions paused{}; hosts paused: {}. The queue for H3 holds {} KB; V, from H2 to the idle H5, runs at {} Gb/s. {} PFC frames sent, {} bytes dropped on the lossless priority. ECN with DCQCN is {}; the routing loop is {}.",
            micros(f.tick),
            f.paused_count(),
            if f.deadlock_since.is_some() { ", in a deadlocked cycle" } else { "" },
            if hosts.is_empty() { "none".to_string() } else { hosts.join(", ") },
            kb(self.hot_queue()),
            decimal(f.flows[demos::fabric::pfc::topology::VICTIM].gbps(), 1),
            self.pause_frames(),
            self.overflow(),
            if self.config.dcqcn { "on" } else { "off" },
            if self.config.loop_route { "in place" } else { "absent" },
        );
        Scene::new("Lossless Ethernet", summary)
            .figure(figures::fabric(self, layout))
            .table(figures::flows(self))
            .figure(figures::queue_chart(self, layout))
            .figure(figures::victim_chart(self, layout))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let c = &self.config;
        let mtu_at = MTUS.iter().position(|m| *m == c.mtu).unwrap_or(1);
        vec![
            Control::button("run-short", "Run 10 µs", ui.act(A::Run(SHORT))),
            Control::button("run-long", "Run 100 µs", ui.act(A::Run(LONG))),
            Control::button("to-end", "Run to 2 ms", ui.act(A::ToEnd)),
            Control::button("restart", "Start again", ui.act(A::Restart)),
            Control::note("Step runs 100 ns. The cable, MTU and headroom rebuild the fabric and start again; the toggles apply from the next tick."),
            Control::group(
                "Fabric",
                vec![
                    bounded(ui, "cable", "Cable length", &CABLE, c.cable_m, false, A::SetCable),
                    Control::choice(
                        "mtu",
                        "MTU",
                        mtu_at,
                        MTUS.iter()
                            .map(|m| (m.to_string(), format!("{m} bytes"), ui.act(A::SetMtu(*m))))
                            .collect(),
                    ),
                    bounded(ui, "headroom", "Headroom above XOFF", &HEADROOM_KB, c.headroom_kb, false, A::SetHeadroom),
                    Control::note(format!(
                        "This cable needs {} KB ({} KB in whole ticks).",
                        kb(self.headroom().bytes()),
                        kb(self.headroom().model_bytes())
                    )),
                ],
            ),
            Control::group(
                "Fix it",
                vec![
                    Control::toggle("dcqcn", "ECN marking with DCQCN", c.dcqcn, ui.act(A::SetDcqcn(!c.dcqcn))),
                    Control::toggle("watchdog", "PFC watchdog", c.watchdog, ui.act(A::SetWatchdog(!c.watchdog))),
                ],
            ),
            Control::danger_group(
                "Break it",
                vec![
                    Control::toggle("loop", "Routing loop round the four switches", c.loop_route, ui.act(A::SetLoop(!c.loop_route))).danger(),
                    Control::button("small-headroom", format!("Shrink the headroom to {SMALL_HEADROOM_KB} KB"), ui.act(A::SetHeadroom(SMALL_HEADROOM_KB))).danger(),
                    Control::note("Or turn ECN off again and watch the pauses spread."),
                ],
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::fabric::pfc::PfcConfig;
    use demos::Model;

    #[test]
    fn every_figure_is_drawn() {
        let m = Pfc::new(&PfcConfig::default());
        let scene = crate::build(&m, &()).0;
        for key in [
            "l0-s0",
            "in-s0-l1",
            "node-h2",
            "fabric-note",
            "hot-line",
            "victim-line",
        ] {
            assert!(scene.find(key).is_some(), "{key}");
        }
        assert!(scene.repeated_keys().is_empty());
    }

    /// The loop's links turn from sending to deadlock, the same keys restyled.
    #[test]
    fn the_loop_shows_its_deadlock() {
        let mut m = Pfc::new(&PfcConfig::default());
        m.apply(&A::SetLoop(true)).unwrap();
        m.apply(&A::Run(2_000)).unwrap();
        let scene = crate::build(&m, &()).0;
        for key in ["l0-s0", "s0-l1", "l1-s1", "s1-l0"] {
            assert_eq!(
                scene.find(key).unwrap().state.as_deref(),
                Some("deadlock"),
                "{key}"
            );
        }
        assert_eq!(
            scene.find("node-h2").unwrap().state.as_deref(),
            Some("paused")
        );
    }
}
