//! The two halves of a packet time: a packet arriving (the driver's
//! refill, the NIC's write) and the application running (its read, and the
//! buffers it gives back).

use super::buffers::{first_free, refill_fixed, refill_growing, Buf, Owner, Ring};
use super::config::{Provider, HEADER_BYTES, PAGE_BYTES, WINDOW};
use super::model::{Fate, Landing, Pending, Phase, Store, ZeroCopy};
use crate::model::Event;
use crate::text::{grouped, plural};

impl ZeroCopy {
    /// The sender's next packet reaches the NIC.
    pub(super) fn arrive(&mut self) -> Vec<Event> {
        self.tick = self.tick.saturating_add(1);
        self.counts.offered += 1;
        self.phase = Phase::Read;
        let packet = self.tick;
        let queue = self.flow_queue();
        let split = self.split();
        let mut events = self.refill();
        if self.socket.len() >= WINDOW {
            self.counts.held_back += 1;
            self.last = Some(Landing {
                packet,
                queue,
                split,
                fate: Fate::HeldBack,
            });
            events.push(
                Event::warn(format!(
                    "The socket holds {WINDOW} unread packets and its window is full: the sender waits instead of sending packet {packet}."
                ))
                .at("app"),
            );
            return events;
        }
        let taken = if self.flow_bound() {
            self.area_ring
                .as_mut()
                .and_then(Ring::take_head)
                .map(Store::Area)
        } else {
            self.page_ring
                .as_mut()
                .and_then(Ring::take_head)
                .map(Store::Page)
        };
        let Some(store) = taken else {
            self.counts.dropped += 1;
            self.last = Some(Landing {
                packet,
                queue,
                split,
                fate: Fate::Dropped,
            });
            // devmem.rst, "Freeing frags": tokens not returned in time
            // "will exhaust the limited dmabuf that is bound to the RX queue
            // and will lead to packet drops". io_uring's provider runs dry
            // the same way: io_pp_zc_alloc_netmems returns no buffer.
            events.push(
                Event::fault(format!(
                    "Packet {packet} reaches queue {queue}, but the ring's next descriptor has no buffer: the application holds {} of the {} bound buffers and the provider cannot make more. The NIC drops the packet.",
                    self.area_count(Owner::App),
                    self.buffers
                ))
                .at(format!("q-{queue}"))
                .at("area"),
            );
            return events;
        };
        let buf = match store {
            Store::Area(i) => &mut self.area[i],
            Store::Page(i) => &mut self.pages[i],
        };
        *buf = Buf {
            owner: Owner::Kernel,
            packet,
            refs: 1,
            since: 0,
        };
        self.counts.arrived += 1;
        let payload = u64::from(self.payload);
        let header = u64::from(HEADER_BYTES);
        match store {
            Store::Area(_) => {
                self.counts.kernel_bytes += header;
                self.counts.bound_bytes += payload;
            }
            Store::Page(_) => self.counts.kernel_bytes += header + payload,
        }
        self.socket.push(Pending { packet, store });
        self.last = Some(Landing {
            packet,
            queue,
            split,
            fate: Fate::Landed(store),
        });
        let text = match (split, store) {
            (false, Store::Page(p)) => format!(
                "Packet {packet} lands on queue {queue}: the NIC writes the whole {}-byte frame, headers and payload, into kernel page {p}. The skb holds its one reference.",
                grouped(i64::from(HEADER_BYTES + self.payload))
            ),
            (true, Store::Page(p)) => format!(
                "Packet {packet} lands on queue {queue}: the NIC splits it, {HEADER_BYTES} header bytes into a kernel header buffer and {} payload bytes into kernel page {p}.",
                grouped(i64::from(self.payload))
            ),
            (_, Store::Area(i)) => format!(
                "Packet {packet} lands on queue {queue}: the NIC splits it, {HEADER_BYTES} header bytes into kernel memory for the TCP stack and {} payload bytes into bound buffer {i}, in {}. The skb holds its one reference.",
                grouped(i64::from(self.payload)),
                self.provider.memory()
            ),
        };
        let at = match store {
            Store::Area(i) => format!("buf-{i}"),
            Store::Page(p) => format!("page-{p}"),
        };
        events.push(Event::info(text).at(format!("q-{queue}")).at(at).at("hdr"));
        events
    }

    /// The driver refills the rings before the packet: the bound queue's
    /// from its area, the flow's plain queue from the kernel's page pool.
    fn refill(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        if let Some(ring) = self.area_ring.as_mut() {
            let starved = refill_fixed(ring, &mut self.area);
            if starved > 0 {
                events.push(
                    Event::warn(format!(
                        "The driver finds no free bound buffer for {starved} empty descriptor{}: the pool is dry.",
                        plural(starved)
                    ))
                    .at("area"),
                );
            }
        }
        if let Some(ring) = self.page_ring.as_mut() {
            let mapped = refill_growing(ring, &mut self.pages);
            if mapped > 0 {
                self.counts.pages_mapped += mapped as u64;
                events.push(
                    Event::warn(format!(
                        "The page pool has no free page, so it allocates {mapped} new one{} and DMA-maps {}: a cost per page.",
                        plural(mapped),
                        if mapped == 1 { "it" } else { "them" }
                    ))
                    .at("pages"),
                );
            }
        }
        events
    }

