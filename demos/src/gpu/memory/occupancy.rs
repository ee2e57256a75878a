//! Occupancy: how many blocks of a kernel fit on one streaming
//! multiprocessor at once, and which of the SM's four budgets (warp slots,
//! block slots, registers, shared memory) runs out first.
//!
//! The calculation is the one NVIDIA ships in `cuda_occupancy.h`
//! (`cudaOccMaxActiveBlocksPerMultiprocessor`), for the default shared
//! memory carveout and no partitioned global caching (neither applies from
//! compute capability 7.0 on):
//! - warps: `maxThreadsPerMultiprocessor / warpSize` slots, a block taking
//!   `ceil(threads / 32)` of them (`cudaOccMaxBlocksPerSMWarpsLimit`);
//! - registers: a warp's `regs × 32` rounded up to the allocation unit of
//!   256, given out within each of the 4 sub-partitions' quarter of the
//!   register file (`cudaOccMaxBlocksPerSMRegsLimit`);
//! - shared memory: the block's bytes plus the driver's reserve, rounded up
//!   to the allocation granularity, out of the SM's shared memory
//!   (`cudaOccMaxBlocksPerSMSmemLimit`);
//! - blocks: a fixed number of block slots (`cudaOccMaxBlocksPerMultiprocessor`).
//!
//! The per-SM sizes are the CUDA C++ Programming Guide's "Technical
//! Specifications per Compute Capability" table; the granularities, the
//! block slots and the 1 KB reserve from compute capability 8.0 on are those
//! of `cuda_occupancy.h`.

use serde::{Deserialize, Serialize};

/// Threads in a warp, on every compute capability.
pub const WARP_SIZE: u32 = 32;
/// The largest block, in threads (the guide's table, every capability
/// here).
pub const MAX_BLOCK_THREADS: u32 = 1024;
/// 32-bit registers in one SM's register file, and the most one block may
/// use (64 K each, every capability here).
pub const REGISTERS_PER_SM: u32 = 64 * 1024;
/// The most registers a thread may use (the guide's table: 255).
pub const MAX_THREAD_REGISTERS: u32 = 255;
/// Registers are given to a warp in units of 256
/// (`cudaOccRegAllocationGranularity`).
pub const REGISTER_UNIT: u32 = 256;
/// The register file is split among 4 sub-partitions, one per warp
/// scheduler (`cudaOccSubPartitionsPerMultiprocessor`).
pub const SUB_PARTITIONS: u32 = 4;

const KB: u32 = 1024;

/// The compute capabilities the demo offers: one GPU of each of four
/// generations that lecturers meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Capability {
    /// 7.0: Volta, the V100.
    Volta,
    /// 8.0: the A100.
    Ampere,
    /// 8.6: GeForce RTX 30 series.
    AmpereConsumer,
    /// 9.0: Hopper, the H100.
    Hopper,
}

/// One SM's budgets and allocation rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmLimits {
    pub threads: u32,
    pub blocks: u32,
    /// Shared memory of the SM at the largest carveout, bytes.
    pub shared: u32,
    /// The most shared memory one block may ask for (with the opt-in
    /// attribute), bytes.
    pub shared_per_block: u32,
    /// Shared memory the driver keeps for itself in every block, bytes.
    pub reserved: u32,
    /// Shared memory is given out in units of this many bytes.
    pub shared_unit: u32,
}

impl Capability {
    pub const ALL: [Capability; 4] = [
        Capability::Volta,
        Capability::Ampere,
        Capability::AmpereConsumer,
        Capability::Hopper,
    ];

    /// "8.0" and so on.
    pub fn number(self) -> &'static str {
        match self {
            Capability::Volta => "7.0",
            Capability::Ampere => "8.0",
            Capability::AmpereConsumer => "8.6",
            Capability::Hopper => "9.0",
        }
    }

    pub fn limits(self) -> SmLimits {
        // Threads per SM and shared memory: the guide's table. Block slots
        // and the 128-byte unit with its 1 KB reserve from 8.0 on:
        // cuda_occupancy.h.
        match self {
            Capability::Volta => SmLimits {
                threads: 2048,
                blocks: 32,
                shared: 96 * KB,
                shared_per_block: 96 * KB,
                reserved: 0,
                shared_unit: 256,
            },
            Capability::Ampere => SmLimits {
                threads: 2048,
                blocks: 32,
                shared: 164 * KB,
                shared_per_block: 163 * KB,
                reserved: KB,
                shared_unit: 128,
            },
            Capability::AmpereConsumer => SmLimits {
                threads: 1536,
                blocks: 16,
                shared: 100 * KB,
                shared_per_block: 99 * KB,
                reserved: KB,
                shared_unit: 128,
            },
            Capability::Hopper => SmLimits {
                threads: 2048,
                blocks: 32,
                shared: 228 * KB,
                shared_per_block: 227 * KB,
                reserved: KB,
                shared_unit: 128,
            },
        }
    }
}

