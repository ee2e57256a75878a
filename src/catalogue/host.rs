//! The Host I/O section: between the NIC and the host's memory and cores.

use super::Demo;
use demos::host::pcie::Pcie;

pub const DEMOS: &[Demo] = &[Demo {
    section: "host",
    slug: "pcie",
    title: "The PCIe budget",
    one_liner: "Program a link's generation, width and payload size, send a DMA TLP by TLP, and see what is left for data.",
    open: split_open!(pcie: Pcie),
}];
