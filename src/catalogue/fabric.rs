//! The Fabric & distributed section: how traffic is spread over paths and
//! servers, and how distributed systems fail.

use super::Demo;
use demos::fabric::ecmp::Ecmp;
use demos::fabric::maglev::Maglev;
use demos::fabric::metastable::Metastable;
use demos::fabric::pfc::Pfc;

pub const DEMOS: &[Demo] = &[
    Demo {
        section: "fabric",
        slug: "ecmp",
        title: "Hashing flows onto paths",
        one_liner: "Eight big flows on eight uplinks: the hash leaves some idle, piles others up, and the all-reduce step waits for the busiest.",
        open: split_open!(ecmp: Ecmp),
    },
    Demo {
        section: "fabric",
        slug: "maglev",
        title: "Maglev hashing",
        one_liner: "Fill Google's load-balancer table turn by turn, then see what moves when a backend leaves.",
        open: split_open!(maglev: Maglev),
    },
    Demo {
        section: "fabric",
        slug: "metastable",
        title: "Retry storms",
        one_liner: "A short slowdown leaves a server overloaded for good: retries and dead work keep the load up.",
        open: split_open!(metastable: Metastable),
    },
    Demo {
        section: "fabric",
        slug: "pfc",
        title: "Lossless Ethernet",
        one_liner: "PFC pauses a link per priority before a buffer overflows: an incast stalls an innocent flow, pauses spread up the tree, a loop deadlocks, and DCQCN keeps queues short.",
        open: split_open!(pfc: Pfc),
    },
];
