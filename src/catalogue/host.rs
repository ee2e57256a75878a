//! The Host I/O section: between the NIC and the host's memory and cores.

use super::Demo;
use demos::host::pcie::Pcie;
use demos::host::rss::Rss;

pub const DEMOS: &[Demo] = &[
    Demo {
        section: "host",
        slug: "pcie",
        title: "The PCIe budget",
        one_liner: "Program a link's generation, width and payload size, send a DMA TLP by TLP, and see what is left for data.",
        open: split_open!(pcie: Pcie),
    },
    Demo {
        section: "host",
        slug: "rss",
        title: "Many queues, many cores",
        one_liner: "Hash flows through the RSS table to queues, interrupts and cores; edit the table, add elephants, and steer with RPS, RFS and XPS.",
        open: split_open!(rss: Rss),
    },
];
