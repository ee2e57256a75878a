use super::*;

fn driver(strict: bool) -> DmaMap {
    DmaMap::new(&DmaMapConfig {
        strict,
        recycle: false,
    })
}

fn recycling(strict: bool) -> DmaMap {
    DmaMap::new(&DmaMapConfig {
        strict,
        recycle: true,
    })
}

fn run_to_end(m: &mut DmaMap) {
    while let Ok(a) = m.next_auto() {
        m.apply(&a).unwrap();
        m.check().unwrap();
    }
}

fn steps(m: &mut DmaMap, n: usize) {
    for _ in 0..n {
        let a = m.next_auto().unwrap();
        m.apply(&a).unwrap();
        m.check().unwrap();
    }
}

#[test]
fn step_fills_the_ring_then_cycles_write_and_unmap() {
    let mut m = driver(false);
    steps(&mut m, SLOTS);
    assert!(m
        .slots
        .iter()
        .all(|s| matches!(s, SlotState::Mapped { .. })));
    assert_eq!(m.next_auto().unwrap(), DmaMapAction::DeviceWrite);
    steps(&mut m, 1);
    assert_eq!(m.next_auto().unwrap(), DmaMapAction::Unmap);
}

#[test]
fn the_ring_mapping_hits_and_each_buffer_mapping_misses() {
    let mut m = driver(true);
    steps(&mut m, SLOTS);
    for _ in 0..3 {
        m.apply(&DmaMapAction::DeviceWrite).unwrap();
        m.apply(&DmaMapAction::Unmap).unwrap();
        m.apply(&DmaMapAction::Map).unwrap();
    }
    assert_eq!(m.counters.frames, 3);
    assert_eq!(m.counters.misses, 1 + 3, "the ring once, every buffer");
    assert_eq!(m.counters.hits, 2);
    assert_eq!(m.counters.walk_ns, 4 * WALK_NS);
}

#[test]
fn strict_invalidates_on_every_unmap_lazy_batches_them() {
    let mut strict = driver(true);
    let mut lazy = driver(false);
    for m in [&mut strict, &mut lazy] {
        steps(m, SLOTS);
        for _ in 0..3 {
            m.apply(&DmaMapAction::DeviceWrite).unwrap();
            m.apply(&DmaMapAction::Unmap).unwrap();
        }
    }
    assert_eq!(strict.counters.invalidations, 3);
    assert_eq!(strict.counters.invalidation_ns, 3 * INVALIDATE_NS);
    assert_eq!(lazy.counters.invalidations, 0);
    assert_eq!(lazy.flush_queue.len(), 3);
    lazy.apply(&DmaMapAction::FlushTimer).unwrap();
    assert_eq!(lazy.counters.invalidations, 1);
    assert!(lazy.flush_queue.is_empty());
    assert_eq!(lazy.stale_entries(), 0);
    assert!(strict.apply(&DmaMapAction::FlushTimer).is_err());
}

#[test]
fn lazy_leaves_a_stale_translation_that_a_late_write_uses() {
    let mut m = driver(false);
    steps(&mut m, SLOTS + 2);
    assert_eq!(m.stale_entries(), 1);
    let (iova, pa) = m.last_unmapped.unwrap();
    assert!(m.pte(iova).is_none(), "the entry is cleared");
    m.apply(&DmaMapAction::StaleDma).unwrap();
    assert_eq!(m.last.unwrap().fate, Fate::StaleHit);
    assert_eq!(m.last.unwrap().pa, Some(pa));
    assert_eq!(m.pages[DmaMap::pool_index(pa).unwrap()], PageUse::Reused);
    assert_eq!(m.counters.corrupted, 1);
}

#[test]
fn strict_blocks_the_same_late_write_and_logs_it() {
    let mut m = driver(true);
    steps(&mut m, SLOTS + 2);
    m.apply(&DmaMapAction::StaleDma).unwrap();
    assert_eq!(m.last.unwrap().fate, Fate::Fault);
    assert_eq!(m.counters.corrupted, 0);
    assert!(m.fault_log[0].contains("[fault reason 0x05]"));
}

#[test]
fn after_the_flush_the_late_write_is_blocked_in_lazy_mode_too() {
    let mut m = driver(false);
    steps(&mut m, SLOTS + 2);
    m.apply(&DmaMapAction::FlushTimer).unwrap();
    m.apply(&DmaMapAction::StaleDma).unwrap();
    assert_eq!(m.last.unwrap().fate, Fate::Fault);
}

