//! Retry storms: the queue with its dead requests, goodput and wasted work
//! tick by tick, and goodput against load for the two starting states.

mod figures;
mod lesson;

use crate::control::Control;
use crate::knob::bounded;
use crate::live::{Ui, View};
use crate::scene::Scene;
use demos::fabric::metastable::config::{RATE, RETRIES, TIMEOUT, TIPPING_LENGTH, TRIGGER_LENGTH};
use demos::fabric::metastable::{Metastable, MetastableAction as A, TriggerKind};
use demos::text::decimal;

/// Ticks the "Run" button runs.
const RUN_TICKS: u32 = 10;

impl View for Metastable {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        let layout = ui.layout();
        let (len, dead) = self.queued();
        let c = &self.config;
        Scene::new(
            "Retry storms",
            format!(
                "Tick {} of the run: {} new requests a tick against a capacity of {}, a {}-tick timeout and up to {} retries. The queue holds {len}, {dead} dead; goodput over the last ticks is {} a tick.",
                self.tick(),
                c.rate,
                c.capacity,
                c.timeout,
                c.retries,
                decimal(self.recent_goodput(), 1)
            ),
        )
        .figure(figures::queue(self, layout))
        .figure(figures::timeline(self, layout))
        .figure(figures::sweep(self, layout))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let c = &self.config;
        let f = &c.fixes;
        vec![
            Control::button("run-10", format!("Run {RUN_TICKS} ticks"), ui.act(A::Run(RUN_TICKS))),
            Control::button("to-end", "Run to the end", ui.act(A::ToEnd)),
            Control::button("restart", "Start again", ui.act(A::Restart)),
            Control::note("Step runs one tick. A setting or a fix applies from the next tick; Start again runs from an empty queue with it."),
            Control::group(
                "Clients and trigger",
                vec![
                    bounded(ui, "rate", "New requests a tick", &RATE, c.rate, false, A::SetRate),
                    bounded(ui, "timeout", "Timeout", &TIMEOUT, c.timeout, false, A::SetTimeout),
                    Control::choice(
                        "trigger-kind",
                        "Trigger",
                        usize::from(c.trigger.kind == TriggerKind::Burst),
                        vec![
                            ("slowdown".to_string(), format!("Slowdown to {} a tick", c.trigger.slow_capacity), ui.act(A::SetTriggerKind(TriggerKind::Slowdown))),
                            ("burst".to_string(), format!("Burst of {} more a tick", c.trigger.burst), ui.act(A::SetTriggerKind(TriggerKind::Burst))),
                        ],
                    ),
                ],
            ),
            Control::group(
                "Fixes",
                vec![
                    Control::toggle("budget", "Retry budget (gRPC's token bucket)", f.budget, ui.act(A::SetBudget(!f.budget))),
                    Control::toggle("backoff", "Exponential backoff with jitter", f.backoff, ui.act(A::SetBackoff(!f.backoff))),
                    Control::toggle("lifo", "Serve the newest first (LIFO)", f.lifo, ui.act(A::SetLifo(!f.lifo))),
                    Control::toggle("deadline", "Drop requests past their deadline", f.deadline, ui.act(A::SetDeadline(!f.deadline))),
                    Control::toggle("shed", format!("Shed load above {} queued", c.shed_at), f.shed, ui.act(A::SetShed(!f.shed))),
                ],
            ),
            Control::danger_group(
                "Break it",
                vec![
                    bounded(ui, "trigger-length", "Trigger length", &TRIGGER_LENGTH, c.trigger.length, false, A::SetTriggerLength).danger(),
                    Control::note(format!("Try {TIPPING_LENGTH} ticks, then Start again: a longer trigger fills the queue past what a timeout allows.")),
                    bounded(ui, "retries", "Retries a request", &RETRIES, c.retries, false, A::SetRetries).danger(),
                    Control::note("More retries with no budget: each new request can cost one attempt more."),
                ],
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::fabric::metastable::MetastableConfig;
    use demos::Model;

    #[test]
    fn every_figure_is_drawn() {
        let m = Metastable::new(&MetastableConfig::default());
        let scene = crate::build(&m, &()).0;
        for key in [
            "queue", "cell-0", "trigger", "good", "wasted", "offered", "calm", "after", "now-rate",
            "fixes",
        ] {
            assert!(scene.find(key).is_some(), "{key}");
        }
        assert!(scene.repeated_keys().is_empty());
    }

    /// A stuck run's queue is dead at the front: the first cell turns from
    /// empty to dead, the same key restyled.
    #[test]
    fn a_stuck_queue_shows_its_dead() {
        let mut c = MetastableConfig::default();
        c.trigger.length = TIPPING_LENGTH;
        let mut m = Metastable::new(&c);
        let state = |m: &Metastable| {
            let scene = crate::build(m, &()).0;
            scene.find("cell-0").unwrap().state.clone()
        };
        assert_eq!(state(&m).as_deref(), Some("empty"));
        m.apply(&A::ToEnd).unwrap();
        assert_eq!(state(&m).as_deref(), Some("dead"));
    }
}
