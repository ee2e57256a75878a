//! The Host I/O section's pictures.

pub mod pcie;
pub mod rss;
