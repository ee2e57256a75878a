//! Where the NIC's writes land: Intel Data Direct I/O (DDIO) writes
//! received data into the last-level cache instead of DRAM, but only into a
//! few of the LLC's ways. Rings whose buffers do not fit those ways leak to
//! DRAM: "leaky DMA", received data evicted from the LLC before the core
//! has processed it (the name from Tootoonchian et al., "ResQ: Enabling
//! SLOs in Network Function Virtualization", NSDI 2018, whose abstract
//! answers it with "careful sizing of I/O buffers"; measured by Farshin et
//! al., "Reexamining Direct Cache Access to Optimize I/O Intensive
//! Applications for Multi-hundred-gigabit Networks", USENIX ATC 2020, §4).
//!
//! The LLC's size and ways are parameters; the defaults are those of the
//! Intel Xeon Gold 6140 (Skylake-SP) Farshin et al. measured on
//! (github.com/aliireza/ddio-bench, TESTBED.md).

use super::ring::DESCRIPTOR_BYTES;
use super::wire::HEADER_BYTES;
use crate::bound::Bound;

/// A cache line: the NIC's writes allocate whole lines.
pub const LINE_BYTES: u64 = 64;

/// The LLC's size. The default is the Xeon Gold 6140's 24.75 MB (Intel's
/// "MB" is MiB: 18 slices of 1.375 MiB), 25,344 KiB.
pub const LLC_KIB: Bound<u32> = Bound::new("LLC size", " KiB", 1_024, 524_288);
pub const XEON_GOLD_6140_LLC_KIB: u32 = 25_344;

/// The LLC's ways. Skylake-SP's LLC has 11: the `IIO LLC WAYS` register's
/// widest mask in Farshin et al.'s testbed is 0x7FF, eleven bits
/// (ddio-bench, experiments/ddio-tune/README.md).
pub const LLC_WAYS: Bound<u32> = Bound::new("number of LLC ways", "", 2, 20);
pub const SKYLAKE_SP_LLC_WAYS: u32 = 11;

/// The ways DDIO may allocate into: the set bits of the `IIO LLC WAYS`
/// register (MSR 0xC8B), 0x600 by default, "which has 2 set bits"
/// (ddio-bench, README.md, "Tuning DDIO"). At most the LLC's ways.
pub const DDIO_WAYS: Bound<u32> = Bound::new("number of DDIO ways", "", 1, 20);
pub const DEFAULT_DDIO_WAYS: u32 = 2;

/// Bytes DDIO may fill: the LLC's share of its DDIO ways.
pub fn ddio_bytes(llc_kib: u32, llc_ways: u32, ddio_ways: u32) -> u64 {
    u64::from(llc_kib) * 1_024 * u64::from(ddio_ways) / u64::from(llc_ways.max(1))
}

/// Cache lines the NIC writes for a packet of `payload` bytes: the frame
/// without its FCS (the NIC strips it), from the start of a line.
pub fn lines_per_frame(payload: u32) -> u64 {
    (HEADER_BYTES + u64::from(payload)).div_ceil(LINE_BYTES)
}

/// Bytes the NIC writes into the cache for one frame: its lines, and the
/// descriptor it writes back.
pub fn written_per_frame(payload: u32) -> u64 {
    lines_per_frame(payload) * LINE_BYTES + DESCRIPTOR_BYTES
}

/// The rings' DMA footprint: what DDIO must hold for every buffer the NIC
/// comes back to still to be in cache. Each ring's entries are used in
/// turn, so every entry's lines are written once a lap.
pub fn footprint(queues: u32, entries: u32, payload: u32) -> u64 {
    u64::from(queues)
        .saturating_mul(u64::from(entries))
        .saturating_mul(written_per_frame(payload))
}