    /// The application runs: it reads everything the socket holds, then
    /// gives back the buffers it has kept `hold` packet times.
    pub(super) fn read(&mut self) -> Vec<Event> {
        self.phase = Phase::Arrive;
        let mut events = Vec::new();
        let waiting = std::mem::take(&mut self.socket);
        let mut rest = waiting.into_iter();
        while let Some(p) = rest.next() {
            let delivered = match p.store {
                Store::Area(i) => self.hand_over(p.packet, i),
                Store::Page(page) => self.copy_out(p.packet, page),
            };
            match delivered {
                Ok(event) => {
                    self.counts.delivered += 1;
                    events.push(event);
                }
                Err(event) => {
                    events.push(event);
                    self.socket.push(p);
                    self.socket.extend(rest);
                    break;
                }
            }
        }
        if let Some(event) = self.give_back() {
            events.push(event);
        }
        if events.is_empty() {
            events.push(
                Event::info(format!(
                    "The application finds nothing new to read; it holds {} buffer{}.",
                    self.area_count(Owner::App),
                    plural(self.area_count(Owner::App))
                ))
                .at("app"),
            );
        }
        events
    }

    /// Zero-copy: the application gets the fragment where it landed. The
    /// socket API takes a reference for the application, then frees the
    /// skb, which drops the skb's (tcp.c `tcp_recvmsg_dmabuf`:
    /// `atomic_long_inc(&niov->pp_ref_count)` per fragment; zcrx.c
    /// `io_zcrx_recv_frag`: `page_pool_ref_netmem` and a user reference).
    fn hand_over(&mut self, packet: u64, i: usize) -> Result<Event, Event> {
        self.area[i] = Buf {
            owner: Owner::App,
            packet,
            refs: 1,
            since: self.tick,
        };
        self.counts.fragments += 1;
        let offset = grouped(i as i64 * i64::from(PAGE_BYTES));
        let size = grouped(i64::from(self.payload));
        let text = match self.provider {
            // devmem.rst, "Receiving data": the cmsg gives dmabuf_id,
            // frag_offset, frag_size and frag_token.
            Provider::Devmem => format!(
                "recvmsg(MSG_SOCK_DEVMEM) hands over packet {packet} as a SCM_DEVMEM_DMABUF cmsg: offset {offset}, size {size}, and a token. No byte is copied. The token's reference makes 2, freeing the skb leaves 1: the application holds buffer {i}."
            ),
            // iou-zcrx.rst, "Receiving data": each completion carries the
            // fragment's offset into the area (rcqe->off) and its length
            // (cqe->res).
            Provider::Zcrx => format!(
                "A completion hands over packet {packet}: offset {offset} into the area, length {size}. No byte is copied. The application's reference makes 2, freeing the skb leaves 1: it holds buffer {i}."
            ),
        };
        Ok(Event::done(text).at(format!("buf-{i}")).at("app"))
    }

    /// A payload in a kernel page is copied: into the application's own
    /// buffer by recv(), or, for an io_uring reader, into a free buffer of
    /// its area (zcrx.c `io_zcrx_copy_chunk`, which fails with ENOMEM when
    /// the area's free list is empty). Then the skb is freed and the page,
    /// with no reference left, goes back to its pool.
    fn copy_out(&mut self, packet: u64, page: usize) -> Result<Event, Event> {
        let size = grouped(i64::from(self.payload));
        let target = if self.zcrx_fallback() {
            match first_free(&self.area) {
                Some(j) => Some(j),
                None => {
                    self.counts.enomem += 1;
                    return Err(Event::fault(format!(
                        "No free buffer in the area to copy packet {packet} into: the read fails with ENOMEM, and the packet waits in the socket, holding kernel page {page}."
                    ))
                    .at(format!("page-{page}"))
                    .at("area"));
                }
            }
        } else {
            None
        };
        self.counts.copies += 1;
        self.counts.bytes_copied += u64::from(self.payload);
        self.pages[page] = Buf::FREE;
        self.counts.recycled += 1;
        let text = match target {
            Some(j) => {
                self.area[j] = Buf {
                    owner: Owner::App,
                    packet,
                    refs: 1,
                    since: self.tick,
                };
                self.counts.fragments += 1;
                format!(
                    "Packet {packet} sits in kernel page {page}, not in the area: io_uring copies its {size} bytes into area buffer {j} (its copy fallback) and posts a completion. Page {page} goes back to the pool."
                )
            }
            None if self.bound() => format!(
                "recvmsg() finds ordinary data, with no SO_DEVMEM cmsg: it copies packet {packet}'s {size} payload bytes from kernel page {page} into the application's buffer. Page {page} goes back to the pool."
            ),
            None => format!(
                "recv() copies packet {packet}'s {size} payload bytes from kernel page {page} into the application's buffer. The skb is freed; with no reference left, page {page} goes back to the pool for the next packet."
            ),
        };
        let event = Event::info(text).at(format!("page-{page}")).at("app");
        Ok(match target {
            Some(j) => event.at(format!("buf-{j}")),
            None => event,
        })
    }

    /// The application gives back every buffer it has held `hold` packet
    /// times; with its reference gone the buffer is free again.
    fn give_back(&mut self) -> Option<Event> {
        let due: Vec<usize> = self
            .area
            .iter()
            .enumerate()
            .filter(|(_, b)| {
                b.owner == Owner::App && b.since.saturating_add(u64::from(self.hold)) <= self.tick
            })
            .map(|(i, _)| i)
            .collect();
        if due.is_empty() {
            return None;
        }
        for &i in &due {
            self.area[i] = Buf::FREE;
        }
        self.counts.returned += due.len() as u64;
        let names: Vec<String> = due.iter().map(|i| i.to_string()).collect();
        let mut event = Event::info(format!(
            "The application gives back buffer{} {} ({}): no reference is left, so the pool can post {} again.",
            plural(due.len()),
            names.join(", "),
            self.provider.give_back(),
            if due.len() == 1 { "it" } else { "them" }
        ))
        .at("app");
        for i in due {
            event = event.at(format!("buf-{i}"));
        }
        Some(event)
    }
}
