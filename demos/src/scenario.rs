//! Scenarios: a configuration plus an action log, encoded compactly for share
//! links as `v1.` followed by URL-safe base64 of the postcard bytes.
//!
//! A link is hostile input. Decoding checks its length before anything else,
//! rejects unknown versions, trailing bytes and oversized logs, and never
//! panics; replay (in [`crate::Timeline::from_scenario`]) then checks that every
//! step is one the model accepts.

use crate::base64url;
use crate::model::Model;
use serde::{Deserialize, Serialize};
use std::fmt;

const VERSION_PREFIX: &str = "v1.";
/// Longest encoded scenario accepted: a link is for sharing a moment, not a novel.
pub const MAX_ENCODED_LEN: usize = 12_000;
/// Most actions a scenario may hold.
pub const MAX_ACTIONS: usize = 4_000;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Scenario<M: Model> {
    pub config: M::Config,
    pub actions: Vec<M::Action>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScenarioError {
    TooLong(usize),
    UnknownVersion,
    NotBase64,
    Malformed,
    TooManyActions(usize),
    BadConfig(String),
    Refused { step: usize, reason: String },
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioError::TooLong(n) => write!(
                f,
                "the link's state is {n} characters long, more than the {MAX_ENCODED_LEN} allowed"
            ),
            ScenarioError::UnknownVersion => {
                write!(f, "the link's state is not in a format this version reads")
            }
            ScenarioError::NotBase64 => write!(f, "the link's state is not valid URL-safe base64"),
            ScenarioError::Malformed => write!(f, "the link's state does not decode for this demo"),
            ScenarioError::TooManyActions(n) => write!(
                f,
                "the link holds {n} steps, more than the {MAX_ACTIONS} allowed"
            ),
            ScenarioError::BadConfig(why) => write!(f, "the link's settings are invalid: {why}"),
            ScenarioError::Refused { step, reason } => {
                write!(f, "step {step} of the link cannot be replayed: {reason}")
            }
        }
    }
}

impl<M: Model> Scenario<M> {
    pub fn encode(&self) -> String {
        // Serialising plain data into a Vec cannot fail.
        let bytes = postcard::to_allocvec(self).unwrap_or_default();
        format!("{VERSION_PREFIX}{}", base64url::encode(&bytes))
    }

    pub fn decode(text: &str) -> Result<Self, ScenarioError> {
        if text.len() > MAX_ENCODED_LEN {
            return Err(ScenarioError::TooLong(text.len()));
        }
        let body = text
            .strip_prefix(VERSION_PREFIX)
            .ok_or(ScenarioError::UnknownVersion)?;
        let bytes = base64url::decode(body).ok_or(ScenarioError::NotBase64)?;
        let (scenario, rest): (Self, &[u8]) =
            postcard::take_from_bytes(&bytes).map_err(|_| ScenarioError::Malformed)?;
        if !rest.is_empty() {
            return Err(ScenarioError::Malformed);
        }
        if scenario.actions.len() > MAX_ACTIONS {
            return Err(ScenarioError::TooManyActions(scenario.actions.len()));
        }
        Ok(scenario)
    }
}
