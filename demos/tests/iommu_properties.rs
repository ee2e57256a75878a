//! IOMMU / IOVA: the laws over random action sequences, the IOMMU's own
//! guarantees, and an address parser that no text can make panic.

use demos::laws::check_laws;
use demos::nic::iommu::{
    parse_addr, region_at, Access, FaultReason, Iommu, IommuAction, IommuConfig, Owner, Verdict,
    MGAW_BITS, PAGE,
};
use demos::{Model, Scenario, Timeline};
use proptest::prelude::*;

/// Addresses a learner might type: in range, out of range, odd, malformed.
fn addr_text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (0u64..0x1_0000).prop_map(|a| format!("{a:#x}")),
        3 => (0u64..16).prop_map(|p| format!("0x{:x}", p * PAGE)),
        1 => any::<u64>().prop_map(|a| format!("{a:x}")),
        1 => (0u64..0x2_0000).prop_map(|a| format!("0x{:x}_{:03x}", a >> 12, a & 0xfff)),
        // Either side of the IOMMU's address width.
        1 => ((1u64 << MGAW_BITS) - 2..(1u64 << MGAW_BITS) + 2).prop_map(|a| format!("{a:#x}")),
        1 => ".{0,30}",
    ]
}

/// Virtual addresses: the process's own pages, near misses, and anything.
fn vaddr_text() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => (0u64..6).prop_map(|p| format!("0x{:x}", 0x7fa0_0000 + p * PAGE)),
        1 => addr_text(),
    ]
}

fn access() -> impl Strategy<Value = Access> {
    prop_oneof![Just(Access::Read), Just(Access::Write)]
}

fn action(allow_passthrough: bool) -> impl Strategy<Value = IommuAction> {
    let toggle = if allow_passthrough {
        any::<bool>().prop_map(IommuAction::SetTranslation).boxed()
    } else {
        Just(IommuAction::SetTranslation(true)).boxed()
    };
    prop_oneof![
        6 => (access(), addr_text()).prop_map(|(access, addr)| IommuAction::Dma { access, addr }),
        3 => (addr_text(), vaddr_text(), any::<bool>(), any::<bool>())
            .prop_map(|(iova, vaddr, read, write)| IommuAction::Map { iova, vaddr, read, write }),
        2 => prop_oneof![(0u64..20).prop_map(|p| p * PAGE), any::<u64>()]
            .prop_map(|iova| IommuAction::Unmap { iova }),
        1 => toggle,
        2 => Just(IommuAction::Traffic),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn iommu_obeys_the_laws(actions in prop::collection::vec(action(true), 0..100)) {
        prop_assert_eq!(check_laws::<Iommu>(IommuConfig::default(), &actions), Ok(()));
    }

    /// With translation on, a DMA reaches memory only through an entry that
    /// allows it, at the entry's frame plus the page offset, and never
    /// touches a page its owner did not map.
    #[test]
    fn translation_only_reaches_mapped_pages(actions in prop::collection::vec(action(false), 0..100)) {
        let mut m = Iommu::new(&IommuConfig::default());
        for action in &actions {
            let before = m.clone();
            if m.apply(action).is_err() {
                continue;
            }
            if let (true, Some(record)) = (m.counters.dmas > before.counters.dmas, m.last) {
                let access = &record.access;
                match record.verdict {
                    Verdict::Allowed { pa } => {
                        let entry = before.mapping(record.iova).expect("allowed without an entry");
                        prop_assert!(entry.allows(*access));
                        prop_assert_eq!(pa, entry.pa + (record.iova & (PAGE - 1)));
                        prop_assert_eq!(region_at(pa).map(|(_, r)| r.owner), Some(Owner::App));
                    }
                    Verdict::Blocked(reason) => {
                        prop_assert!(before.mapping(record.iova).is_none_or(|e| !e.allows(*access)));
                        // VT-d: past the width, reason 4 without a walk; below
                        // it, the missing permission (5 or 6), mapped or not.
                        let expected = match access {
                            _ if record.iova >> MGAW_BITS != 0 => FaultReason::BeyondWidth,
                            Access::Read => FaultReason::NoRead,
                            Access::Write => FaultReason::NoWrite,
                        };
                        prop_assert_eq!(reason, expected, "iova {:#x}", record.iova);
                        prop_assert_eq!(m.counters.bytes_moved, before.counters.bytes_moved);
                    }
                    other => prop_assert!(false, "{other:?} while translating"),
                }
            }
        }
        prop_assert_eq!(m.harmed().count(), 0);
    }

    #[test]
    fn no_text_makes_the_address_parser_panic(text in "\\PC{0,64}") {
        let _ = parse_addr(&text);
    }

    #[test]
    fn no_bytes_make_the_address_parser_panic(bytes in prop::collection::vec(any::<u8>(), 0..80)) {
        let _ = parse_addr(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn the_parser_reads_back_what_it_prints(value in any::<u64>(), prefix in any::<bool>(), upper in any::<bool>()) {
        let digits = if upper { format!("{value:X}") } else { format!("{value:x}") };
        let text = if prefix { format!("0x{digits}") } else { digits };
        prop_assert_eq!(parse_addr(&text), Ok(value));
    }

    #[test]
    fn hostile_iommu_links_never_panic(text in ".{0,300}") {
        if let Ok(s) = Scenario::<Iommu>::decode(&text) {
            let _ = Timeline::<Iommu>::from_scenario(&s);
        }
    }
}

/// The last address inside a 48-bit MGAW is walked (and, unmapped, lacks
/// the permission); the first one past it is refused without a walk.
#[test]
fn the_address_width_edge_decides_the_fault_reason() {
    let mut m = Iommu::new(&IommuConfig::default());
    let mut reason = |access, addr: u64| {
        m.apply(&IommuAction::Dma {
            access,
            addr: format!("{addr:#x}"),
        })
        .unwrap();
        m.last.unwrap().verdict
    };
    let edge = 1u64 << MGAW_BITS;
    assert_eq!(
        reason(Access::Write, edge - 1),
        Verdict::Blocked(FaultReason::NoWrite)
    );
    assert_eq!(
        reason(Access::Read, edge - 1),
        Verdict::Blocked(FaultReason::NoRead)
    );
    assert_eq!(
        reason(Access::Write, edge),
        Verdict::Blocked(FaultReason::BeyondWidth)
    );
}
