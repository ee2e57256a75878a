//! The demo's model against the paper's example (Eisenbud et al., NSDI
//! 2016, §3.4, Table 1, p. 6) and the comparison's textbook facts.

use super::{Maglev, MaglevAction as A, MaglevConfig};
use crate::Model;

fn paper() -> Maglev {
    Maglev::new(&MaglevConfig::default())
}

fn texts(m: &mut Maglev, action: A) -> String {
    m.apply(&action)
        .unwrap()
        .into_iter()
        .map(|e| e.text)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Step by step, the paper's table: B1 B0 B1 B0 B2 B2 B0 after 7 turns.
#[test]
fn seven_turns_build_the_papers_table() {
    let mut m = paper();
    let first = texts(&mut m, A::Claim);
    assert!(first.starts_with("Round 1, B0's turn."), "{first}");
    assert!(
        first.contains("Entry 3, place 1 in its list, is empty"),
        "{first}"
    );
    m.apply(&A::Claim).unwrap();
    let third = texts(&mut m, A::Claim);
    assert!(
        third.contains("Entry 3 (B0's) is taken, so B2 reads on") && third.contains("Entry 4"),
        "{third}"
    );
    for _ in 3..7 {
        m.apply(&A::Claim).unwrap();
    }
    assert!(m.full());
    let owners: Vec<usize> = m.entries().into_iter().flatten().collect();
    assert_eq!(owners, [1, 0, 1, 0, 2, 2, 0]);
    assert_eq!(m.shares(), [3, 2, 2]);
    assert!(m.next_auto().is_err());
    assert!(m.apply(&A::Claim).unwrap_err().reason.contains("full"));
    assert_eq!(m.check(), Ok(()));
}

/// The paper's removal: without B1 (its row labels from 0), three entries
/// change owner: B1's two, and entry 6, B0's before and B2's after.
#[test]
fn when_b1_leaves_three_entries_move_one_of_them_b0s() {
    let mut m = paper();
    m.apply(&A::Fill).unwrap();
    m.apply(&A::Leave(1)).unwrap();
    assert_eq!((m.turns, m.left), (0, Some(1)));
    let said = texts(&mut m, A::Fill);
    assert!(
        said.contains("3 of 7 entries changed owner: B1's 2, and 1 more"),
        "{said}"
    );
    let owners: Vec<usize> = m.entries().into_iter().flatten().collect();
    assert_eq!(owners, [0, 0, 0, 0, 2, 2, 2]);
    assert_eq!(m.moved_so_far(), 3);
    assert_eq!(m.moved_when_leaves(1), 3);
    // Modulo hashing moves 4 of the 7; a ring moves only B1's own.
    assert_eq!(m.modulo_moved(1), 4);
    let ring_own = {
        let pts = m.ring_points();
        let t = super::ring::table(&pts, 7).unwrap();
        t.iter().filter(|&&o| o == 1).count()
    };
    assert_eq!(m.ring_moved(1), ring_own);
    assert_eq!(m.check(), Ok(()));
    // Back again: the original table, whole.
    m.apply(&A::Return).unwrap();
    assert!(m.full() && m.left.is_none());
    assert_eq!(
        m.entries().into_iter().flatten().collect::<Vec<_>>(),
        [1, 0, 1, 0, 2, 2, 0]
    );
}

/// Entry 6 moved although B0 stayed: the narration says so as it happens.
#[test]
fn the_turn_that_moves_a_survivors_entry_says_so() {
    let mut m = paper();
    m.apply(&A::Leave(1)).unwrap();
    let said: Vec<String> = (0..7).map(|_| texts(&mut m, A::Claim)).collect();
    let six = said.iter().find(|t| t.contains("Entry 6,")).unwrap();
    assert!(
        six.contains("Before, it was B0's: it moved although B0 is still here"),
        "{six}"
    );
}

#[test]
fn a_size_that_is_not_prime_is_refused_with_its_factor() {
    let mut m = paper();
    let why = m.apply(&A::SetSize(8)).unwrap_err().reason;
    assert!(
        why.contains("8 = 2 × 4") && why.contains("B0's skip of 4"),
        "{why}"
    );
    // 3 is prime, but B0's skip 4 is past M − 1.
    let why = m.apply(&A::SetSize(3)).unwrap_err().reason;
    assert!(why.contains("B0's skip must be from 1 to 2"), "{why}");
    assert!(m.apply(&A::SetSize(18)).is_err());
    m.apply(&A::SetSize(11)).unwrap();
    assert_eq!(m.turns, 0);
}

/// With hashing on, a size change rehashes every name, so any prime works.
#[test]
fn hashed_offsets_follow_the_size() {
    let mut m = paper();
    m.apply(&A::SetHashed(true)).unwrap();
    m.apply(&A::SetSize(3)).unwrap();
    for b in m.backends() {
        assert_eq!(*b, super::siphash::hashed(&b.name, 3));
    }
    assert!(m
        .apply(&A::SetOffset(1))
        .unwrap_err()
        .reason
        .contains("hashes"));
    m.apply(&A::SetBackends(5)).unwrap();
    assert_eq!(m.backends()[4].name, "B4");
    assert_eq!(m.check(), Ok(()));
}

#[test]
fn editing_a_backend_restarts_the_table() {
    let mut m = paper();
    m.apply(&A::Select(2)).unwrap();
    m.apply(&A::SetOffset(5)).unwrap();
    assert_eq!(m.backends()[2].offset, 5);
    let why = m.apply(&A::SetSkip(0)).unwrap_err().reason;
    assert!(why.contains("B2's skip must be from 1 to 6"), "{why}");
    assert!(m.apply(&A::SetOffset(7)).is_err());
    m.apply(&A::Claim).unwrap();
    m.apply(&A::SetSkip(3)).unwrap();
    assert_eq!((m.turns, m.selected), (0, 2));
}

#[test]
fn the_large_table_is_compared_without_touching_the_small_one() {
    let mut m = paper();
    m.apply(&A::Claim).unwrap();
    let said = texts(&mut m, A::SetCompareBackends(100));
    assert!(
        said.contains("Maglev gives each 10 to 11 entries (10.00 % apart)"),
        "{said}"
    );
    assert_eq!(m.turns, 1);
    let why = m.apply(&A::SetCompareSize(1_000)).unwrap_err().reason;
    assert!(why.contains("1,000 = 2 × 500"), "{why}");
    assert!(m.apply(&A::SetVirtualNodes(0)).is_err());
}

/// The paper's rule at the default: 1,021 entries, 10 backends.
#[test]
fn the_why_quotes_the_rule_and_measures_it() {
    let m = paper();
    let why = m.why().join(" ");
    assert!(
        why.contains("M/N is 102.1") && why.contains("which holds"),
        "{why}"
    );
    assert!(why.contains("102 to 103 entries (0.98 % apart)"), "{why}");
}

#[test]
fn bad_configurations_are_refused() {
    let bad = |f: fn(&mut MaglevConfig)| {
        let mut c = MaglevConfig::default();
        f(&mut c);
        Maglev::validate(&c).unwrap_err()
    };
    assert!(bad(|c| c.backends.clear()).contains("number of backends"));
    assert!(bad(|c| c.backends[1].name = "B0".into()).contains("Two backends"));
    assert!(bad(|c| c.backends[0].name = "toolong".into()).contains("letters or digits"));
    assert!(bad(|c| c.hashed = true).contains("name's hashes"));
    assert!(bad(|c| c.compare_size = 65_539).contains("65537"));
    assert!(bad(|c| c.compare_backends = 1).contains("2 to 1000"));
}
