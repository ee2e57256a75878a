//! The Host I/O section: between the NIC and the host's memory and cores.

use super::Demo;
use demos::host::pcie::Pcie;
use demos::host::ring_sizing::RingSizing;
use demos::host::rss::Rss;
use demos::host::streaming::Streaming;
use demos::host::zero_copy::ZeroCopy;

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
    Demo {
        section: "host",
        slug: "zero-copy",
        title: "Zero-copy receive",
        one_liner: "Where received bytes land: copied out of kernel pages, or written straight into device or user memory bound to one queue.",
        open: split_open!(zero_copy: ZeroCopy),
    },
    Demo {
        section: "host",
        slug: "streaming",
        title: "Packetized vs streaming",
        one_liner: "A descriptor per packet against Ensō's byte stream: PCIe bytes, cache lines and one core at 100 Gb/s.",
        open: split_open!(streaming: Streaming),
    },
    Demo {
        section: "host",
        slug: "ring-sizing",
        title: "Ring sizing",
        one_liner: "How deep a receive ring: absorb the core's stalls at line rate, yet stay in DDIO's cache ways.",
        open: split_open!(ring_sizing: RingSizing),
    },
];
