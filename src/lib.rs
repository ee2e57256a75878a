//! Stack Lab's front-end: the shell (catalogue, routes, embed mode, share
//! links, keyboard), shared widgets, and one thin view per demo.
//!
//! Architecture invariant: views render a model snapshot and send actions;
//! every rule and every number lives in the `demos` crate.

pub mod app;
pub mod catalogue;
pub mod platform;
pub mod shell;
pub mod views;
pub mod widgets;
