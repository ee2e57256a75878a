//! The GPU section: how a GPU's threads reach memory.

use super::Demo;
use demos::gpu::memory::GpuMemory;

pub const DEMOS: &[Demo] = &[Demo {
    section: "gpu",
    slug: "memory",
    title: "A warp's memory access",
    one_liner:
        "32 threads' addresses, the 32-byte sectors they move, and shared-memory bank conflicts.",
    open: split_open!(memory: GpuMemory),
}];
