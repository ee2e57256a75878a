//! Receive buffers, who holds each one, and the ring of descriptors a
//! queue's driver keeps filled from its pool.

use super::config::RING_SLOTS;
use serde::{Deserialize, Serialize};

/// Who has a buffer now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Owner {
    /// Free in the pool, ready for the driver to post.
    Pool,
    /// Posted on the NIC's ring, waiting for a packet.
    Nic,
    /// Holding a packet's payload in an skb the socket has not read yet.
    Kernel,
    /// Handed to the application, which has not given it back.
    App,
}

impl Owner {
    pub fn word(self) -> &'static str {
        match self {
            Owner::Pool => "pool",
            Owner::Nic => "NIC",
            Owner::Kernel => "kernel",
            Owner::App => "app",
        }
    }
}

/// One buffer (one page).
///
/// `refs` counts the references held on it beyond the pool's own: the
/// skb's while the socket holds the packet, the application's while it
/// holds the fragment. That is what the pool waits on before it may reuse
/// the buffer (page_pool.c: a page comes back to the pool when the last
/// user puts it, `page_pool_put_unrefed_netmem`; tcp.c takes one more per
/// fragment it hands out, `atomic_long_inc(&niov->pp_ref_count)`, and
/// zcrx.c likewise, `page_pool_ref_netmem`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Buf {
    pub owner: Owner,
    /// The packet whose payload it holds (0 while it holds none).
    pub packet: u64,
    pub refs: u8,
    /// The packet time the application got it.
    pub since: u64,
}

impl Buf {
    pub const FREE: Buf = Buf {
        owner: Owner::Pool,
        packet: 0,
        refs: 0,
        since: 0,
    };
}

/// A receive queue's ring: which buffer each descriptor holds, and the
/// next descriptor the NIC will write.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ring {
    pub queue: u16,
    pub slots: Vec<Option<usize>>,
    pub head: usize,
}

impl Ring {
    pub fn new(queue: u16) -> Self {
        Ring {
            queue,
            slots: vec![None; RING_SLOTS],
            head: 0,
        }
    }

    pub fn posted(&self) -> usize {
        self.slots.iter().flatten().count()
    }

    /// The buffer the NIC writes the next packet into, taken off the ring;
    /// `None` if that descriptor has no buffer (the NIC has nowhere to put
    /// the packet).
    pub fn take_head(&mut self) -> Option<usize> {
        let slot = self.slots.get_mut(self.head)?;
        let buffer = slot.take()?;
        self.head = (self.head + 1) % RING_SLOTS;
        Some(buffer)
    }
}

/// The lowest-numbered free buffer. (The kernel's allocators take their own
/// order: a LIFO cache, a FIFO ring, a free list; which one is reused does
/// not change how many are free.)
pub fn first_free(bufs: &[Buf]) -> Option<usize> {
    bufs.iter().position(|b| b.owner == Owner::Pool)
}

/// Posts free buffers from a fixed pool (a bound area) on every empty
/// descriptor; returns how many descriptors stayed empty because the pool
/// had none. A memory provider cannot allocate more than it was given:
/// devmem's `mp_dmabuf_devmem_alloc_netmems` returns nothing when the
/// binding's gen_pool is empty, io_uring's `io_pp_zc_alloc_netmems` when
/// neither its refill ring nor its free list has a buffer.
pub fn refill_fixed(ring: &mut Ring, bufs: &mut [Buf]) -> usize {
    let mut starved = 0;
    for slot in ring.slots.iter_mut().filter(|s| s.is_none()) {
        match first_free(bufs) {
            Some(i) => {
                bufs[i].owner = Owner::Nic;
                *slot = Some(i);
            }
            None => starved += 1,
        }
    }
    starved
}

/// Posts pages from the kernel's page pool on every empty descriptor;
/// when the pool has none free it allocates a new page and DMA-maps it,
/// as `page_pool_alloc_netmems` falls back to `__page_pool_alloc_netmems_slow`
/// and `page_pool_dma_map` (net/core/page_pool.c). The mapping is "kept for
/// lifetime of page, until leaving pool", so a recycled page costs no new
/// mapping. Returns how many pages were newly mapped.
pub fn refill_growing(ring: &mut Ring, pages: &mut Vec<Buf>) -> usize {
    let mut mapped = 0;
    for slot in ring.slots.iter_mut().filter(|s| s.is_none()) {
        let i = match first_free(pages) {
            Some(i) => i,
            None => {
                pages.push(Buf::FREE);
                mapped += 1;
                pages.len() - 1
            }
        };
        pages[i].owner = Owner::Nic;
        *slot = Some(i);
    }
    mapped
}
