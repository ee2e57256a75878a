//! Hand-worked traces: every expected number below was worked out on paper
//! from the rules in the module doc before the code ran.

use super::*;

const LINE: u64 = 16;
/// Line `n`'s first byte.
fn at(n: u64) -> u64 {
    n * LINE
}

fn one(sets: u64, ways: usize, policy: Policy) -> Hierarchy {
    Hierarchy::new(vec![LevelSpec::new("L1", sets, ways, LINE, policy)], 0).unwrap()
}

fn loads(h: &mut Hierarchy, lines: &[u64]) -> Vec<bool> {
    lines
        .iter()
        .map(|&n| h.load(at(n)).served == Place::Level(0))
        .collect()
}

fn counts(h: &Hierarchy, level: usize) -> (u64, u64, u64) {
    let s = &h.levels[level].stats;
    (s.hits, s.misses, s.writebacks)
}

/// Direct-mapped, 4 sets: lines 0 and 4 share set 0 and throw each other out
/// while three sets stay empty. Two ways over two sets keep both.
#[test]
fn direct_mapped_lines_of_one_set_conflict() {
    let mut dm = one(4, 1, Policy::Lru);
    assert_eq!(loads(&mut dm, &[0, 4, 0, 4]), [false; 4]);
    let s = &dm.levels[0].stats;
    assert_eq!((s.compulsory, s.capacity, s.conflict), (2, 0, 2));
    assert_eq!(dm.levels[0].occupancy(), 1);

    let mut two_way = one(2, 2, Policy::Lru);
    assert_eq!(
        loads(&mut two_way, &[0, 4, 0, 4]),
        [false, false, true, true]
    );
}

/// Two ways, lines A B A C A. LRU keeps A because it was just used; FIFO
/// evicts A because it came first, so the last A misses.
#[test]
fn lru_and_fifo_differ_on_a_reused_first_line() {
    let trace = [0, 1, 0, 2, 0];
    let mut lru = one(1, 2, Policy::Lru);
    assert_eq!(loads(&mut lru, &trace), [false, false, true, false, true]);
    let mut fifo = one(1, 2, Policy::Fifo);
    assert_eq!(loads(&mut fifo, &trace), [false, false, true, false, false]);
    assert_eq!(counts(&lru, 0), (2, 3, 0));
    assert_eq!(counts(&fifo, 0), (1, 4, 0));
}

/// Four ways, A B C D fill ways 0-3, then B is reused. True LRU evicts A
/// (oldest); the PLRU tree points right (B's half was just used) and then to
/// way 2, evicting C. So E lands on different ways and the A that follows
/// hits under PLRU and misses under LRU.
#[test]
fn plru_diverges_from_lru() {
    let trace = [0, 1, 2, 3, 1, 4];
    let mut lru = one(1, 4, Policy::Lru);
    let mut plru = one(1, 4, Policy::Plru);
    loads(&mut lru, &trace[..5]);
    loads(&mut plru, &trace[..5]);
    let e_lru = lru.load(at(4));
    let e_plru = plru.load(at(4));
    assert_eq!(e_lru.evicted(0).map(|e| e.block.base), Some(at(0)));
    assert_eq!(
        e_plru.evicted(0).map(|e| (e.way, e.block.base)),
        Some((2, at(2)))
    );
    assert_eq!(lru.load(at(0)).served, Place::Memory);
    assert_eq!(plru.load(at(0)).served, Place::Level(0));
}

