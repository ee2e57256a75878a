//! Ensō's receive path as PCIe transactions, in the same terms as the
//! classic NIC's (`pcie::nic`), so that one link's rules cost both.
//!
//! Sources: Sadok et al., "Ensō: A Streaming Interface for NIC-Application
//! Communication", OSDI 2023, and its code (`crossroadsfpga/enso`):
//! - The NIC writes each packet into the Ensō Pipe, a ring of 64-byte
//!   "flits" in host memory, starting right where the last one ended: the
//!   hardware addresses the pipe as `kmem_addr + 64 * tail` and moves the
//!   tail by whole flits (`hardware/src/pcie/fpga_to_cpu.sv`), and the
//!   software finds the next packet ⌈length ÷ 64⌉ flits on
//!   (`software/include/enso/helpers.h`, `get_next_pkt`). So a packet
//!   costs one DMA write of its length rounded up to 64 bytes, with no
//!   descriptor to fetch first.
//! - A notification tells software how far the pipe's tail has moved. It
//!   is one 64-byte flit (`RxNotification`: signal, queue id, tail and five
//!   words of padding, `software/include/enso/internals.h`), written by the
//!   NIC into a notification buffer (`SEND_DESCRIPTOR` in
//!   `fpga_to_cpu.sv`).
//! - The NIC sends notifications "reactively to head pointer updates from
//!   software": at most one outstanding per pipe, the next only after
//!   software has consumed it (`hardware/src/pcie/pkt_queue_manager.sv`).
//!   Every packet that arrives in between rides on one notification: that
//!   is the batch. Here the batch is a setting; on the real NIC it is
//!   however many packets arrive while software works.
//! - Software pays for a batch with two 4-byte register writes: the
//!   notification buffer's head once it has read the notifications
//!   (`__get_new_tails`), and the pipe's head once it frees the data
//!   (`advance_ring_buffer`), both in `software/src/pcie.cpp` as of 2022,
//!   both `uint32_t` registers (`QueueRegs`, `internals.h`).
//!   It polls the notification buffer, so there is no interrupt.

use crate::host::pcie::link::Link;
use crate::host::pcie::nic::{packet_rate, Initiator, Op, Transaction, POINTER_BYTES};

/// The unit the NIC writes the pipe in, and the size of a notification: a
/// flit, one cache line.
pub const FLIT_BYTES: u64 = 64;
/// One notification (`RxNotification`, eight 64-bit words).
pub const NOTIFICATION_BYTES: u64 = FLIT_BYTES;
/// The pipe's size: 32,768 flits, one 2 MiB huge page
/// (`software/include/enso/consts.h`, `ENSO_PIPE_SIZE`).
pub const PIPE_BYTES: u64 = 32_768 * FLIT_BYTES;

/// What a packet of `dma_bytes` takes in the pipe: whole flits.
pub fn padded(dma_bytes: u64) -> u64 {
    dma_bytes.div_ceil(FLIT_BYTES).saturating_mul(FLIT_BYTES)
}

/// The one transaction a packet costs: the NIC writes it into the pipe.
pub fn packet_write(dma_bytes: u64) -> Transaction {
    Transaction {
        what: "packet write, back to back",
        by: Initiator::Device,
        op: Op::Write,
        bytes: padded(dma_bytes),
    }
}

/// The transactions that close a batch: the notification, and the
/// software's head-pointer writes. While the application holds data it
/// cannot free, it has nothing to give back, so the pipe's head stays put
/// and is not written.
pub fn batch_end(frees: bool) -> Vec<Transaction> {
    let mut out = vec![
        Transaction {
            what: "notification",
            by: Initiator::Device,
            op: Op::Write,
            bytes: NOTIFICATION_BYTES,
        },
        Transaction {
            what: "notification head update",
            by: Initiator::Host,
            op: Op::Write,
            bytes: POINTER_BYTES,
        },
    ];
    if frees {
        out.push(Transaction {
            what: "pipe head update",
            by: Initiator::Host,
            op: Op::Write,
            bytes: POINTER_BYTES,
        });
    }
    out
}

/// A whole batch: `batch` packet writes, then the batch's end.
pub fn per_batch(dma_bytes: u64, batch: u32, frees: bool) -> Vec<Transaction> {
    let mut out = vec![packet_write(dma_bytes); batch as usize];
    out.extend(batch_end(frees));
    out
}

/// Packets a second the link sustains when every `batch` packets cost a
/// batch's transactions: the open model's rule for a packet
/// (`pcie::nic::packet_rate`) applied to a batch, times its packets.
pub fn packet_rate_batched(link: &Link, dma_bytes: u64, batch: u32, frees: bool) -> f64 {
    packet_rate(link, &per_batch(dma_bytes, batch, frees)) * f64::from(batch)
}
