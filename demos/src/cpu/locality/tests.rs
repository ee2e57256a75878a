use super::*;

fn fresh() -> Locality {
    Locality::new(&LocalityConfig::default())
}

fn totals(m: &Locality, walk: Walk) -> (u64, u64) {
    let t = m.results[walk.index()].expect("walk was run");
    (t.hits, t.misses)
}

/// The story: 64 elements over 64-byte lines, cold, in order:
/// 8 misses and 56 hits, one miss per line.
#[test]
fn cold_sequential_walk_misses_once_per_line() {
    let mut m = fresh();
    let first = m.apply(&LocalityAction::Step).unwrap();
    assert!(first[0].text.contains("bringing elements 0 to 7"));
    assert_eq!(
        m.apply(&LocalityAction::Step).unwrap()[0].tone,
        crate::Tone::Done
    );
    m.apply(&LocalityAction::RunToEnd).unwrap();
    assert_eq!(totals(&m, Walk::Sequential), (56, 8));
    assert_eq!(m.sim.cycles, 56 * 5 + 8 * 350);
    assert_eq!(m.outcome.iter().filter(|o| **o == Some(false)).count(), 8);
    assert!(m.apply(&LocalityAction::Step).is_err());
}

/// Stride k over a cache smaller than the array: each of the k passes
/// misses every line again, so the misses double with the stride until
/// every access misses (8 elements per line).
#[test]
fn miss_rate_rises_with_stride() {
    let m = fresh();
    let misses: Vec<u64> = m.stride_curve.iter().map(|p| p.misses).collect();
    assert_eq!(&misses[..4], &[8, 16, 32, 64]);
    assert_eq!(m.stride_curve[0].stride, 1);
}

/// 8 × 8 array, a row is one line: row-major misses 8 times, column-major
/// touches all 8 lines per column with room for 4, so every access misses.
#[test]
fn column_major_misses_every_access() {
    let mut m = fresh();
    m.apply(&LocalityAction::RunAll).unwrap();
    assert_eq!(totals(&m, Walk::RowMajor), (56, 8));
    assert_eq!(totals(&m, Walk::ColumnMajor), (0, 64));
    let (_, random) = totals(&m, Walk::Random);
    assert!(
        random > 8 && random < 64,
        "random walk missed {random} times"
    );
    assert!(m.why().iter().any(|w| w.contains("column-major")));
}

/// With a cache bigger than the array, the order no longer matters.
#[test]
fn a_cache_that_holds_the_array_makes_every_order_equal() {
    let mut m = fresh();
    m.apply(&LocalityAction::SetCache {
        sets: 4,
        ways: 4,
        line: 64,
    })
    .unwrap();
    m.apply(&LocalityAction::RunAll).unwrap();
    for walk in Walk::ALL {
        assert_eq!(totals(&m, walk).1, 8, "{walk:?}");
    }
    assert!(m.stride_curve.iter().all(|p| p.misses == 8));
}

#[test]
fn stepping_matches_the_precomputed_totals() {
    let mut m = fresh();
    m.apply(&LocalityAction::Select(Walk::Random)).unwrap();
    while m.next_auto().is_ok() {
        m.apply(&LocalityAction::Step).unwrap();
    }
    let stepped = m.results[Walk::Random.index()].unwrap();
    assert_eq!(stepped, m.config.totals(Walk::Random));
}

#[test]
fn impossible_settings_are_refused() {
    let mut m = fresh();
    let before = m.clone();
    for action in [
        LocalityAction::SetElements(100),
        LocalityAction::SetElements(8192),
        LocalityAction::SetStride(3),
        LocalityAction::SetStride(64),
        LocalityAction::SetColumns(1),
        LocalityAction::SetCache {
            sets: 3,
            ways: 2,
            line: 64,
        },
        LocalityAction::SetCache {
            sets: 64,
            ways: 32,
            line: 64,
        },
        LocalityAction::SetStride(8),
        LocalityAction::Select(Walk::Sequential),
    ] {
        assert!(m.apply(&action).is_err(), "{action:?}");
        assert_eq!(m, before);
    }
}

#[test]
fn larger_array_keeps_the_settings_legal() {
    let mut m = fresh();
    m.apply(&LocalityAction::SetElements(4096)).unwrap();
    m.apply(&LocalityAction::RunToEnd).unwrap();
    assert_eq!(totals(&m, Walk::Sequential), (4096 - 512, 512));
    assert!(m.check().is_ok());
}

#[test]
fn the_column_note_follows_whether_the_cache_holds_a_column_s_lines() {
    // Issue 30: the note said a line is always evicted before its
    // neighbours are used, even with a cache that holds the whole column.
    let small = LocalityConfig::default();
    assert_eq!(
        small.column_lines(),
        ColumnLines {
            touched: 8,
            kept: 4
        }
    );
    assert!(small.column_note().contains("keeps only 4 of them"));
    let big = LocalityConfig {
        sets: 4,
        ways: 2,
        ..LocalityConfig::default()
    };
    assert_eq!(
        big.column_lines(),
        ColumnLines {
            touched: 8,
            kept: 8
        }
    );
    assert!(big.column_note().contains("still holds all 8 lines"));
    // And the simulator agrees: the column walk then misses once per line.
    let mut m = Locality::new(&big);
    m.apply(&LocalityAction::Select(Walk::ColumnMajor)).unwrap();
    m.apply(&LocalityAction::RunToEnd).unwrap();
    assert_eq!(m.sim.levels[0].stats.misses, 8);
}

#[test]
fn the_cache_s_bounds_are_declared_once_and_checked() {
    let too_wide = LocalityConfig {
        ways: WAYS.max + 1,
        ..LocalityConfig::default()
    };
    assert_eq!(
        too_wide.validate().unwrap_err(),
        "The number of ways is 1 to 16; 17 is out of range."
    );
    let odd = LocalityConfig {
        stride: 3,
        ..LocalityConfig::default()
    };
    assert_eq!(
        odd.validate().unwrap_err(),
        "The stride is a power of two; 3 is not."
    );
    assert_eq!(LocalityConfig::default().stride_bound().max, 32);
}
