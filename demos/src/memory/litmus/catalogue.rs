//! The named tests the explorer ships, each with what it teaches. The
//! verdict each model must give, and where that verdict is published, is
//! pinned by the tests at the bottom of this file.

/// One catalogue test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub name: &'static str,
    /// The test in the text format.
    pub text: &'static str,
    /// One sentence on what it shows.
    pub teaches: &'static str,
}

const fn e(name: &'static str, text: &'static str, teaches: &'static str) -> Entry {
    Entry {
        name,
        text,
        teaches,
    }
}

pub const CATALOGUE: &[Entry] = &[
    e(
        "MP",
        "name MP\nthread W x 1; W y 1\nthread R y r1; R x r2\nexists r1=1 /\\ r2=0\n",
        "Message passing: the reader sees the flag but not the data only where stores or loads may pass each other, as on Arm.",
    ),
    e(
        "MP+rel+acq",
        "name MP+rel+acq\nthread W x 1; W.rel y 1\nthread R.acq y r1; R x r2\nexists r1=1 /\\ r2=0\n",
        "A release store of the flag and an acquire load of it are all message passing needs, in C11 and on Arm alike.",
    ),
    e(
        "MP+fences",
        "name MP+fences\nthread W x 1; F; W y 1\nthread R y r1; F; R x r2\nexists r1=1 /\\ r2=0\n",
        "Full fences on both sides also forbid the stale read, at a higher price than release and acquire.",
    ),
    e(
        "MP+fence.rel+fence.acq",
        "name MP+fence.rel+fence.acq\nthread W x 1; F.rel; W y 1\nthread R y r1; F.acq; R x r2\nexists r1=1 /\\ r2=0\n",
        "A release fence before a relaxed flag store and an acquire fence after the flag load synchronise just like a release store and an acquire load.",
    ),
    e(
        "MP+na",
        "name MP+na\nthread W.na x 1; W.rel y 1\nthread R.acq y r1; R.na x r2\nexists r1=1 /\\ r2=0\n",
        "The reader loads the plain data even when the flag is still 0, so in that run it races with the writer: C11 calls the whole program undefined.",
    ),
    e(
        "MP+rel+data-lrs-acq",
        "name MP+rel+data-lrs-acq\nthread W x 1; W.rel y 1\nthread R y r1; W z 1 data(r1); R.acq z r2; R x r3\nexists r1=1 /\\ r3=0\n",
        "On Arm a data dependency into a store, then an acquire load of that store's location, orders the flag load before the data load.",
    ),
    e(
        "MP+rel+ctrl-lrs-acq",
        "name MP+rel+ctrl-lrs-acq\nthread W x 1; W.rel y 1\nthread R y r1; W z 1 ctrl(r1); R.acq z r2; R x r3\nexists r1=1 /\\ r3=0\n",
        "The same chain through a control dependency is not enough on Arm: the store waits for the branch, but the load of z can read it before it is visible.",
    ),
    e(
        "MP+rel+addr-po-loc-addr",
        "name MP+rel+addr-po-loc-addr\nthread W x 1; W.rel y 1\nthread R y r1; R z r2 addr(r1); R z r3; R x r4 addr(r3)\nexists r1=1 /\\ r4=0\n",
        "Two loads of the same location do not pass ordering from one address dependency to the next on Arm.",
    ),
    e(
        "SB",
        "name SB\nthread W x 1; R y r1\nthread W y 1; R x r2\nexists r1=0 /\\ r2=0\n",
        "Store buffering: each store waits in its core's buffer while the later load reads memory, so both loads can miss both stores — on x86 too.",
    ),
    e(
        "SB+mfences",
        "name SB+mfences\nthread W x 1; F; R y r1\nthread W y 1; F; R x r2\nexists r1=0 /\\ r2=0\n",
        "A full fence between the store and the load drains the store buffer first, which is the only fix for store buffering on x86.",
    ),
    e(
        "SB+mfence+po",
        "name SB+mfence+po\nthread W x 1; F; R y r1\nthread W y 1; R x r2\nexists r1=0 /\\ r2=0\n",
        "One fence is not enough: the other thread's load can still pass its own store.",
    ),
    e(
        "SB+sc",
        "name SB+sc\nthread W.sc x 1; R.sc y r1\nthread W.sc y 1; R.sc x r2\nexists r1=0 /\\ r2=0\n",
        "Sequentially consistent accesses forbid store buffering: x86 pays with a locked XCHG, Arm with STLR followed by LDAR.",
    ),
    e(
        "SB+rfi-pos",
        "name SB+rfi-pos\nthread W x 1; R x r1; R y r2\nthread W y 1; R y r3; R x r4\nexists r1=1 /\\ r2=0 /\\ r3=1 /\\ r4=0\n",
        "A core reads its own buffered store before anyone else can see it, so reading your own write orders nothing on TSO.",
    ),
    e(
        "LB",
        "name LB\nthread R x r1; W y 1\nthread R y r2; W x 1\nexists r1=1 /\\ r2=1\n",
        "Load buffering: each load reads the other thread's later store, which Arm allows and x86 and RC11 forbid.",
    ),
    e(
        "LB+rel+data",
        "name LB+rel+data\nthread R x r1; W.rel y 1\nthread R y r2; W x 1 data(r2)\nexists r1=1 /\\ r2=1\n",
        "A release store on one side and a data dependency on the other are enough to forbid load buffering on Arm.",
    ),
    e(
        "IRIW",
        "name IRIW\nthread W x 1\nthread R x r1; R y r2\nthread W y 1\nthread R y r3; R x r4\nexists r1=1 /\\ r2=0 /\\ r3=1 /\\ r4=0\n",
        "Independent reads of independent writes: two readers disagree on which store came first only if their own loads may reorder.",
    ),
    e(
        "IRIW+dmb.lds",
        "name IRIW+dmb.lds\nthread W x 1\nthread R x r1; F.ld; R y r2\nthread W y 1\nthread R y r3; F.ld; R x r4\nexists r1=1 /\\ r2=0 /\\ r3=1 /\\ r4=0\n",
        "With the loads kept in order, Arm's stores become visible to all other cores at once (multi-copy atomic), so the readers must agree.",
    ),
    e(
        "IRIW+acqs",
        "name IRIW+acqs\nthread W x 1\nthread R.acq x r1; R y r2\nthread W y 1\nthread R.acq y r3; R x r4\nexists r1=1 /\\ r2=0 /\\ r3=1 /\\ r4=0\n",
        "Acquire loads settle IRIW on Arm, yet C11 still allows the readers to disagree: only seq_cst promises one order of all stores.",
    ),
    e(
        "IRIW+sc",
        "name IRIW+sc\nthread W.sc x 1\nthread R.sc x r1; R.sc y r2\nthread W.sc y 1\nthread R.sc y r3; R.sc x r4\nexists r1=1 /\\ r2=0 /\\ r3=1 /\\ r4=0\n",
        "With every access seq_cst, C11 puts all of them in one total order, so the two readers must agree.",
    ),
    e(
        "WRC",
        "name WRC\nthread W x 1\nthread R x r1; W y 1\nthread R y r2; R x r3\nexists r1=1 /\\ r2=1 /\\ r3=0\n",
        "Write-to-read causality: a store seen by one thread and passed on must be seen by the next, on x86 but not on plain Arm code.",
    ),
    e(
        "WRC+rel+addr",
        "name WRC+rel+addr\nthread W x 1\nthread R x r1; W.rel y 1\nthread R y r2; R x r3 addr(r2)\nexists r1=1 /\\ r2=1 /\\ r3=0\n",
        "On Arm a release store passes on what its thread has seen, and an address dependency on the far side is enough to keep it.",
    ),
    e(
        "WRC+rel+acq",
        "name WRC+rel+acq\nthread W x 1\nthread R x r1; W.rel y 1\nthread R.acq y r2; R x r3\nexists r1=1 /\\ r2=1 /\\ r3=0\n",
        "In C11 causality needs release and acquire: happens-before carries the middle thread's read of x to the last thread.",
    ),
    e(
        "ISA2",
        "name ISA2\nthread W x 1; W y 1\nthread R y r1; W z 1\nthread R z r2; R x r3\nexists r1=1 /\\ r2=1 /\\ r3=0\n",
        "A chain of message passing through three threads, broken on Arm wherever one link may reorder.",
    ),
    e(
        "2+2W",
        "name 2+2W\nthread W x 2; W y 1\nthread W y 2; W x 1\nexists x=2 /\\ y=2\n",
        "Two threads each store to both locations; both first stores win only if stores to different locations may be reordered.",
    ),
    e(
        "2+2W+fences",
        "name 2+2W+fences\nthread W x 2; F; W y 1\nthread W y 2; F; W x 1\nexists x=2 /\\ y=2\n",
        "Fences between the stores restore a single order of all four stores.",
    ),
    e(
        "R",
        "name R\nthread W x 1; W y 1\nthread W y 2; R x r1\nexists y=2 /\\ r1=0\n",
        "A store and a later load on another location pass each other through the store buffer, even when the store's own order is fixed.",
    ),
    e(
        "R+fences",
        "name R+fences\nthread W x 1; F; W y 1\nthread W y 2; F; R x r1\nexists y=2 /\\ r1=0\n",
        "With a full fence on each side, the coherence order of y decides what the load of x must see.",
    ),
    e(
        "S",
        "name S\nthread W x 2; W y 1\nthread R y r1; W x 1\nexists r1=1 /\\ x=2\n",
        "A load seeing the flag cannot be followed by a store that lands before the data, unless stores or load-store pairs reorder.",
    ),
    e(
        "RWC",
        "name RWC\nthread W x 1\nthread R x r1; R y r2\nthread W y 1; R x r3\nexists r1=1 /\\ r2=0 /\\ r3=0\n",
        "Read-to-write causality breaks on x86 because the last thread's load can pass its own buffered store.",
    ),
    e(
        "CoRR",
        "name CoRR\nthread W x 1\nthread R x r1; R x r2\nexists r1=1 /\\ r2=0\n",
        "Once a thread has read the new value of a location, a later read of it cannot go back to the old one, under every model.",
    ),
    e(
        "CoWR",
        "name CoWR\nthread W x 1; R x r1\nexists r1=0\n",
        "A thread always reads its own latest store (or a newer one), under every model.",
    ),
    e(
        "CoWW",
        "name CoWW\nthread W x 1; W x 2\nexists x=1\n",
        "Two stores by one thread to one location land in program order, under every model.",
    ),
];

