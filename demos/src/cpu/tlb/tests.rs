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
    assert_eq!(t.cycles, 4 * 25);
    assert_eq!(t.pa, (1 << 48) + (va >> 12) * PAGE + 0x234);
    m.apply(&TlbAction::Access(va + 0x100)).unwrap();
    let t = m.last().unwrap();
    assert!(t.tlb_hit && t.steps.is_empty());
    // The hit overlaps the L1 lookup: no cycles of its own.
    assert_eq!(t.cycles, 0);
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
    assert_eq!(t.cycles, 25);
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

/// The lecturer's case: 9 pages × 3 rounds on the default 8-entry 4-way
/// TLB. Set 0 gets pages 0, 2, 4, 6, 8 (five for four ways) and thrashes;
/// set 1 keeps 1, 3, 5, 7, which hit in rounds 2 and 3: 8 hits of 27, not
/// the "every page evicted just before its turn" of a fully associative TLB.
#[test]
fn one_page_over_the_entries_thrashes_only_the_overfull_set() {
    let mut m = fresh();
    let events = m.apply(&TlbAction::Loop(9)).unwrap();
    let text = &events[0].text;
    assert!(
        text.contains("Set 0 gets 5 pages, but a set holds 4 ways"),
        "{text}"
    );
    assert!(text.contains("The other set keeps its pages"), "{text}");
    assert!(
        text.contains("rounds 2 and 3 should hit 8 of their 18 loads"),
        "{text}"
    );
    run_queue(&mut m);
    assert_eq!((m.counters.hits, m.counters.misses), (8, 19));
    let why = m.why().join("\n");
    assert!(
        why.contains("only set 0 with 5 pages over 4 ways thrashes"),
        "{why}"
    );
    assert!(why.contains("still hit 8 of 18 loads"), "{why}");
    assert!(!why.contains("just before its turn"), "{why}");
}

/// The forecast matches the simulator for every loop length and geometry
/// (cold TLB, rounds 2 and 3).
#[test]
fn the_loop_forecast_matches_the_simulated_later_rounds() {
    for (entries, ways, huge) in [
        (8, 4, false),
        (8, 8, false),
        (8, 1, false),
        (16, 4, false),
        (4, 4, true),
    ] {
        for pages in 1..=LOOP_PAGES.max {
            let config = TlbConfig {
                entries,
                ways,
                huge_pages: huge,
                ..TlbConfig::default()
            };
            let f = forecast::LoopForecast::new(&config, pages);
            let mut m = Tlb::new(&config);
            m.apply(&TlbAction::Loop(pages)).unwrap();
            for _ in 0..pages {
                m.apply(&TlbAction::Step).unwrap();
            }
            let first = m.counters.hits;
            run_queue(&mut m);
            assert_eq!(
                (m.counters.hits - first) as usize,
                f.later_hits(),
                "{entries}/{ways} huge={huge}, {pages} pages"
            );
        }
    }
}

/// 2 MiB translations live in their own, smaller TLB (4 entries, one set of
/// 4 ways by default): five 2 MiB pages in turn thrash it, where the 4 KiB
/// TLB's 8 entries would have kept them.
#[test]
fn huge_pages_use_their_own_smaller_tlb() {
    let mut m = Tlb::new(&TlbConfig {
        huge_pages: true,
        ..TlbConfig::default()
    });
    assert_eq!(m.config.geometry(), (4, 4));
    for _ in 0..2 {
        for p in 0..5u64 {
            m.apply(&TlbAction::Access(p * HUGE_PAGE)).unwrap();
        }
    }
    assert_eq!((m.counters.hits, m.counters.misses), (0, 10));
    m.apply(&TlbAction::SetHugeTlb {
        entries: 8,
        ways: 8,
    })
    .unwrap();
    assert_eq!((m.counters.hits, m.counters.misses), (5, 5));
    let why = m.why().join("\n");
    assert!(why.contains("(8 against 8 here), yet these 8 reach 16 MiB, where the 8 entries for 4 KiB pages reach 32 KiB"), "{why}");
    assert!(Tlb::validate(&TlbConfig {
        huge_entries: 6,
        huge_ways: 4,
        ..TlbConfig::default()
    })
    .is_err_and(|e| e.contains("2 MiB TLB")));
}
