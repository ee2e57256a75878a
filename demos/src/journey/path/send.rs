//! The sending host: `send()`, TCP, the qdisc, CTPIO or descriptor and
//! doorbell, and the NIC's fetch over PCIe. Costs are the send-path model's,
//! PCIe bytes the simple NIC's, CTPIO's head start the cut-through plan's.

use super::{off, Ctx, Stage};
use crate::host::pcie::nic::{Path as Way, DESCRIPTOR_BYTES};
use crate::journey::{JourneyConfig, StageId};
use crate::nic::cut_through::CHUNK_BYTES;
use crate::nic::send_path;
use crate::text::{grouped, ns, plural};

pub(super) fn stages(c: &Ctx) -> Vec<Stage> {
    vec![send(c), segment(c), qdisc(c), pio(c), doorbell(c), fetch(c)]
}

fn ctpio(c: &Ctx) -> bool {
    c.send.pipe.uses(send_path::CTPIO)
}

/// The system call and the copy of the message.
fn send(c: &Ctx) -> Stage {
    let on = c.sent("syscall");
    let bytes = c.bytes();
    Stage {
        id: StageId::Send,
        ns: c.sc("syscall") + c.sc("copy"),
        on_path: on,
        off_reason: off(on, || c.send_off("syscall")),
        bytes,
        tlps: 0,
        detail: format!(
            "The system call and its mode switch ({}), then the copy of {} byte{} into a kernel buffer ({}): the send path's costs.",
            ns(c.sc("syscall") as i64),
            grouped(bytes as i64),
            plural(bytes as usize),
            ns(c.sc("copy") as i64)
        ),
    }
}

/// TCP/IP: the kernel stack runs once per segment.
fn segment(c: &Ctx) -> Stage {
    let rdma = c.j.setup.rdma;
    let on = c.sent("kernel-stack") && !rdma;
    let segments = c.frames.segments;
    let headers = (c.total_len() as u64).saturating_sub(c.bytes());
    Stage {
        id: StageId::Segment,
        ns: c.sc("kernel-stack") * segments.max(1) as u64,
        on_path: on,
        off_reason: off(on, || {
            if rdma {
                Some("the RDMA NIC cuts the message into packets itself".into())
            } else {
                c.send_off("kernel-stack")
            }
        }),
        bytes: headers,
        tlps: 0,
        detail: format!(
            "TCP cuts the message at the {}-byte MSS into {} segment{}; TCP, IP and Ethernet add {} bytes of headers, pad and FCS. The kernel stack costs {} a segment.",
            c.j.config.mss,
            segments,
            plural(segments),
            grouped(headers as i64),
            ns(c.sc("kernel-stack") as i64)
        ),
    }
}

/// The qdisc: straight through, or a wait for its owner or NET_TX.
fn qdisc(c: &Ctx) -> Stage {
    let kernel = c.sent("syscall");
    let waits = c.sent("net-tx");
    Stage {
        id: StageId::Qdisc,
        ns: if waits { c.sc("net-tx") } else { 0 },
        on_path: kernel,
        off_reason: off(kernel, || c.send_off("syscall")),
        bytes: 0,
        tlps: 0,
        detail: if waits {
            format!(
                "The skb cannot go straight to the driver: it waits {} in the qdisc for its owner on another CPU, or for NET_TX after a TX completion wakes the stopped queue.",
                ns(c.sc("net-tx") as i64)
            )
        } else {
            "An idle qdisc sends in the caller's own context, straight to the driver: no wait (its own work is in the kernel stack's cost).".into()
        },
    }
}

/// CTPIO: the CPU writes each frame into the NIC in 64-byte chunks.
fn pio(c: &Ctx) -> Stage {
    let on = c.sent("pio");
    let chunks: u64 = c
        .frames
        .lens
        .iter()
        .map(|&len| JourneyConfig::chunks(len) as u64)
        .sum();
    let bytes = chunks * CHUNK_BYTES;
    Stage {
        id: StageId::Pio,
        ns: c.sc("pio") * c.n(),
        on_path: on,
        off_reason: off(on, || c.send_off("pio")),
        bytes,
        tlps: chunks,
        detail: format!(
            "The CPU writes each frame into the NIC's aperture in {CHUNK_BYTES}-byte write-combined bursts: {} byte{} in {} posted write{}, {} a frame.",
            grouped(bytes as i64),
            plural(bytes as usize),
            chunks,
            plural(chunks as usize),
            ns(c.sc("pio") as i64)
        ),
    }
}

/// The driver's descriptor and the doorbell, an MMIO write.
fn doorbell(c: &Ctx) -> Stage {
    let on = c.sent("descriptor");
    let (tlps, bytes) = c.pcie(Way::Transmit, 0, &["doorbell: tail pointer"]);
    Stage {
        id: StageId::Doorbell,
        ns: (c.sc("descriptor") + c.sc("doorbell")) * c.n(),
        on_path: on,
        off_reason: off(on, || c.send_off("descriptor")),
        bytes: bytes * c.n(),
        tlps: tlps * c.n(),
        detail: format!(
            "The driver writes a descriptor ({}) and then the NIC's tail pointer, a posted MMIO write of {bytes} bytes on the link ({}), for each frame.",
            ns(c.sc("descriptor") as i64),
            ns(c.sc("doorbell") as i64)
        ),
    }
}

/// The NIC reads the descriptor and the frame; with CTPIO, its head start.
fn fetch(c: &Ctx) -> Stage {
    if ctpio(c) {
        let head_start: u64 = c.frames.lens.iter().map(|&len| c.j.ctpio_ns(len)).sum();
        let threshold = c.j.config.ctpio.threshold;
        return Stage {
            id: StageId::Fetch,
            ns: head_start,
            on_path: true,
            off_reason: None,
            bytes: 0,
            tlps: 0,
            detail: format!(
                "No fetch: the NIC starts the wire once {threshold} chunk{} of the CPU's writes are in, at {} Gb/s over PCIe; the cut-through model's plan gives {}.",
                plural(threshold),
                c.j.config.ctpio.pcie_gbps,
                ns(head_start as i64)
            ),
        };
    }
    let (tlps, bytes) = c.pcie_frames(Way::Transmit, &["descriptor fetch", "packet fetch"]);
    let cost: u64 = ["fetch", "dma"]
        .iter()
        .filter(|key| c.sent(key))
        .map(|key| c.sc(key))
        .sum();
    Stage {
        id: StageId::Fetch,
        ns: cost * c.n(),
        on_path: true,
        off_reason: None,
        bytes,
        tlps,
        detail: format!(
            "The NIC reads the {DESCRIPTOR_BYTES}-byte descriptor ({}), then the frame ({}): {} TLP{} and {} bytes on a Gen{} ×{} link, requests and completions counted.",
            ns(c.sc("fetch") as i64),
            ns(c.sc("dma") as i64),
            tlps,
            plural(tlps as usize),
            grouped(bytes as i64),
            c.j.config.pcie.generation,
            c.j.config.pcie.lanes
        ),
    }
}

/// What sending the last frame again costs the host and its NIC: the same
/// per-frame stages as the first time.
pub(super) fn resend_host(c: &Ctx) -> u64 {
    if ctpio(c) {
        c.sc("pio") + c.j.ctpio_ns(c.last_len())
    } else {
        ["descriptor", "doorbell", "fetch", "dma"]
            .iter()
            .filter(|key| c.sent(key))
            .map(|key| c.sc(key))
            .sum()
    }
}