impl SmLimits {
    pub fn warps(&self) -> u32 {
        self.threads / WARP_SIZE
    }
}

/// What a kernel's launch asks of an SM, per block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Launch {
    pub threads: u32,
    /// Registers per thread (as `ptxas -v` reports them).
    pub registers: u32,
    /// Shared memory per block, bytes.
    pub shared: u32,
}

/// Which budget a limit comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    Warps,
    Blocks,
    Registers,
    Shared,
}

impl Budget {
    pub const ALL: [Budget; 4] = [
        Budget::Warps,
        Budget::Blocks,
        Budget::Registers,
        Budget::Shared,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Budget::Warps => "warp slots",
            Budget::Blocks => "block slots",
            Budget::Registers => "registers",
            Budget::Shared => "shared memory",
        }
    }
}

/// Blocks per SM that each budget allows, and what the block is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Occupancy {
    pub warps_per_block: u32,
    /// Registers a warp is given: `registers × 32` rounded up to 256.
    pub registers_per_warp: u32,
    /// Shared memory a block is given, reserve included, rounded up.
    pub shared_per_block: u32,
    /// Blocks each budget lets fit, in `Budget::ALL`'s order; `None` for a
    /// budget the kernel does not use (no registers, or no shared memory
    /// and no reserve).
    pub by_budget: [Option<u32>; 4],
    /// Resident warps the SM can hold.
    pub max_warps: u32,
}

impl Occupancy {
    /// Blocks per SM: the tightest budget.
    pub fn blocks(&self) -> u32 {
        self.by_budget.iter().flatten().copied().min().unwrap_or(0)
    }

    pub fn active_warps(&self) -> u32 {
        self.blocks() * self.warps_per_block
    }

    /// Active warps over the SM's warp slots, 0 to 1.
    pub fn ratio(&self) -> f64 {
        f64::from(self.active_warps()) / f64::from(self.max_warps.max(1))
    }

    /// The budgets that set the limit (several may tie).
    pub fn limiting(&self) -> Vec<Budget> {
        let blocks = self.blocks();
        Budget::ALL
            .iter()
            .zip(self.by_budget)
            .filter(|(_, n)| *n == Some(blocks))
            .map(|(b, _)| *b)
            .collect()
    }

    pub fn limit(&self, budget: Budget) -> Option<u32> {
        let i = Budget::ALL.iter().position(|b| *b == budget).unwrap_or(0);
        self.by_budget[i]
    }
}

/// Why a launch cannot run at all.
pub fn refusal(cap: Capability, launch: &Launch) -> Option<String> {
    let l = cap.limits();
    if launch.threads == 0 || launch.threads > MAX_BLOCK_THREADS {
        return Some(format!(
            "A block has 1 to {MAX_BLOCK_THREADS} threads; {} is not allowed.",
            launch.threads
        ));
    }
    if launch.registers > MAX_THREAD_REGISTERS {
        return Some(format!(
            "A thread may use at most {MAX_THREAD_REGISTERS} registers."
        ));
    }
    let warps = launch.threads.div_ceil(WARP_SIZE);
    let per_warp = registers_per_warp(launch.registers);
    // The hardware checks a block's registers as if its warps were spread
    // over all four sub-partitions (cuda_occupancy.h's "hardware check").
    if per_warp * warps.next_multiple_of(SUB_PARTITIONS) > REGISTERS_PER_SM {
        return Some(format!(
            "{} threads × {} registers is more than the {} registers a block may use.",
            launch.threads, launch.registers, REGISTERS_PER_SM
        ));
    }
    // `cudaOccSMemPerBlock` adds the reserve to the limit it checks the
    // block's rounded bytes against: the block's own bytes may reach the
    // table's figure (a whole number of allocation units).
    if launch.shared > l.shared_per_block {
        return Some(format!(
            "Compute capability {} lets a block use at most {} KB of shared memory.",
            cap.number(),
            l.shared_per_block / KB
        ));
    }
    None
}

fn registers_per_warp(registers: u32) -> u32 {
    (registers * WARP_SIZE).next_multiple_of(REGISTER_UNIT)
}

