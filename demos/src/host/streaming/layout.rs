//! Where each interface puts packets in host memory, counted in cache
//! lines: which lines the core reads for packet k, and where it has to
//! jump.
//!
//! The classic interface gives every descriptor its own buffer. A buffer is
//! 2 KiB here, DPDK's default data room (`RTE_MBUF_DEFAULT_DATAROOM`,
//! `lib/mbuf/rte_mbuf.h`: "Some NICs need at least 2KB buffer to RX
//! standard Ethernet frame without splitting it"), and the buffers lie one
//! after another in ring order: the tidiest a driver can be. Descriptors
//! are 16 bytes, four to a line (`pcie::nic::DESCRIPTOR_BYTES`).
//!
//! Ensō puts packet after packet in whole 64-byte flits (`enso`), and each
//! notification is one line of the notification buffer.
//!
//! A line is 64 bytes on the x86 cores the CPU demos model. A "jump" is a
//! line that does not follow the line read just before it in the same
//! structure: a run of adjacent lines is what a hardware prefetcher
//! follows, which is how Ensō's authors explain its fewer cache misses
//! ("by placing packets (or messages) contiguously in memory, Ensō makes
//! better use of the CPU prefetcher", `crossroadsfpga/enso`, `docs/index.md`).
//! What a jump costs is an assumption the demo states (`cpu`).

use super::enso::{padded, FLIT_BYTES};
use crate::host::pcie::nic::DESCRIPTOR_BYTES;
use std::ops::Range;

/// One cache line.
pub const LINE_BYTES: u64 = 64;
/// A classic receive buffer.
pub const BUFFER_BYTES: u64 = 2_048;
/// Cache lines in one classic buffer.
pub const LINES_PER_BUFFER: u64 = BUFFER_BYTES / LINE_BYTES;

// A flit is a cache line: Ensō's unit and the core's are the same.
const _: () = assert!(FLIT_BYTES == LINE_BYTES);

/// Lines a packet of `dma_bytes` covers from a line-aligned start.
pub fn lines_of(dma_bytes: u64) -> u64 {
    dma_bytes.div_ceil(LINE_BYTES)
}

/// The lines of classic packet `k`, counted from the first buffer's start.
pub fn classic_packet(k: u64, dma_bytes: u64) -> Range<u64> {
    let start = k.saturating_mul(LINES_PER_BUFFER);
    start..start.saturating_add(lines_of(dma_bytes))
}

/// The descriptor ring's line that holds descriptor `k`.
pub fn classic_descriptor(k: u64) -> u64 {
    k.saturating_mul(DESCRIPTOR_BYTES) / LINE_BYTES
}

/// The lines of Ensō packet `k`, counted from where the run began.
pub fn enso_packet(k: u64, dma_bytes: u64) -> Range<u64> {
    let flits = padded(dma_bytes) / FLIT_BYTES;
    let start = k.saturating_mul(flits);
    start..start.saturating_add(flits)
}

/// Whether reading `next` after `before` jumps: the prefetcher cannot
/// have been following along, since `next` neither continues `before` nor
/// stays within it.
pub fn jumps(before: &Range<u64>, next: &Range<u64>) -> bool {
    !(before.contains(&next.start) || next.start == before.end)
}

/// What the core reads for the first `packets` packets of a run: lines in
/// all, and jumps among them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reads {
    pub lines: u64,
    pub jumps: u64,
}

/// The classic interface's reads: each packet's lines, and each descriptor
/// line once (four descriptors share one).
pub fn classic_reads(packets: u64, dma_bytes: u64) -> Reads {
    let data = structure_reads(packets, |k| classic_packet(k, dma_bytes));
    let descriptors = structure_reads(packets, |k| {
        let line = classic_descriptor(k);
        line..line + 1
    });
    Reads {
        lines: data.lines + descriptors.lines,
        jumps: data.jumps + descriptors.jumps,
    }
}

/// Ensō's reads: each packet's flits, and one line per notification.
pub fn enso_reads(packets: u64, notifications: u64, dma_bytes: u64) -> Reads {
    let data = structure_reads(packets, |k| enso_packet(k, dma_bytes));
    let notes = structure_reads(notifications, |j| j..j + 1);
    Reads {
        lines: data.lines + notes.lines,
        jumps: data.jumps + notes.jumps,
    }
}

/// Distinct lines and jumps when items `0..count` of one structure are
/// read in order (an item may share its line with the one before).
fn structure_reads(count: u64, lines_of_item: impl Fn(u64) -> Range<u64>) -> Reads {
    let mut out = Reads::default();
    let mut last: Option<Range<u64>> = None;
    for k in 0..count {
        let next = lines_of_item(k);
        let fresh = match &last {
            Some(before) => next.end.saturating_sub(next.start.max(before.end)),
            None => next.end - next.start,
        };
        out.lines += fresh;
        if last.as_ref().is_some_and(|before| jumps(before, &next)) {
            out.jumps += 1;
        }
        last = Some(next);
    }
    out
}