#[test]
fn lazy_does_not_reuse_an_iova_before_its_flush() {
    let mut m = driver(false);
    steps(&mut m, SLOTS + 3);
    let (iova, _) = m.last_unmapped.unwrap();
    let reused = m.slots.iter().any(|s| match *s {
        SlotState::Mapped { iova: i, .. } | SlotState::Written { iova: i, .. } => i == iova,
        SlotState::Free => false,
    });
    assert!(!reused);
}

#[test]
fn the_run_stops_after_its_frames() {
    let mut m = driver(true);
    run_to_end(&mut m);
    assert_eq!(m.counters.maps, MAX_FRAMES);
    assert_eq!(m.counters.unmaps, MAX_FRAMES);
}

#[test]
fn recycling_maps_each_page_once_and_strict_invalidates_nothing() {
    let mut per_frame = driver(true);
    let mut recycled = recycling(true);
    run_to_end(&mut per_frame);
    run_to_end(&mut recycled);
    assert_eq!(per_frame.counters.frames, MAX_FRAMES);
    assert_eq!(recycled.counters.frames, MAX_FRAMES);
    assert_eq!(per_frame.counters.invalidations, MAX_FRAMES);
    let c = &recycled.counters;
    assert_eq!(
        (c.maps, c.unmaps, c.recycled),
        (SLOTS as u32, 0, MAX_FRAMES)
    );
    assert_eq!((c.invalidations, c.invalidation_ns), (0, 0));
    let why = recycled.why().join(" ");
    assert!(
        why.contains("24 frames needed only 4 maps and 0 unmaps: mapping per frame would have cost 24 more of each, and 24 IOTLB invalidations, 24,000 ns of CPU"),
        "{why}"
    );
}

#[test]
fn recycled_pages_keep_their_translations_cached() {
    let mut m = recycling(false);
    run_to_end(&mut m);
    // Cold misses only: the ring and each of the four pages once.
    assert_eq!(m.counters.misses, 1 + SLOTS as u32);
    assert_eq!(m.counters.hits, 2 * MAX_FRAMES - m.counters.misses);
    assert!(m.flush_queue.is_empty() && m.stale_entries() == 0);
    assert!(m.why()[0].contains("Recycling keeps the IOTLB useful"));
}

#[test]
fn a_released_page_is_unmapped_and_invalidated_then_a_fresh_one_mapped() {
    let mut m = recycling(true);
    steps(&mut m, SLOTS + 1);
    assert_eq!(m.next_auto().unwrap(), DmaMapAction::Recycle);
    let events = m.apply(&DmaMapAction::Unmap).unwrap();
    assert!(events[0]
        .text
        .starts_with("The page leaves the pool for good"));
    assert_eq!(m.counters.invalidations, 1);
    m.apply(&DmaMapAction::StaleDma).unwrap();
    assert_eq!(m.last.unwrap().fate, Fate::Fault);
    assert_eq!(m.next_auto().unwrap(), DmaMapAction::Map);
    steps(&mut m, 1);
    assert_eq!(m.counters.maps, SLOTS as u32 + 1);
}

#[test]
fn per_frame_mapping_says_it_is_not_what_rx_paths_do() {
    let mut m = driver(false);
    let intro = m.intro().text;
    assert!(intro.contains("not what RX paths do"), "{intro}");
    let mut seen = driver(false);
    steps(&mut seen, SLOTS + 1);
    assert!(seen.why()[0].contains("RX paths that recycle mapped pages keep it warm"));
    assert!(recycling(false)
        .intro()
        .text
        .contains("as page_pool and ixgbe do"));
    steps(&mut m, SLOTS + 1);
    assert!(m.apply(&DmaMapAction::Recycle).is_err());
}

#[test]
fn impossible_moves_are_refused() {
    let mut m = driver(false);
    assert!(m.apply(&DmaMapAction::DeviceWrite).is_err());
    assert!(m.apply(&DmaMapAction::Unmap).is_err());
    assert!(m.apply(&DmaMapAction::StaleDma).is_err());
    assert!(m.apply(&DmaMapAction::FlushTimer).is_err());
    assert!(m.apply(&DmaMapAction::Recycle).is_err());
    assert_eq!(m, driver(false));
    let mut r = recycling(false);
    assert!(r.apply(&DmaMapAction::Recycle).is_err());
    assert_eq!(r, recycling(false));
}
