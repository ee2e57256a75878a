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
