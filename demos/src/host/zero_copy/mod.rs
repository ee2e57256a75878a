//! Where received bytes land: the copy path, header split with the
//! kernel's page pool, and zero-copy receive into memory bound to one
//! receive queue (device memory for devmem TCP, the application's own
//! memory for io_uring zcrx).
//!
//! Sources, each cited beside the rule it gives:
//! - Linux `Documentation/networking/devmem.rst`: the NIC setup (header
//!   split, flow steering, RSS and their ethtool commands), the
//!   `SCM_DEVMEM_DMABUF` / `SCM_DEVMEM_LINEAR` cmsgs, returning tokens with
//!   `SO_DEVMEM_DONTNEED`, and packet drops when tokens are not returned.
//! - `Documentation/networking/iou-zcrx.rst`: the same NIC requirements,
//!   the area, completions and the refill ring.
//! - `Documentation/networking/page_pool.rst`, `net/core/page_pool.c`: the
//!   pool's caches, mapping once per page, recycling when the last user
//!   puts a page, the slow path that allocates and maps.
//! - `net/core/devmem.c`, `io_uring/zcrx.c`: the two memory providers
//!   (what each allocates, maps and returns; io_uring's copy fallback).
//! - `net/core/netdev_rx_queue.c`, `Documentation/networking/netmem.rst`:
//!   what binding a queue requires of the NIC and its driver.
//! - `net/ipv4/tcp.c` (`tcp_recvmsg_dmabuf`): the reference each handed-out
//!   fragment takes.
//!
//! `config` holds the settings and fixed facts, `buffers` the buffers and
//! rings, `flow` what happens in a packet time, `model` the demo's state
//! and its laws, `needs` what the NIC must support, `why` the sentences.

mod buffers;
mod config;
mod flow;
mod model;
mod needs;
mod why;

pub use buffers::{Buf, Owner, Ring};
pub use config::{
    rss_queue, Mode, Provider, ZeroCopyConfig, BATCH, BOUND_QUEUE, BUFFERS, DEFAULT_PAYLOAD,
    FLOW_DST, FLOW_SRC, HEADER_BYTES, HOLD, PAGE_BYTES, PAYLOAD, QUEUES, RING_SLOTS, WINDOW,
};
pub use model::{
    Counts, Fate, Landing, Pending, PerPacket, Phase, Store, ZeroCopy, ZeroCopyAction,
};
pub use needs::{needs, Met, Need};

#[cfg(test)]
mod tests;
