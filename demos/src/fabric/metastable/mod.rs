//! The `/fabric/metastable` demo: clients with timeouts and retries against
//! a server of fixed capacity. A short trigger (a slowdown or a burst) fills
//! the queue; requests wait past their clients' timeouts, the clients retry,
//! and the retries plus the dead work still queued keep the server
//! overloaded after the trigger ends: a metastable failure.
//!
//! Bronson, Aghayev, Charapko and Zhu, "Metastable Failures in Distributed
//! Systems", HotOS 2021, name the pattern: a system in a *vulnerable* state
//! (load high, but handled) meets a *trigger* that sets off a *sustaining
//! effect* (here retries: work amplification), and stays in the bad
//! *metastable* state after the trigger is removed. Huang et al.,
//! "Metastable Failures in the Wild", OSDI 2022, study "22 metastable
//! failures from 11 different organizations" and name "two types of
//! triggers and two types of amplification mechanisms" (abstract); a slowdown
//! lowers capacity, a burst raises load, and both are offered here. The
//! model is ours: one queue, whole requests, one tick at a time.

pub mod backoff;
pub mod budget;
pub mod config;
pub mod model;
pub mod server;
pub mod sweep;

#[cfg(test)]
mod tests;

pub use config::{Fixes, MetastableConfig, Trigger, TriggerKind};
pub use model::{Metastable, MetastableAction};
pub use server::{Server, TickRecord};
pub use sweep::{Sweep, SweepPoint};
