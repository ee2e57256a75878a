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
        "A release store of the flag and an acquire load of it are all message passing needs, in RC11 and on Arm alike.",
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
        "The reader loads the plain data even when the flag is still 0, so in that run it races with the writer: RC11, like C11, calls the whole program undefined.",
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
        // Intel SDM vol. 3A §8.2.3.9, "Loads and stores are not reordered with
        // locked instructions": XCHG or a LOCK-prefixed RMW forbids SB as MFENCE does.
        "A full fence between the store and the load drains the store buffer first; on x86 a locked instruction (XCHG, or any LOCK-prefixed read-modify-write) works as well.",
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
        // RC11's no-thin-air axiom (acyclic sb | rf) forbids LB; ISO C11 and
        // C++ allow it for relaxed atomics (C++ [atomics.order] only asks
        // that values not come out of thin air, and LB's are constants).
        "Load buffering: each load reads the other thread's later store, which Arm and ISO C/C++ relaxed atomics allow but x86 and RC11 forbid.",
    ),
    e(
        "LB+rel+data",
        "name LB+rel+data\nthread R x r1; W.rel y 1\nthread R y r2; W x 1 data(r2)\nexists r1=1 /\\ r2=1\n",
        "A release store on one side and a data dependency on the other are enough to forbid load buffering on Arm.",
    ),
    e(
        "IRIW",
        "name IRIW\nthread W x 1\nthread R x r1; R y r2\nthread W y 1\nthread R y r3; R x r4\nexists r1=1 /\\ r2=0 /\\ r3=1 /\\ r4=0\n",
        // Multi-copy atomicity: x86 and ARMv8 are other-multi-copy-atomic
        // (Arm ARM DDI 0487, "Definition of the Armv8 memory model"; Pulte
        // et al., "Simplifying ARM concurrency", POPL 2018): a store reaches
        // all other cores at once, so there the readers can only disagree
        // through their own loads (herd's aarch64.cat forbids IRIW+dmb.lds).
        // POWER is not multi-copy-atomic: IRIW+lwsyncs is allowed there.
        "Independent reads of independent writes: the readers see the stores in opposite orders, from loads run out of order or, on POWER, a store reaching one reader before the other.",
    ),
    e(
        "IRIW+dmb.lds",
        "name IRIW+dmb.lds\nthread W x 1\nthread R x r1; F.ld; R y r2\nthread W y 1\nthread R y r3; F.ld; R x r4\nexists r1=1 /\\ r2=0 /\\ r3=1 /\\ r4=0\n",
        "With each reader's loads kept in order the readers must agree: Arm is other-multi-copy-atomic, so a store becomes visible to all other cores at the same moment.",
    ),
    e(
        "IRIW+acqs",
        "name IRIW+acqs\nthread W x 1\nthread R.acq x r1; R y r2\nthread W y 1\nthread R.acq y r3; R x r4\nexists r1=1 /\\ r2=0 /\\ r3=1 /\\ r4=0\n",
        "Acquire loads settle IRIW on Arm, yet RC11 still allows the readers to disagree: only seq_cst promises one order of all stores.",
    ),
    e(
        "IRIW+sc",
        "name IRIW+sc\nthread W.sc x 1\nthread R.sc x r1; R.sc y r2\nthread W.sc y 1\nthread R.sc y r3; R.sc x r4\nexists r1=1 /\\ r2=0 /\\ r3=1 /\\ r4=0\n",
        "With every access seq_cst, RC11 puts all of them in one total order, so the two readers must agree.",
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
        "In RC11 causality needs release and acquire: happens-before carries the middle thread's read of x to the last thread.",
    ),
    e(
        "ISA2",
        "name ISA2\nthread W x 1; W y 1\nthread R y r1; W z 1\nthread R z r2; R x r3\nexists r1=1 /\\ r2=1 /\\ r3=0\n",
        "A chain of message passing through three threads, broken on Arm wherever one link may reorder.",
    ),
    e(
        "ISA2+rel+acq-rel+acq",
        "name ISA2+rel+acq-rel+acq\nthread W x 1; W.rel y 1\nthread R.acq y r1; W.rel z 1\nthread R.acq z r2; R x r3\nexists r1=1 /\\ r2=1 /\\ r3=0\n",
        "Release and acquire compose: handing the flag on through a middle thread still guarantees the last thread sees the first thread's data.",
    ),
    e(
        "ISA2+fence+addr+addr",
        "name ISA2+fence+addr+addr\nthread W x 1; F; W y 1\nthread R y r1; W z 1 addr(r1)\nthread R z r2; R x r3 addr(r2)\nexists r1=1 /\\ r2=1 /\\ r3=0\n",
        "On Arm a fence in the writer and address dependencies in both readers keep the chain, but RC11 ignores dependencies, so there the last read may still be stale.",
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
        "S+fences",
        "name S+fences\nthread W x 2; F; W y 1\nthread R y r1; F; W x 1\nexists r1=1 /\\ x=2\n",
        "A full fence on each side puts the first store before the flag and the flag load before the overwrite, so the overwrite must land last.",
    ),
    e(
        "S+rel+data",
        "name S+rel+data\nthread W x 2; W.rel y 1\nthread R y r1; W x 1 data(r1)\nexists r1=1 /\\ x=2\n",
        "A release store and a data dependency settle S on Arm, yet RC11 allows it: a relaxed load synchronises with nothing and dependencies carry no order.",
    ),
    e(
        "RWC",
        "name RWC\nthread W x 1\nthread R x r1; R y r2\nthread W y 1; R x r3\nexists r1=1 /\\ r2=0 /\\ r3=0\n",
        "Read-to-write causality breaks on x86 because the last thread's load can pass its own buffered store.",
    ),
    e(
        "RWC+po+mfence",
        "name RWC+po+mfence\nthread W x 1\nthread R x r1; R y r2\nthread W y 1; F; R x r3\nexists r1=1 /\\ r2=0 /\\ r3=0\n",
        "On x86 one fence between the last thread's store and load is enough, since TSO already keeps loads in order; Arm and RC11 need the middle reader fenced too.",
    ),
    e(
        "RWC+fences",
        "name RWC+fences\nthread W x 1\nthread R x r1; F; R y r2\nthread W y 1; F; R x r3\nexists r1=1 /\\ r2=0 /\\ r3=0\n",
        "With a full fence in both readers every model here forbids it; ISO C11 allowed it, and C++20 adopted RC11's stronger seq_cst fences (P0668R5).",
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

    // Expected verdicts [SC, TSO, ARMv8, RC11] and where each is published.
    // SC needs no source beyond its definition (acyclic po ∪ rf ∪ co ∪ fr):
    // every condition here can only be met by an execution with such a cycle.
    //
    // Sources: x86 = herdtools7 catalogue/x86_64/kinds.txt; SDM = Intel SDM
    // Vol. 3A §8.2.3 (§10.2.3 in current editions); a64 = herdtools7
    // catalogue/aarch64/tests/kinds.txt; guide = herdtools7
    // catalogue/aarch64-readers-guide/tests/kinds.txt; deps = herdtools7
    // catalogue/dependencies/tests/desired-kinds.txt; hwreqs = dob and bob
    // in herdtools7 herd/libdir/aarch64hwreqs.cat (which aarch64.cat
    // includes); RC11 = Lahav et al., PLDI 2017, and herd/libdir/rc11.cat;
    // C++ = the C++ standard's [intro.races], [atomics.order] and
    // [atomics.fences]; mappings = the C/C++11 mappings to processors
    // (Sewell et al., https://www.cl.cam.ac.uk/~pes20/cpp/cpp0xmappings.html).
    //
    // Where no catalogue lists the exact test, the comment derives the
    // verdict from a listed one. Two rules recur for TSO:
    // - "x86 strips": on x86 (mappings) acquire loads and release stores are
    //   plain MOVs, acquire and release fences are no instruction, F.ld is
    //   LFENCE (outside x86tso.cat's ghb) and dependencies order nothing, so
    //   the test is, for TSO, the plain test named;
    // - "MFENCE adds": an MFENCE only adds edges to x86tso.cat's ghb, so an
    //   outcome forbidden without it stays forbidden with it.
    const EXPECTED: &[(&str, [Verdict; 4])] = &[
        // TSO: SDM §8.2.3.2 Example 8-1 (loads with loads, stores with stores
        // stay in order); x86 "MP Forbid". ARMv8: a64 "MP Allowed". RC11:
        // relaxed accesses create no synchronises-with (C++ [atomics.order] p1-2).
        ("MP", [F, F, A, A]),
        // TSO: x86 strips it to MP: x86 "MP Forbid". ARMv8: a64 "MP+rel+acq
        // Forbidden". RC11: the release store synchronises with the acquire
        // load (C++ [atomics.order] p2), so the data store happens before the
        // data load (C++ [intro.races] write-read coherence).
        ("MP+rel+acq", [F, F, F, F]),
        // TSO: MFENCE adds to MP: x86 "MP Forbid". ARMv8: a64 "MP+dmb.sys
        // Forbidden". RC11: seq_cst fences are release and acquire fences;
        // fence-to-fence synchronisation (C++ [atomics.fences] p2).
        ("MP+fences", [F, F, F, F]),
        // TSO: x86 strips it (both fences vanish) to MP: x86 "MP Forbid".
        // RC11: C++ [atomics.fences] p2 (release fence ; relaxed store read by
        // a relaxed load ; acquire fence synchronise). ARMv8: F.rel and F.acq
        // are DMB ISH and DMB ISHLD (Arm atomicsabi64); a64 "MP+dmb.sys
        // Forbidden" with guide "IRIW+dmb.lds Forbidden" (DMB ISHLD orders the reads).
        ("MP+fence.rel+fence.acq", [F, F, F, F]),
        // RC11: when the flag load reads 0 the plain loads and stores of x are
        // unordered: a data race, undefined behaviour (C++ [intro.races] p21);
        // herd7 prints Undef (herd/top_herd.ml). TSO, ARMv8: a non-atomic
        // access is the same MOV / LDR / STR as a relaxed one (mappings), so
        // the hardware verdicts are MP+rel+acq's (x86 strips it to MP: x86
        // "MP Forbid"; a64 "MP+rel+acq Forbidden").
        ("MP+na", [F, F, F, U]),
        // TSO: the condition needs the flag load to read 1 and the data load,
        // later in po, to read 0; x86tso.cat keeps load→load and store→store
        // in ghb (RM(po), WW(po)), so MP's cycle po ; rfe ; po ; fre is there
        // whatever the middle store and load do: x86 "MP Forbid". ARMv8: a64
        // "MP+rel+data-lrs-acq Forbidden". RC11: the acquire load reads the
        // thread's own relaxed store of z, never a release, and the release of
        // y is read by a relaxed load, so nothing synchronises (C++
        // [atomics.order] p2), and RC11 gives dependencies no order.
        ("MP+rel+data-lrs-acq", [F, F, F, A]),
        // TSO: as MP+rel+data-lrs-acq (the flag and data loads are in po):
        // x86 "MP Forbid". ARMv8: a64 "MP+rel+ctrl-lrs-acq Allowed". RC11: as
        // MP+rel+data-lrs-acq, nothing synchronises and a control dependency
        // orders nothing in RC11.
        ("MP+rel+ctrl-lrs-acq", [F, F, A, A]),
        // TSO: as MP+rel+data-lrs-acq (load→load order): x86 "MP Forbid".
        // ARMv8: a64 "MP+rel+addr-po-loc-addr Allowed". RC11: every load is
        // relaxed, so the release store synchronises with nothing (C++
        // [atomics.order] p2) and address dependencies order nothing in RC11.
        ("MP+rel+addr-po-loc-addr", [F, F, A, A]),
        // TSO: SDM §8.2.3.4 Example 8-3; x86 "SB Allow". ARMv8: a64 "SB
        // Allowed". RC11: relaxed, no seq_cst access: nothing forbids it (RC11 §1).
        ("SB", [F, A, A, A]),
        // TSO: x86 "SB+mfences Forbid". ARMv8: a64 "SB+dmb.sys Forbidden".
        // RC11: the two seq_cst fences are ordered by psc both ways (RC11 psc_F; rc11.cat pscf).
        ("SB+mfences", [F, F, F, F]),
        // TSO: x86 "SB+mfence+po Allow". ARMv8: a64 "SB+dmb.sy+po Allowed".
        // RC11: a single seq_cst fence cannot close a psc cycle (rc11.cat).
        ("SB+mfence+po", [F, A, A, A]),
        // TSO: SDM §8.2.3.9 Example 8-9 (loads are not reordered with an earlier
        // XCHG). ARMv8: a64 "SB+dmb.sy+rel-acq Forbidden" (STLR then LDAR keeps
        // the store first: [L]; po; [A] in hwreqs bob). RC11: all four accesses
        // in the single total order S (C++ [atomics.order] p4).
        ("SB+sc", [F, F, F, F]),
        // TSO: SDM §8.2.3.5 Example 8-5 (intra-processor forwarding); x86
        // "SB+rfi-pos Allow". ARMv8: allowed even with DMB ISHLD after the own
        // read (guide "SB+rfi-dmb.ld+rfi-dmb.ld Allowed"). RC11: relaxed, as SB.
        ("SB+rfi-pos", [F, A, A, A]),
        // TSO: SDM §8.2.3.3 Example 8-2; x86 "LB Forbid". ARMv8: a64 "LB
        // Allowed". RC11: RC11 forbids (sb ∪ rf) cycles (no-thin-air, rc11.cat).
        ("LB", [F, F, A, F]),
        // TSO: x86 strips it to LB: x86 "LB Forbid". ARMv8: a64 "LB+rel+data-post
        // Forbidden", deps "LB+rel+data Forbid". RC11: no-thin-air.
        ("LB+rel+data", [F, F, F, F]),
        // TSO: SDM §8.2.3.7 Example 8-7 (stores seen in a consistent order).
        // ARMv8: guide "IRIW Allowed". RC11: relaxed loads may disagree
        // (only seq_cst gives one total order, C++ [atomics.order] p4).
        ("IRIW", [F, F, A, A]),
        // TSO: x86 strips it (F.ld is LFENCE) to IRIW: SDM Example 8-7.
        // ARMv8: guide "IRIW+dmb.lds Forbidden". RC11: F.ld reads as an acquire
        // fence; with relaxed stores nothing synchronises, and acquire
        // ordering does not forbid IRIW (C++ [atomics.order] p4, note on seq_cst).
        ("IRIW+dmb.lds", [F, F, F, A]),
        // TSO: x86 strips it to IRIW: SDM Example 8-7. ARMv8: LDAR orders the
        // later load ([A]; po in hwreqs bob) just as DMB ISHLD does in guide
        // "IRIW+dmb.lds Forbidden". RC11: as IRIW+dmb.lds.
        ("IRIW+acqs", [F, F, F, A]),
        // RC11: all eight accesses in the total order S (C++ [atomics.order] p4).
        // TSO: SDM §8.2.3.8 Example 8-8 (locked instructions have a total
        // order). ARMv8: every load is LDAR, so [A]; po (hwreqs bob) keeps
        // each reader's loads in order, as DMB ISHLD does in guide "IRIW+dmb.lds
        // Forbidden"; the STLRs only add order.
        ("IRIW+sc", [F, F, F, F]),
        // TSO: SDM §8.2.3.6 Example 8-6 (stores are transitively visible); x86
        // "WRC Forbid". ARMv8: guide "WRC Allowed". RC11: relaxed.
        ("WRC", [F, F, A, A]),
        // TSO: x86 strips it to WRC: x86 "WRC Forbid". ARMv8: guide
        // "WRC+rel+addr Forbidden". RC11: the last read is not an acquire, so
        // no synchronises-with; dependencies order nothing in RC11.
        ("WRC+rel+addr", [F, F, F, A]),
        // TSO: x86 strips it to WRC: x86 "WRC Forbid". RC11: T1's read of x
        // happens before T2's read of x (sb ; sw ; sb), so T2 cannot read an
        // older value (C++ [intro.races] read-read coherence). ARMv8: po;[L]
        // and [A];po in hwreqs bob, as in guide "WRC+rel+addr Forbidden".
        ("WRC+rel+acq", [F, F, F, F]),
        // ARMv8: guide "ISA2 Allowed". TSO: every po edge here (W→W, R→W, R→R)
        // is in x86-TSO's ghb (x86tso.cat; Sewell et al., CACM 2010). RC11: relaxed.
        ("ISA2", [F, F, A, A]),
        // TSO: x86 strips it to ISA2 (above). ARMv8: no catalogue lists it;
        // the cycle W x -bob(po;[L])-> W.rel y -rfe-> R.acq y -bob([A];po)->
        // W.rel z -rfe-> R.acq z -bob([A];po)-> R x -fre-> W x is all in ob
        // (hwreqs bob; aarch64.cat obs), so "external" forbids it. RC11: each
        // release is read by an acquire, so W x hb R x through sb ; sw ; sb ;
        // sw ; sb (C++ [atomics.order] p2, [intro.races] hb is transitive)
        // and reading the initial x violates write-read coherence.
        ("ISA2+rel+acq-rel+acq", [F, F, F, F]),
        // TSO: MFENCE adds to ISA2 and x86 strips the dependencies: ISA2's
        // verdict (above). ARMv8: the cycle W x -bob(po;[dmb.full];po)-> W y
        // -rfe-> R y -dob(addr)-> W z -rfe-> R z -dob(addr)-> R x -fre-> W x is
        // all in ob (hwreqs dob, bob), so "external" forbids it. RC11: only T0
        // has a fence, and its relaxed store is read by a relaxed load with no
        // acquire fence after it, so nothing synchronises (C++ [atomics.fences]
        // p2-4); one seq_cst fence cannot close a psc cycle; RC11 ignores
        // dependencies, and sb ∪ rf is acyclic (R x reads the initial value).
        ("ISA2+fence+addr+addr", [F, F, F, A]),
        // TSO: x86 "2+2W Forbid". ARMv8: a64 "2+2W Allowed". RC11: relaxed.
        ("2+2W", [F, F, A, A]),
        // TSO: MFENCE adds to 2+2W: x86 "2+2W Forbid". ARMv8: a64
        // "2+2W+dmb.sys Forbidden". RC11: seq_cst fences ordered by psc
        // through coherence (RC11 psc_F).
        ("2+2W+fences", [F, F, F, F]),
        // TSO: x86 "R Allow". ARMv8: a64 "R Allowed". RC11: relaxed.
        ("R", [F, A, A, A]),
        // TSO: x86 "R+po+mfence Forbid" (the fence on the store-load side
        // suffices). ARMv8: a64 "R+dmb.sys Forbidden". RC11: RC11 psc_F.
        ("R+fences", [F, F, F, F]),
        // TSO: x86 "S Forbid". ARMv8: a64 "S Allowed". RC11: relaxed.
        ("S", [F, F, A, A]),
        // TSO: MFENCE adds to S: x86 "S Forbid". ARMv8: a64 "S+dmb.sys
        // Forbidden" (the same test). RC11: the seq_cst fences are release and
        // acquire fences, so T0's fence synchronises with T1's through y (C++
        // [atomics.fences] p2); then W x 2 happens before W x 1, which must
        // follow it in modification order (C++ [intro.races] write-write
        // coherence), so x cannot end at 2.
        ("S+fences", [F, F, F, F]),
        // TSO: x86 strips it to S: x86 "S Forbid". ARMv8: no catalogue lists
        // it; W x 2 -bob(po;[L])-> W.rel y -rfe-> R y -dob(data)-> W x 1
        // -coe-> W x 2 is all in ob (hwreqs), so "external" forbids it. RC11:
        // the release is read by a relaxed load, so there is no
        // synchronises-with (C++ [atomics.order] p2) and no hb between the
        // two stores of x; the cycle needs the mo edge, so sb ∪ rf stays
        // acyclic (rc11.cat no-thin-air) and nothing else applies.
        ("S+rel+data", [F, F, F, A]),
        // TSO: x86 "RWC Allow". ARMv8: guide "RWC Allowed". RC11: relaxed.
        ("RWC", [F, A, A, A]),
        // TSO: x86 "RWC+po+mfence Forbid" (the same test). ARMv8: no catalogue
        // lists it; the cycle rfe ; po ; fre ; bob ; fre needs T1's two loads
        // in order, and plain po between loads is in none of dob, bob, lws
        // (hwreqs), so ob has no cycle and it is allowed, as in guide "RWC
        // Allowed". RC11: all accesses relaxed, so no synchronises-with; one
        // seq_cst fence cannot close a psc cycle (rc11.cat pscf relates two
        // fences, pscb needs an SC event or fence at both ends).
        ("RWC+po+mfence", [F, F, A, A]),
        // TSO: MFENCE adds to RWC+po+mfence: x86 "RWC+po+mfence Forbid".
        // ARMv8: rfe ; bob(po;[dmb.full];po) ; fre ; bob ; fre is all in ob
        // (hwreqs), so "external" forbids it. RC11: this is RWC+syncs, which
        // RC11 forbids and RC11 allowed (Lahav et al., PLDI 2017, SC fences;
        // adopted by C++20 through P0668R5): pscf orders the two fences both
        // ways through hb ; eco ; hb.
        ("RWC+fences", [F, F, F, F]),
        // a64 "CoRR Forbidden"; x86tso.cat uniproc; C++ [intro.races] read-read coherence.
        ("CoRR", [F, F, F, F]),
        // a64 "CoWR Forbidden"; uniproc; C++ [intro.races] write-read coherence.
        ("CoWR", [F, F, F, F]),
        // a64 "CoWW Forbidden"; uniproc; C++ [intro.races] write-write coherence.
        ("CoWW", [F, F, F, F]),
    ];

    /// Every way the catalogue disagrees with `expected`, one line each:
    /// an entry missing on either side, a text that does not parse or
    /// analyse, a wrong name, and every wrong verdict under every model.
    fn disagreements(expected: &[(&str, [Verdict; 4])]) -> Vec<String> {
        let mut out = Vec::new();
        for e in CATALOGUE {
            if !expected.iter().any(|(name, _)| *name == e.name) {
                out.push(format!("{}: no expected verdicts", e.name));
            }
        }
        for (name, want) in expected {
            let Some(entry) = find(name) else {
                out.push(format!("{name}: not in the catalogue"));
                continue;
            };
            let test = match parse(entry.text) {
                Ok(t) => t,
                Err(e) => {
                    out.push(format!("{name}: {e}"));
                    continue;
                }
            };
            if test.name != *name {
                out.push(format!("{name}: the text names it {}", test.name));
            }
            let a = match Analysis::of(&test) {
                Ok(a) => a,
                Err(e) => {
                    out.push(format!("{name}: {e}"));
                    continue;
                }
            };
            for m in MemModel::ALL {
                let (got, want) = (a.verdict(m), want[m.index()]);
                if got != want {
                    out.push(format!(
                        "{name} under {}: {}, but its source says {}",
                        m.label(),
                        got.word(),
                        want.word()
                    ));
                }
            }
        }
        out
    }

    #[test]
    fn every_entry_has_its_published_verdict_under_each_model() {
        let wrong = disagreements(EXPECTED);
        assert!(
            wrong.is_empty(),
            "{} disagreement(s) with the sources:\n{}",
            wrong.len(),
            wrong.join("\n")
        );
    }

    #[test]
    fn every_disagreement_is_reported_not_just_the_first() {
        // Two wrong verdicts in two entries, and a missing entry: all three
        // are listed (a failing run shows the whole list at once).
        let mut expected = EXPECTED.to_vec();
        expected[0].1[1] = A; // MP under TSO
        let sb = expected.iter().position(|(n, _)| *n == "SB").unwrap();
        expected[sb].1[3] = F; // SB under RC11
        expected.retain(|(n, _)| *n != "CoWW");
        assert_eq!(
            disagreements(&expected),
            [
                "CoWW: no expected verdicts",
                "MP under TSO: forbidden, but its source says allowed",
                "SB under RC11: allowed, but its source says forbidden",
            ]
        );
    }

    #[test]
    fn entries_are_canonical_and_well_described() {
        let mut wrong = Vec::new();
        for e in CATALOGUE {
            match parse(e.text) {
                Ok(t) if t.to_text() != e.text => {
                    wrong.push(format!("{} is not in canonical form", e.name))
                }
                Ok(_) => {}
                Err(err) => wrong.push(format!("{}: {err}", e.name)),
            }
            if !(e.teaches.ends_with('.') && e.teaches.chars().count() < 200) {
                wrong.push(format!("{}: one sentence under 200 characters", e.name));
            }
            if CATALOGUE.iter().filter(|o| o.name == e.name).count() > 1 {
                wrong.push(format!("{} appears twice", e.name));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
        assert!(CATALOGUE.len() >= 20);
    }

    /// Issue 30: a fence is not the only fix for SB on x86; IRIW is about
    /// how stores reach the readers; ARMv8 is other-multi-copy-atomic.
    #[test]
    fn the_sentences_name_locked_instructions_and_multi_copy_atomicity() {
        let teaches = |n: &str| find(n).unwrap().teaches;
        assert!(!teaches("SB+mfences").contains("only fix"));
        assert!(teaches("SB+mfences").contains("LOCK-prefixed"));
        assert!(!teaches("IRIW").contains("only if their own loads"));
        assert!(teaches("IRIW").contains("on POWER, a store reaching one reader before the other"));
        assert!(teaches("IRIW+dmb.lds").contains("other-multi-copy-atomic"));
        assert!(teaches("LB").contains("ISO C/C++ relaxed atomics allow"));
    }
}
