use super::*;

fn fresh() -> Tlb {
    Tlb::new(&TlbConfig::default())
}

fn run_queue(m: &mut Tlb) {
    while let Ok(action) = m.next_auto() {
        m.apply(&action).unwrap();
    }
}

#[test]
fn a_miss_walks_four_levels_and_the_repeat_hits() {
    let mut m = fresh();
    let va = 0x7f00_0000_1234;
    m.apply(&TlbAction::Access(va)).unwrap();
    let t = m.last().unwrap().clone();
    assert!(!t.tlb_hit);
    assert_eq!(t.indices, [254, 0, 0, 1]);
    assert_eq!(t.offset, 0x234);
    let tables: Vec<Table> = t.steps.iter().map(|s| s.table).collect();
    assert_eq!(tables, Table::ALL);
    assert_eq!(t.steps[0].entry_addr, CR3 + 8 * 254);
    assert_eq!(t.cycles, 1 + 4 * 25);
    assert_eq!(t.pa, (1 << 48) + (va >> 12) * PAGE + 0x234);
    m.apply(&TlbAction::Access(va + 0x100)).unwrap();
    let t = m.last().unwrap();
    assert!(t.tlb_hit && t.steps.is_empty());
    assert_eq!(t.cycles, 1);
}

/// Eight consecutive pages fit an 8-entry, 4-way TLB (four per set): only the
/// first round misses. Ten pages put five in each set: LRU evicts every page
/// before it comes back and no load hits at all.
#[test]
fn looping_over_more_pages_than_entries_collapses_the_hit_rate() {
    let mut fits = fresh();
    fits.apply(&TlbAction::Loop(8)).unwrap();
    run_queue(&mut fits);
    assert_eq!((fits.counters.hits, fits.counters.misses), (16, 8));

    let mut over = fresh();
    over.apply(&TlbAction::Loop(10)).unwrap();
    run_queue(&mut over);
    assert_eq!((over.counters.hits, over.counters.misses), (0, 30));
    assert_eq!(over.counters.reads, 30 * 4);
}

/// Fully associative, one page more than the entries is enough.
#[test]
fn fully_associative_tlb_collapses_at_one_page_over() {
    let mut m = Tlb::new(&TlbConfig {
        ways: 8,
        ..TlbConfig::default()
    });
    m.apply(&TlbAction::Loop(9)).unwrap();
    run_queue(&mut m);
    assert_eq!(m.counters.hits, 0);
}

/// With 2 MiB pages the ten pages lie in one huge page: one three-read walk,
/// then hits.
#[test]
fn huge_pages_cover_the_loop_with_one_entry() {
    let mut m = fresh();
    m.apply(&TlbAction::Loop(10)).unwrap();
    run_queue(&mut m);
    let events = m.apply(&TlbAction::SetHugePages(true)).unwrap();
    assert_eq!((m.counters.hits, m.counters.misses), (29, 1));
    assert_eq!(m.counters.reads, 3);
    assert!(events
        .iter()
        .any(|e| e.text.contains("hit rate 0.0 % → 96.7 %")));
    let first = m.history.front().unwrap();
    assert!(first.huge);
    m.apply(&TlbAction::Access(0x1234_5678)).unwrap();
    let t = m.last().unwrap();
    assert_eq!(t.steps.len(), 3);
    assert_eq!(t.steps[2].entry & paging::PS, paging::PS);
    assert_eq!(t.offset, 0x1234_5678 & (HUGE_PAGE - 1));
}

/// The page-walk cache: the neighbour page's walk finds the PD entry cached
/// and reads only the PT entry.
#[test]
fn page_walk_cache_skips_the_upper_levels() {
    let mut m = Tlb::new(&TlbConfig {
        pwc: true,
        ..TlbConfig::default()
    });
    m.apply(&TlbAction::Access(0x40_0000)).unwrap();
    assert_eq!(m.last().unwrap().steps.len(), 4);
    m.apply(&TlbAction::Access(0x40_1000)).unwrap();
    let t = m.last().unwrap();
    assert_eq!(t.pwc_hit, Some(Table::Pd));
    assert_eq!(t.steps.len(), 1);
    assert_eq!(t.steps[0].table, Table::Pt);
    assert_eq!(t.cycles, 1 + 25);
    // A page in another 2 MiB region of the same 1 GiB: the PDPT entry is cached.
    m.apply(&TlbAction::Access(0x80_0000)).unwrap();
    let t = m.last().unwrap();
    assert_eq!((t.pwc_hit, t.steps.len()), (Some(Table::Pdpt), 2));
    assert_eq!(m.counters.reads_saved, 3 + 2);
}

#[test]
fn impossible_actions_are_refused_and_change_nothing() {
    let mut m = fresh();
    m.apply(&TlbAction::Access(0x1000)).unwrap();
    let before = m.clone();
    for action in [
        TlbAction::Access(0x8000_0000_0000),
        TlbAction::Loop(0),
        TlbAction::Loop(65),
        TlbAction::Step,
        TlbAction::SetTlb {
            entries: 8,
            ways: 3,
        },
        TlbAction::SetTlb {
            entries: 12,
            ways: 4,
        },
        TlbAction::SetTlb {
            entries: 8,
            ways: 4,
        },
        TlbAction::SetPwc(false),
        TlbAction::SetReadCycles(20_000),
    ] {
        assert!(m.apply(&action).is_err(), "{action:?}");
        assert_eq!(m, before);
    }
    // The upper canonical half is accepted.
    assert!(m.apply(&TlbAction::Access(0xffff_8000_0000_0000)).is_ok());
}
