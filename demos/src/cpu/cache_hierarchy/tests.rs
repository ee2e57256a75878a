use super::*;
use crate::cpu::cachesim::{Allocation, Place};

fn small() -> CacheHierarchy {
    CacheHierarchy::new(&CacheHierarchyConfig::default())
}

fn run_queue(m: &mut CacheHierarchy) {
    while let Ok(action) = m.next_auto() {
        m.apply(&action).unwrap();
    }
}

#[test]
fn cold_load_goes_to_dram_and_the_repeat_hits_l1() {
    let mut m = small();
    m.apply(&CacheAction::Load(0x140)).unwrap();
    let r = m.last().unwrap();
    assert_eq!((r.served, r.cycles), (Place::Memory, 350));
    // 0x140 = line 5: L1 (4 sets) set 1, tag 1; L2 (8 sets) set 5, tag 0.
    assert_eq!(
        (r.lookups[0].set, r.lookups[0].tag, r.lookups[0].offset),
        (1, 1, 0)
    );
    assert_eq!((r.lookups[1].set, r.lookups[1].tag), (5, 0));
    m.apply(&CacheAction::Load(0x17f)).unwrap();
    let r = m.last().unwrap();
    assert_eq!((r.served, r.cycles), (Place::Level(0), 5));
}

#[test]
fn server_preset_matches_the_cited_sizes() {
    let c = CacheHierarchyConfig::preset(Preset::Server);
    let bytes: Vec<u64> = c.levels.iter().map(|l| l.bytes()).collect();
    assert_eq!(bytes, [48 << 10, 2 << 20, 1920 << 10]);
    assert_eq!(c.levels[0].ways, 12);
    let mut m = CacheHierarchy::new(&c);
    m.apply(&CacheAction::Load(0x7fff_0000_1000)).unwrap();
    assert_eq!(m.last().unwrap().cycles, 350);
    m.apply(&CacheAction::Load(0x7fff_0000_1008)).unwrap();
    assert_eq!(m.last().unwrap().cycles, 5);
}

/// The break-it story: three lines of L1 set 0 round and round. L1 misses
/// all nine while holding two of its eight lines; the six repeats are
/// conflict misses; L2, with the lines in two sets, hits on the repeats.
#[test]
fn thrash_misses_every_time_in_a_nearly_empty_l1() {
    let mut m = small();
    m.apply(&CacheAction::Thrash).unwrap();
    assert_eq!(m.pending.len(), 9);
    run_queue(&mut m);
    let l1 = &m.sim.levels[0];
    assert_eq!(
        (l1.stats.hits, l1.stats.misses, l1.stats.conflict),
        (0, 9, 6)
    );
    assert_eq!(l1.occupancy(), 2);
    let l2 = &m.sim.levels[1].stats;
    assert_eq!((l2.hits, l2.misses), (6, 3));
    assert!(m
        .why()
        .iter()
        .any(|w| w.contains("6 of L1's 9 misses were conflict misses")));
}

/// Same 512 bytes of L1, four ways instead of two: the three lines now fit
/// in one set and the replay keeps only the three compulsory misses.
#[test]
fn more_ways_at_the_same_size_remove_the_conflicts() {
    let mut m = small();
    m.apply(&CacheAction::Thrash).unwrap();
    run_queue(&mut m);
    let events = m
        .apply(&CacheAction::SetGeometry {
            level: 0,
            sets: 2,
            ways: 4,
            line: 64,
        })
        .unwrap();
    let l1 = &m.sim.levels[0].stats;
    assert_eq!((l1.hits, l1.misses, l1.conflict), (6, 3, 0));
    assert!(events.iter().any(|e| e.text.contains("L1 misses 9 → 3")));
    assert_eq!(m.history.len(), 9);
}

/// A cyclic walk over ways + 1 lines defeats LRU and FIFO alike.
#[test]
fn fifo_does_no_better_on_the_cycle() {
    let mut m = small();
    m.apply(&CacheAction::Thrash).unwrap();
    run_queue(&mut m);
    m.apply(&CacheAction::SetPolicy {
        level: 0,
        policy: Policy::Fifo,
    })
    .unwrap();
    assert_eq!(m.sim.levels[0].stats.misses, 9);
}

/// A store dirties L1; two more lines of the same set push it out and L1
/// writes it back into L2, which still holds it.
#[test]
fn dirty_victim_is_written_back_to_l2() {
    let mut m = small();
    m.apply(&CacheAction::Store(0)).unwrap();
    m.apply(&CacheAction::Load(0x100)).unwrap();
    let events = m.apply(&CacheAction::Load(0x200)).unwrap();
    let r = m.last().unwrap();
    assert_eq!(r.writebacks.len(), 1);
    assert!(r.writebacks[0].was_present);
    assert_eq!(m.sim.levels[0].stats.writebacks, 1);
    assert!(events
        .iter()
        .any(|e| e.text.contains("writes dirty line 0x0 back into L2")));
    assert!(events
        .iter()
        .any(|e| e.text.contains("least recently used")));
}

