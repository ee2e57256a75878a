//! The one catalogue: it drives the home page, the routes and page titles.
//! A demo is on the site if and only if it has an entry here.

use demos::nic::busy_poll::BusyPoll;
use demos::nic::cut_through::CutThrough;
use demos::nic::descriptor_ring::DescriptorRing;
use demos::nic::iommu::Iommu;
use demos::nic::mmio::Mmio;
use demos::nic::napi::Napi;
use demos::nic::rdma_qp::RdmaQp;
use demos::nic::send_path::SendPath;
use views::{open, LiveDemo};

/// A section of the lab.
pub struct Section {
    /// First path segment, e.g. `nic`.
    pub id: &'static str,
    pub title: &'static str,
    pub purpose: &'static str,
}

/// Opens a demo from a share-link value: the running demo, and a notice when
/// the link could not be restored.
pub type Open = fn(Option<&str>) -> (Box<dyn LiveDemo>, Option<String>);

/// A demo that exists. There are no placeholder entries.
pub struct Demo {
    pub section: &'static str,
    pub slug: &'static str,
    pub title: &'static str,
    pub one_liner: &'static str,
    pub open: Open,
}

impl Demo {
    /// The route, without the site's base path.
    pub fn path(&self) -> String {
        format!("/{}/{}", self.section, self.slug)
    }
}

pub const SECTIONS: &[Section] = &[
    Section {
        id: "nic",
        title: "The NIC datapath",
        purpose: "Move a packet between host memory and the wire, one register write at a time.",
    },
    Section {
        id: "memory",
        title: "Concurrency & the memory model",
        purpose: "Race two threads, watch lock-free code fail, then make it correct.",
    },
    Section {
        id: "cpu",
        title: "CPU & microarchitecture",
        purpose: "Caches, TLBs, predictors and sockets: the machine under your C.",
    },
    Section {
        id: "net",
        title: "Networking, TCP & AI fabric",
        purpose: "From the three-way handshake to collectives across a GPU cluster.",
    },
];

pub const DEMOS: &[Demo] = &[
    Demo {
        section: "nic",
        slug: "descriptor-ring",
        title: "Descriptor ring (RX/TX)",
        one_liner: "Post buffers, fence, ring the doorbell; the NIC DMAs and hands each descriptor back.",
        open: open::<DescriptorRing>,
    },
    Demo {
        section: "nic",
        slug: "send-path",
        title: "Send path latency",
        one_liner: "Walk a frame from send() to the wire, then strip stages away with bypass, TX push and CTPIO.",
        open: open::<SendPath>,
    },
    Demo {
        section: "nic",
        slug: "busy-poll",
        title: "Interrupt vs busy-poll (RX)",
        one_liner: "Trade the interrupt and wakeup for a spinning core, and find the packet rate where that pays.",
        open: open::<BusyPoll>,
    },
    Demo {
        section: "nic",
        slug: "mmio",
        title: "MMIO write vs read",
        one_liner: "Post writes and move on, or read a register and wait: race both on one clock.",
        open: open::<Mmio>,
    },
    Demo {
        section: "nic",
        slug: "iommu",
        title: "IOMMU / IOVA",
        one_liner: "Aim the device's DMA at any address; the IOMMU translates it, or blocks it and logs a fault.",
        open: open::<Iommu>,
    },
    Demo {
        section: "nic",
        slug: "napi",
        title: "NAPI poll loop",
        one_liner: "One interrupt starts a burst; budgeted polls drain the ring, then the line is re-armed.",
        open: open::<Napi>,
    },
    Demo {
        section: "nic",
        slug: "cut-through",
        title: "Cut-through (CTPIO)",
        one_liner: "Start the wire before the frame is in, then outrun PCIe and watch it get poisoned.",
        open: open::<CutThrough>,
    },
    Demo {
        section: "nic",
        slug: "rdma-qp",
        title: "RDMA queue pair",
        one_liner: "Post a send, ring the doorbell, poll the completion: no syscall, no copy, until a bad key breaks the QP.",
        open: open::<RdmaQp>,
    },
];

pub fn find(section: &str, slug: &str) -> Option<&'static Demo> {
    DEMOS
        .iter()
        .find(|d| d.section == section && d.slug == slug)
}

pub fn demos_in(section: &str) -> impl Iterator<Item = &'static Demo> + '_ {
    DEMOS.iter().filter(move |d| d.section == section)
}

pub fn section(id: &str) -> Option<&'static Section> {
    SECTIONS.iter().find(|s| s.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_demo_belongs_to_a_section_and_paths_are_unique() {
        for demo in DEMOS {
            assert!(section(demo.section).is_some(), "{}", demo.slug);
            assert_eq!(DEMOS.iter().filter(|d| d.path() == demo.path()).count(), 1);
        }
    }
}
