//! The Fabric & distributed section: how traffic is spread over paths and
//! servers, and how distributed systems fail.

use super::Demo;
use demos::fabric::maglev::Maglev;

pub const DEMOS: &[Demo] = &[Demo {
    section: "fabric",
    slug: "maglev",
    title: "Maglev hashing",
    one_liner:
        "Fill Google's load-balancer table turn by turn, then see what moves when a backend leaves.",
    open: split_open!(maglev: Maglev),
}];