#[test]
fn impossible_actions_are_refused_and_change_nothing() {
    let mut m = small();
    m.apply(&CacheAction::Load(64)).unwrap();
    let before = m.clone();
    let refused = [
        CacheAction::Load(1 << 14),
        CacheAction::Step,
        CacheAction::SetGeometry {
            level: 0,
            sets: 3,
            ways: 2,
            line: 64,
        },
        CacheAction::SetGeometry {
            level: 1,
            sets: 8,
            ways: 4,
            line: 32,
        },
        CacheAction::SetGeometry {
            level: 3,
            sets: 8,
            ways: 4,
            line: 64,
        },
        CacheAction::SetPolicy {
            level: 0,
            policy: Policy::Lru,
        },
        CacheAction::SetLatency {
            level: 3,
            cycles: 250,
        },
        CacheAction::SetLatency {
            level: 4,
            cycles: 1,
        },
    ];
    for action in &refused {
        assert!(m.apply(action).is_err(), "{action:?} should be refused");
        assert_eq!(m, before);
    }
    let mut server = CacheHierarchy::new(&CacheHierarchyConfig::preset(Preset::Server));
    let err = server
        .apply(&CacheAction::SetPolicy {
            level: 0,
            policy: Policy::Plru,
        })
        .unwrap_err();
    assert!(err.reason.contains("power-of-two"));
}

#[test]
fn dram_latency_change_reprices_the_same_trace() {
    let mut m = small();
    m.apply(&CacheAction::Load(0)).unwrap();
    m.apply(&CacheAction::SetLatency {
        level: 3,
        cycles: 100,
    })
    .unwrap();
    assert_eq!(m.sim.cycles, 200);
}

#[test]
fn config_bounds_are_enforced() {
    let mut c = CacheHierarchyConfig::default();
    c.levels[0].name = "X".into();
    assert!(CacheHierarchy::validate(&c).is_err());
    let wide = CacheHierarchyConfig {
        address_bits: 60,
        ..CacheHierarchyConfig::default()
    };
    assert!(CacheHierarchy::validate(&wide).is_err());
    let empty = CacheHierarchyConfig {
        levels: Vec::new(),
        ..CacheHierarchyConfig::default()
    };
    assert!(CacheHierarchy::validate(&empty).is_err());
    assert!(CacheHierarchy::validate(&CacheHierarchyConfig::preset(Preset::Server)).is_ok());
}

/// The learner reads "DRAM", not the trace tools' "MEM", in the narration
/// and the status line.
#[test]
fn memory_is_called_dram_in_what_the_learner_reads() {
    let mut m = small();
    let events = m.apply(&CacheAction::Load(0x140)).unwrap();
    let last = events.last().unwrap();
    assert_eq!(
        last.text,
        "Served by DRAM in 350 cycles (5 + 11 + 84 + 250)."
    );
    let served = m.status().into_iter().find(|f| f.key == "served").unwrap();
    assert_eq!(served.value, "DRAM");
    assert!(m
        .why()
        .iter()
        .any(|s| s.contains("served by L1 0, L2 0, L3 0, DRAM 1")));
    assert_eq!(
        m.sim.name(Place::Memory),
        "MEM",
        "the simulator keeps its own name"
    );
}

#[test]
fn the_why_says_the_three_cs_are_counted_per_miss() {
    // Issue 30: the classifier cited Hennessy & Patterson's totals method
    // while it labels each miss as it happens; the page now says which.
    let mut m = CacheHierarchy::new(&CacheHierarchyConfig::default());
    m.apply(&CacheAction::Thrash).unwrap();
    while let Ok(a) = m.next_auto() {
        m.apply(&a).unwrap();
    }
    let why = m.why();
    assert!(why.iter().any(|w| w.contains("counted per miss")
        && w.contains("Hennessy & Patterson")
        && w.contains("L1's 3 compulsory, 0 capacity and 6 conflict add up to its 9 misses")));
}

#[test]
fn the_server_l3_is_filled_by_l2_victims_not_by_dram_misses() {
    // Issue 30: the Sapphire Rapids preset filled its non-inclusive L3 on
    // every DRAM miss.
    let c = CacheHierarchyConfig::preset(Preset::Server);
    assert_eq!(c.levels[2].allocation, Allocation::Victims);
    let mut m = CacheHierarchy::new(&c);
    let events = m.apply(&CacheAction::Load(0x7fff_0000_1000)).unwrap();
    let r = m.last().unwrap();
    assert_eq!(r.served, Place::Memory);
    let filled: Vec<usize> = r.fills.iter().map(|f| f.level).collect();
    assert_eq!(filled, [1, 0], "L2 and L1 take the line, L3 does not");
    assert_eq!(m.sim.levels[2].occupancy(), 0);
    assert!(events
        .iter()
        .any(|e| e.text == "L3 is not filled on the way in: it takes only the lines L2 evicts."));
    // The small preset keeps the textbook rule: all three are filled.
    let mut m = small();
    m.apply(&CacheAction::Load(0x140)).unwrap();
    assert_eq!(m.last().unwrap().fills.len(), 3);
}

#[test]
fn a_bound_is_one_sentence_in_validation_and_refusal() {
    let mut m = small();
    let refused = m
        .apply(&CacheAction::SetLatency {
            level: 0,
            cycles: LATENCY.max + 1,
        })
        .unwrap_err();
    assert_eq!(
        refused.reason,
        "The latency is 0 to 10000 cycles; 10001 cycles is out of range."
    );
    let mut c = CacheHierarchyConfig::default();
    c.levels[1].ways = 33;
    assert_eq!(
        c.validate().unwrap_err(),
        "L2: The number of ways is 1 to 32; 33 is out of range."
    );
    c.levels[1].ways = 4;
    c.address_bits = 49;
    assert_eq!(
        c.validate().unwrap_err(),
        "The address width is 8 to 48 bits; 49 bits is out of range."
    );
}
