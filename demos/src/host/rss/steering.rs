//! Where a received packet is handled once the Toeplitz hash has picked its
//! queue: the queue's interrupt goes to one core (MSI-X and the IRQ's
//! affinity), and RPS, RFS and XPS may move the work on.
//!
//! Source: the kernel's `Documentation/networking/scaling.rst` for what
//! each mechanism does; the functions named beside each rule for exactly
//! how.

use std::ops::Range;

/// NUMA nodes in the demo's host: two sockets, the NIC on the first.
pub const NODES: u32 = 2;
/// The node the NIC hangs off: its DMA writes land in this node's memory.
pub const NIC_NODE: u32 = 0;

/// Cores, numbered node by node as Linux numbers them on such a host:
/// node 0's first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Topology {
    pub per_node: u32,
}

impl Topology {
    pub fn cores(self) -> u32 {
        NODES * self.per_node
    }

    pub fn node_of(self, core: u32) -> u32 {
        core / self.per_node.max(1)
    }

    pub fn node_cores(self, node: u32) -> Range<u32> {
        node * self.per_node..(node + 1) * self.per_node
    }

    /// `cpumask_local_spread(i, node)` (`lib/cpumask.c`): the i-th core,
    /// counting the given node's cores first and then the next nearest
    /// node's (with two nodes, the other one's), wrapping around. Drivers
    /// pick their queues' interrupt cores with it, e.g. mlx5's
    /// `comp_irqs_request` (`drivers/net/ethernet/mellanox/mlx5/core/eq.c`)
    /// for vector i on the device's node.
    pub fn local_spread(self, i: u32, node: u32) -> u32 {
        let cores = self.cores();
        let i = i % cores.max(1);
        if i < self.per_node {
            self.node_cores(node).start + i
        } else {
            let other = (node + 1) % NODES;
            self.node_cores(other).start + (i - self.per_node)
        }
    }
}

/// `reciprocal_scale(val, ep_ro)` (`include/linux/math.h`): a 32-bit hash
/// scaled onto `0..range` by `(val × range) >> 32`, so it reads the hash's
/// high bits, where the indirection table read its low ones.
pub fn reciprocal_scale(hash: u32, range: u32) -> u32 {
    // hash × range < 2^32 × range, so the shift leaves a value below range.
    ((u64::from(hash) * u64::from(range)) >> 32) as u32
}

/// RPS (`get_rps_cpu` in `net/core/dev.c`): the core at
/// `reciprocal_scale(hash, len)` in the queue's `rps_cpus` list.
/// scaling.rst suggests, for fewer queues than cores, the cores of the
/// interrupting core's memory domain: that is the list the demo sets.
pub fn rps_core(hash: u32, topology: Topology, irq_core: u32) -> u32 {
    let cores = topology.node_cores(topology.node_of(irq_core));
    cores.start + reciprocal_scale(hash, cores.end - cores.start)
}

/// The transmit queue without XPS: `skb_tx_hash` (`net/core/dev.c`)
/// scales the flow's hash onto the transmit queues.
pub fn tx_queue_by_hash(hash: u32, queues: u32) -> u32 {
    reciprocal_scale(hash, queues)
}

/// The transmit queue with XPS mapping each core to one queue, as
/// scaling.rst suggests: the queue whose completions interrupt this core,
/// or, if none does, one whose completions interrupt a core of the same
/// node (the cores that share its cache), else by the flow's hash.
/// `irq_cores[q]` is queue q's interrupt core.
pub fn xps_queue(core: u32, hash: u32, topology: Topology, irq_cores: &[u32]) -> u32 {
    let find = |pred: &dyn Fn(u32) -> bool| irq_cores.iter().position(|&c| pred(c));
    find(&|c| c == core)
        .or_else(|| find(&|c| topology.node_of(c) == topology.node_of(core)))
        .map(|q| q as u32)
        .unwrap_or_else(|| tx_queue_by_hash(hash, irq_cores.len() as u32))
}
