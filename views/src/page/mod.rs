//! Scenes and controls as elements for the live page (and, for figures, the
//! export). The app's renderer patches these into the DOM by key.

pub mod arrival;
pub mod chrome;
pub mod controls;
pub mod scene;