/// L1 and L2 both two-way LRU with one set. Stores to A and B dirty L1; the
/// load of C makes L1 write A back into L2, where it had been evicted, so it
/// is allocated dirty. The load of D then evicts dirty B from L1; B is absent
/// from L2 and allocating it pushes out dirty A: a chain L1 → L2 → MEM inside
/// one access.
#[test]
fn dirty_eviction_cascades_to_l2_and_memory() {
    let spec = |name: &str| LevelSpec::new(name, 1, 2, LINE, Policy::Lru);
    let mut h = Hierarchy::new(vec![spec("L1"), spec("L2")], 0).unwrap();
    h.store(at(0));
    h.store(at(1));
    let c = h.load(at(2));
    assert_eq!(c.writebacks.len(), 1);
    assert_eq!(
        (c.writebacks[0].base, c.writebacks[0].was_present),
        (at(0), false)
    );
    let d = h.load(at(3));
    let chain: Vec<(usize, u64, Place)> = d
        .writebacks
        .iter()
        .map(|w| (w.from, w.base, w.to))
        .collect();
    assert_eq!(
        chain,
        [(0, at(1), Place::Level(1)), (1, at(0), Place::Memory)]
    );
    assert_eq!(counts(&h, 0), (0, 4, 2));
    assert_eq!(counts(&h, 1), (0, 4, 1));
    assert_eq!(
        h.memory,
        MemoryStats {
            reads: 4,
            writes: 1
        }
    );
    // Write-backs are not demand accesses: L2 counted 4 misses, not 6.
    assert_eq!(h.levels[1].stats.writebacks_in, 2);
    // L2 now holds D clean and B dirty.
    let l2: Vec<Option<Block>> = h.levels[1].sets[&0].ways.clone();
    assert!(l2.contains(&Some(Block {
        base: at(3),
        dirty: false
    })));
    assert!(l2.contains(&Some(Block {
        base: at(1),
        dirty: true
    })));
}

/// A write-back that finds its line present only sets the dirty bit.
#[test]
fn write_back_into_a_present_line_only_dirties_it() {
    let spec = |name: &str, ways| LevelSpec::new(name, 1, ways, LINE, Policy::Lru);
    let mut h = Hierarchy::new(vec![spec("L1", 1), spec("L2", 4)], 0).unwrap();
    h.store(at(0));
    let r = h.load(at(1));
    assert_eq!(r.writebacks.len(), 1);
    assert!(r.writebacks[0].was_present);
    assert_eq!(h.levels[1].stats.evictions, 0);
    assert_eq!(h.levels[1].probe(at(0)), Some(0));
    assert_eq!(
        h.levels[1].block(0, 0),
        Some(Block {
            base: 0,
            dirty: true
        })
    );
}

/// Latencies add up along the path: 4 for an L1 hit, 4 + 10 for L2, and
/// 4 + 10 + 100 from memory.
#[test]
fn cycles_add_the_lookups_on_the_way() {
    let mut h = Hierarchy::new(
        vec![
            LevelSpec::new("L1", 1, 1, LINE, Policy::Lru).with_latency(4),
            LevelSpec::new("L2", 4, 2, LINE, Policy::Lru).with_latency(10),
        ],
        100,
    )
    .unwrap();
    assert_eq!(h.load(at(0)).cycles, 114);
    assert_eq!(h.load(at(0)).cycles, 4);
    h.load(at(1));
    let back = h.load(at(0));
    assert_eq!((back.served, back.cycles), (Place::Level(1), 14));
    assert_eq!(h.cycles, 114 + 4 + 114 + 14);
}

/// A store hit dirties the L1 line; only L1, never the outer copies.
#[test]
fn store_dirties_only_l1() {
    let spec = |name: &str| LevelSpec::new(name, 2, 2, LINE, Policy::Lru);
    let mut h = Hierarchy::new(vec![spec("L1"), spec("L2")], 0).unwrap();
    h.load(at(0));
    h.store(at(0) + 3);
    assert_eq!(h.levels[0].block(0, 0).map(|b| b.dirty), Some(true));
    assert_eq!(h.levels[1].block(0, 0).map(|b| b.dirty), Some(false));
    assert_eq!(counts(&h, 0), (1, 1, 0));
}

