//! Everything the demo shows, worked out from its state with the PCIe
//! rules of `pcie` and the layouts of `layout`: the transactions and bytes
//! each interface has put on the link so far, each one's cost per packet,
//! the packet rates, the cache lines and jumps, and one core's budget.

use super::cpu::budget;
use super::enso::{self, padded, PIPE_BYTES};
use super::ethernet::{dma_bytes, line_rate};
use super::layout::{
    classic_descriptor, classic_packet, classic_reads, enso_packet, enso_reads, jumps, lines_of,
    Reads, BUFFER_BYTES, LINE_BYTES,
};
use super::state::{Streaming, RUN, WINDOW};
use crate::host::pcie::link::Link;
use crate::host::pcie::nic::{
    packet_rate, per_packet, per_packet_polled, transaction_wire, Op, Path, Transaction,
    DESCRIPTOR_BYTES,
};
use crate::host::pcie::transfer;

/// What some transactions put on the link.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub transactions: u64,
    pub tlps: u64,
    /// Bytes on the wire from the NIC up to the host.
    pub up: u64,
    /// Bytes on the wire from the host down to the NIC.
    pub down: u64,
}

impl Tally {
    pub fn of(link: &Link, transactions: &[Transaction]) -> Tally {
        transactions.iter().fold(Tally::default(), |sum, t| {
            let wire = transaction_wire(link, t);
            Tally {
                transactions: sum.transactions + 1,
                tlps: sum.tlps + tlps(link, t),
                up: sum.up + wire.outbound,
                down: sum.down + wire.inbound,
            }
        })
    }

    /// `times` of these.
    pub fn times(self, times: u64) -> Tally {
        Tally {
            transactions: self.transactions.saturating_mul(times),
            tlps: self.tlps.saturating_mul(times),
            up: self.up.saturating_mul(times),
            down: self.down.saturating_mul(times),
        }
    }

    pub fn plus(self, other: Tally) -> Tally {
        Tally {
            transactions: self.transactions.saturating_add(other.transactions),
            tlps: self.tlps.saturating_add(other.tlps),
            up: self.up.saturating_add(other.up),
            down: self.down.saturating_add(other.down),
        }
    }
}

/// TLPs one transaction takes, cut by the link's rules (`transfer`).
pub fn tlps(link: &Link, t: &Transaction) -> u64 {
    match t.op {
        Op::Write => transfer::write(link, t.bytes).count,
        Op::Read => {
            let read = transfer::read(link, t.bytes);
            read.requests.count + read.completions.count
        }
    }
}

/// Averages for one packet in the steady state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PerPacket {
    pub transactions: f64,
    pub tlps: f64,
    pub up: f64,
    pub down: f64,
    /// Cache lines the core reads.
    pub lines: f64,
    /// Jumps among them.
    pub jumps: f64,
}

impl PerPacket {
    fn of(tally: Tally, packets: u32, lines: f64, jumps: f64) -> PerPacket {
        let n = f64::from(packets.max(1));
        PerPacket {
            transactions: tally.transactions as f64 / n,
            tlps: tally.tlps as f64 / n,
            up: tally.up as f64 / n,
            down: tally.down as f64 / n,
            lines,
            jumps,
        }
    }
}

impl Streaming {
    pub fn link(&self) -> Link {
        self.config.link()
    }

    /// Bytes of each frame the NIC writes to the host.
    pub fn dma(&self) -> u64 {
        dma_bytes(self.config.frame)
    }

    /// Whether the application frees what it read: not while it holds
    /// packet 1.
    pub fn frees(&self) -> bool {
        !self.config.hold
    }

    /// The classic NIC's transactions for one packet: the open model's
    /// simple NIC, with or without its interrupt and head-pointer read.
    pub fn classic_transactions(&self) -> Vec<Transaction> {
        if self.config.interrupts {
            per_packet(Path::Receive, self.dma())
        } else {
            per_packet_polled(Path::Receive, self.dma())
        }
    }

    /// Ensō's transactions for one whole batch.
    pub fn enso_batch(&self) -> Vec<Transaction> {
        enso::per_batch(self.dma(), self.config.batch, self.frees())
    }

    /// Whether packet `k` (from 0) closes an Ensō batch: the batch is full,
    /// or the run ends.
    pub fn closes_batch(&self, k: u32) -> bool {
        (k + 1).is_multiple_of(self.config.batch) || k + 1 == RUN
    }

    /// Batches closed among the first `packets` packets.
    pub fn batches_in(&self, packets: u32) -> u32 {
        (0..packets).filter(|&k| self.closes_batch(k)).count() as u32
    }

    /// Batches closed so far.
    pub fn batches(&self) -> u32 {
        self.batches_in(self.delivered)
    }

    /// Packets in the batch that packet `k` belongs to.
    pub fn batch_of(&self, k: u32) -> u32 {
        let start = k - k % self.config.batch;
        let end = (start + self.config.batch).min(RUN);
        end - start
    }

