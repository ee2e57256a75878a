//! Property tests for a warp's memory access: the laws every demo obeys,
//! and the counting rules' own laws over every pattern and setting.

use demos::gpu::memory::banks::{conflict_degree, words_per_bank, BANKS};
use demos::gpu::memory::coalescing::{
    Access, Pattern, ELEMENT_SIZES, LINE_BYTES, SECTOR_BYTES, WARP,
};
use demos::gpu::memory::occupancy::{
    occupancy, refusal, Budget, Capability, Launch, REGISTERS_PER_SM, REGISTER_UNIT,
    SUB_PARTITIONS, WARP_SIZE,
};
use demos::gpu::memory::{
    GpuMemory, GpuMemoryAction, GpuMemoryConfig, FIELDS, FLOPS, OFFSET, REGISTERS, SHARED_KB,
    SMEM_STRIDE, STRIDE, THREADS,
};
use demos::laws::check_laws;
use demos::{Model, Scenario, Timeline};
use proptest::prelude::*;

fn pattern() -> impl Strategy<Value = Pattern> {
    prop::sample::select(Pattern::ALL.to_vec())
}

fn capability() -> impl Strategy<Value = Capability> {
    prop::sample::select(Capability::ALL.to_vec())
}

fn launch() -> impl Strategy<Value = Launch> {
    (
        THREADS.min..=THREADS.max,
        REGISTERS.min..=REGISTERS.max,
        0u32..=SHARED_KB.max * 1024,
    )
        .prop_map(|(threads, registers, shared)| Launch {
            threads,
            registers,
            shared,
        })
}

fn config() -> impl Strategy<Value = GpuMemoryConfig> {
    (
        (
            pattern(),
            prop::sample::select(ELEMENT_SIZES.to_vec()),
            STRIDE.min..=STRIDE.max,
            OFFSET.min..=OFFSET.max,
            FIELDS.min..=FIELDS.max,
            SMEM_STRIDE.min..=SMEM_STRIDE.max,
            any::<bool>(),
        ),
        (
            capability(),
            THREADS.min..=THREADS.max,
            REGISTERS.min..=REGISTERS.max,
            SHARED_KB.min..=SHARED_KB.max,
            FLOPS.min..=FLOPS.max,
        ),
    )
        .prop_map(
            |(
                (pattern, elem, stride, offset, fields, smem_stride, padded),
                (cap, threads, registers, shared_kb, flops),
            )| GpuMemoryConfig {
                pattern,
                elem,
                stride,
                offset,
                fields,
                smem_stride,
                padded,
                cap,
                threads,
                registers,
                shared_kb,
                flops,
            },
        )
        .prop_filter("a launch the GPU can run", |c| {
            GpuMemory::validate(c).is_ok()
        })
}

fn action() -> impl Strategy<Value = GpuMemoryAction> {
    prop_oneof![
        6 => Just(GpuMemoryAction::Place),
        1 => Just(GpuMemoryAction::PlaceAll),
        1 => Just(GpuMemoryAction::NextPattern),
        1 => pattern().prop_map(GpuMemoryAction::SetPattern),
        1 => prop::sample::select(vec![0u32, 1, 4, 8, 12, 16, 32, u32::MAX]).prop_map(GpuMemoryAction::SetElem),
        1 => (0u32..80).prop_map(GpuMemoryAction::SetStride),
        1 => (0u32..40).prop_map(GpuMemoryAction::SetOffset),
        1 => (0u32..20).prop_map(GpuMemoryAction::SetFields),
        1 => prop_oneof![0u32..80, Just(u32::MAX)].prop_map(GpuMemoryAction::SetSmemStride),
        1 => any::<bool>().prop_map(GpuMemoryAction::SetPadded),
        1 => capability().prop_map(GpuMemoryAction::SetCapability),
        1 => prop_oneof![0u32..1100, Just(u32::MAX)].prop_map(GpuMemoryAction::SetThreads),
        1 => prop_oneof![0u32..300, Just(u32::MAX)].prop_map(GpuMemoryAction::SetRegisters),
        1 => prop_oneof![0u32..240, Just(u32::MAX)].prop_map(GpuMemoryAction::SetSharedKb),
        1 => prop_oneof![0u32..1100, Just(u32::MAX)].prop_map(GpuMemoryAction::SetFlops),
    ]
}

