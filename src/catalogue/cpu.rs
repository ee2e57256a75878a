//! The CPU & microarchitecture section.

use super::Demo;

pub const DEMOS: &[Demo] = &[];
