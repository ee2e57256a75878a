use super::*;

fn iommu() -> Iommu {
    Iommu::new(&IommuConfig::default())
}

fn dma(m: &mut Iommu, access: Access, addr: &str) -> Outcome {
    m.apply(&IommuAction::Dma {
        access,
        addr: addr.into(),
    })
}

fn map(m: &mut Iommu, iova: &str, vaddr: &str, read: bool, write: bool) -> Outcome {
    m.apply(&IommuAction::Map {
        iova: iova.into(),
        vaddr: vaddr.into(),
        read,
        write,
    })
}

#[test]
fn a_mapped_write_is_translated_keeping_the_page_offset() {
    let mut m = iommu();
    dma(&mut m, Access::Write, "0x1234").unwrap();
    assert_eq!(m.last.unwrap().verdict, Verdict::Allowed { pa: 0x4234 });
    assert_eq!(m.touched[2].written, 64);
    assert_eq!(m.counters.allowed, 1);
}

#[test]
fn a_dma_near_the_page_end_is_cut_at_the_boundary() {
    let mut m = iommu();
    dma(&mut m, Access::Write, "0x1ff0").unwrap();
    assert_eq!(m.last.unwrap().bytes, 16);
}

#[test]
fn an_unmapped_iova_faults_with_the_dmar_line() {
    let mut m = iommu();
    let events = dma(&mut m, Access::Write, "0xf000").unwrap();
    assert_eq!(
        m.last.unwrap().verdict,
        Verdict::Blocked(FaultReason::NoWrite)
    );
    assert_eq!(
        events[0].text,
        "DMAR: [DMA Write NO_PASID] Request device [03:00.0] fault addr 0xf000 [fault reason 0x05] PTE Write access is not set"
    );
    assert_eq!(m.faults.len(), 1);
    assert_eq!(m.counters.bytes_moved, 0);
}

#[test]
fn permissions_are_per_mapping() {
    let mut m = iommu();
    dma(&mut m, Access::Read, "0x1000").unwrap();
    assert_eq!(
        m.last.unwrap().verdict,
        Verdict::Blocked(FaultReason::NoRead)
    );
    dma(&mut m, Access::Write, "0x2000").unwrap();
    assert_eq!(
        m.last.unwrap().verdict,
        Verdict::Blocked(FaultReason::NoWrite)
    );
    dma(&mut m, Access::Read, "0x2010").unwrap();
    assert_eq!(m.last.unwrap().verdict, Verdict::Allowed { pa: 0x8010 });
}

#[test]
fn an_unmapped_iova_past_the_drawn_pages_is_reason_5_or_6_not_mgaw() {
    let mut m = iommu();
    dma(&mut m, Access::Read, "0x1_0000").unwrap();
    assert_eq!(
        m.last.unwrap().verdict,
        Verdict::Blocked(FaultReason::NoRead)
    );
    dma(&mut m, Access::Write, "0x1_0000_0000_0000").unwrap();
    assert_eq!(
        m.last.unwrap().verdict,
        Verdict::Blocked(FaultReason::BeyondWidth),
        "2^48 is past a 48-bit MGAW"
    );
}

#[test]
fn the_fault_line_names_the_page_not_the_offset() {
    let mut m = iommu();
    let events = dma(&mut m, Access::Read, "0x1234").unwrap();
    assert!(events[0].text.starts_with(
        "DMAR: [DMA Read NO_PASID] Request device [03:00.0] fault addr 0x1000 [fault reason 0x06]"
    ));
}

#[test]
fn a_blocked_or_lost_write_gets_no_completion_a_read_gets_ur() {
    let mut m = iommu();
    let w = dma(&mut m, Access::Write, "0x5000").unwrap();
    assert!(w[1].text.contains("no answer goes back"));
    let r = dma(&mut m, Access::Read, "0x5000").unwrap();
    assert!(r[1].text.contains("Unsupported Request status"));
    m.apply(&IommuAction::SetTranslation(false)).unwrap();
    let w = dma(&mut m, Access::Write, "0x20000").unwrap();
    assert!(w[0].text.contains("no completion") && w[0].text.contains("AER"));
    let r = dma(&mut m, Access::Read, "0x20000").unwrap();
    assert!(r[0]
        .text
        .contains("completion with Unsupported Request status"));
}

#[test]
fn the_fault_log_keeps_the_latest_lines() {
    let mut m = iommu();
    for i in 0..10 {
        dma(&mut m, Access::Write, &format!("0x{:x}", 0x9000 + i)).unwrap();
    }
    assert_eq!(m.faults.len(), FAULT_LOG);
    assert_eq!(m.faults.last().unwrap().iova, 0x9009);
    assert_eq!(m.counters.blocked, 10);
}

