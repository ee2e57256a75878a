//! The NIC datapath section.

use super::Demo;
use demos::nic::busy_poll::BusyPoll;
use demos::nic::coalescing::Coalescing;
use demos::nic::cut_through::CutThrough;
use demos::nic::descriptor_ring::DescriptorRing;
use demos::nic::dma_map::DmaMap;
use demos::nic::iommu::Iommu;
use demos::nic::mmio::Mmio;
use demos::nic::napi::Napi;
use demos::nic::rdma_qp::RdmaQp;
use demos::nic::send_path::SendPath;

pub const DEMOS: &[Demo] = &[
    Demo {
        section: "nic",
        slug: "descriptor-ring",
        title: "Descriptor ring (RX/TX)",
        one_liner: "Post buffers and ring the doorbell; the NIC DMAs and writes DD back, and HEAD and TAIL say who owns what.",
        open: split_open!(descriptor_ring: DescriptorRing),
    },
    Demo {
        section: "nic",
        slug: "send-path",
        title: "Send path latency",
        one_liner: "Walk a frame from send() to the wire, then strip stages away with bypass, TX push and CTPIO.",
        open: split_open!(send_path: SendPath),
    },
    Demo {
        section: "nic",
        slug: "busy-poll",
        title: "Interrupt vs busy-poll (RX)",
        one_liner: "Trade the interrupt and wakeup for a spinning core, and find the packet rate where that pays.",
        open: split_open!(busy_poll: BusyPoll),
    },
    Demo {
        section: "nic",
        slug: "coalescing",
        title: "Interrupt moderation",
        one_liner: "Hold the interrupt back by rx-usecs and rx-frames, and watch latency trade against CPU as packets arrive.",
        open: split_open!(coalescing: Coalescing),
    },
    Demo {
        section: "nic",
        slug: "mmio",
        title: "MMIO write vs read",
        one_liner: "Post writes and move on, or read a register and wait: race both on one clock.",
        open: split_open!(mmio: Mmio),
    },
    Demo {
        section: "nic",
        slug: "iommu",
        title: "IOMMU / IOVA",
        one_liner: "Aim the device's DMA at any address; the IOMMU translates it, or blocks it and logs a fault.",
        open: split_open!(iommu: Iommu),
    },
    Demo {
        section: "nic",
        slug: "dma-map",
        title: "Driver DMA behind the IOMMU",
        one_liner: "Map per frame or recycle pages kept mapped, miss or hit the IOTLB, unmap strict or lazy, and catch a late write in the stale window.",
        open: split_open!(dma_map: DmaMap),
    },
    Demo {
        section: "nic",
        slug: "napi",
        title: "NAPI poll loop",
        one_liner: "One interrupt starts a burst; budgeted polls drain the ring, then the line is re-armed.",
        open: split_open!(napi: Napi),
    },
    Demo {
        section: "nic",
        slug: "cut-through",
        title: "Cut-through (CTPIO)",
        one_liner: "Start the wire before the frame is in, then stall the CPU or outrun PCIe and watch it get poisoned.",
        open: split_open!(cut_through: CutThrough),
    },
    Demo {
        section: "nic",
        slug: "rdma-qp",
        title: "RDMA queue pair",
        one_liner: "Post sends, RDMA WRITEs and READs, poll the completions: no syscall, no copy, until a missing receive or a bad key breaks the QP.",
        open: split_open!(rdma_qp: RdmaQp),
    },
];