    /// The slot in its window of the notification that packet `k` closes.
    pub fn notification_slot(&self, k: u32) -> u32 {
        let window_start = k - k % WINDOW;
        (window_start..k).filter(|&i| self.closes_batch(i)).count() as u32
    }

    /// The window of packets the picture shows: the one holding the last
    /// packet delivered.
    pub fn window(&self) -> u32 {
        self.delivered.saturating_sub(1) / WINDOW
    }

    /// What the classic interface has put on the link so far.
    pub fn classic_so_far(&self) -> Tally {
        Tally::of(&self.link(), &self.classic_transactions()).times(u64::from(self.delivered))
    }

    /// What Ensō has put on the link so far.
    pub fn enso_so_far(&self) -> Tally {
        let link = self.link();
        let packets = Tally::of(&link, &[enso::packet_write(self.dma())]);
        let ends = Tally::of(&link, &enso::batch_end(self.frees()));
        packets
            .times(u64::from(self.delivered))
            .plus(ends.times(u64::from(self.batches())))
    }

    /// The classic interface's cost per packet.
    pub fn classic_per_packet(&self) -> PerPacket {
        let dma = self.dma();
        let descriptor_lines = DESCRIPTOR_BYTES as f64 / LINE_BYTES as f64;
        // A descriptor line follows the one before: four descriptors on.
        let per_line = LINE_BYTES / DESCRIPTOR_BYTES;
        let descriptor = |k: u64| classic_descriptor(k)..classic_descriptor(k) + 1;
        let descriptor_jumps =
            u8::from(jumps(&descriptor(0), &descriptor(per_line))) as f64 * descriptor_lines;
        let packet_jumps = u8::from(jumps(&classic_packet(0, dma), &classic_packet(1, dma)));
        PerPacket::of(
            Tally::of(&self.link(), &self.classic_transactions()),
            1,
            lines_of(dma) as f64 + descriptor_lines,
            f64::from(packet_jumps) + descriptor_jumps,
        )
    }

    /// Ensō's cost per packet: a batch's, shared by its packets.
    pub fn enso_per_packet(&self) -> PerPacket {
        let dma = self.dma();
        let batch = f64::from(self.config.batch);
        let notification_jumps = u8::from(jumps(&(0..1), &(1..2)));
        let packet_jumps = u8::from(jumps(&enso_packet(0, dma), &enso_packet(1, dma)));
        PerPacket::of(
            Tally::of(&self.link(), &self.enso_batch()),
            self.config.batch,
            (padded(dma) / LINE_BYTES) as f64 + 1.0 / batch,
            f64::from(packet_jumps) + f64::from(notification_jumps) / batch,
        )
    }

    /// Packets a second the link lets the classic NIC deliver.
    pub fn classic_rate(&self) -> f64 {
        packet_rate(&self.link(), &self.classic_transactions())
    }

    /// Packets a second the link lets Ensō deliver.
    pub fn enso_rate(&self) -> f64 {
        enso::packet_rate_batched(&self.link(), self.dma(), self.config.batch, self.frees())
    }

    /// Frames a second the 100 Gb/s port delivers at this size.
    pub fn line_rate(&self) -> f64 {
        line_rate(self.config.frame)
    }

    /// Cycles one core has for each packet at line rate.
    pub fn budget(&self) -> f64 {
        budget(self.line_rate())
    }

    /// Cycles a packet costs the core in jumps, by the stated assumption.
    pub fn stall(&self, per_packet: &PerPacket) -> f64 {
        per_packet.jumps * f64::from(self.config.stall)
    }

    /// The lines the classic interface's core has read so far.
    pub fn classic_reads(&self) -> Reads {
        classic_reads(u64::from(self.delivered), self.dma())
    }

    /// The lines Ensō's core has read so far.
    pub fn enso_reads(&self) -> Reads {
        enso_reads(
            u64::from(self.delivered),
            u64::from(self.batches()),
            self.dma(),
        )
    }

    /// Host memory the classic interface cannot reuse while packet 1 is
    /// held: its buffer only; the driver posts a fresh one in its place.
    pub fn classic_pinned(&self) -> u64 {
        if self.config.hold && self.delivered > 0 {
            BUFFER_BYTES
        } else {
            0
        }
    }

    /// Pipe bytes Ensō cannot give back while packet 1 is held: the pipe
    /// is freed only in order ("received data can only be freed
    /// sequentially", `docs/primitives/rx_enso_pipe.md`), so packet 1 and
    /// everything after it stay.
    pub fn enso_pinned(&self) -> u64 {
        if self.config.hold {
            u64::from(self.delivered).saturating_mul(padded(self.dma()))
        } else {
            0
        }
    }

    /// Microseconds until a held packet has pinned the whole pipe, with
    /// packets arriving at line rate.
    pub fn pipe_full_us(&self) -> f64 {
        let packets = PIPE_BYTES as f64 / padded(self.dma()) as f64;
        packets / self.line_rate() * 1e6
    }
}