/// The occupancy of `launch` on compute capability `cap`; `None` when the
/// launch cannot run (see [`refusal`]).
pub fn occupancy(cap: Capability, launch: &Launch) -> Option<Occupancy> {
    if refusal(cap, launch).is_some() {
        return None;
    }
    let l = cap.limits();
    let warps_per_block = launch.threads.div_ceil(WARP_SIZE);
    let by_warps = l.warps() / warps_per_block;
    let per_warp = registers_per_warp(launch.registers);
    let by_registers = (per_warp > 0).then(|| {
        let warps_per_partition = REGISTERS_PER_SM / SUB_PARTITIONS / per_warp;
        warps_per_partition * SUB_PARTITIONS / warps_per_block
    });
    let shared_per_block = (launch.shared + l.reserved).next_multiple_of(l.shared_unit);
    let by_shared = (shared_per_block > 0).then(|| l.shared / shared_per_block);
    Some(Occupancy {
        warps_per_block,
        registers_per_warp: per_warp,
        shared_per_block,
        by_budget: [Some(by_warps), Some(l.blocks), by_registers, by_shared],
        max_warps: l.warps(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn launch(threads: u32, registers: u32, shared: u32) -> Launch {
        Launch {
            threads,
            registers,
            shared,
        }
    }

    #[test]
    fn a_small_kernel_fills_an_a100_sm() {
        // 256 threads, 32 registers, no shared memory: 8 warps a block;
        // warp slots 64/8 = 8 blocks, registers 65536/(1024·8) = 8 blocks.
        let o = occupancy(Capability::Ampere, &launch(256, 32, 0)).unwrap();
        assert_eq!(o.blocks(), 8);
        assert_eq!(o.active_warps(), 64);
        assert_eq!(o.ratio(), 1.0);
        assert_eq!(o.limiting(), vec![Budget::Warps, Budget::Registers]);
        // The 1 KB reserve alone takes a 164 KB SM's shared memory to 164 blocks.
        assert_eq!(o.limit(Budget::Shared), Some(164));
    }

    #[test]
    fn registers_round_up_per_warp_and_per_sub_partition() {
        // 33 registers: 1056 per warp, rounded to 1280; a sub-partition's
        // 16384 hold 12 warps, the SM 48: 6 blocks of 8 warps, 75 %.
        let o = occupancy(Capability::Ampere, &launch(256, 33, 0)).unwrap();
        assert_eq!(o.registers_per_warp, 1280);
        assert_eq!(o.limit(Budget::Registers), Some(6));
        assert_eq!(o.ratio(), 0.75);
        assert_eq!(o.limiting(), vec![Budget::Registers]);
    }

    #[test]
    fn shared_memory_counts_the_reserve_and_the_granularity() {
        // 48 KB a block on an A100: 49 KB with the reserve, 3 fit in 164 KB.
        let o = occupancy(Capability::Ampere, &launch(128, 16, 48 * 1024)).unwrap();
        assert_eq!(o.shared_per_block, 49 * 1024);
        assert_eq!(o.blocks(), 3);
        assert_eq!(o.limiting(), vec![Budget::Shared]);
        // Volta has no reserve and rounds to 256 bytes: 100 bytes take 256.
        let v = occupancy(Capability::Volta, &launch(128, 16, 100)).unwrap();
        assert_eq!(v.shared_per_block, 256);
    }

    #[test]
    fn tiny_blocks_run_out_of_block_slots() {
        // 32 threads: one warp a block; an RTX 30 SM holds only 16 blocks,
        // 16 of its 48 warp slots.
        let o = occupancy(Capability::AmpereConsumer, &launch(32, 16, 0)).unwrap();
        assert_eq!(o.blocks(), 16);
        assert_eq!(o.limiting(), vec![Budget::Blocks]);
        assert_eq!(o.active_warps(), 16);
        assert_eq!(o.max_warps, 48);
    }

    #[test]
    fn impossible_launches_are_refused_with_a_reason() {
        assert!(refusal(Capability::Hopper, &launch(1025, 32, 0)).is_some());
        assert!(refusal(Capability::Hopper, &launch(0, 32, 0)).is_some());
        assert!(refusal(Capability::Hopper, &launch(256, 256, 0)).is_some());
        // 1024 threads × 255 registers is far past 64 K.
        assert!(refusal(Capability::Hopper, &launch(1024, 255, 0)).is_some());
        // 1024 threads × 64 registers is exactly 64 K: allowed, one block.
        let o = occupancy(Capability::Hopper, &launch(1024, 64, 0)).unwrap();
        assert_eq!(o.blocks(), 1);
        assert!(occupancy(Capability::Ampere, &launch(128, 16, 163 * 1024)).is_some());
        assert!(refusal(Capability::Ampere, &launch(128, 16, 163 * 1024 + 1)).is_some());
    }
}
