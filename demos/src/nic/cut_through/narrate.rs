//! Narration for each tick, from the two plans' numbers.

use super::plan::Plan;
use super::CutThrough;
use crate::model::Event;

impl CutThrough {
    /// The lines for everything that happens in `(from, to]` units.
    pub(super) fn narrate(&self, from: u64, to: u64) -> Vec<Event> {
        let hit = |t: u64| t > from && t <= to;
        let arrived: Vec<usize> = (0..self.chunks)
            .filter(|&k| hit(self.store_and_forward().arrival(k)))
            .collect();
        let head = format!("Tick {} ({}):", self.tick, self.fmt_ns(to));
        let all_in = self.store_and_forward().arrival(self.chunks - 1) <= to;
        let mut events = vec![match arrived.as_slice() {
            [] if all_in => Event::info(format!(
                "{head} PCIe has delivered the whole frame; only the wire is still busy."
            )),
            [] => Event::info(format!(
                "{head} the CPU is stalled: no chunk arrives over PCIe."
            ))
            .at("pcie"),
            [k] => Event::info(format!(
                "{head} chunk {k} arrived over PCIe ({} of {} in the NIC).",
                k + 1,
                self.chunks
            ))
            .at("pcie"),
            [a, .., b] => {
                Event::info(format!("{head} chunks {a} to {b} arrived over PCIe.")).at("pcie")
            }
        }];
        let sent_by_ct = self.mode.cuts_through();
        self.plan_events(
            &mut events,
            ("Store-and-forward", "sf", !sent_by_ct),
            &self.store_and_forward(),
            &hit,
        );
        self.plan_events(
            &mut events,
            ("Cut-through", "ct", sent_by_ct),
            &self.cut_through(),
            &hit,
        );
        events
    }

    /// `sent`: whether this lane is the frame the mode sends; the other lane
    /// is a comparison, and its underrun poisons nothing.
    fn plan_events(
        &self,
        events: &mut Vec<Event>,
        (name, key, sent): (&str, &str, bool),
        plan: &Plan,
        hit: &dyn Fn(u64) -> bool,
    ) {
        if hit(plan.start) {
            let why = if plan.threshold == plan.chunks {
                "the last chunk is in".to_string()
            } else {
                format!(
                    "{} chunk{} in, the threshold",
                    plan.threshold,
                    crate::text::plural(plan.threshold)
                )
            };
            events.push(
                Event::info(format!(
                    "{name}: first bit on the wire at {} ({why}).",
                    self.fmt_ns(plan.start)
                ))
                .at(key),
            );
        }
        match plan.underrun {
            Some(k) if hit(plan.end) && !sent => events.push(
                Event::warn(format!(
                    "{name} would run dry at {}: chunk {k} had not arrived when the wire needed it. In ct mode that frame would go out poisoned; in {} mode the NIC sends the whole frame instead.",
                    self.fmt_ns(plan.end),
                    self.mode.env()
                ))
                .at(key),
            ),
            Some(k) if hit(plan.end) => events.push(
                Event::fault(format!(
                    "{name} ran dry at {}: chunk {k} had not arrived when the wire needed it. The NIC cuts the frame short with a bad FCS, so the receiver drops it, and sends the fallback copy by DMA instead.",
                    self.fmt_ns(plan.end)
                ))
                .at(key),
            ),
            None if hit(plan.end) => events.push(
                Event::done(format!(
                    "{name}: last bit on the wire at {}.",
                    self.fmt_ns(plan.end)
                ))
                .at(key),
            ),
            _ => {}
        }
    }
}
