//! The CPU & microarchitecture section.

use super::Demo;
use demos::cpu::batching::Batching;
use demos::cpu::branch::Branch;
use demos::cpu::cache_hierarchy::CacheHierarchy;
use demos::cpu::locality::Locality;
use demos::cpu::mesi::Mesi;
use demos::cpu::numa::Numa;
use demos::cpu::tlb::Tlb;

pub const DEMOS: &[Demo] = &[
    Demo {
        section: "cpu",
        slug: "cache-hierarchy",
        title: "Cache hierarchy",
        one_liner: "Load and store addresses through L1, L2, L3 and DRAM; see the set, the way, the victim and the cycles.",
        open: split_open!(cache_hierarchy: CacheHierarchy),
    },
    Demo {
        section: "cpu",
        slug: "locality",
        title: "Cache locality",
        one_liner: "Walk one array in order, by stride, at random and by column: same work, very different misses.",
        open: split_open!(locality: Locality),
    },
    Demo {
        section: "cpu",
        slug: "mesi",
        title: "MESI coherence",
        one_liner: "Read and write one line from several cores; watch the states, the bus and MSI, MESI, MOESI side by side.",
        open: split_open!(mesi: Mesi),
    },
    Demo {
        section: "cpu",
        slug: "tlb",
        title: "TLB & page walk",
        one_liner: "Translate virtual addresses: a TLB hit, or a four-level walk from CR3 down to the page.",
        open: split_open!(tlb: Tlb),
    },
    Demo {
        section: "cpu",
        slug: "branch",
        title: "Branch prediction",
        one_liner: "Sorted, shuffled or patterned data against four predictors: watch the counters learn and the mispredicts cost cycles.",
        open: split_open!(branch: Branch),
    },
    Demo {
        section: "cpu",
        slug: "numa",
        title: "NUMA local vs remote",
        one_liner: "Place a thread's pages by first touch or interleave, move the thread, and pay for every hop across the interconnect.",
        open: split_open!(numa: Numa),
    },
    Demo {
        section: "cpu",
        slug: "batching",
        title: "Batching",
        one_liner: "Share a fixed cost over a batch: throughput climbs, and the first item waits for the rest.",
        open: split_open!(batching: Batching),
    },
];
