//! The journey: one message followed through every layer. It belongs to no
//! section: its page is `/journey`, linked from the home page's top and
//! from each demo a stage of it comes from.

use super::Demo;
use demos::journey::Journey;

pub const TOURS: &[Demo] = &[Demo {
    section: "",
    slug: "journey",
    title: "One message, end to end",
    one_liner: "Follow one send() through every layer to the other application, see which stage dominates, and take stages away.",
    open: split_open!(journey: Journey),
}];

/// The sections whose demos' models the journey composes. Its module shares
/// their chunks (`scripts/catalogue.py families`); a test checks that every
/// stage's demo is in one of them. (The build reads it, so the app does
/// not.)
#[cfg_attr(not(test), allow(dead_code))]
pub const DRAWS_ON: &[&str] = &["nic", "host", "net"];
