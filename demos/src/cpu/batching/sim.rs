//! The event engine: arrivals, flush timer and consumer on one time axis.
//!
//! When several events fall on the same nanosecond they run in a fixed
//! order — the consumer finishing, then an arrival, then the timer — so an
//! item arriving exactly as the timer fires still joins the batch.

use super::*;
use crate::text::{ns, plural};

/// The kinds of event on the time axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Next {
    Done(u64),
    Arrival(u64),
    Timer(u64),
}

impl Batching {
    pub(super) fn next_event(&self) -> Option<Next> {
        let done = self.serving.as_ref().map(|s| Next::Done(s.2));
        let arrival = self.next_arrival.map(Next::Arrival);
        let timer = self.deadline.map(Next::Timer);
        [done, arrival, timer]
            .into_iter()
            .flatten()
            .min_by_key(|e| match *e {
                Next::Done(t) => (t, 0),
                Next::Arrival(t) => (t, 1),
                Next::Timer(t) => (t, 2),
            })
    }

    /// Why no event is left.
    pub(super) fn why_stopped(&self) -> Refusal {
        if self.open.is_empty() {
            Refusal::new(format!(
                "The run is over: all {} items were processed. Change a setting to run again.",
                self.config.items
            ))
        } else {
            Refusal::new(format!(
                "Nothing more happens: {} item{} wait in a batch of {} that no arrival will fill and no timer will flush. Set a flush timeout.",
                self.open.len(),
                plural(self.open.len()),
                self.config.batch
            ))
        }
    }

    pub(super) fn step(&mut self) -> Outcome {
        match self.next_event() {
            None => Err(self.why_stopped()),
            Some(Next::Done(t)) => Ok(self.complete(t)),
            Some(Next::Arrival(t)) => Ok(self.arrive(t)),
            Some(Next::Timer(t)) => {
                self.now = t;
                Ok(self.flush(Flush::Timeout))
            }
        }
    }

    pub(super) fn finish(&mut self) -> Outcome {
        if self.next_event().is_none() {
            return Err(self.why_stopped());
        }
        // The steps' own lines are dropped, so they are not written at all.
        let quiet = std::mem::replace(&mut self.quiet, true);
        let mut steps = 0;
        while self.step().is_ok() {
            steps += 1;
        }
        self.quiet = quiet;
        Ok(vec![Event::info(format!(
            "{steps} events ran to {}: {} of {} items done.",
            ns(self.now as i64),
            self.latencies.len(),
            self.config.items
        ))
        .at("axis")])
    }

    fn arrive(&mut self, t: u64) -> Vec<Event> {
        self.now = t;
        self.arrived += 1;
        self.open.push(t);
        self.next_arrival = (self.arrived < self.config.items)
            .then(|| t + next_gap(&mut self.rng, self.config.gap_ns, self.config.poisson));
        let timer = (self.open.len() == 1 && self.config.timeout_ns > 0).then(|| {
            let at = t + u64::from(self.config.timeout_ns);
            self.deadline = Some(at);
            at
        });
        let mut events: Vec<Event> = self
            .say(|| {
                let mut text = format!(
                    "{}: item {} arrives; the batch holds {} of {}.",
                    ns(t as i64),
                    self.arrived,
                    self.open.len(),
                    self.config.batch
                );
                if let Some(at) = timer {
                    text += &format!(" Timer set for {}.", ns(at as i64));
                }
                Event::info(text)
                    .at(format!("item-{}", self.arrived))
                    .at("batch")
            })
            .into_iter()
            .collect();
        if self.open.len() == self.config.batch as usize {
            events.extend(self.flush(Flush::Full));
        }
        events
    }

    fn flush(&mut self, reason: Flush) -> Vec<Event> {
        let arrivals = std::mem::take(&mut self.open);
        self.deadline = None;
        self.batches_left += 1;
        self.full_batches += u32::from(reason == Flush::Full);
        let waited = self.now - arrivals[0];
        for &a in &arrivals {
            self.fill_wait_sum += self.now - a;
        }
        self.max_fill_wait = self.max_fill_wait.max(waited);
        let n = arrivals.len();
        let event = self.say(|| {
            let text = match reason {
                Flush::Full => format!(
                    "The batch is full: {n} item{} leave; the first waited {}.",
                    plural(n),
                    ns(waited as i64)
                ),
                Flush::Timeout => format!(
                    "The timer fires at {}: the batch leaves with {n} of {}; the first waited {}.",
                    ns(self.now as i64),
                    self.config.batch,
                    ns(waited as i64)
                ),
            };
            let tone = if reason == Flush::Full || self.config.batch == 1 {
                Event::info(text)
            } else {
                Event::warn(text)
            };
            tone.at("batch").at("timer")
        });
        self.ready.push_back(Batch {
            number: self.batches_left,
            arrivals,
            reason,
            left_at: self.now,
        });
        let mut events: Vec<Event> = event.into_iter().collect();
        if self.serving.is_none() {
            events.extend(self.start());
        }
        events
    }

    fn start(&mut self) -> Option<Event> {
        let batch = self.ready.pop_front().expect("start needs a ready batch");
        let n = batch.arrivals.len() as u64;
        let cost = u64::from(self.config.fixed_ns) + n * u64::from(self.config.per_item_ns);
        self.queue_wait_sum += (self.now - batch.left_at) * n;
        self.busy_ns += cost;
        self.fixed_spent_ns += u64::from(self.config.fixed_ns);
        let event = self.say(|| {
            Event::info(format!(
                "The consumer takes batch {}: {} fixed + {n} × {} = {}.",
                batch.number,
                ns(i64::from(self.config.fixed_ns)),
                ns(i64::from(self.config.per_item_ns)),
                ns(cost as i64)
            ))
            .at("consumer")
        });
        self.serving = Some((batch, self.now, self.now + cost));
        event
    }

    fn complete(&mut self, t: u64) -> Vec<Event> {
        self.now = t;
        let (batch, start, done) = self.serving.take().expect("completion needs a batch");
        let first = batch.arrivals[0];
        for &a in &batch.arrivals {
            // Bounded by the config limits (see `check`), so it fits a u32.
            self.latencies
                .push((done - a).min(u64::from(u32::MAX)) as u32);
        }
        let n = batch.arrivals.len();
        let newest = done - batch.arrivals[n - 1];
        self.history.push(BatchRecord {
            number: batch.number,
            size: n as u32,
            reason: batch.reason,
            first_arrival: first,
            left_at: batch.left_at,
            start,
            done,
        });
        if self.history.len() > HISTORY_KEPT {
            self.history.remove(0);
        }
        let mut events: Vec<Event> = self
            .say(|| {
                Event::done(format!(
                    "Batch {} done at {}: its items took {} to {} from arrival.",
                    batch.number,
                    ns(done as i64),
                    ns(newest as i64),
                    ns((done - first) as i64)
                ))
                .at("consumer")
            })
            .into_iter()
            .collect();
        if !self.ready.is_empty() {
            events.extend(self.start());
        }
        events
    }

    /// A narration line, unless this run is a quiet one whose lines nobody
    /// reads (the steps inside Finish, or [`Batching::finished`]).
    fn say(&self, event: impl FnOnce() -> Event) -> Option<Event> {
        (!self.quiet).then(event)
    }
}
