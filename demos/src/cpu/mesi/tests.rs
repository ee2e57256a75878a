use super::*;
use crate::coherence::{BusOp, State, Supplier};

fn mesi() -> Mesi {
    Mesi::new(&MesiConfig::default())
}

fn states(m: &Mesi) -> Vec<State> {
    m.system().lines[0].states.clone()
}

#[test]
fn read_a_read_b_write_a_gives_e_then_s_s_then_m_i() {
    let mut m = mesi();
    m.apply(&MesiAction::Read { core: 0, line: 0 }).unwrap();
    assert_eq!(states(&m), vec![State::E, State::I]);
    m.apply(&MesiAction::Read { core: 1, line: 0 }).unwrap();
    assert_eq!(states(&m), vec![State::S, State::S]);
    let events = m.apply(&MesiAction::Write { core: 0, line: 0 }).unwrap();
    assert_eq!(states(&m), vec![State::M, State::I]);
    assert_eq!(m.last_access().unwrap().request, Some(BusOp::BusUpgr));
    assert!(events[0].text.contains("BusUpgr"));
    assert!(events
        .iter()
        .any(|e| e.text.contains("Core B snoops the BusUpgr: S → I")));
}

#[test]
fn the_tour_compares_the_three_protocols_on_one_sequence() {
    let mut m = mesi();
    while let Ok(action) = m.next_auto() {
        m.apply(&action).unwrap();
        m.check().unwrap();
    }
    let traffic = |p: Protocol| {
        let c = m.systems[p.index()].counts;
        (c.bus_transactions(), c.write_backs)
    };
    // MSI: BusRd, BusUpgr, BusRd + write-back, BusUpgr, BusRd + write-back.
    assert_eq!(traffic(Protocol::Msi), (5, 2));
    // MESI: A's private read-then-write needs no BusUpgr.
    assert_eq!(traffic(Protocol::Mesi), (4, 2));
    // MOESI: reads of a dirty line leave it in O; only B's final eviction writes memory.
    assert_eq!(traffic(Protocol::Moesi), (5, 1));
    m.apply(&MesiAction::SetProtocol(Protocol::Moesi)).unwrap();
    let supplier = m.last_access().unwrap().supplier;
    assert_eq!(supplier, None, "the last tour step was an eviction");
    assert!(m
        .why()
        .iter()
        .any(|s| s.contains("MOESI wrote memory 1 time less")));
}

#[test]
fn a_dirty_line_is_supplied_by_its_owner_under_every_protocol() {
    for p in Protocol::ALL {
        let mut m = Mesi::new(&MesiConfig {
            protocol: p,
            ..MesiConfig::default()
        });
        m.apply(&MesiAction::Write { core: 0, line: 0 }).unwrap();
        m.apply(&MesiAction::Read { core: 1, line: 0 }).unwrap();
        assert_eq!(m.last_access().unwrap().supplier, Some(Supplier::Cache(0)));
        let owner = if p == Protocol::Moesi {
            State::O
        } else {
            State::S
        };
        assert_eq!(states(&m), vec![owner, State::S]);
    }
}

#[test]
fn breaking_invalidation_leaves_two_modified_copies_and_a_stale_read() {
    let mut m = mesi();
    m.apply(&MesiAction::SetInvalidation(false)).unwrap();
    m.apply(&MesiAction::Write { core: 0, line: 0 }).unwrap();
    let events = m.apply(&MesiAction::Write { core: 1, line: 0 }).unwrap();
    assert_eq!(states(&m), vec![State::M, State::M]);
    assert!(events.iter().any(|e| e.tone == crate::Tone::Fault));
    let events = m.apply(&MesiAction::Read { core: 0, line: 0 }).unwrap();
    assert!(events
        .iter()
        .any(|e| e.text.contains("Stale read: core A got 1")));
    assert_eq!(m.system().counts.stale_reads, 1);
    assert!(
        m.check().is_ok(),
        "the invariants are not claimed once broken"
    );
}

#[test]
fn two_lines_are_independent() {
    let mut m = Mesi::new(&MesiConfig {
        cores: 3,
        lines: 2,
        protocol: Protocol::Mesi,
    });
    m.apply(&MesiAction::Write { core: 2, line: 1 }).unwrap();
    m.apply(&MesiAction::Read { core: 0, line: 0 }).unwrap();
    assert_eq!(m.system().state(2, 1), State::M);
    assert_eq!(m.system().state(0, 0), State::E);
    let figures = m.status();
    let states = figures.iter().find(|f| f.key == "states").unwrap();
    assert_eq!(states.value, "A: E · B: I · C: I | A: I · B: I · C: M");
}

