//! The pages around the pictures: the site frame, the catalogue, "no such
//! page", and the demo page with its state, chrome and keyboard shortcuts,
//! the API a page framing a demo drives it with, and the lab as a course's
//! activity.

pub mod back;
pub mod chrome;
pub mod demo_page;
mod export;
mod figures;
mod focus;
pub mod frame;
pub mod home;
pub mod keyboard;
pub mod lesson;
pub mod lms;
pub mod not_found;
pub mod offline;
pub mod page;
pub mod progress;
mod room;
pub mod slide;
