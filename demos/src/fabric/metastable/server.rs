//! One tick of the server and its clients: the whole rule of the model.
//!
//! In tick `t`, in this order:
//! 1. The clients send: the new requests (their rate, plus a burst), then
//!    the retries due at `t`. A request is refused at once when the queue is
//!    at its limit, or, with shedding on, at the shedding threshold; a
//!    refusal is a failure the client sees at once.
//! 2. The server takes up to its capacity of requests from the queue: the
//!    oldest first, or the newest with LIFO on. A request taken at tick `t`
//!    with `t` before its deadline is goodput; one taken later is wasted
//!    work, since its client has already given up. With the deadline check
//!    on, such a request is thrown away without using capacity.
//! 3. Every client whose request is still queued at its deadline gives up
//!    at the end of the tick: a timeout, a failure. The request stays queued
//!    (the server is not told), now dead.
//!
//! A failure is retried while the client has retries left and, with the
//! retry budget on, while the token bucket allows it; the retry is sent next
//! tick, or after a jittered backoff.

use super::backoff;
use super::budget::TokenBucket;
use super::config::MetastableConfig;
use crate::rng::Rng;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// One attempt of one client's request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    /// The tick it was sent.
    pub sent: u32,
    /// The tick its client has given up by: `sent + timeout`.
    pub deadline: u32,
    /// 0 for the first attempt, n for the n-th retry.
    pub attempt: u8,
}

impl Request {
    /// Whether its client has given up by tick `t`.
    pub fn dead_at(&self, t: u32) -> bool {
        t >= self.deadline
    }
}

/// A retry a client will send at tick `due`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    pub due: u32,
    pub attempt: u8,
}

/// What happened in one tick.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TickRecord {
    pub tick: u32,
    /// The server's capacity this tick.
    pub capacity: u32,
    /// New requests sent, and retries sent.
    pub new: u32,
    pub retried: u32,
    /// Requests refused at once: the queue was at its limit, or shed.
    pub refused: u32,
    /// Of those, refused by shedding.
    pub shed: u32,
    /// Served before the deadline (goodput), and after it (wasted).
    pub good: u32,
    pub wasted: u32,
    /// Dead requests thrown away unserved (the deadline check).
    pub discarded: u32,
    /// Clients that gave up at the end of this tick.
    pub timed_out: u32,
    /// Failures not retried: out of retries, or stopped by the budget.
    pub given_up: u32,
    /// Of those, stopped by the budget.
    pub throttled: u32,
    /// Queued at the end of the tick, and of them, dead.
    pub queue: u32,
    pub dead: u32,
    /// The budget's tokens at the end of the tick, in thousandths.
    pub tokens_milli: u32,
}

impl TickRecord {
    /// Requests offered to the server this tick: new ones and retries.
    pub fn offered(&self) -> u32 {
        self.new + self.retried
    }
}

/// The queue, the clients' pending retries, the budget and the run so far.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Server {
    /// The next tick to run.
    pub tick: u32,
    /// Oldest at the front. Requests join at the back with the current
    /// tick, so the queue stays ordered by the tick they were sent.
    pub queue: VecDeque<Request>,
    pub pending: Vec<Pending>,
    pub bucket: TokenBucket,
    pub rng: Rng,
    /// One record a tick, from tick 0.
    pub history: Vec<TickRecord>,
}

impl Server {
    pub fn new(seed: u64) -> Self {
        Server {
            tick: 0,
            queue: VecDeque::new(),
            pending: Vec::new(),
            bucket: TokenBucket::default(),
            rng: Rng::new(seed),
            history: Vec::new(),
        }
    }

    /// Requests queued whose clients have given up by tick `t`.
    pub fn dead_at(&self, t: u32) -> usize {
        self.queue.iter().filter(|r| r.dead_at(t)).count()
    }

    /// Runs one tick under `c`, keeps its record and returns it.
    pub fn step(&mut self, c: &MetastableConfig) -> TickRecord {
        let t = self.tick;
        let mut rec = TickRecord {
            tick: t,
            capacity: c.capacity_at(t),
            ..TickRecord::default()
        };
        // 1. Sends: new requests, then the retries due now.
        let mut sends: Vec<u8> = vec![0; c.arrivals_at(t) as usize];
        rec.new = sends.len() as u32;
        let (due, later): (Vec<Pending>, Vec<Pending>) =
            self.pending.iter().partition(|p| p.due <= t);
        self.pending = later;
        rec.retried = due.len() as u32;
        sends.extend(due.iter().map(|p| p.attempt));
        for attempt in sends {
            let len = self.queue.len() as u32;
            if c.fixes.shed && len >= c.shed_at {
                rec.refused += 1;
                rec.shed += 1;
                self.fail(attempt, t, c, &mut rec);
            } else if len >= c.queue_limit {
                rec.refused += 1;
                self.fail(attempt, t, c, &mut rec);
            } else {
                self.queue.push_back(Request {
                    sent: t,
                    deadline: t.saturating_add(c.timeout),
                    attempt,
                });
            }
        }
        // 2. Service.
        let mut served = 0;
        while served < rec.capacity {
            let taken = if c.fixes.lifo {
                self.queue.pop_back()
            } else {
                self.queue.pop_front()
            };
            let Some(r) = taken else { break };
            if r.dead_at(t) {
                if c.fixes.deadline {
                    rec.discarded += 1;
                    continue;
                }
                rec.wasted += 1;
            } else {
                rec.good += 1;
                if c.fixes.budget {
                    self.bucket.success();
                }
            }
            served += 1;
        }
        // 3. Timeouts at the end of the tick.
        let expiring: Vec<u8> = self
            .queue
            .iter()
            .filter(|r| r.deadline == t + 1)
            .map(|r| r.attempt)
            .collect();
        rec.timed_out = expiring.len() as u32;
        for attempt in expiring {
            self.fail(attempt, t, c, &mut rec);
        }
        rec.queue = self.queue.len() as u32;
        rec.dead = self.dead_at(t + 1) as u32;
        rec.tokens_milli = self.bucket.milli;
        self.tick = t + 1;
        self.history.push(rec.clone());
        rec
    }

    /// A client saw attempt `attempt` fail at tick `t`: retry, or give up.
    fn fail(&mut self, attempt: u8, t: u32, c: &MetastableConfig, rec: &mut TickRecord) {
        if c.fixes.budget {
            // A6: the failure takes its token before the retry is decided.
            self.bucket.failure();
        }
        if attempt >= c.retries {
            rec.given_up += 1;
            return;
        }
        if c.fixes.budget && !self.bucket.allows_retry() {
            rec.given_up += 1;
            rec.throttled += 1;
            return;
        }
        let n = attempt + 1;
        let wait = if c.fixes.backoff {
            backoff::wait(n, &mut self.rng)
        } else {
            0
        };
        self.pending.push(Pending {
            due: t + 1 + wait,
            attempt: n,
        });
    }

    /// Goodput a tick over the ticks `from..to` of the history.
    pub fn goodput(&self, from: u32, to: u32) -> f64 {
        let span = to.saturating_sub(from);
        if span == 0 {
            return 0.0;
        }
        let good: u64 = self
            .history
            .iter()
            .filter(|r| r.tick >= from && r.tick < to)
            .map(|r| u64::from(r.good))
            .sum();
        good as f64 / f64::from(span)
    }
}
