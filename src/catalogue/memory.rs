//! The Concurrency & the memory model section.

use super::Demo;
use demos::memory::aba::Aba;
use demos::memory::cas::Cas;
use demos::memory::false_sharing::FalseSharing;
use demos::memory::mpmc::Mpmc;
use demos::memory::rcu::Rcu;
use demos::memory::reordering::Reordering;
use demos::memory::spsc::Spsc;

pub const DEMOS: &[Demo] = &[
    Demo {
        section: "memory",
        slug: "reordering",
        title: "Memory reordering: the litmus explorer",
        one_liner: "Pick a litmus test and a memory model: see every outcome it allows, the cycle that forbids the rest, and schedule the run yourself.",
        open: split_open!(reordering: Reordering),
    },
    Demo {
        section: "memory",
        slug: "cas",
        title: "CAS retry loop",
        one_liner: "Schedule threads on a shared counter: plain increments lose updates, a CAS loop retries, fetch_add is one locked instruction (or an LL/SC loop).",
        open: split_open!(cas: Cas),
    },
    Demo {
        section: "memory",
        slug: "aba",
        title: "The ABA problem",
        one_liner: "A stale CAS on a Treiber stack succeeds because the node came back; a tag or hazard pointers stop it.",
        open: split_open!(aba: Aba),
    },
    Demo {
        section: "memory",
        slug: "spsc",
        title: "SPSC ring buffer",
        one_liner: "Step a lock-free single-producer single-consumer ring through a store buffer, then publish the tail too early and read a stale slot.",
        open: split_open!(spsc: Spsc),
    },
    Demo {
        section: "memory",
        slug: "mpmc",
        title: "MPMC ring",
        one_liner: "Two producers and two consumers race for Vyukov's slots; sequence numbers say when a slot is really full.",
        open: split_open!(mpmc: Mpmc),
    },
    Demo {
        section: "memory",
        slug: "rcu",
        title: "RCU grace period",
        one_liner: "Replace a list node under running readers, then free the old one only when every earlier reader has left.",
        open: split_open!(rcu: Rcu),
    },
    Demo {
        section: "memory",
        slug: "false-sharing",
        title: "False sharing",
        one_liner: "Two cores write two variables on one cache line and the line ping-pongs; pad them apart and it stops.",
        open: split_open!(false_sharing: FalseSharing),
    },
];
