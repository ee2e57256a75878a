//! Narration for each event the clock passes: written from the schedule's
//! numbers.

use super::schedule::{Op, OpKind};
use super::Mmio;
use crate::model::Event;
use crate::text::decimal;

impl Mmio {
    /// The lines for every event in `(from, to]`.
    pub(super) fn narrate(&self, from: u64, to: u64) -> Vec<Event> {
        let hit = |t: u64| t > from && t <= to;
        let mut events = Vec::new();
        let writes = self.writes();
        let reads = self.reads();
        for w in &writes {
            if hit(w.issue_end) {
                events.push(self.write_posted(w, writes.len()));
            }
            if hit(w.at_device) {
                events.push(
                    Event::info(format!(
                        "{} lands in the device register, {} ns after it was posted. No reply comes back.",
                        w.name(),
                        self.one_way()
                    ))
                    .at("writes-link"),
                );
            }
        }
        for r in &reads {
            if hit(r.issue_end) {
                events.push(
                    Event::warn(format!(
                        "{} leaves the core as a non-posted request: the core stalls until its Completion returns.",
                        r.name()
                    ))
                    .at("reads-core")
                    .at("reads-link"),
                );
            }
            if hit(r.at_device) {
                events.push(
                    Event::info(format!(
                        "The device answers {} with a Completion carrying the register's value; it needs another {} ns to get back.",
                        r.name(),
                        self.rtt_ns - self.one_way()
                    ))
                    .at("reads-link"),
                );
            }
            if r.completed.is_some_and(hit) {
                events.push(self.read_retired(r, reads.len()));
            }
        }
        if let Some(first) = events.first_mut() {
            first.text = format!("t = {to} ns: {}", first.text);
        }
        events
    }

    fn write_posted(&self, w: &Op, n: usize) -> Event {
        if w.index + 1 == n {
            Event::done(format!(
                "{} posted. All {n} writes are out: the core is free at {} ns, while they still drain to the device.",
                w.name(),
                w.issue_end
            ))
            .at("writes-core")
        } else {
            Event::info(format!(
                "{} posted after {} ns of issue; the core moves straight on to W{}.",
                w.name(),
                self.issue_ns,
                w.index + 1
            ))
            .at("writes-core")
        }
    }

    fn read_retired(&self, r: &Op, n: usize) -> Event {
        let done = r.core_free();
        if r.index + 1 == n {
            Event::done(format!(
                "{}'s Completion is back: all {n} reads retired at {done} ns, {}× the {} ns the writes held the core.",
                r.name(),
                decimal(self.speedup(), 1),
                self.writes_core_free()
            ))
            .at("reads-core")
        } else {
            Event::info(format!(
                "{}'s Completion is back after {} ns: the core retires it and only now issues {}{}.",
                r.name(),
                self.rtt_ns,
                OpKind::Read.letter(),
                r.index + 1
            ))
            .at("reads-core")
        }
    }
}
