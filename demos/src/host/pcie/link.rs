//! A PCIe link's configuration and what each TLP costs on it.
//!
//! Sources. The rates and encodings are PCI Express Base Specification 5.0
//! §4.2 (8b/10b for 2.5 and 5.0 GT/s, 128b/130b from 8.0 GT/s); a Gen4 ×16
//! link therefore carries 16 GT/s × 128/130 × 16 = 252.06 Gb/s, which is
//! 31.5 GB/s *in each direction* (a link is a pair of simplex lanes per
//! direction, §4.2), not 31.5 GB/s counting both. The byte costs follow the
//! open model of Neugebauer et al., "Understanding PCIe performance for end
//! host networking" (SIGCOMM 2018), `pcie-bench/pcie-model`, `model/pcie.py`,
//! which this model reproduces number for number, and which names the
//! specification's sections it transcribes.

use crate::Bound;

/// Which generation of the specification the link trains to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Generation {
    Gen1,
    Gen2,
    Gen3,
    Gen4,
    Gen5,
}

impl Generation {
    pub const ALL: [Generation; 5] = [
        Generation::Gen1,
        Generation::Gen2,
        Generation::Gen3,
        Generation::Gen4,
        Generation::Gen5,
    ];

    /// 1 for Gen1, …, 5 for Gen5.
    pub fn number(self) -> u32 {
        self as u32 + 1
    }

    pub fn from_number(n: u32) -> Option<Generation> {
        Generation::ALL.get(n.checked_sub(1)? as usize).copied()
    }

    /// Transfers per second on one lane, in GT/s (§4.2: 2.5, 5.0, 8.0, 16.0,
    /// 32.0).
    pub fn gigatransfers(self) -> f64 {
        match self {
            Generation::Gen1 => 2.5,
            Generation::Gen2 => 5.0,
            Generation::Gen3 => 8.0,
            Generation::Gen4 => 16.0,
            Generation::Gen5 => 32.0,
        }
    }

    /// The line code: data bits per transferred bits.
    pub fn encoding(self) -> Encoding {
        if self <= Generation::Gen2 {
            Encoding::EightTen
        } else {
            Encoding::OneTwentyEight
        }
    }
}

/// A line code: each symbol sent carries fewer data bits than it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// 8b/10b: 8 data bits in every 10 (20 % overhead).
    EightTen,
    /// 128b/130b: a 2-bit sync header per 128-bit block (1.54 %).
    OneTwentyEight,
}

impl Encoding {
    pub fn efficiency(self) -> f64 {
        match self {
            Encoding::EightTen => 8.0 / 10.0,
            Encoding::OneTwentyEight => 128.0 / 130.0,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Encoding::EightTen => "8b/10b",
            Encoding::OneTwentyEight => "128b/130b",
        }
    }
}

/// Link widths the specification's ACK and flow-control tables list.
pub const LANES: [u32; 6] = [1, 2, 4, 8, 16, 32];

/// Payload and read-request sizes a device may be programmed with (Device
/// Control register: 128 to 4096 bytes in powers of two).
pub const TRANSFER_SIZES: [u32; 6] = [128, 256, 512, 1024, 2048, 4096];

/// Read completion boundaries the open model accepts.
pub const COMPLETION_BOUNDARIES: [u32; 4] = [64, 128, 256, 512];

/// The largest transfer the model is asked about (a 1 GiB DMA).
pub const TRANSFER: Bound<u64> = Bound::new("transfer size", " bytes", 1, 1 << 30);