/// Cycling over three lines in a two-line fully associative LRU cache misses
/// every time: three compulsory misses, then capacity misses only.
#[test]
fn cyclic_walk_over_capacity_gives_capacity_misses() {
    let mut h = one(1, 2, Policy::Lru);
    assert_eq!(loads(&mut h, &[0, 1, 2, 0, 1, 2]), [false; 6]);
    let s = &h.levels[0].stats;
    assert_eq!((s.compulsory, s.capacity, s.conflict), (3, 3, 0));
}

/// The locality demo's story: 64 eight-byte elements over 64-byte lines,
/// cold, walked in order: one miss per line, 8 misses and 56 hits.
#[test]
fn sequential_walk_misses_once_per_line() {
    let mut h = Hierarchy::new(vec![LevelSpec::new("L1", 64, 8, 64, Policy::Lru)], 0).unwrap();
    for i in 0..64 {
        h.load(i * 8);
    }
    assert_eq!(counts(&h, 0), (56, 8, 0));
}

/// Random replacement depends only on the seed.
#[test]
fn random_policy_is_reproducible_from_its_seed() {
    let run = |seed| {
        let spec = LevelSpec::new("L1", 1, 4, LINE, Policy::Random).with_seed(seed);
        let mut h = Hierarchy::new(vec![spec], 0).unwrap();
        (0..200u64)
            .map(|i| h.load(at(i * 7 % 11)).served)
            .collect::<Vec<_>>()
    };
    assert_eq!(run(3), run(3));
}

/// A larger line outward: an L1 victim lands inside the L2 line that holds it.
#[test]
fn wider_outer_lines_hold_inner_ones() {
    let mut h = Hierarchy::new(
        vec![
            LevelSpec::new("L1", 1, 1, 16, Policy::Lru),
            LevelSpec::new("L2", 1, 1, 64, Policy::Lru),
        ],
        0,
    )
    .unwrap();
    h.store(0);
    let r = h.load(16);
    assert_eq!(r.served, Place::Level(1));
    assert!(r.writebacks[0].was_present);
    assert_eq!(
        h.levels[1].block(0, 0),
        Some(Block {
            base: 0,
            dirty: true
        })
    );
}

#[test]
fn bad_geometries_are_refused_with_reasons() {
    let bad = |spec: LevelSpec| Hierarchy::new(vec![spec], 0).unwrap_err();
    assert!(bad(LevelSpec::new("L1", 3, 1, 64, Policy::Lru)).contains("power of two"));
    assert!(bad(LevelSpec::new("L1", 4, 1, 48, Policy::Lru)).contains("line"));
    assert!(bad(LevelSpec::new("L1", 4, 0, 64, Policy::Lru)).contains("ways"));
    assert!(bad(LevelSpec::new("L1", 4, 12, 64, Policy::Plru)).contains("tree-PLRU"));
    assert!(bad(LevelSpec::new("MEM", 4, 1, 64, Policy::Lru)).contains("reserved"));
}

#[test]
fn address_split_matches_the_bit_fields() {
    let spec = LevelSpec::new("L1", 64, 8, 64, Policy::Lru);
    let s = spec.split(0x1f40);
    assert_eq!((s.tag, s.set, s.offset), (0x1, 0x3d, 0x0));
    assert_eq!(spec.base_from(s.tag, s.set), 0x1f40);
    assert_eq!(spec.split(0x1f7f).offset, 0x3f);
}

/// What the picture marks "next out" is where the next new line really goes:
/// the lowest empty way first, then the victim of each deterministic policy.
#[test]
fn next_way_predicts_the_next_fill() {
    for policy in [Policy::Lru, Policy::Fifo, Policy::Plru] {
        let mut h = one(1, 4, policy);
        // Fill the set, reuse line 1, then keep bringing new lines.
        for n in [0, 1, 2, 3, 1, 4, 5, 0, 6, 2, 7] {
            let set = h.levels[0].sets.get(&0).cloned();
            let predicted = set.map_or(Some(0), |s| s.next_way(policy));
            let report = h.load(at(n));
            if let Some(fill) = report.fill(0) {
                assert_eq!(Some(fill.placed.way), predicted, "{policy:?}, line {n}");
            }
        }
    }
    let mut random = one(1, 2, Policy::Random);
    loads(&mut random, &[0, 1]);
    assert_eq!(random.levels[0].sets[&0].next_way(Policy::Random), None);
    let mut half = one(1, 2, Policy::Random);
    loads(&mut half, &[0]);
    assert_eq!(half.levels[0].sets[&0].next_way(Policy::Random), Some(1));
}

