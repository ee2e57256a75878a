//! ECMP: connections hashed onto a leaf's equal-cost uplinks, the closed
//! forms beside the draw, and one all-reduce step under ECMP, flowlet
//! switching and packet spraying.

mod figures;
mod lesson;

use crate::control::Control;
use crate::knob::bounded;
use crate::live::{Ui, View};
use crate::scene::Scene;
use demos::fabric::ecmp::odds::no_collision;
use demos::fabric::ecmp::send::Balancer;
use demos::fabric::ecmp::{Ecmp, EcmpAction, FLOWS, GAPS, PATHS, PAUSE, QPS};
use demos::text::decimal;

/// The low-entropy case the Break-it note names: as many large connections
/// as uplinks.
const LOW: usize = 8;

impl View for Ecmp {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        let o = self.odds();
        Scene::new(
            "Hashing flows onto paths",
            format!(
                "{} connections of {} QP{} hashed onto {} uplinks: {} placed, {} uplinks idle, the busiest carrying {}. Expected: {} idle, busiest {}.",
                self.flows(),
                self.qps(),
                if self.qps() == 1 { "" } else { "s" },
                self.paths(),
                self.placed,
                self.idle_now(),
                self.busiest_now(),
                decimal(o.idle, 2),
                decimal(o.expected_busiest(), 2)
            ),
        )
        .figure(figures::uplinks(self, ui.layout()))
        .table(figures::odds(self))
        .table(figures::compare(self))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let c = &self.config;
        let at = Balancer::ALL
            .iter()
            .position(|&b| b == c.balancer)
            .unwrap_or(0);
        let balancers = Balancer::ALL
            .iter()
            .map(|&b| {
                let value = match b {
                    Balancer::Ecmp => "ecmp",
                    Balancer::Flowlet => "flowlet",
                    Balancer::Spray => "spray",
                };
                (
                    value,
                    b.name().to_string(),
                    ui.act(EcmpAction::SetBalancer(b)),
                )
            })
            .collect();
        vec![
            Control::button(
                "place-all",
                "Hash every connection",
                ui.act(EcmpAction::PlaceAll),
            ),
            Control::button("send", "Run the step", ui.act(EcmpAction::Send)).primary(),
            Control::button("redraw", "New source ports", ui.act(EcmpAction::Redraw)),
            Control::note(
                "Step hashes the next connection; when all are placed, Step runs the all-reduce step.",
            ),
            Control::group(
                "Fixes",
                vec![
                    Control::choice("balancer", "The leaf spreads by", at, balancers),
                    bounded(ui, "qps", "QPs a connection", &QPS, c.qps, false, EcmpAction::SetQps),
                    bounded(ui, "gaps", "Pauses a step", &GAPS, c.gaps, false, EcmpAction::SetGaps),
                    bounded(ui, "pause", "Pause length", &PAUSE, c.pause, true, EcmpAction::SetPause),
                    bounded(ui, "paths", "Uplinks", &PATHS, c.paths, false, EcmpAction::SetPaths),
                ],
            ),
            Control::danger_group(
                "Break it",
                vec![
                    bounded(
                        ui,
                        "flows",
                        "Connections",
                        &FLOWS,
                        c.flows,
                        false,
                        EcmpAction::SetFlows,
                    )
                    .danger(),
                    Control::note(format!(
                        "Few large flows are low entropy: {LOW} connections on {LOW} uplinks all land apart only {} % of the time. With flowlets, a pause of a tick or two lets a new flowlet overtake the old one.",
                        decimal(no_collision(LOW, LOW) * 100.0, 2)
                    )),
                ],
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::fabric::ecmp::EcmpConfig;
    use demos::Model;

    #[test]
    fn every_uplink_is_drawn_and_keys_are_unique() {
        let mut m = Ecmp::new(&EcmpConfig::default());
        m.apply(&EcmpAction::PlaceAll).unwrap();
        m.apply(&EcmpAction::Send).unwrap();
        let scene = crate::build(&m, &()).0;
        for j in 0..8 {
            assert!(scene.find(&format!("path-{j}")).is_some());
        }
        assert!(scene.table_named("odds").is_some());
        assert!(scene.table_named("compare").is_some());
        assert!(scene.repeated_keys().is_empty());
    }

    /// The default draw piles three connections on uplink 7 and leaves four
    /// uplinks idle.
    #[test]
    fn the_default_draw_crowds_an_uplink() {
        let mut m = Ecmp::new(&EcmpConfig::default());
        m.apply(&EcmpAction::PlaceAll).unwrap();
        let scene = crate::build(&m, &()).0;
        assert_eq!(
            scene.find("path-7").unwrap().state.as_deref(),
            Some("crowded")
        );
        assert_eq!(scene.find("path-3").unwrap().state.as_deref(), Some("idle"));
    }
}