/// Bytes every TLP carries on the wire beyond its header: framing (STP and
/// END symbols with 8b/10b, the 4-byte STP token with 128b/130b, §4.2.2),
/// the 2-byte sequence number and the 4-byte LCRC (§3.6.2), 8 in all.
pub const FRAMING_BYTES: u64 = 8;
/// The first header doubleword every TLP has: format, type, length (§2.2.1).
pub const COMMON_HEADER_BYTES: u64 = 4;
/// The rest of a memory request's header with a 32-bit address (3 DW in all).
pub const REQUEST_32_BYTES: u64 = 8;
/// The rest of a memory request's header with a 64-bit address (4 DW in all).
pub const REQUEST_64_BYTES: u64 = 12;
/// The rest of a completion's header (3 DW in all, §2.2.9).
pub const COMPLETION_BYTES: u64 = 8;
/// The optional end-to-end CRC digest (ECRC, §2.7.1).
pub const DIGEST_BYTES: u64 = 4;

/// One link and how its device is programmed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    pub generation: Generation,
    /// One of [`LANES`].
    pub lanes: u32,
    /// Maximum Payload Size: the most data one write or completion carries.
    pub mps: u32,
    /// Maximum Read Request Size: the most one read request asks for.
    pub mrrs: u32,
    /// Read Completion Boundary.
    pub rcb: u32,
    /// 64-bit addresses (4-DW request headers) rather than 32-bit (3 DW).
    pub addr64: bool,
    /// Each TLP carries an ECRC digest.
    pub ecrc: bool,
    /// Completions are cut at the RCB rather than at the MPS (seen on older
    /// chipsets, as the open model notes).
    pub rcb_chunks: bool,
}

impl Default for Link {
    /// The open model's defaults (`pcie_bw.py`): Gen3 ×8, MPS 256, MRRS 512,
    /// RCB 64, 64-bit addresses, no ECRC.
    fn default() -> Self {
        Link {
            generation: Generation::Gen3,
            lanes: 8,
            mps: 256,
            mrrs: 512,
            rcb: 64,
            addr64: true,
            ecrc: false,
            rcb_chunks: false,
        }
    }
}

impl Link {
    /// Why this configuration is not one the model has tables for, if so.
    pub fn check(&self) -> Result<(), String> {
        if !LANES.contains(&self.lanes) {
            return Err(format!(
                "the width (lanes) is ×1, ×2, ×4, ×8, ×16 or ×32, not ×{}.",
                self.lanes
            ));
        }
        for (value, name) in [(self.mps, "MPS"), (self.mrrs, "MRRS")] {
            if !TRANSFER_SIZES.contains(&value) {
                return Err(format!(
                    "the {name} is 128, 256, 512, 1024, 2048 or 4096 bytes, not {value}."
                ));
            }
        }
        if !COMPLETION_BOUNDARIES.contains(&self.rcb) {
            return Err(format!(
                "the RCB is 64, 128, 256 or 512 bytes, not {}.",
                self.rcb
            ));
        }
        Ok(())
    }

    fn digest(&self) -> u64 {
        if self.ecrc {
            DIGEST_BYTES
        } else {
            0
        }
    }

    /// Bytes on the wire for one memory write or read request, beyond data.
    pub fn request_overhead(&self) -> u64 {
        let address = if self.addr64 {
            REQUEST_64_BYTES
        } else {
            REQUEST_32_BYTES
        };
        FRAMING_BYTES + COMMON_HEADER_BYTES + address + self.digest()
    }

    /// Bytes on the wire for one completion with data, beyond the data.
    pub fn completion_overhead(&self) -> u64 {
        FRAMING_BYTES + COMMON_HEADER_BYTES + COMPLETION_BYTES + self.digest()
    }

    /// The size completions are cut at.
    pub fn completion_size(&self) -> u32 {
        if self.rcb_chunks {
            self.rcb
        } else {
            self.mps
        }
    }

    /// Gb/s the link carries in each direction after the line code.
    pub fn raw_gbps(&self) -> f64 {
        // The open model's order of operations, so its figures match to the
        // last bit: the per-lane rate after encoding, times the lanes.
        self.generation.encoding().efficiency()
            * self.generation.gigatransfers()
            * f64::from(self.lanes)
    }
}
