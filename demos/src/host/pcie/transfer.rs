//! A DMA transfer cut into TLPs, and the bandwidth it gets.
//!
//! A write of S bytes goes out as ⌈S / MPS⌉ memory-write TLPs, each with its
//! header and framing. A read needs both directions: ⌈S / MRRS⌉ read
//! requests one way, and the data coming back in completions cut at the MPS
//! (or the RCB), each with its own header. The rules and their order of
//! arithmetic are the open model's (`pcie-bench/pcie-model`,
//! `model/mem_bw.py`, `write` and `read`), so the figures agree with it.

use super::dllp;
use super::link::Link;

/// TLPs of one kind for one transfer: how many, the bytes each adds beyond
/// its data, and the data they carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tlps {
    pub count: u64,
    pub overhead_each: u64,
    pub data: u64,
}

impl Tlps {
    /// Bytes on the wire: every TLP's overhead plus the data.
    pub fn wire_bytes(&self) -> u64 {
        self.count * self.overhead_each + self.data
    }
}

/// The TLPs a DMA write of `size` bytes sends.
pub fn write(link: &Link, size: u64) -> Tlps {
    Tlps {
        count: size.div_ceil(u64::from(link.mps)),
        overhead_each: link.request_overhead(),
        data: size,
    }
}

/// A DMA read: the requests the device sends and the completions it gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Read {
    pub requests: Tlps,
    pub completions: Tlps,
}

/// The TLPs a DMA read of `size` bytes needs.
pub fn read(link: &Link, size: u64) -> Read {
    Read {
        requests: Tlps {
            count: size.div_ceil(u64::from(link.mrrs)),
            overhead_each: link.request_overhead(),
            data: 0,
        },
        completions: Tlps {
            count: size.div_ceil(u64::from(link.completion_size())),
            overhead_each: link.completion_overhead(),
            data: size,
        },
    }
}

/// Gb/s left for TLPs in each direction once ACKs, UpdateFCs and SKP
/// ordered sets have had theirs.
pub fn tlp_gbps(link: &Link) -> f64 {
    let raw = link.raw_gbps();
    raw - raw * dllp::overhead_share(link)
}

/// Gb/s of data a continuous DMA write of `size` bytes achieves.
pub fn write_gbps(link: &Link, size: u64) -> f64 {
    let tlps = write(link, size);
    size as f64 * tlp_gbps(link) / tlps.wire_bytes() as f64
}

/// How a continuous DMA read of `size` bytes is paced when both directions
/// have the TLP rate: completions fill the inbound direction, unless the
/// requests that ask for them would need more than the outbound direction
/// has (tiny reads with 4-DW requests), and then the requests set the pace.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReadPace {
    /// Bits per second of completions coming in.
    pub inbound_bps: f64,
    /// The outbound requests, not the inbound completions, are the limit.
    pub request_bound: bool,
}

pub fn read_pace(link: &Link, size: u64) -> ReadPace {
    let tlps = read(link, size);
    let available = tlp_gbps(link) * 1e9;
    let request_bits = (tlps.requests.wire_bytes() * 8) as f64;
    let completion_bits = (tlps.completions.wire_bytes() * 8) as f64;
    let reads_per_second = available / completion_bits;
    if reads_per_second * request_bits > available {
        ReadPace {
            inbound_bps: available / request_bits * completion_bits,
            request_bound: true,
        }
    } else {
        ReadPace {
            inbound_bps: available,
            request_bound: false,
        }
    }
}

/// Gb/s of data a continuous DMA read of `size` bytes achieves.
pub fn read_gbps(link: &Link, size: u64) -> f64 {
    let completions = read(link, size).completions;
    let inbound_gbps = read_pace(link, size).inbound_bps / 1e9;
    size as f64 * inbound_gbps / completions.wire_bytes() as f64
}
