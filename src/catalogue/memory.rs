//! The Concurrency & the memory model section.

use super::Demo;

pub const DEMOS: &[Demo] = &[];
