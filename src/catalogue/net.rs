//! The Networking, TCP & AI fabric section.

use super::Demo;

pub const DEMOS: &[Demo] = &[];
