//! The Concurrency & the memory model section.

use super::Demo;
use demos::memory::reordering::Reordering;
use demos::memory::spsc::Spsc;
use views::open;

pub const DEMOS: &[Demo] = &[
    Demo {
        section: "memory",
        slug: "reordering",
        title: "Memory reordering: the litmus explorer",
        one_liner: "Pick a litmus test and a memory model: see every outcome it allows, the cycle that forbids the rest, and schedule the run yourself.",
        open: open::<Reordering>,
    },
    Demo {
        section: "memory",
        slug: "spsc",
        title: "SPSC ring buffer",
        one_liner: "Step a lock-free single-producer single-consumer ring through a store buffer, then publish the tail too early and read a stale slot.",
        open: open::<Spsc>,
    },
];