#[test]
fn impossible_actions_are_refused_and_change_nothing() {
    let mut m = mesi();
    let before = m.clone();
    assert!(m.apply(&MesiAction::Read { core: 2, line: 0 }).is_err());
    assert!(m.apply(&MesiAction::Write { core: 0, line: 1 }).is_err());
    assert!(m.apply(&MesiAction::Evict { core: 0, line: 0 }).is_err());
    assert!(m.apply(&MesiAction::SetProtocol(Protocol::Mesi)).is_err());
    assert!(m.apply(&MesiAction::SetInvalidation(true)).is_err());
    assert_eq!(m, before);
    assert!(Mesi::validate(&MesiConfig {
        cores: 5,
        ..MesiConfig::default()
    })
    .is_err());
    assert!(Mesi::validate(&MesiConfig {
        lines: 3,
        ..MesiConfig::default()
    })
    .is_err());
}

/// The sequence table is the textbook's: per access, every core's state
/// after it, the bus request and who supplied the data, under each protocol.
#[test]
fn the_log_keeps_the_textbook_sequence_table_for_every_protocol() {
    let mut m = mesi();
    for action in &TOUR[..3] {
        m.apply(action).unwrap();
    }
    assert_eq!(m.log.len(), 3);
    let row = |i: usize, p: Protocol| &m.log[i][p.index()];
    assert_eq!(row(0, Protocol::Mesi).states, vec![State::E, State::I]);
    assert_eq!(row(0, Protocol::Msi).states, vec![State::S, State::I]);
    // A's write: silent under MESI, a BusUpgr under MSI.
    assert_eq!(row(1, Protocol::Mesi).access.request, None);
    assert_eq!(row(1, Protocol::Msi).access.request, Some(BusOp::BusUpgr));
    assert!(!row(1, Protocol::Mesi).memory_fresh);
    // B reads A's dirty line: A supplies it; memory is fresh again except under MOESI.
    let b = row(2, Protocol::Moesi);
    assert_eq!(b.access.supplier, Some(Supplier::Cache(0)));
    assert_eq!(b.states, vec![State::O, State::S]);
    assert!(!b.memory_fresh);
    assert!(row(2, Protocol::Mesi).memory_fresh);
    assert_eq!(row(2, Protocol::Msi).number, 3);
    // The table keeps only the latest accesses.
    for _ in 0..LOG_LEN {
        m.apply(&MesiAction::Read { core: 1, line: 0 }).unwrap();
    }
    assert_eq!(m.log.len(), LOG_LEN);
    assert_eq!(m.log[0][0].number, 4);
    m.check().unwrap();
}

#[test]
fn a_line_from_a_peer_costs_the_latency_table_s_hitm_and_the_why_says_so() {
    // Issue 30: the transfer cost 60 cycles against 200 for memory, figures
    // of no one machine; both now come from `cpu::latency`.
    use crate::cpu::latency;
    let mut m = Mesi::new(&MesiConfig::default());
    m.apply(&MesiAction::Write { core: 0, line: 0 }).unwrap();
    m.apply(&MesiAction::Read { core: 1, line: 0 }).unwrap();
    assert_eq!(m.last_access().unwrap().cycles, latency::PEER_MODIFIED);
    assert_eq!(
        m.system().counts.cycles,
        u64::from(latency::DRAM + latency::PEER_MODIFIED)
    );
    assert!(m
        .why()
        .iter()
        .any(|s| s.contains("a line from another core's cache 175, a line from memory 350")));
    assert!(Mesi::leaves_out().contains("a shared L3"));
}

#[test]
fn the_core_and_line_counts_are_bounds() {
    let five = MesiConfig {
        cores: 5,
        ..MesiConfig::default()
    };
    assert_eq!(
        Mesi::validate(&five).unwrap_err(),
        "The number of cores is 2 to 4; 5 is out of range."
    );
    let three = MesiConfig {
        lines: 3,
        ..MesiConfig::default()
    };
    assert_eq!(
        Mesi::validate(&three).unwrap_err(),
        "The number of lines is 1 to 2; 3 is out of range."
    );
}
