//! The textbook numbers: the issue's, and the Best Practices Guide's
//! examples (§10.2.1.1–4 for global loads, §10.2.3.3 for the padded tile).

use super::banks::{bank, broadcast, conflict_degree};
use super::coalescing::{Access, Pattern, WARP};
use super::{GpuMemory, GpuMemoryAction, GpuMemoryConfig};
use crate::Model;

fn load(pattern: Pattern, elem: u32, n: u32) -> Access {
    Access {
        pattern,
        elem,
        stride: n,
        offset: n,
        fields: n,
    }
}

fn figures(a: &Access) -> (usize, usize, u64, u64) {
    (
        a.sectors().len(),
        a.lines().len(),
        a.requested_bytes(),
        a.moved_bytes(),
    )
}

/// Consecutive floats: 128 bytes in 4 sectors, one line, 100 %.
#[test]
fn consecutive_floats_are_four_sectors_and_fully_used() {
    let a = load(Pattern::Consecutive, 4, 1);
    assert_eq!(figures(&a), (4, 1, 128, 128));
    assert_eq!(a.efficiency(), 1.0);
}

/// A stride of 32 floats: every thread 128 bytes from the next, 32
/// sectors, 12.5 %. A stride of 2: eight sectors, 50 % (§10.2.1.4).
#[test]
fn strides_waste_what_the_threads_skip() {
    let wide = load(Pattern::Strided, 4, 32);
    assert_eq!(figures(&wide), (32, 32, 128, 1024));
    assert_eq!(wide.efficiency(), 0.125);
    let two = load(Pattern::Strided, 4, 2);
    assert_eq!(figures(&two), (8, 2, 128, 256));
    assert_eq!(two.efficiency(), 0.5);
    // 8 floats apart is already a sector each.
    assert_eq!(load(Pattern::Strided, 4, 8).sectors().len(), WARP);
}

/// Shifted by one float: five sectors (§10.2.1.2), 80 %; by a multiple of
/// eight words, four again (§10.2.1.3).
#[test]
fn a_shifted_start_costs_one_more_sector() {
    let one = load(Pattern::Offset, 4, 1);
    assert_eq!(figures(&one), (5, 2, 128, 160));
    assert_eq!(one.efficiency(), 0.8);
    assert_eq!(load(Pattern::Offset, 4, 8).sectors().len(), 4);
    assert_eq!(load(Pattern::Offset, 4, 16).sectors().len(), 4);
}

/// One field of 4-float structs is a stride of 4: 16 sectors, 25 %; the
/// same field in its own array is consecutive again.
#[test]
fn structs_of_arrays_coalesce_where_arrays_of_structs_do_not() {
    let aos = load(Pattern::ArrayOfStructs, 4, 4);
    assert_eq!(figures(&aos), (16, 4, 128, 512));
    let soa = load(Pattern::StructOfArrays, 4, 4);
    assert_eq!(figures(&soa), (4, 1, 128, 128));
}

/// Wider elements: 32 float4s are 512 bytes, 16 sectors, 4 lines.
#[test]
fn wider_elements_fill_more_sectors() {
    assert_eq!(figures(&load(Pattern::Consecutive, 8, 1)), (8, 2, 256, 256));
    assert_eq!(
        figures(&load(Pattern::Consecutive, 16, 1)),
        (16, 4, 512, 512)
    );
    // A stride of 2 float4s: every other 16 bytes, so each sector half used.
    let a = load(Pattern::Strided, 16, 2);
    assert_eq!(figures(&a), (32, 8, 512, 1024));
    assert_eq!(a.used_bytes_in(a.sectors()[0]), 16);
}

/// Banks: word w in bank w mod 32; a stride of 32 words is a 32-way
/// conflict, 33 (the padded tile) none; a stride of 2, 2-way; one word for
/// all, a broadcast.
#[test]
fn bank_conflicts_follow_the_stride() {
    assert_eq!((bank(0), bank(31), bank(32), bank(33)), (0, 31, 0, 1));
    assert_eq!(conflict_degree(1), 1);
    assert_eq!(conflict_degree(2), 2);
    assert_eq!(conflict_degree(32), 32);
    assert_eq!(conflict_degree(33), 1);
    assert_eq!(conflict_degree(16), 16);
    assert_eq!(conflict_degree(3), 1);
    assert_eq!(conflict_degree(0), 1);
    assert!(broadcast(0) && !broadcast(32));
}

#[test]
fn step_places_each_thread_then_moves_to_the_next_pattern() {
    let mut m = GpuMemory::new(&GpuMemoryConfig::default());
    let first = m.apply(&GpuMemoryAction::Place).unwrap();
    assert!(
        first[0].text.contains("a new sector, 0"),
        "{}",
        first[0].text
    );
    let second = m.apply(&GpuMemoryAction::Place).unwrap();
    assert!(
        second[0].text.contains("already fetches"),
        "{}",
        second[0].text
    );
    m.apply(&GpuMemoryAction::PlaceAll).unwrap();
    assert_eq!(m.placed, WARP);
    assert!(m.apply(&GpuMemoryAction::Place).is_err());
    assert_eq!(m.next_auto(), Ok(GpuMemoryAction::NextPattern));
    m.apply(&GpuMemoryAction::NextPattern).unwrap();
    assert_eq!((m.config.pattern, m.placed), (Pattern::Strided, 0));
}

#[test]
fn padding_removes_the_32_way_conflict() {
    let mut m = GpuMemory::new(&GpuMemoryConfig::default());
    m.apply(&GpuMemoryAction::SetSmemStride(32)).unwrap();
    assert_eq!(m.conflict(), 32);
    m.apply(&GpuMemoryAction::SetPadded(true)).unwrap();
    assert_eq!(m.conflict(), 1);
}

#[test]
fn bad_settings_are_refused_with_a_reason() {
    let mut m = GpuMemory::new(&GpuMemoryConfig::default());
    let r = m.apply(&GpuMemoryAction::SetElem(12)).unwrap_err();
    assert!(r.reason.contains("4, 8 or 16"), "{}", r.reason);
    let r = m.apply(&GpuMemoryAction::SetStride(0)).unwrap_err();
    assert!(r.reason.contains("1 to 64"), "{}", r.reason);
    assert!(GpuMemory::validate(&GpuMemoryConfig {
        fields: 99,
        ..GpuMemoryConfig::default()
    })
    .is_err());
}
