//! Property tests for the coherence engine and the models built on it: the
//! laws every model obeys, and the two coherence invariants over random
//! access sequences of every protocol and core count.

use demos::coherence::{Op, Protocol, System};
use demos::cpu::mesi::{Mesi, MesiAction, MesiConfig};
use demos::laws::check_laws;
use demos::memory::false_sharing::{FalseSharing, FalseSharingConfig, FsAction, Layout};
use demos::{Model, Timeline};
use proptest::prelude::*;

fn protocol() -> impl Strategy<Value = Protocol> {
    prop::sample::select(Protocol::ALL.to_vec())
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![4 => Just(Op::Read), 4 => Just(Op::Write), 1 => Just(Op::Evict)]
}

fn mesi_action() -> impl Strategy<Value = MesiAction> {
    // Cores 0..5 and lines 0..3 include out-of-range ones.
    prop_oneof![
        4 => (0usize..5, 0usize..3).prop_map(|(core, line)| MesiAction::Read { core, line }),
        4 => (0usize..5, 0usize..3).prop_map(|(core, line)| MesiAction::Write { core, line }),
        2 => (0usize..5, 0usize..3).prop_map(|(core, line)| MesiAction::Evict { core, line }),
        1 => protocol().prop_map(MesiAction::SetProtocol),
        1 => any::<bool>().prop_map(MesiAction::SetInvalidation),
    ]
}

fn mesi_config() -> impl Strategy<Value = MesiConfig> {
    (1usize..=5, 0usize..=3, protocol()).prop_map(|(cores, lines, protocol)| MesiConfig {
        cores,
        lines,
        protocol,
    })
}

fn fs_action() -> impl Strategy<Value = FsAction> {
    prop_oneof![
        6 => Just(FsAction::Next),
        3 => (0usize..3).prop_map(FsAction::Write),
        1 => (0u8..6, 0u8..6).prop_map(|(a, b)| FsAction::SetRuns { a, b }),
        1 => prop_oneof![Just(Layout::Shared), Just(Layout::Padded)].prop_map(FsAction::SetLayout),
    ]
}

fn fs_config() -> impl Strategy<Value = FalseSharingConfig> {
    (protocol(), 0u8..6, 0u8..6, 0u32..450).prop_map(|(protocol, a_run, b_run, writes)| {
        FalseSharingConfig {
            protocol,
            a_run,
            b_run,
            writes,
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn mesi_obeys_the_laws(config in mesi_config(), actions in prop::collection::vec(mesi_action(), 0..100)) {
        prop_assert_eq!(check_laws::<Mesi>(config, &actions), Ok(()));
    }

    /// With invalidation on: after every access at most one writer per line,
    /// every valid copy and (when nobody holds it dirty) memory hold the last
    /// value written, and every read returns that value.
    #[test]
    fn coherence_holds_for_every_protocol_and_core_count(
        p in protocol(),
        cores in 2usize..=4,
        lines in 1usize..=2,
        accesses in prop::collection::vec((op(), 0usize..4, 0usize..2), 0..200),
    ) {
        let mut s = System::new(p, cores, lines);
        for (op, core, line) in accesses {
            let Ok(a) = s.access(op, core % cores, line % lines) else { continue };
            prop_assert_eq!(s.swmr(), Ok(()));
            prop_assert_eq!(s.data_value(), Ok(()));
            prop_assert_eq!(a.stale, None);
            if op == Op::Read {
                prop_assert_eq!(a.value, s.lines[line % lines].latest);
            }
        }
        prop_assert_eq!(s.counts.stale_reads, 0);
    }

    /// The engine's accounting: every miss has exactly one supplier, and the
    /// cycles charged add up per core.
    #[test]
    fn every_miss_has_one_supplier_and_cycles_add_up(
        p in protocol(),
        invalidation in any::<bool>(),
        accesses in prop::collection::vec((op(), 0usize..3), 0..150),
    ) {
        let mut s = System::new(p, 3, 1);
        s.invalidation = invalidation;
        for (op, core) in accesses {
            let _ = s.access(op, core, 0);
        }
        let c = s.counts;
        prop_assert_eq!(c.flushes + c.memory_reads, c.bus_rd + c.bus_rdx);
        prop_assert_eq!(s.core_cycles.iter().sum::<u64>(), c.cycles);
    }

    #[test]
    fn false_sharing_obeys_the_laws(config in fs_config(), actions in prop::collection::vec(fs_action(), 0..100)) {
        prop_assert_eq!(check_laws::<FalseSharing>(config, &actions), Ok(()));
    }

    /// On one line, the line moves exactly when the writer changes; padded, never.
    #[test]
    fn one_line_transfers_once_per_change_of_writer(writers in prop::collection::vec(0usize..2, 1..120)) {
        let mut t = Timeline::<FalseSharing>::new(FalseSharingConfig { writes: 400, ..FalseSharingConfig::default() });
        for &w in &writers {
            t.apply(FsAction::Write(w)).unwrap();
        }
        let switches = writers.windows(2).filter(|p| p[0] != p[1]).count() as u32;
        let m = t.model();
        prop_assert_eq!(m.shared.counts.flushes, switches);
        prop_assert_eq!(m.padded.counts.flushes, 0);
        prop_assert_eq!(m.check(), Ok(()));
    }
}
