//! Goodput against the clients' load, from the model's own runs: for each
//! rate, one run from an empty queue with no trigger, one with the trigger
//! as set; each measured as goodput a tick over the run's last ticks.

use super::config::{MetastableConfig, HORIZON, TAIL};
use super::server::Server;

#[derive(Clone, Debug, PartialEq)]
pub struct SweepPoint {
    /// New requests a tick.
    pub rate: u32,
    /// Goodput a tick at the end of the run with no trigger.
    pub calm: f64,
    /// The same after the trigger.
    pub after: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    pub points: Vec<SweepPoint>,
}

/// Goodput a tick over the last `TAIL` ticks of a whole run of `c`.
pub fn settled_goodput(c: &MetastableConfig) -> f64 {
    let mut s = Server::new(c.seed);
    for _ in 0..HORIZON {
        s.step(c);
    }
    s.goodput(HORIZON - TAIL, HORIZON)
}

/// Rates 0 to twice the capacity (within the rate's bound).
pub fn sweep(c: &MetastableConfig) -> Sweep {
    let top = (2 * c.capacity).min(super::config::RATE.max);
    let points = (0..=top)
        .map(|rate| {
            let mut with = c.clone();
            with.rate = rate;
            let mut calm = with.clone();
            calm.trigger.length = 0;
            SweepPoint {
                rate,
                calm: settled_goodput(&calm),
                after: settled_goodput(&with),
            }
        })
        .collect();
    Sweep { points }
}

impl Sweep {
    /// The rates at which the two runs settle apart: where the system has
    /// two stable states (goodput differs by more than one request a tick).
    pub fn bistable(&self) -> Vec<u32> {
        self.points
            .iter()
            .filter(|p| p.calm - p.after > 1.0)
            .map(|p| p.rate)
            .collect()
    }
}
