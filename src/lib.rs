//! Stack Lab's front-end: the shell (catalogue, routes, embed mode, share
//! links, keyboard) and the one renderer that draws every page: the
//! catalogue, the site frame, and any demo's picture and controls, all
//! element trees. No UI framework runs in the page (see ARCHITECTURE.md for
//! the start-up measurement behind that).
//!
//! Architecture invariant: a demo's picture is data. Every demo's scene and
//! controls come from the `views` crate as plain data; this crate draws them
//! and sends back what the learner did. Nothing here is specific to a demo.

mod allocator;
pub mod app;
pub mod catalogue;
pub mod platform;
pub mod render;
pub mod router;
pub mod shell;
