//! Stack Lab's front-end, a Leptos app: the shell (catalogue, routes, embed
//! mode, share links, keyboard), one `Scene` component that draws every
//! demo's picture and one `Controls` component that draws its controls.
//!
//! Architecture invariant: a demo's picture is data. Every demo's scene and
//! controls come from the `views` crate as plain data; this crate draws them
//! and sends back what the learner did. Nothing here is specific to a demo.

mod allocator;
pub mod app;
pub mod catalogue;
pub mod controls;
mod dom;
pub mod platform;
pub mod router;
pub mod scene;
pub mod shell;
