//! Stack Lab's simulation engine.
//!
//! Every demo is a [`Model`]: plain data that changes only through learner
//! [`Model::Action`]s and answers each with narration [`Event`]s or a
//! [`Refusal`]. The shared machinery — [`Timeline`] (step, back, reset),
//! [`Scenario`] (configuration + action log, the basis of share links) and
//! [`Rng`] (seeded randomness) — works for every model alike.
//!
//! Architecture invariant: this crate knows nothing of the web. No DOM, no
//! timers, no clock: time, when a model needs it, is an argument.

pub mod base64url;
pub mod bound;
pub mod cli;
pub mod coherence;
pub mod cpu;
pub mod fabric;
pub mod float;
pub mod gpu;
pub mod host;
pub mod journey;
pub mod laws;
pub mod memo;
pub mod memory;
pub mod model;
pub mod net;
pub mod nic;
pub mod rng;
pub mod scenario;
pub mod text;
pub mod timeline;

pub use bound::{Bound, Quantity};
pub use model::{Event, Figure, Model, Outcome, Refusal, Tone};
pub use rng::Rng;
pub use scenario::{LookError, Scenario, ScenarioError};
pub use timeline::{NarrationLine, Timeline};