fn access(c: &GpuMemoryConfig) -> Access {
    GpuMemory::new(c).access()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn the_demo_obeys_the_laws(config in config(), actions in prop::collection::vec(action(), 0..60)) {
        prop_assert_eq!(check_laws::<GpuMemory>(config, &actions), Ok(()));
    }

    /// Sectors: at least the bytes' worth, at most one per thread; lines
    /// hold them four at most; efficiency is bytes asked over bytes moved.
    #[test]
    fn sectors_and_lines_bound_each_other(c in config()) {
        let a = access(&c);
        let sectors = a.sectors().len() as u64;
        prop_assert!(a.fewest_sectors() <= sectors && sectors <= WARP as u64);
        let lines = a.lines().len() as u64;
        prop_assert!(lines <= sectors && sectors <= lines * (LINE_BYTES / SECTOR_BYTES));
        let e = a.efficiency();
        prop_assert!(e > 0.0 && e <= 1.0);
        prop_assert_eq!(a.moved_bytes(), sectors * SECTOR_BYTES);
        let used: u64 = a.sectors().iter().map(|&s| a.used_bytes_in(s)).sum();
        prop_assert_eq!(used, a.requested_bytes());
    }

    /// Consecutive and struct-of-arrays loads are always fully used; a
    /// stride of a sector or more gives every thread a sector of its own.
    #[test]
    fn the_patterns_keep_their_promises(c in config()) {
        let a = access(&c);
        match c.pattern {
            Pattern::Consecutive | Pattern::StructOfArrays => prop_assert_eq!(a.efficiency(), 1.0),
            Pattern::Strided if u64::from(c.stride * c.elem) >= SECTOR_BYTES => {
                prop_assert_eq!(a.sectors().len(), WARP)
            }
            Pattern::Offset => prop_assert!(a.sectors().len() as u64 <= a.fewest_sectors() + 1),
            _ => {}
        }
    }

    /// The n-way conflict is gcd(stride, 32) for a nonzero stride, and every
    /// distinct word lies in exactly one bank.
    #[test]
    fn the_conflict_is_the_strides_common_factor_with_32(stride in 0u32..=200) {
        let words: u32 = words_per_bank(stride).iter().sum();
        if stride == 0 {
            prop_assert_eq!((conflict_degree(0), words), (1, 1));
        } else {
            let (mut a, mut b) = (u64::from(stride), BANKS);
            while b != 0 {
                (a, b) = (b, a % b);
            }
            prop_assert_eq!(u64::from(conflict_degree(stride)), a);
            prop_assert_eq!(words, WARP as u32);
        }
    }

    /// Step places every thread once, then walks the patterns to the last.
    #[test]
    fn stepping_ends_after_the_last_pattern(c in config()) {
        let mut timeline = Timeline::<GpuMemory>::new(c.clone());
        let left = Pattern::ALL.len() - Pattern::ALL.iter().position(|&p| p == c.pattern).unwrap();
        let mut steps = 0;
        while timeline.step().is_ok() {
            steps += 1;
        }
        prop_assert_eq!(steps, left * (WARP + 1) - 1);
        prop_assert_eq!(timeline.model().placed, WARP);
    }

    /// The blocks an SM holds fit every budget, and one more block would
    /// not: counted here from the resources directly (warps, block slots,
    /// registers per sub-partition, shared memory), not from the limits.
    #[test]
    fn occupancy_is_the_most_blocks_that_fit(cap in capability(), l in launch()) {
        let Some(o) = occupancy(cap, &l) else {
            prop_assert!(refusal(cap, &l).is_some());
            return Ok(());
        };
        let limits = cap.limits();
        let warps = l.threads.div_ceil(WARP_SIZE);
        let per_warp = (l.registers * WARP_SIZE).div_ceil(REGISTER_UNIT) * REGISTER_UNIT;
        let shared = (l.shared + limits.reserved).div_ceil(limits.shared_unit) * limits.shared_unit;
        // Warps of n blocks go to the sub-partitions whole: each holds
        // as many as its quarter of the register file allows.
        let per_partition = (REGISTERS_PER_SM / SUB_PARTITIONS).checked_div(per_warp).unwrap_or(u32::MAX);
        let fits = |n: u32| {
            n * warps <= limits.warps()
                && n <= limits.blocks
                && (per_warp == 0 || n * warps <= per_partition * SUB_PARTITIONS)
                && (shared == 0 || n * shared <= limits.shared)
        };
        let n = o.blocks();
        prop_assert!(n >= 1, "a launch that can run fits once");
        prop_assert!(fits(n));
        prop_assert!(!fits(n + 1));
        prop_assert_eq!(o.active_warps(), n * warps);
        prop_assert!(o.ratio() <= 1.0);
        prop_assert!(!o.limiting().is_empty());
    }

    /// Asking for more of a resource never lets more blocks in.
    #[test]
    fn more_resources_never_raise_occupancy(cap in capability(), l in launch(), more_regs in 0u32..64, more_shared in 0u32..32768) {
        let Some(o) = occupancy(cap, &l) else { return Ok(()); };
        let heavier = Launch { registers: l.registers + more_regs, shared: l.shared + more_shared, ..l };
        if let Some(h) = occupancy(cap, &heavier) {
            prop_assert!(h.blocks() <= o.blocks());
            prop_assert!(h.limit(Budget::Warps) == o.limit(Budget::Warps));
        }
    }

    /// The kernel sits on or under its roof, and using every moved byte
    /// never lowers it.
    #[test]
    fn the_kernel_is_under_its_roofline(c in config()) {
        let m = GpuMemory::new(&c);
        let gpu = c.cap.gpu();
        let reached = gpu.attainable(m.intensity());
        prop_assert!(reached <= gpu.peak_tflops);
        prop_assert!(reached <= m.intensity() * gpu.bandwidth_gbs / 1000.0 + 1e-12);
        prop_assert!(reached <= gpu.attainable(m.ideal_intensity()) + 1e-12);
    }

    #[test]
    fn hostile_links_never_panic(text in ".{0,300}", bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        use base64::Engine;
        let _ = Scenario::<GpuMemory>::decode(&text);
        let encoded = format!("v1.{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&bytes));
        if let Ok(s) = Scenario::<GpuMemory>::decode(&encoded) {
            let _ = Timeline::<GpuMemory>::from_scenario(&s);
        }
    }
}
