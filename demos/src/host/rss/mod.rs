//! The `/host/rss` demo: received packets spread over queues and cores.
//! A flow's Toeplitz hash picks an indirection-table entry, the entry a
//! queue, the queue's MSI-X vector a core; RPS, RFS and XPS move the work
//! on in software.

pub mod flows;
mod model;
pub mod steering;
#[cfg(test)]
mod tests;

pub use model::{Path, Rss, RssAction, RssConfig, FLOWS, PER_NODE, QUEUES, TABLE_ENTRIES};
