//! "Why it matters": sentences built from the model's own numbers.

use super::cpu::clock_hz;
use super::enso::{padded, FLIT_BYTES, NOTIFICATION_BYTES, PIPE_BYTES};
use super::ethernet::{GAP_BYTES, PREAMBLE_BYTES};
use super::layout::BUFFER_BYTES;
use super::state::Streaming;
use crate::host::pcie::nic::DESCRIPTOR_BYTES;
use crate::host::pcie::transfer::tlp_gbps;
use crate::text::{decimal, grouped};

fn millions(pps: f64) -> String {
    decimal(pps / 1e6, 1)
}

fn verdict(rate: f64, line: f64) -> &'static str {
    if rate >= line {
        "keeps up"
    } else {
        "falls short"
    }
}

pub fn why(m: &Streaming) -> Vec<String> {
    let c = &m.config;
    let classic = m.classic_per_packet();
    let enso = m.enso_per_packet();
    let line = m.line_rate();
    let budget = m.budget();
    let mut out = vec![
        format!(
            "The classic NIC spends {} transactions on every packet: the doorbell, a descriptor fetch, the packet, a descriptor write-back{}. A {}-byte packet puts {} bytes on the link toward the host, so the Gen{} ×{} link's {} Gb/s for TLPs carry {} million of them a second.",
            m.classic_transactions().len(),
            if c.interrupts { ", an interrupt and a head-pointer read" } else { "" },
            m.dma(),
            decimal(classic.up, 0),
            c.generation,
            c.lanes,
            decimal(tlp_gbps(&m.link()), 1),
            millions(m.classic_rate())
        ),
        format!(
            "Ensō writes each packet right after the one before, {} bytes in whole {FLIT_BYTES}-byte lines, and needs no descriptor. A {NOTIFICATION_BYTES}-byte notification and {} serve a whole batch of {}: {} bytes toward the host a packet, {} million packets a second.",
            padded(m.dma()),
            if m.frees() { "two head-pointer writes" } else { "one head-pointer write" },
            c.batch,
            decimal(enso.up, 1),
            millions(m.enso_rate())
        ),
        format!(
            "100 GbE brings {} million {}-byte frames a second ({} bytes each on the wire, with preamble and gap). Over PCIe the classic interface {} and Ensō {}.",
            millions(line),
            c.frame,
            c.frame + PREAMBLE_BYTES + GAP_BYTES,
            verdict(m.classic_rate(), line),
            verdict(m.enso_rate(), line)
        ),
        format!(
            "At that rate one {} GHz core has {} cycles a packet. The classic core reads each packet in a buffer of its own, {} jump{} a packet; Ensō's packets follow each other, {} jumps a packet. At the assumed {} cycles a jump, that is {} cycles against {}.",
            decimal(clock_hz() / 1e9, 1),
            decimal(budget, 1),
            decimal(classic.jumps, 2),
            if classic.jumps == 1.0 { "" } else { "s" },
            decimal(enso.jumps, 2),
            c.stall,
            decimal(m.stall(&classic), 0),
            decimal(m.stall(&enso), 0)
        ),
    ];
    if c.batch == 1 {
        out.push(format!(
            "With a notification for every packet, Ensō pays {NOTIFICATION_BYTES} bytes per packet for it, more than the classic NIC's {DESCRIPTOR_BYTES}-byte write-back: the batch is where its saving comes from."
        ));
    }
    out.push(if c.hold {
        format!(
            "Holding packet 1 costs the classic NIC one {}-byte buffer. Ensō frees its pipe only in order, so everything behind packet 1 stays: {} bytes so far, and the whole {} MiB pipe in {} µs at line rate. To keep a packet for long, the application has to copy it out of the pipe.",
            grouped(BUFFER_BYTES as i64),
            grouped(m.enso_pinned() as i64),
            PIPE_BYTES >> 20,
            decimal(m.pipe_full_us(), 0)
        )
    } else {
        "What Ensō gives up: its pipe is freed only in order, so one packet kept back (a segment waiting for the one before it) keeps everything behind it. And with no descriptor per packet, nothing in the stream says where a packet ends: Ensō's packet iterator reads each packet's IPv4 total length to find the next, so the NIC and the software must agree on what the stream holds.".to_string()
    });
    out
}
