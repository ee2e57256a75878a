//! The demo's settings: the server, the clients, the trigger and the fixes.
//! Every bound is declared once here; validation, refusals and sliders read
//! them.

use crate::bound::Bound;
use serde::{Deserialize, Serialize};

/// Ticks in a run: long enough to see the queue settle after the trigger.
pub const HORIZON: u32 = 200;
/// Goodput is averaged over the run's last ticks, long after the trigger.
pub const TAIL: u32 = 50;
/// A trigger length that tips the default server over: the Break-it value.
pub const TIPPING_LENGTH: u32 = 15;

pub const CAPACITY: Bound<u32> = Bound::new("server's capacity", " requests a tick", 1, 20);
pub const RATE: Bound<u32> = Bound::new("clients' new requests", " a tick", 0, 40);
pub const TIMEOUT: Bound<u32> = Bound::new("timeout", " ticks", 1, 50);
/// gRPC caps attempts at 5 on the client by default (A6, "Limits on Retries
/// and Hedges": `maxAttempts` "have, by default, a client-side maximum value
/// of 5"), so at most 4 retries.
pub const RETRIES: Bound<u8> = Bound::new("number of retries", "", 0, 4);
pub const QUEUE_LIMIT: Bound<u32> = Bound::new("queue's limit", " requests", 1, 400);
pub const SHED_AT: Bound<u32> = Bound::new("shedding threshold", " requests", 1, 400);
pub const TRIGGER_START: Bound<u32> = Bound::new("trigger's start", " ticks", 0, HORIZON);
pub const TRIGGER_LENGTH: Bound<u32> = Bound::new("trigger's length", " ticks", 0, 100);
pub const SLOW_CAPACITY: Bound<u32> =
    Bound::new("capacity during the slowdown", " requests a tick", 0, 20);
pub const BURST: Bound<u32> = Bound::new("burst", " extra requests a tick", 0, 100);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TriggerKind {
    /// The server's capacity drops for the trigger's ticks.
    Slowdown,
    /// Extra requests arrive in the trigger's ticks.
    Burst,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trigger {
    pub kind: TriggerKind,
    pub start: u32,
    pub length: u32,
    pub slow_capacity: u32,
    pub burst: u32,
}

impl Trigger {
    /// Whether tick `t` is one of the trigger's.
    pub fn active(&self, t: u32) -> bool {
        t >= self.start && t - self.start < self.length
    }

    /// The first tick after the trigger.
    pub fn end(&self) -> u32 {
        self.start.saturating_add(self.length)
    }
}

/// The fixes, each a toggle.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fixes {
    /// gRPC's retry throttling (`budget.rs`).
    pub budget: bool,
    /// Exponential backoff with full jitter (`backoff.rs`).
    pub backoff: bool,
    /// Serve the newest request first.
    pub lifo: bool,
    /// Throw away a request whose client has given up, unserved.
    pub deadline: bool,
    /// Refuse new requests while the queue holds `shed_at` or more.
    pub shed: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MetastableConfig {
    /// Requests the server completes a tick.
    pub capacity: u32,
    /// New requests the clients send a tick.
    pub rate: u32,
    /// Ticks a client waits for an answer before it gives up.
    pub timeout: u32,
    /// Retries a client makes after its first attempt fails.
    pub retries: u8,
    /// The most requests the queue holds; one more is refused.
    pub queue_limit: u32,
    pub shed_at: u32,
    pub trigger: Trigger,
    pub fixes: Fixes,
    /// Seeds the backoff's jitter.
    pub seed: u64,
}

impl Default for MetastableConfig {
    /// 8 new requests a tick against a capacity of 10: the server is busy
    /// 80 % of the time and keeps up. A slowdown to 5 a tick for 10 ticks
    /// is the trigger: the server recovers from it; 15 ticks tip it over
    /// (`TIPPING_LENGTH`). All numbers are ours, labelled parameters.
    fn default() -> Self {
        MetastableConfig {
            capacity: 10,
            rate: 8,
            timeout: 5,
            retries: 2,
            queue_limit: 200,
            shed_at: 50,
            trigger: Trigger {
                kind: TriggerKind::Slowdown,
                start: 20,
                length: 10,
                slow_capacity: 5,
                burst: 10,
            },
            fixes: Fixes::default(),
            seed: 1,
        }
    }
}

impl MetastableConfig {
    pub fn validate(&self) -> Result<(), String> {
        CAPACITY.check(self.capacity)?;
        RATE.check(self.rate)?;
        TIMEOUT.check(self.timeout)?;
        RETRIES.check(self.retries)?;
        QUEUE_LIMIT.check(self.queue_limit)?;
        SHED_AT.check(self.shed_at)?;
        TRIGGER_START.check(self.trigger.start)?;
        TRIGGER_LENGTH.check(self.trigger.length)?;
        SLOW_CAPACITY.check(self.trigger.slow_capacity)?;
        BURST.check(self.trigger.burst)?;
        if self.trigger.slow_capacity > self.capacity {
            return Err(format!(
                "The capacity during the slowdown ({}) cannot be above the server's capacity ({}).",
                self.trigger.slow_capacity, self.capacity
            ));
        }
        Ok(())
    }

    /// The server's capacity at tick `t`.
    pub fn capacity_at(&self, t: u32) -> u32 {
        if self.trigger.kind == TriggerKind::Slowdown && self.trigger.active(t) {
            self.trigger.slow_capacity
        } else {
            self.capacity
        }
    }

    /// New requests at tick `t`: the clients' rate, plus the burst.
    pub fn arrivals_at(&self, t: u32) -> u32 {
        if self.trigger.kind == TriggerKind::Burst && self.trigger.active(t) {
            self.rate + self.trigger.burst
        } else {
            self.rate
        }
    }
}
