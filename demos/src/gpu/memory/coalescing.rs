//! How one warp's global load is served: in 32-byte sectors.
//!
//! The rule, from the CUDA C++ Best Practices Guide, §10.2.1 "Coalesced
//! Access to Global Memory": "For devices of compute capability 6.0 or
//! higher, the requirements can be summarized quite easily: the concurrent
//! accesses of the threads of a warp will coalesce into a number of
//! transactions equal to the number of 32-byte transactions necessary to
//! service all of the threads of the warp." A sector is fetched whole even
//! when a thread uses only part of it (§10.2.1.1 "A Simple Access Pattern"),
//! so the share of moved bytes that a thread asked for is the load's
//! efficiency: §10.2.1.4 "Strided Accesses" calls a stride of 2 "50% of
//! load/store efficiency".

use serde::{Deserialize, Serialize};

/// Threads in a warp (CUDA C++ Programming Guide, "SIMT Architecture": a
/// multiprocessor "creates, manages, schedules, and executes threads in
/// groups of 32 parallel threads called warps").
pub const WARP: usize = 32;

/// The unit a warp's load is served in on compute capability 6.0 and later:
/// "the data access unit is 32-byte regardless of whether global loads are
/// cached in L1 or not" (Best Practices Guide, §10.2.1, note).
pub const SECTOR_BYTES: u64 = 32;

/// An L1 cache line: "A L1 cache line is 128 bytes and maps to a 128 byte
/// aligned segment in device memory" (Nsight Visual Studio Edition, "Memory
/// Statistics - Global"): four sectors.
pub const LINE_BYTES: u64 = 128;

/// The element sizes a thread may load: a `float`, a `double` or `float2`,
/// a `float4`. Each divides a sector, and an array of them from `cudaMalloc`
/// is "aligned to at least 256 bytes" (Best Practices Guide, §10.2.1.2), so
/// every element lies inside one sector.
pub const ELEMENT_SIZES: [u32; 3] = [4, 8, 16];

/// Where each thread of the warp reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Pattern {
    /// Thread t reads element t.
    Consecutive,
    /// Thread t reads element t × stride.
    Strided,
    /// Thread t reads element t + offset: the Best Practices Guide's
    /// `offsetCopy` (§10.2.1.3).
    Offset,
    /// An array of structs of `fields` elements: thread t reads field 0 of
    /// struct t, element t × fields.
    ArrayOfStructs,
    /// The same fields, each in an array of its own: thread t reads element
    /// t of the first field's array.
    StructOfArrays,
}

impl Pattern {
    /// Every pattern, in the order Step walks them.
    pub const ALL: [Pattern; 5] = [
        Pattern::Consecutive,
        Pattern::Strided,
        Pattern::Offset,
        Pattern::ArrayOfStructs,
        Pattern::StructOfArrays,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Pattern::Consecutive => "consecutive",
            Pattern::Strided => "strided",
            Pattern::Offset => "shifted start",
            Pattern::ArrayOfStructs => "array of structs",
            Pattern::StructOfArrays => "struct of arrays",
        }
    }

    /// The pattern Step goes to after this one, if any.
    pub fn next(self) -> Option<Pattern> {
        let i = Pattern::ALL.iter().position(|&p| p == self)?;
        Pattern::ALL.get(i + 1).copied()
    }
}

/// One warp-wide load: the pattern and its numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    pub pattern: Pattern,
    /// Bytes each thread loads.
    pub elem: u32,
    /// Elements between neighbouring threads, for `Strided`.
    pub stride: u32,
    /// Elements the first thread starts after the allocation's start, for
    /// `Offset`.
    pub offset: u32,
    /// Elements in one struct, for the two struct layouts.
    pub fields: u32,
}

impl Access {
    /// The element thread `t` reads, counted from the allocation's start.
    pub fn element(&self, t: usize) -> u64 {
        let t = t as u64;
        match self.pattern {
            Pattern::Consecutive | Pattern::StructOfArrays => t,
            Pattern::Strided => t.saturating_mul(u64::from(self.stride)),
            Pattern::Offset => t.saturating_add(u64::from(self.offset)),
            Pattern::ArrayOfStructs => t.saturating_mul(u64::from(self.fields)),
        }
    }

    /// The first byte thread `t` reads, from the allocation's start (which
    /// is 256-byte aligned, so sector and line boundaries are where these
    /// numbers say).
    pub fn address(&self, t: usize) -> u64 {
        self.element(t).saturating_mul(u64::from(self.elem))
    }

    /// The last byte thread `t` reads.
    pub fn last_byte(&self, t: usize) -> u64 {
        self.address(t)
            .saturating_add(u64::from(self.elem).saturating_sub(1))
    }

    /// The 128-byte line sector `sector` belongs to.
    pub fn line_of_sector(sector: u64) -> u64 {
        sector.saturating_mul(SECTOR_BYTES) / LINE_BYTES
    }

    /// The sectors thread `t`'s bytes lie in, first and last.
    fn sector_span(&self, t: usize) -> (u64, u64) {
        (
            self.address(t) / SECTOR_BYTES,
            self.last_byte(t) / SECTOR_BYTES,
        )
    }

    /// The sector thread `t`'s element starts in.
    pub fn sector_of(&self, t: usize) -> u64 {
        self.sector_span(t).0
    }

    /// The 128-byte line thread `t`'s element starts in.
    pub fn line_of(&self, t: usize) -> u64 {
        self.address(t) / LINE_BYTES
    }

    /// Every sector the first `threads` threads touch, in address order,
    /// each once: the 32-byte transactions the rule counts.
    pub fn sectors_of(&self, threads: usize) -> Vec<u64> {
        let mut out: Vec<u64> = (0..threads.min(WARP))
            .flat_map(|t| {
                let (a, b) = self.sector_span(t);
                a..=b
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The whole warp's sectors.
    pub fn sectors(&self) -> Vec<u64> {
        self.sectors_of(WARP)
    }

    /// The 128-byte lines the warp's sectors lie in.
    pub fn lines(&self) -> Vec<u64> {
        let mut out: Vec<u64> = self
            .sectors()
            .iter()
            .map(|&s| Access::line_of_sector(s))
            .collect();
        out.dedup();
        out
    }

    /// Bytes the threads asked for: every thread reads a different element.
    pub fn requested_bytes(&self) -> u64 {
        WARP as u64 * u64::from(self.elem)
    }

    /// Bytes moved: every sector whole.
    pub fn moved_bytes(&self) -> u64 {
        self.sectors().len() as u64 * SECTOR_BYTES
    }

    /// Bytes of `sector` that some thread of the warp asked for.
    pub fn used_bytes_in(&self, sector: u64) -> u64 {
        let (lo, hi) = (sector * SECTOR_BYTES, (sector + 1) * SECTOR_BYTES);
        (0..WARP)
            .map(|t| {
                let a = self.address(t);
                let b = a.saturating_add(u64::from(self.elem));
                b.min(hi).saturating_sub(a.max(lo))
            })
            .sum()
    }

    /// The fewest sectors these bytes could fit in.
    pub fn fewest_sectors(&self) -> u64 {
        self.requested_bytes().div_ceil(SECTOR_BYTES)
    }

    /// Bytes requested over bytes moved, 0 to 1.
    pub fn efficiency(&self) -> f64 {
        self.requested_bytes() as f64 / self.moved_bytes().max(1) as f64
    }
}
