//! The `/host/zero-copy` demo: one TCP flow received three ways, packet by
//! packet, with every buffer's owner and references in sight.
//!
//! Step alternates the two halves of a packet time: the packet arrives
//! (the driver refills its ring, the NIC writes the packet), then the
//! application runs (it reads what the socket holds and gives back the
//! buffers it has kept for `hold` packet times). Every setting restarts.
//! Break it: keep buffers too long, take the steering rule away, or use a
//! NIC that cannot split headers.

use super::buffers::{refill_fixed, refill_growing, Buf, Owner, Ring};
use super::config::{
    rss_queue, Mode, Provider, ZeroCopyConfig, BATCH, BOUND_QUEUE, RING_SLOTS, WINDOW,
};
use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::text::grouped;
use serde::{Deserialize, Serialize};

/// Which half of a packet time the next Step runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// The sender's next packet reaches the NIC.
    Arrive,
    /// The application reads and gives buffers back.
    Read,
}

/// Where a packet's payload is: a buffer of the bound area, or a page of
/// the kernel's page pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Store {
    Area(usize),
    Page(usize),
}

/// What became of the latest packet the sender offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fate {
    Landed(Store),
    /// The ring's next descriptor had no buffer.
    Dropped,
    /// The socket's window was full, so the sender waited.
    HeldBack,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Landing {
    pub packet: u64,
    pub queue: u16,
    /// Whether the headers went to a buffer of their own.
    pub split: bool,
    pub fate: Fate,
}

/// A packet the socket holds and the application has not read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    pub packet: u64,
    pub store: Store,
}

/// What one packet read costs on this run's path: the rules, not averages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerPacket {
    /// Payload bytes the CPU copies (cost per byte).
    pub copied: u64,
    /// Bytes the NIC writes into kernel memory, and into bound buffers.
    pub kernel: u64,
    pub bound: u64,
    /// Kernel pages recycled, and bound buffers handed out and given back
    /// (cost per page).
    pub recycled: u64,
    pub given_back: u64,
}

