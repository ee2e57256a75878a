//! The roofline: what a kernel can reach is the lower of the GPU's peak
//! arithmetic rate and its memory bandwidth times the kernel's arithmetic
//! intensity, the FLOPs it does per byte it moves from DRAM. Williams,
//! Waterman and Patterson, "Roofline: An Insightful Visual Performance
//! Model for Multicore Architectures", CACM 52(4), 2009: attainable
//! GFlop/s = min(peak floating-point performance, peak memory bandwidth ×
//! operational intensity).
//!
//! The kernel here is the warp's load of the demo, repeated: each element a
//! thread loads feeds `flops` floating-point operations. Its intensity
//! counts the bytes that *move*, whole sectors, not the bytes asked for; so
//! a strided load lowers the intensity and, below the ridge, the rate.

use super::coalescing::{Access, WARP};
use super::occupancy::Capability;

/// One GPU of a compute capability, as its maker's datasheet gives it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gpu {
    pub name: &'static str,
    /// Peak FP32 rate, TFLOP/s (not the tensor cores').
    pub peak_tflops: f64,
    /// DRAM bandwidth, GB/s.
    pub bandwidth_gbs: f64,
}

impl Capability {
    /// The GPU the demo takes for this capability. Datasheets: NVIDIA Tesla
    /// V100 (SXM2: 15.7 TFLOPS single precision, 900 GB/s), NVIDIA A100
    /// (SXM 40 GB: FP32 19.5 TFLOPS, 1,555 GB/s), the GA102 whitepaper
    /// (GeForce RTX 3090: 35.6 TFLOPS FP32, 936 GB/s), NVIDIA H100 (SXM:
    /// FP32 67 TFLOPS, 3.35 TB/s).
    pub fn gpu(self) -> Gpu {
        let (name, peak_tflops, bandwidth_gbs) = match self {
            Capability::Volta => ("V100 SXM2", 15.7, 900.0),
            Capability::Ampere => ("A100 SXM 40 GB", 19.5, 1555.0),
            Capability::AmpereConsumer => ("GeForce RTX 3090", 35.6, 936.0),
            Capability::Hopper => ("H100 SXM", 67.0, 3350.0),
        };
        Gpu {
            name,
            peak_tflops,
            bandwidth_gbs,
        }
    }
}

impl Gpu {
    /// The intensity at which the two roofs meet, FLOP/byte: below it a
    /// kernel waits for memory, above it for arithmetic.
    pub fn ridge(&self) -> f64 {
        self.peak_tflops * 1000.0 / self.bandwidth_gbs
    }

    /// The attainable rate at `intensity` FLOP/byte, TFLOP/s.
    pub fn attainable(&self, intensity: f64) -> f64 {
        (intensity * self.bandwidth_gbs / 1000.0).min(self.peak_tflops)
    }

    pub fn memory_bound(&self, intensity: f64) -> bool {
        intensity < self.ridge()
    }
}

/// The kernel's arithmetic intensity, FLOP per byte moved: the warp's 32
/// elements times `flops` each, over the bytes of the sectors it moves.
pub fn intensity(access: &Access, flops: u32) -> f64 {
    (WARP as f64 * f64::from(flops)) / access.moved_bytes() as f64
}

/// The intensity the same kernel would have if every moved byte were used:
/// `flops` over the element's size.
pub fn ideal_intensity(access: &Access, flops: u32) -> f64 {
    f64::from(flops) / f64::from(access.elem)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::memory::coalescing::Pattern;

    fn access(pattern: Pattern, stride: u32) -> Access {
        Access {
            pattern,
            elem: 4,
            stride,
            offset: 0,
            fields: 4,
        }
    }

    #[test]
    fn the_ridge_is_peak_over_bandwidth() {
        // A100: 19.5 TFLOP/s over 1.555 TB/s ≈ 12.5 FLOP/byte.
        let a100 = Capability::Ampere.gpu();
        assert!((a100.ridge() - 12.540).abs() < 0.001);
        assert_eq!(a100.attainable(1000.0), 19.5);
        // At 1 FLOP/byte an A100 does 1.555 TFLOP/s.
        assert!((a100.attainable(1.0) - 1.555).abs() < 1e-9);
        assert!(a100.memory_bound(1.0) && !a100.memory_bound(20.0));
    }

    #[test]
    fn a_strided_load_moves_8_times_the_bytes_and_falls_8_times_lower() {
        // 8 FLOPs per float: 2 FLOP/byte when coalesced; with a stride of
        // 32 each float brings a 32-byte sector, 0.25 FLOP/byte.
        let coalesced = intensity(&access(Pattern::Consecutive, 1), 8);
        let strided = intensity(&access(Pattern::Strided, 32), 8);
        assert_eq!(coalesced, 2.0);
        assert_eq!(strided, 0.25);
        assert_eq!(ideal_intensity(&access(Pattern::Strided, 32), 8), 2.0);
        let h100 = Capability::Hopper.gpu();
        assert!((h100.attainable(coalesced) / h100.attainable(strided) - 8.0).abs() < 1e-9);
    }
}