#[test]
fn malformed_addresses_are_refused_without_change() {
    let mut m = iommu();
    for bad in ["", "0xzz", "12 34", "0x1_0000_0000_0000_0000"] {
        assert!(dma(&mut m, Access::Write, bad).is_err(), "{bad}");
    }
    assert_eq!(m, iommu());
}

#[test]
fn passthrough_lets_a_stray_write_overwrite_kernel_text() {
    let mut m = iommu();
    m.apply(&IommuAction::SetTranslation(false)).unwrap();
    let events = dma(&mut m, Access::Write, "0x0100").unwrap();
    assert_eq!(m.last.unwrap().verdict, Verdict::Unchecked { pa: 0x100 });
    assert_eq!(events[0].tone, crate::Tone::Fault);
    let harmed: Vec<_> = m.harmed().map(|(r, t)| (r.key, t.written)).collect();
    assert_eq!(harmed, vec![("ktext", 64)]);
    dma(&mut m, Access::Read, "0x9000").unwrap();
    assert_eq!(m.harmed().count(), 2);
    dma(&mut m, Access::Write, "0x20000").unwrap();
    assert_eq!(m.last.unwrap().verdict, Verdict::NoMemory);
    m.check().unwrap();
}

#[test]
fn map_refuses_impossible_requests_with_reasons() {
    let mut m = iommu();
    let reason = |r: Outcome| r.unwrap_err().reason;
    let va = "0x7fa0_2000";
    assert!(reason(map(&mut m, "0x5001", va, true, true)).contains("not page-aligned"));
    assert!(reason(map(&mut m, "0x5000", "0x7fa0_2800", true, true)).contains("not page-aligned"));
    assert!(reason(map(&mut m, "0x1000", va, true, true)).contains("EEXIST"));
    assert!(reason(map(&mut m, "0x10000", va, true, true)).contains("only the first 16"));
    assert!(reason(map(&mut m, "0x1_0000_0000_0000", va, true, true)).contains("EINVAL"));
    assert!(reason(map(&mut m, "0xfee0_0000", va, true, true)).contains("MSI window"));
    // A physical address is not a vaddr of this process: nothing to pin.
    assert!(reason(map(&mut m, "0x5000", "0x0000", true, true)).contains("EFAULT"));
    assert!(reason(map(&mut m, "0x5000", va, false, false)).contains("EINVAL"));
    assert!(reason(map(&mut m, "nope", va, true, true)).starts_with("IOVA:"));
    assert!(reason(map(&mut m, "0x5000", "zz", true, true)).starts_with("vaddr:"));
    assert_eq!(m, iommu());
}

#[test]
fn map_then_dma_then_unmap_then_fault() {
    let mut m = iommu();
    map(&mut m, "0x3000", "0x7fa0_2000", true, true).unwrap();
    assert_eq!(
        m.mapping(0x3000).unwrap().pa,
        0x6000,
        "the kernel found the PA"
    );
    assert_eq!(
        m.mappings.iter().map(|e| e.iova).collect::<Vec<_>>(),
        vec![0x1000, 0x2000, 0x3000]
    );
    dma(&mut m, Access::Write, "0x3abc").unwrap();
    assert_eq!(m.last.unwrap().verdict, Verdict::Allowed { pa: 0x6abc });
    m.apply(&IommuAction::Unmap { iova: 0x3000 }).unwrap();
    dma(&mut m, Access::Write, "0x3abc").unwrap();
    assert_eq!(
        m.last.unwrap().verdict,
        Verdict::Blocked(FaultReason::NoWrite)
    );
    assert!(m.apply(&IommuAction::Unmap { iova: 0x3000 }).is_err());
    assert!(m.apply(&IommuAction::Unmap { iova: 0x1001 }).is_err());
}

#[test]
fn step_is_ordinary_traffic_that_works_in_both_modes() {
    let mut m = iommu();
    for _ in 0..4 {
        let action = m.next_auto().unwrap();
        m.apply(&action).unwrap();
    }
    assert_eq!(m.counters.allowed, 4);
    m.apply(&IommuAction::SetTranslation(false)).unwrap();
    for _ in 0..4 {
        let action = m.next_auto().unwrap();
        m.apply(&action).unwrap();
    }
    assert_eq!(m.counters.unchecked, 4);
    assert_eq!(m.harmed().count(), 0);
    assert!(m.apply(&IommuAction::SetTranslation(false)).is_err());
}

#[test]
fn ordinary_traffic_ends_after_its_quota() {
    let mut m = iommu();
    for _ in 0..TRAFFIC_MAX {
        m.apply(&IommuAction::Traffic).unwrap();
    }
    assert!(m.next_auto().is_err());
    assert!(m.apply(&IommuAction::Traffic).is_err());
    assert_eq!(m.counters.allowed, TRAFFIC_MAX);
    assert_eq!(m.touched[2].written, 16 * DMA_BYTES);
}
