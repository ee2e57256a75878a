//! The Host I/O section's pictures.

mod link;
pub mod pcie;
pub mod ring_sizing;
pub mod rss;
pub mod streaming;
pub mod zero_copy;
