//! The shell: everything around a demo's picture and controls.

pub mod demo_page;
mod focus;
pub mod frame;
pub mod home;
pub mod keyboard;
pub mod not_found;
