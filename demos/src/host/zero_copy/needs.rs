//! What the NIC and its driver must support for zero-copy receive, each
//! with the command that sets it (devmem.rst "NIC Setup" and "Socket
//! Setup", iou-zcrx.rst "NIC HW Requirements" and "Setup NIC"), whether
//! this run has it, and why it is needed.

use super::config::{rss_queue, Mode, Provider, BOUND_QUEUE, FLOW_DST};
use super::model::ZeroCopy;

/// Whether a requirement holds in this run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Met {
    Yes,
    /// Missing: zero-copy cannot work as asked.
    No,
    /// Not asked for by this receive path.
    Unused,
}

pub struct Need {
    pub key: &'static str,
    pub feature: &'static str,
    pub command: String,
    pub status: String,
    pub met: Met,
    pub why: &'static str,
}

pub fn needs(m: &ZeroCopy) -> Vec<Need> {
    let zero_copy = m.mode == Mode::ZeroCopy;
    let split = Need {
        key: "need-split",
        feature: "Header split",
        command: "ethtool -G eth0 tcp-data-split on".into(),
        status: match (m.mode, m.nic_split) {
            (Mode::Copy, _) => "off (copy mode)".into(),
            (_, true) => "on".into(),
            (_, false) => "this NIC cannot split".into(),
        },
        met: match (m.mode, m.nic_split) {
            (Mode::Copy, _) => Met::Unused,
            (_, true) => Met::Yes,
            (_, false) => Met::No,
        },
        // devmem.rst: "Header split is used to split incoming packets into
        // a header buffer in host memory, and a payload buffer in device
        // memory"; netdev_rx_queue.c refuses a provider without it.
        why: "Headers go to kernel memory for the TCP stack, payloads to the bound buffers. Without it the kernel refuses the bind: \"tcp-data-split is disabled\".",
    };
    let steer = Need {
        key: "need-steer",
        feature: "Flow steering",
        command: format!(
            "ethtool -K eth0 ntuple on; ethtool -N eth0 flow-type tcp4 dst-port {} action {BOUND_QUEUE}",
            FLOW_DST.1
        ),
        status: if m.steering {
            format!("rule: flow to queue {BOUND_QUEUE}")
        } else {
            format!("no rule: RSS picks queue {}", rss_queue())
        },
        met: match (zero_copy, m.steering) {
            (false, _) => Met::Unused,
            (true, true) => Met::Yes,
            (true, false) => Met::No,
        },
        // iou-zcrx.rst, "Flow steering": "modern NICs typically distribute
        // flows across all HW Rx queues".
        why: "RSS spreads flows over every queue; only a rule puts this flow on the one queue that has the bound memory.",
    };
    let rss = Need {
        key: "need-rss",
        feature: "RSS off the bound queue",
        command: format!("ethtool -X eth0 equal {BOUND_QUEUE}"),
        status: format!("RSS uses queues 0 to {}", BOUND_QUEUE - 1),
        met: if zero_copy { Met::Yes } else { Met::Unused },
        // zcrx.c: registering needs CAP_NET_ADMIN since the queue "can
        // observe data destined for sockets of other tasks"; devmem.rst: a
        // reader without MSG_SOCK_DEVMEM gets EFAULT on devmem data.
        why: "Another flow landing on the bound queue would have its payloads written into these buffers, where its own reader cannot read them.",
    };
    let provider = Need {
        key: "need-queue",
        feature: "Per-queue memory (driver)",
        command: match m.provider {
            Provider::Devmem => format!("netlink bind-rx: the dmabuf to queue {BOUND_QUEUE}"),
            Provider::Zcrx => format!("io_uring_register_ifq: the area to queue {BOUND_QUEUE}"),
        },
        status: if m.bound() {
            format!("bound to queue {BOUND_QUEUE}")
        } else if m.bind_refused() {
            "bind refused".into()
        } else {
            "not used".into()
        },
        met: if m.bound() {
            Met::Yes
        } else if m.bind_refused() {
            Met::No
        } else {
            Met::Unused
        },
        // netmem.rst "Driver Requirements" (page_pool, netmem APIs, never
        // reading unreadable memory); netdev_rx_queue.c: binding restarts
        // the queue through the driver's ndo_queue_mem_alloc, _stop and
        // _start.
        why: "The driver must restart one queue with memory from a provider, take its payload buffers from page_pool's netmem API, and never read them.",
    };
    vec![split, steer, rss, provider]
}
