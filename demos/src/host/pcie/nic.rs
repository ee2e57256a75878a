//! A simple NIC's PCIe transactions for every packet, and the packet rate
//! the link then sustains.
//!
//! The transactions are those of the open model's "simple NIC"
//! (`pcie-bench/pcie-model`, `model/simple_nic.py`; Neugebauer et al.,
//! SIGCOMM 2018, §3): one ring each way, 16-byte descriptors, 4-byte queue
//! pointers, an MSI per packet and a head-pointer read per packet. That is
//! the worst case a driver can arrange (no batching of doorbells, write-backs
//! or interrupts), which is what makes the cost per packet plain to see.
//! Where the open model's receive sum overwrites rather than adds (its
//! `rx_tx_data_B = …` for the payload write drops the descriptor read's
//! request just counted), we count every transaction.

use super::link::Link;
use super::transfer;

/// A descriptor as the simple NIC reads it, and as it writes one back.
pub const DESCRIPTOR_BYTES: u64 = 16;
/// A queue's head or tail pointer register.
pub const POINTER_BYTES: u64 = 4;
/// An MSI is a 4-byte memory write (its data) to the address the host
/// programmed.
pub const MSI_BYTES: u64 = 4;

/// Who starts a transaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Initiator {
    Host,
    Device,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Write,
    Read,
}

/// One transaction for one packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transaction {
    /// What it is for, in a few words.
    pub what: &'static str,
    pub by: Initiator,
    pub op: Op,
    /// Data bytes it moves.
    pub bytes: u64,
}

/// Which way packets go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// From host memory out of the NIC.
    Transmit,
    /// From the NIC into host memory.
    Receive,
}

const fn step(what: &'static str, by: Initiator, op: Op, bytes: u64) -> Transaction {
    Transaction {
        what,
        by,
        op,
        bytes,
    }
}

/// The transactions one packet of `packet_bytes` costs on `path`, in order.
pub fn per_packet(path: Path, packet_bytes: u64) -> Vec<Transaction> {
    use Initiator::{Device, Host};
    use Op::{Read, Write};
    let mut steps = vec![
        step("doorbell: tail pointer", Host, Write, POINTER_BYTES),
        step("descriptor fetch", Device, Read, DESCRIPTOR_BYTES),
    ];
    match path {
        Path::Transmit => steps.push(step("packet fetch", Device, Read, packet_bytes)),
        Path::Receive => steps.extend([
            step("packet write", Device, Write, packet_bytes),
            step("descriptor write-back", Device, Write, DESCRIPTOR_BYTES),
        ]),
    }
    steps.extend([
        step("interrupt (MSI)", Device, Write, MSI_BYTES),
        step("head pointer read", Host, Read, POINTER_BYTES),
    ]);
    steps
}

/// Bytes on the wire in each direction, seen from the device.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wire {
    /// Host to device.
    pub inbound: u64,
    /// Device to host.
    pub outbound: u64,
}

impl Wire {
    /// The busier direction's bytes: the one that sets the pace.
    pub fn busier(&self) -> u64 {
        self.inbound.max(self.outbound)
    }
}

/// Bytes on the wire each way for one transaction: its initiator sends the
/// request (with a write's data), and a read's completions come back.
pub fn transaction_wire(link: &Link, t: &Transaction) -> Wire {
    let (sent, back) = match t.op {
        Op::Write => (transfer::write(link, t.bytes).wire_bytes(), 0),
        Op::Read => {
            let read = transfer::read(link, t.bytes);
            (read.requests.wire_bytes(), read.completions.wire_bytes())
        }
    };
    match t.by {
        Initiator::Device => Wire {
            outbound: sent,
            inbound: back,
        },
        Initiator::Host => Wire {
            outbound: back,
            inbound: sent,
        },
    }
}

/// Bytes on the wire each way for these transactions.
pub fn wire(link: &Link, transactions: &[Transaction]) -> Wire {
    transactions
        .iter()
        .map(|t| transaction_wire(link, t))
        .fold(Wire::default(), |sum, w| Wire {
            inbound: sum.inbound + w.inbound,
            outbound: sum.outbound + w.outbound,
        })
}

/// Packets a second the link sustains when every packet costs these
/// transactions: the TLP rate over the busier direction's bits per packet.
pub fn packet_rate(link: &Link, transactions: &[Transaction]) -> f64 {
    let bits = (wire(link, transactions).busier() * 8) as f64;
    transfer::tlp_gbps(link) * 1e9 / bits
}

/// The transactions of [`per_packet`] that a polling driver keeps: the
/// device raises no interrupt and the host reads no head pointer, since the
/// driver finds new packets by polling the descriptors the NIC wrote back.
/// The open model's Niantic NIC drops the same two steps for DPDK's
/// poll-mode driver (`pcie-bench/pcie-model`, `model/niantic.py`,
/// `h_opt="PMD"`: "Steps 5 and 6 are omitted"). They are the last two that
/// `per_packet` lists.
pub fn per_packet_polled(path: Path, packet_bytes: u64) -> Vec<Transaction> {
    let mut steps = per_packet(path, packet_bytes);
    steps.truncate(steps.len().saturating_sub(2));
    steps
}
