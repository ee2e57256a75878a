//! The CPU & microarchitecture section.

use super::Demo;
use demos::cpu::batching::Batching;
use demos::cpu::branch::Branch;
use demos::cpu::numa::Numa;
use views::open;

pub const DEMOS: &[Demo] = &[
    Demo {
        section: "cpu",
        slug: "branch",
        title: "Branch prediction",
        one_liner: "Sorted, shuffled or patterned data against four predictors: watch the counters learn and the mispredicts cost cycles.",
        open: open::<Branch>,
    },
    Demo {
        section: "cpu",
        slug: "numa",
        title: "NUMA local vs remote",
        one_liner: "Place a thread's pages by first touch or interleave, move the thread, and pay for every hop across the interconnect.",
        open: open::<Numa>,
    },
    Demo {
        section: "cpu",
        slug: "batching",
        title: "Batching",
        one_liner: "Share a fixed cost over a batch: throughput climbs, and the first item waits for the rest.",
        open: open::<Batching>,
    },
];
