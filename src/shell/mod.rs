//! The shell: everything around a demo.

pub mod demo_host;
pub mod demo_route;
pub mod embed;
pub mod frame;
pub mod home;
pub mod keyboard;
pub mod not_found;
pub mod share;