/// Running totals: what each way of receiving costs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub offered: u64,
    pub arrived: u64,
    pub dropped: u64,
    pub held_back: u64,
    pub delivered: u64,
    /// Payloads the CPU copied, and their bytes (cost per byte).
    pub copies: u64,
    pub bytes_copied: u64,
    /// Bytes the NIC wrote into kernel buffers, and into bound buffers.
    pub kernel_bytes: u64,
    pub bound_bytes: u64,
    /// Kernel pages allocated and DMA-mapped as the pool grew.
    pub pages_mapped: u64,
    /// Kernel pages back in their pool after the skb was freed.
    pub recycled: u64,
    /// Fragments handed to the application, and buffers it gave back
    /// (cost per page).
    pub fragments: u64,
    pub returned: u64,
    /// Reads that found no free area buffer to copy into.
    pub enomem: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZeroCopy {
    pub mode: Mode,
    pub provider: Provider,
    pub buffers: u32,
    pub hold: u32,
    pub payload: u32,
    pub nic_split: bool,
    pub steering: bool,
    pub phase: Phase,
    /// Packet times begun.
    pub tick: u64,
    /// The bound area's buffers (none unless bound).
    pub area: Vec<Buf>,
    pub area_ring: Option<Ring>,
    /// Kernel payload pages of the queue the flow lands on, when that
    /// queue has no bound memory.
    pub pages: Vec<Buf>,
    pub page_ring: Option<Ring>,
    pub socket: Vec<Pending>,
    pub last: Option<Landing>,
    pub counts: Counts,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ZeroCopyAction {
    /// The next half of a packet time.
    Step,
    /// Ten more packet times.
    Batch,
    SetMode(Mode),
    SetProvider(Provider),
    SetBuffers(u32),
    SetHold(u32),
    SetPayload(u32),
    SetNicSplit(bool),
    SetSteering(bool),
}

impl ZeroCopy {
    /// The settings, as a share link's configuration holds them.
    pub fn config(&self) -> ZeroCopyConfig {
        ZeroCopyConfig {
            mode: self.mode,
            provider: self.provider,
            buffers: self.buffers,
            hold: self.hold,
            payload: self.payload,
            nic_split: self.nic_split,
            steering: self.steering,
        }
    }

    /// Whether header split is on: asked for (any mode but copy) and the
    /// NIC able to do it.
    pub fn split(&self) -> bool {
        self.mode != Mode::Copy && self.nic_split
    }

    /// Whether the memory is bound to the queue. Binding needs header split:
    /// `__net_mp_open_rxq` refuses a queue with "tcp-data-split is
    /// disabled" (net/core/netdev_rx_queue.c).
    pub fn bound(&self) -> bool {
        self.mode == Mode::ZeroCopy && self.nic_split
    }

    /// Zero-copy asked for, but the bind refused.
    pub fn bind_refused(&self) -> bool {
        self.mode == Mode::ZeroCopy && !self.nic_split
    }

    /// The queue the flow's packets land on: the rule's, or RSS's pick.
    pub fn flow_queue(&self) -> u16 {
        if self.steering {
            BOUND_QUEUE
        } else {
            rss_queue()
        }
    }

    /// Whether the flow's payloads go into the bound buffers.
    pub fn flow_bound(&self) -> bool {
        self.bound() && self.steering
    }

    /// Whether io_uring copies kernel pages into its area: a zcrx reader
    /// whose packets land on a queue without the bound memory
    /// (io_uring/zcrx.c: a fragment that is not a net_iov goes to
    /// `io_zcrx_copy_frag`, which copies into a buffer from the area's free
    /// list). Devmem has no such path: that data is ordinary TCP data,
    /// copied by recvmsg() into the caller's buffer (devmem.rst).
    pub fn zcrx_fallback(&self) -> bool {
        self.bound() && self.provider == Provider::Zcrx && !self.steering
    }

    pub fn area_count(&self, owner: Owner) -> usize {
        self.area.iter().filter(|b| b.owner == owner).count()
    }

    pub fn page_count(&self, owner: Owner) -> usize {
        self.pages.iter().filter(|b| b.owner == owner).count()
    }

    /// Buffers the whole area has, mapped once when it was bound: devmem
    /// maps the dmabuf at bind (`dma_buf_map_attachment_unlocked`,
    /// net/core/devmem.c), io_uring its area when the queue's pool starts
    /// (`io_zcrx_map_area`).
    pub fn area_mapped(&self) -> u64 {
        self.area.len() as u64
    }

    /// What each packet read costs on this path. The headers always land
    /// in kernel memory; the payload lands in a bound buffer only when the
    /// flow reaches the bound queue, and is otherwise copied once, whether
    /// into the application's buffer or, for io_uring's fallback, into its
    /// area (which the application then gives back like any fragment).
    pub fn per_packet(&self) -> PerPacket {
        let payload = u64::from(self.payload);
        let header = u64::from(super::config::HEADER_BYTES);
        let bound = self.flow_bound();
        PerPacket {
            copied: if bound { 0 } else { payload },
            kernel: header + if bound { 0 } else { payload },
            bound: if bound { payload } else { 0 },
            recycled: u64::from(!bound),
            given_back: u64::from(bound || self.zcrx_fallback()),
        }
    }

    /// The state at the start of a run with these settings.
    fn start(c: &ZeroCopyConfig) -> Self {
        let mut m = ZeroCopy {
            mode: c.mode,
            provider: c.provider,
            buffers: c.buffers,
            hold: c.hold,
            payload: c.payload,
            nic_split: c.nic_split,
            steering: c.steering,
            phase: Phase::Arrive,
            tick: 0,
            area: Vec::new(),
            area_ring: None,
            pages: Vec::new(),
            page_ring: None,
            socket: Vec::new(),
            last: None,
            counts: Counts::default(),
        };
        if m.bound() {
            m.area = vec![Buf::FREE; c.buffers as usize];
            let mut ring = Ring::new(BOUND_QUEUE);
            refill_fixed(&mut ring, &mut m.area);
            m.area_ring = Some(ring);
        }
        if !m.flow_bound() {
            let mut ring = Ring::new(m.flow_queue());
            m.counts.pages_mapped += refill_growing(&mut ring, &mut m.pages) as u64;
            m.page_ring = Some(ring);
        }
        m
    }

    /// One sentence on how this run receives.
    pub fn setup(&self) -> String {
        let how = match self.mode {
            Mode::Copy => "Copy: the NIC writes each whole frame into a kernel page; recv() copies the payload out.".to_string(),
            Mode::Split if self.nic_split => "Header split: headers go to a kernel header buffer, payloads to kernel pages of their own; recv() still copies each payload.".to_string(),
            Mode::Split => "Header split is asked for, but this NIC cannot split: whole frames land in kernel pages and recv() copies them.".to_string(),
            Mode::ZeroCopy if self.bound() => format!(
                "Zero-copy with {}: {} buffers of {} are bound to queue {}; headers go to kernel memory, payloads straight into those buffers.",
                self.provider.name(),
                self.buffers,
                self.provider.memory(),
                BOUND_QUEUE
            ),
            Mode::ZeroCopy => format!(
                "The bind is refused: \"tcp-data-split is disabled\", because this NIC cannot split headers. Queue {BOUND_QUEUE} keeps kernel pages, and recv() copies."
            ),
        };
        let route = if self.steering {
            format!(" A flow-steering rule sends the flow to queue {BOUND_QUEUE}.")
        } else {
            format!(
                " No steering rule: RSS hashes the flow to queue {}.",
                self.flow_queue()
            )
        };
        how + &route
    }

    fn restart(&mut self, change: String) -> Outcome {
        *self = ZeroCopy::start(&self.config());
        Ok(vec![
            Event::info(format!("{change} {}", self.setup())).at("nic")
        ])
    }

    /// Changes one setting, if the configuration stays valid, and restarts.
    fn setting<T: PartialEq + Copy>(
        &mut self,
        value: T,
        field: fn(&mut ZeroCopy) -> &mut T,
        already: &str,
        now: String,
    ) -> Outcome {
        if *field(self) == value {
            return Err(Refusal::new(already.to_string()));
        }
        let mut next = self.clone();
        *field(&mut next) = value;
        ZeroCopy::validate(&next.config()).map_err(Refusal::new)?;
        *self = next;
        self.restart(now)
    }

    fn batch(&mut self) -> Outcome {
        let end = self.tick.saturating_add(BATCH);
        let before = self.counts;
        while !(self.tick >= end && self.phase == Phase::Arrive) {
            self.step();
        }
        let c = self.counts;
        let delivered = c.delivered - before.delivered;
        let dropped = c.dropped - before.dropped;
        let copied = c.bytes_copied - before.bytes_copied;
        let text = format!(
            "{BATCH} packet times: {delivered} packets read, {dropped} dropped, {} bytes copied, {} buffers given back.",
            grouped(copied as i64),
            c.returned - before.returned
        );
        let tone = if dropped > 0 || c.held_back > before.held_back {
            Event::fault
        } else {
            Event::done
        };
        Ok(vec![tone(text).at("costs")])
    }

    fn step(&mut self) -> Vec<Event> {
        match self.phase {
            Phase::Arrive => self.arrive(),
            Phase::Read => self.read(),
        }
    }

    /// Each buffer once: the ring holds exactly the ones marked NIC, the
    /// socket exactly the ones marked kernel, and the references match the
    /// owner.
    fn check_buffers(
        bufs: &[Buf],
        ring: Option<&Ring>,
        socket: &[usize],
        what: &str,
    ) -> Result<(), String> {
        let on_ring: Vec<usize> = ring
            .map(|r| r.slots.iter().flatten().copied().collect())
            .unwrap_or_default();
        for (i, b) in bufs.iter().enumerate() {
            let rung = on_ring.iter().filter(|&&j| j == i).count();
            let queued = socket.iter().filter(|&&j| j == i).count();
            let fits = match b.owner {
                Owner::Pool => rung == 0 && queued == 0 && b.refs == 0,
                Owner::Nic => rung == 1 && queued == 0 && b.refs == 0,
                Owner::Kernel => rung == 0 && queued == 1 && b.refs == 1,
                Owner::App => rung == 0 && queued == 0 && b.refs == 1,
            };
            if !fits {
                return Err(format!("{what} {i} is {:?} but not held so", b.owner));
            }
        }
        if on_ring.iter().any(|&j| j >= bufs.len()) {
            return Err(format!("a ring slot names a {what} that does not exist"));
        }
        Ok(())
    }
}

impl Model for ZeroCopy {
    type Config = ZeroCopyConfig;
    type Action = ZeroCopyAction;

    fn validate(c: &ZeroCopyConfig) -> Result<(), String> {
        c.check()
    }

    fn new(c: &ZeroCopyConfig) -> Self {
        ZeroCopy::start(c)
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "{} Step brings the next packet, then lets the application run.",
            self.setup()
        ))
        .at("nic")
    }

    fn apply(&mut self, action: &ZeroCopyAction) -> Outcome {
        match *action {
            ZeroCopyAction::Step => Ok(self.step()),
            ZeroCopyAction::Batch => self.batch(),
            ZeroCopyAction::SetMode(mode) => self.setting(
                mode,
                |m| &mut m.mode,
                "That is already the receive path.",
                format!("Now the host receives by {}.", mode.name()),
            ),
            ZeroCopyAction::SetProvider(p) => self.setting(
                p,
                |m| &mut m.provider,
                "That is already the provider.",
                format!(
                    "The bound memory is now {}, through {}.",
                    p.memory(),
                    p.name()
                ),
            ),
            ZeroCopyAction::SetBuffers(n) => self.setting(
                n,
                |m| &mut m.buffers,
                "The area already has that many buffers.",
                format!("The bound area now has {n} buffers."),
            ),
            ZeroCopyAction::SetHold(n) => self.setting(
                n,
                |m| &mut m.hold,
                "The application already keeps its buffers that long.",
                format!("The application now keeps each buffer {n} packet times."),
            ),
            ZeroCopyAction::SetPayload(n) => self.setting(
                n,
                |m| &mut m.payload,
                "The payload is already that size.",
                format!(
                    "Each packet now carries {} payload bytes.",
                    grouped(n.into())
                ),
            ),
            ZeroCopyAction::SetNicSplit(on) => self.setting(
                on,
                |m| &mut m.nic_split,
                if on {
                    "This NIC can already split headers."
                } else {
                    "This NIC already cannot split headers."
                },
                if on {
                    "The NIC can split headers from payloads again.".to_string()
                } else {
                    "This NIC cannot split headers from payloads.".to_string()
                },
            ),
            ZeroCopyAction::SetSteering(on) => self.setting(
                on,
                |m| &mut m.steering,
                if on {
                    "The steering rule is already in place."
                } else {
                    "There is already no steering rule."
                },
                if on {
                    format!("A rule steers the flow to queue {BOUND_QUEUE} again.")
                } else {
                    "The steering rule is gone.".to_string()
                },
            ),
        }
    }

    fn next_auto(&self) -> Result<ZeroCopyAction, Refusal> {
        Ok(ZeroCopyAction::Step)
    }

    fn check(&self) -> Result<(), String> {
        self.config().check()?;
        let c = &self.counts;
        if self.bound() != (self.area.len() == self.buffers as usize && self.area_ring.is_some()) {
            return Err("the area is bound exactly when zero-copy has header split".into());
        }
        if !self.bound() && !self.area.is_empty() {
            return Err("an unbound queue has area buffers".into());
        }
        if self.flow_bound() == self.page_ring.is_some() {
            return Err("kernel pages serve exactly a flow without bound memory".into());
        }
        let in_area: Vec<usize> = self
            .socket
            .iter()
            .filter_map(|p| match p.store {
                Store::Area(i) => Some(i),
                Store::Page(_) => None,
            })
            .collect();
        let in_pages: Vec<usize> = self
            .socket
            .iter()
            .filter_map(|p| match p.store {
                Store::Page(i) => Some(i),
                Store::Area(_) => None,
            })
            .collect();
        Self::check_buffers(&self.area, self.area_ring.as_ref(), &in_area, "buffer")?;
        Self::check_buffers(&self.pages, self.page_ring.as_ref(), &in_pages, "page")?;
        if self.pages.iter().any(|p| p.owner == Owner::App) {
            return Err("the application holds a kernel page".into());
        }
        if self.socket.len() > WINDOW {
            return Err("more packets wait than the window allows".into());
        }
        if self.pages.len() > RING_SLOTS + WINDOW {
            return Err("the page pool grew past the ring and the window".into());
        }
        if c.pages_mapped != self.pages.len() as u64 {
            return Err("a kernel page was mapped but is not in the pool".into());
        }
        if c.offered != c.arrived + c.dropped + c.held_back {
            return Err("an offered packet is unaccounted for".into());
        }
        if c.arrived != c.delivered + self.socket.len() as u64 {
            return Err("an arrived packet is neither read nor waiting".into());
        }
        if c.bytes_copied != c.copies * u64::from(self.payload) {
            return Err("copied bytes are not whole payloads".into());
        }
        if c.fragments != c.returned + self.area_count(Owner::App) as u64 {
            return Err("a fragment is neither held nor given back".into());
        }
        if self.tick != c.offered {
            return Err("packet times and offered packets disagree".into());
        }
        Ok(())
    }

    fn status(&self) -> Vec<Figure> {
        let c = &self.counts;
        let mut out = vec![
            Figure::new("read", "packets read", c.delivered),
            Figure::new("dropped", "dropped", c.dropped),
            Figure::new(
                "copied",
                "bytes copied",
                grouped(c.bytes_copied.min(i64::MAX as u64) as i64),
            ),
            Figure::new(
                "mapped",
                "pages mapped",
                c.pages_mapped + self.area_mapped(),
            ),
        ];
        if self.bound() {
            out.push(Figure::new(
                "free",
                "bound buffers free",
                format!("{}/{}", self.area_count(Owner::Pool), self.buffers),
            ));
            out.push(Figure::new(
                "held",
                "held by the app",
                self.area_count(Owner::App),
            ));
            out.push(Figure::new("returned", "given back", c.returned));
        }
        if c.held_back > 0 {
            out.push(Figure::new("held-back", "sender held back", c.held_back));
        }
        out
    }

    fn why(&self) -> Vec<String> {
        super::why::why(self)
    }

    fn leaves_out() -> &'static str {
        "Leaves out: real ring and pool sizes (hundreds to thousands of buffers; here four descriptors and 4 to 16 buffers), the page pool's two caches (a lock-free cache the driver refills from a ring in batches; drawn as one pool, and returned buffers count as free at once, though io_uring takes them off its refill ring only when the queue next refills), which free buffer is reused first, several packets sharing a page, payloads larger than a page, TCP's retransmission of dropped packets and its real receive window (four unread packets stop the sender here), other flows on the NIC (RSS keeps them off the bound queue), a page someone else still references when it comes back (page_pool then unmaps it and lets it go), the header buffers' own recycling, and any time per byte or per page: the counts are exact, the cost of each is not modelled."
    }
}