/// Per miss against Hennessy & Patterson's totals (classify.rs). 2 sets × 2
/// ways, LRU, lines 0 2 4 1 3 three times. Set 0 cycles three lines through
/// two ways and always misses; set 1 keeps lines 1 and 3, so passes 2 and 3
/// hit them: 11 misses. The fully associative LRU cache of 4 lines cycles 5
/// lines and misses all 15 accesses. Totals: capacity 15 − 5 = 10, conflict
/// 11 − 15 = −4. Per miss: 5 compulsory, the 6 later set-0 misses capacity
/// (the shadow missed them too), no conflict.
#[test]
fn the_three_cs_are_counted_per_miss_not_by_subtracting_totals() {
    let trace: Vec<u64> = [0, 2, 4, 1, 3].repeat(3);
    let mut real = one(2, 2, Policy::Lru);
    loads(&mut real, &trace);
    let s = &real.levels[0].stats;
    assert_eq!((s.hits, s.misses), (4, 11));
    assert_eq!((s.compulsory, s.capacity, s.conflict), (5, 6, 0));
    let mut full = one(1, 4, Policy::Lru);
    loads(&mut full, &trace);
    let totals_conflict = s.misses as i64 - full.levels[0].stats.misses as i64;
    assert_eq!((full.levels[0].stats.misses, totals_conflict), (15, -4));
}

/// A victim L2 (fill=victim): L1 direct-mapped with 2 sets, L2 4 lines
/// fully associative. Load line 0: L1 and L2 miss, memory serves, only L1
/// is filled. Load line 2 (L1 set 0): L1 evicts clean line 0 into L2. Load
/// line 0 again: L1 misses, L2 hits (it kept the victim) and stays holding it;
/// L1 evicts clean line 2 into L2.
#[test]
fn a_victim_level_takes_evictions_not_lines_on_their_way_in() {
    let spec = |name, sets, ways| LevelSpec::new(name, sets, ways, LINE, Policy::Lru);
    let mut h = Hierarchy::new(
        vec![
            spec("L1", 2, 1),
            spec("L2", 1, 4).with_allocation(Allocation::Victims),
        ],
        0,
    )
    .unwrap();
    let r = h.load(at(0));
    assert_eq!(r.served, Place::Memory);
    assert_eq!(r.fills.iter().map(|f| f.level).collect::<Vec<_>>(), [0]);
    assert_eq!(h.levels[1].occupancy(), 0, "memory's line went past L2");
    let r = h.load(at(2));
    assert_eq!(r.writebacks.len(), 1);
    let moved = r.writebacks[0];
    assert_eq!((moved.from, moved.dirty, moved.base), (0, false, at(0)));
    assert!(h.levels[1].probe(at(0)).is_some());
    let r = h.load(at(0));
    assert_eq!(r.served, Place::Level(1));
    assert!(h.levels[1].probe(at(0)).is_some(), "a hit leaves it in L2");
    assert_eq!(h.levels[1].stats.victims_in, 2);
    assert_eq!((h.memory.reads, h.memory.writes), (2, 0));
    assert_eq!(
        h.detail()[1],
        "L2 compulsory=2 capacity=0 conflict=0 evictions=0 wb_in=0 victims_in=2"
    );
}

#[test]
fn the_first_level_cannot_take_victims() {
    let l1 = LevelSpec::new("L1", 1, 1, LINE, Policy::Lru).with_allocation(Allocation::Victims);
    assert!(Hierarchy::new(vec![l1], 0)
        .unwrap_err()
        .contains("cannot be the first level"));
}