/// The entry with this name.
pub fn find(name: &str) -> Option<&'static Entry> {
    CATALOGUE.iter().find(|e| e.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::litmus::{parse, Analysis, MemModel, Verdict};
    use Verdict::{Allowed as A, Forbidden as F, Undefined as U};

    // Expected verdicts [SC, TSO, ARMv8, C11] and where each is published.
    // "SC" needs no source beyond the definition (acyclic po ∪ rf ∪ co ∪ fr):
    // every test here but the allowed SC outcomes forms such a cycle.
    // x86 = herdtools7 catalogue/x86_64/kinds.txt; SDM = Intel SDM Vol. 3A
    // §8.2.3 (§10.2.3 in current editions); a64 = herdtools7
    // catalogue/aarch64/tests/kinds.txt; guide = herdtools7
    // catalogue/aarch64-readers-guide/tests/kinds.txt; RC11 = Lahav et al.,
    // PLDI 2017, and herd/libdir/rc11.cat; C++ = the C++ standard's
    // [intro.races] and [atomics.order]/[atomics.fences].
    const EXPECTED: &[(&str, [Verdict; 4])] = &[
        // TSO: SDM §8.2.3.2 Example 8-1 (loads with loads, stores with stores
        // stay in order); x86 "MP Forbid". ARMv8: a64 "MP Allowed". C11:
        // relaxed accesses create no synchronises-with (C++ [atomics.order] p1-2).
        ("MP", [F, F, A, A]),
        // ARMv8: a64 "MP+rel+acq Forbidden". C11: the release store
        // synchronises with the acquire load (C++ [atomics.order] p2), so the
        // data store happens before the data load (C++ [intro.races] write-read coherence).
        ("MP+rel+acq", [F, F, F, F]),
        // ARMv8: a64 "MP+dmb.sys Forbidden". C11: seq_cst fences are release
        // and acquire fences; fence-to-fence synchronisation (C++ [atomics.fences] p2).
        ("MP+fences", [F, F, F, F]),
        // C11: C++ [atomics.fences] p2 (release fence ; relaxed store read by a
        // relaxed load ; acquire fence synchronise). ARMv8: F.rel and F.acq are
        // DMB ISH and DMB ISHLD (Arm atomicsabi64); a64 "MP+dmb.sys Forbidden"
        // with guide "IRIW+dmb.lds Forbidden" (DMB LD orders the reads).
        ("MP+fence.rel+fence.acq", [F, F, F, F]),
        // C11: when the flag load reads 0 the plain loads and stores of x are
        // unordered: a data race, undefined behaviour (C++ [intro.races] p21);
        // herd7 prints Undef (herd/top_herd.ml). Hardware as MP+rel+acq.
        ("MP+na", [F, F, F, U]),
        // ARMv8: a64 "MP+rel+data-lrs-acq Forbidden". C11: no acquire reads a
        // release store, and RC11 ignores dependencies, so nothing orders the data load.
        ("MP+rel+data-lrs-acq", [F, F, F, A]),
        // ARMv8: a64 "MP+rel+ctrl-lrs-acq Allowed".
        ("MP+rel+ctrl-lrs-acq", [F, F, A, A]),
        // ARMv8: a64 "MP+rel+addr-po-loc-addr Allowed".
        ("MP+rel+addr-po-loc-addr", [F, F, A, A]),
        // TSO: SDM §8.2.3.4 Example 8-3; x86 "SB Allow". ARMv8: a64 "SB
        // Allowed". C11: relaxed, no seq_cst access: nothing forbids it (RC11 §1).
        ("SB", [F, A, A, A]),
        // TSO: x86 "SB+mfences Forbid". ARMv8: a64 "SB+dmb.sys Forbidden".
        // C11: the two seq_cst fences are ordered by psc both ways (RC11 psc_F; rc11.cat pscf).
        ("SB+mfences", [F, F, F, F]),
        // TSO: x86 "SB+mfence+po Allow". ARMv8: a64 "SB+dmb.sy+po Allowed".
        // C11: a single seq_cst fence cannot close a psc cycle (rc11.cat).
        ("SB+mfence+po", [F, A, A, A]),
        // TSO: SDM §8.2.3.9 Example 8-9 (loads are not reordered with an earlier
        // XCHG). ARMv8: a64 "SB+dmb.sy+rel-acq Forbidden" (STLR then LDAR keeps
        // the store first). C11: all four accesses in the single total order S
        // (C++ [atomics.order] p4).
        ("SB+sc", [F, F, F, F]),
        // TSO: SDM §8.2.3.5 Example 8-5 (intra-processor forwarding); x86
        // "SB+rfi-pos Allow". ARMv8: allowed even with DMB LD after the own
        // read (guide "SB+rfi-dmb.ld+rfi-dmb.ld Allowed"). C11: relaxed, as SB.
        ("SB+rfi-pos", [F, A, A, A]),
        // TSO: SDM §8.2.3.3 Example 8-2; x86 "LB Forbid". ARMv8: a64 "LB
        // Allowed". C11: RC11 forbids (sb ∪ rf) cycles (no-thin-air, rc11.cat).
        ("LB", [F, F, A, F]),
        // ARMv8: a64 "LB+rel+data-post Forbidden", herdtools7
        // catalogue/dependencies "LB+rel+data Forbid". C11: no-thin-air.
        ("LB+rel+data", [F, F, F, F]),
        // TSO: SDM §8.2.3.7 Example 8-7 (stores seen in a consistent order).
        // ARMv8: guide "IRIW Allowed". C11: relaxed loads may disagree
        // (only seq_cst gives one total order, C++ [atomics.order] p4).
        ("IRIW", [F, F, A, A]),
        // ARMv8: guide "IRIW+dmb.lds Forbidden". C11: F.ld reads as an acquire
        // fence; with relaxed stores nothing synchronises, and acquire
        // ordering does not forbid IRIW (C++ [atomics.order] p4, note on seq_cst).
        ("IRIW+dmb.lds", [F, F, F, A]),
        // ARMv8: LDAR orders the later load ([A]; po in bob) just as DMB LD
        // does in guide "IRIW+dmb.lds Forbidden". C11: as IRIW+dmb.lds.
        ("IRIW+acqs", [F, F, F, A]),
        // C11: all eight accesses in the total order S (C++ [atomics.order] p4).
        // TSO: SDM §8.2.3.8 Example 8-8 (locked instructions have a total order).
        ("IRIW+sc", [F, F, F, F]),
        // TSO: SDM §8.2.3.6 Example 8-6 (stores are transitively visible); x86
        // "WRC Forbid". ARMv8: guide "WRC Allowed". C11: relaxed.
        ("WRC", [F, F, A, A]),
        // ARMv8: guide "WRC+rel+addr Forbidden". C11: the last read is not an
        // acquire, so no synchronises-with; dependencies order nothing in RC11.
        ("WRC+rel+addr", [F, F, F, A]),
        // C11: T1's read of x happens before T2's read of x (sb ; sw ; sb), so
        // T2 cannot read an older value (C++ [intro.races] read-read coherence).
        // ARMv8: po;[L] and [A];po in bob, as in guide "WRC+rel+addr Forbidden".
        ("WRC+rel+acq", [F, F, F, F]),
        // ARMv8: guide "ISA2 Allowed". TSO: every po edge here (W→W, R→W, R→R)
        // is in x86-TSO's ghb (x86tso.cat; Sewell et al., CACM 2010). C11: relaxed.
        ("ISA2", [F, F, A, A]),
        // TSO: x86 "2+2W Forbid". ARMv8: a64 "2+2W Allowed". C11: relaxed.
        ("2+2W", [F, F, A, A]),
        // ARMv8: a64 "2+2W+dmb.sys Forbidden". C11: seq_cst fences ordered by
        // psc through coherence (RC11 psc_F).
        ("2+2W+fences", [F, F, F, F]),
        // TSO: x86 "R Allow". ARMv8: a64 "R Allowed". C11: relaxed.
        ("R", [F, A, A, A]),
        // TSO: x86 "R+po+mfence Forbid" (the fence on the store-load side
        // suffices). ARMv8: a64 "R+dmb.sys Forbidden". C11: RC11 psc_F.
        ("R+fences", [F, F, F, F]),
        // TSO: x86 "S Forbid". ARMv8: a64 "S Allowed". C11: relaxed.
        ("S", [F, F, A, A]),
        // TSO: x86 "RWC Allow". ARMv8: guide "RWC Allowed". C11: relaxed.
        ("RWC", [F, A, A, A]),
        // a64 "CoRR Forbidden"; x86tso.cat uniproc; C++ [intro.races] read-read coherence.
        ("CoRR", [F, F, F, F]),
        // a64 "CoWR Forbidden"; uniproc; C++ [intro.races] write-read coherence.
        ("CoWR", [F, F, F, F]),
        // a64 "CoWW Forbidden"; uniproc; C++ [intro.races] write-write coherence.
        ("CoWW", [F, F, F, F]),
    ];

    #[test]
    fn every_entry_has_its_published_verdict_under_each_model() {
        assert_eq!(EXPECTED.len(), CATALOGUE.len());
        for (name, want) in EXPECTED {
            let entry = find(name).unwrap_or_else(|| panic!("{name} is missing"));
            let test = parse(entry.text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(test.name, *name);
            let a = Analysis::of(&test).unwrap();
            for m in MemModel::ALL {
                assert_eq!(a.verdict(m), want[m.index()], "{name} under {}", m.label());
            }
        }
    }

    #[test]
    fn entries_are_canonical_and_well_described() {
        for e in CATALOGUE {
            let t = parse(e.text).unwrap();
            assert_eq!(t.to_text(), e.text, "{} is not in canonical form", e.name);
            assert!(
                e.teaches.ends_with('.') && e.teaches.len() < 200,
                "{}",
                e.name
            );
        }
        assert!(CATALOGUE.len() >= 20);
    }
}
