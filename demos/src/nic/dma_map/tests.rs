use super::*;

fn driver(strict: bool) -> DmaMap {
    DmaMap::new(&DmaMapConfig { strict })
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
fn the_run_stops_after_its_buffers() {
    let mut m = driver(true);
    while let Ok(a) = m.next_auto() {
        m.apply(&a).unwrap();
        m.check().unwrap();
    }
    assert_eq!(m.counters.maps, MAX_BUFFERS);
    assert_eq!(m.counters.unmaps, MAX_BUFFERS);
}

#[test]
fn impossible_moves_are_refused() {
    let mut m = driver(false);
    assert!(m.apply(&DmaMapAction::DeviceWrite).is_err());
    assert!(m.apply(&DmaMapAction::Unmap).is_err());
    assert!(m.apply(&DmaMapAction::StaleDma).is_err());
    assert!(m.apply(&DmaMapAction::FlushTimer).is_err());
    assert_eq!(m, driver(false));
}
