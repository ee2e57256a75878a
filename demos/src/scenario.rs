//! Scenarios: a configuration plus an action log, encoded compactly for share
//! links as `v1.` followed by URL-safe base64 of the postcard bytes.
//!
//! A link may carry a second part after one more `.`: what the learner has
//! picked to look at (a view's `Look`), in the same base64 of postcard bytes
//! (`v1.<state>.<look>`). The state part reads the same with or without it, so
//! a link without a look (every link written before looks were carried, and
//! every link whose look is the default) still opens. The engine only encodes
//! and decodes the look ([`encode_look`], [`decode_look`]); whether a state
//! can show it is the view's question.
//!
//! A link is hostile input. Decoding checks its length before anything else,
//! rejects unknown versions, trailing bytes and oversized logs, and never
//! panics; replay (in [`crate::Timeline::from_scenario`]) then checks that every
//! step is one the model accepts.

use crate::base64url;
use crate::model::Model;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt;

const VERSION_PREFIX: &str = "v1.";
/// Longest encoded scenario accepted: a link is for sharing a moment, not a novel.
pub const MAX_ENCODED_LEN: usize = 12_000;
/// Most actions a scenario may hold.
pub const MAX_ACTIONS: usize = 4_000;
/// Longest encoded look accepted: a look is a choice or two (a line, a field).
pub const MAX_LOOK_LEN: usize = 200;

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

/// Why a link's look part could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LookError {
    TooLong(usize),
    NotBase64,
    Malformed,
}

impl fmt::Display for LookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LookError::TooLong(n) => write!(
                f,
                "it is {n} characters long, more than the {MAX_LOOK_LEN} allowed"
            ),
            LookError::NotBase64 => write!(f, "it is not valid URL-safe base64"),
            LookError::Malformed => write!(f, "it does not decode for this demo"),
        }
    }
}

/// A link's state part (what [`Scenario::decode`] reads, `v1.…`) and its
/// look part, if it has one: whatever follows the first `.` after the
/// version prefix. A text without the prefix is all state, so the state's
/// decoder reports the unknown version.
pub fn split_link(text: &str) -> (&str, Option<&str>) {
    let Some(body) = text.strip_prefix(VERSION_PREFIX) else {
        return (text, None);
    };
    match body.find('.') {
        Some(at) => {
            let end = VERSION_PREFIX.len() + at;
            (&text[..end], Some(&text[end + 1..]))
        }
        None => (text, None),
    }
}

/// A look as a link's look part: URL-safe base64 of its postcard bytes.
pub fn encode_look<T: Serialize>(look: &T) -> String {
    // Serialising plain data into a Vec cannot fail.
    base64url::encode(&postcard::to_allocvec(look).unwrap_or_default())
}

/// A link's look part, read as strictly as its state: length first, then
/// canonical base64, then postcard bytes with nothing left over. Never panics.
pub fn decode_look<T: DeserializeOwned>(text: &str) -> Result<T, LookError> {
    if text.len() > MAX_LOOK_LEN {
        return Err(LookError::TooLong(text.len()));
    }
    let bytes = base64url::decode(text).ok_or(LookError::NotBase64)?;
    let (look, rest): (T, &[u8]) =
        postcard::take_from_bytes(&bytes).map_err(|_| LookError::Malformed)?;
    if !rest.is_empty() {
        return Err(LookError::Malformed);
    }
    Ok(look)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_splits_into_state_and_look() {
        assert_eq!(split_link("v1.AAAA"), ("v1.AAAA", None));
        assert_eq!(split_link("v1.AAAA.AQ"), ("v1.AAAA", Some("AQ")));
        assert_eq!(split_link("v1.AAAA."), ("v1.AAAA", Some("")));
        assert_eq!(split_link("v1.AA.B.C"), ("v1.AA", Some("B.C")));
        assert_eq!(split_link("v2.AA.B"), ("v2.AA.B", None));
        assert_eq!(split_link(""), ("", None));
    }

    #[test]
    fn a_look_round_trips_and_a_bad_one_is_refused() {
        let look = (3usize, Some("ip-ttl".to_string()), true);
        let text = encode_look(&look);
        assert_eq!(
            decode_look::<(usize, Option<String>, bool)>(&text),
            Ok(look)
        );
        assert_eq!(decode_look::<usize>("!"), Err(LookError::NotBase64));
        assert_eq!(decode_look::<usize>(""), Err(LookError::Malformed));
        // Trailing bytes: 1 then 2.
        assert_eq!(
            decode_look::<u8>(&encode_look(&[1u8, 2])),
            Err(LookError::Malformed)
        );
        let long = "A".repeat(MAX_LOOK_LEN + 4);
        assert_eq!(
            decode_look::<usize>(&long),
            Err(LookError::TooLong(MAX_LOOK_LEN + 4))
        );
    }
}
