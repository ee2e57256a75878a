//! The demo's settings, its bounds and the fixed facts the rules read: the
//! page size, the header bytes, the NIC's queues and the one flow.

use crate::bound::Bound;
use crate::host::toeplitz::{self, STANDARD_KEY};
use serde::{Deserialize, Serialize};
use std::net::{IpAddr, Ipv4Addr};
use std::num::NonZeroU16;

/// Bytes of one receive buffer. Both memory providers hand out buffers of
/// PAGE_SIZE (4 KiB on x86-64): devmem carves its dmabuf with
/// `gen_pool_create(PAGE_SHIFT, …)` and allocates `PAGE_SIZE` chunks
/// (net/core/devmem.c), io_uring cuts its area into `size >> PAGE_SHIFT`
/// buffers (io_uring/zcrx.c, `io_zcrx_create_area`).
pub const PAGE_BYTES: u32 = 4_096;

/// Header bytes of each packet: Ethernet 14, IPv4 20, TCP 20 and the 12
/// bytes Linux adds for the timestamp option (two NOPs and the 10-byte
/// option, RFC 7323).
pub const HEADER_BYTES: u32 = 66;

/// Payload per packet: a 1,500-byte MTU less those IP and TCP headers is
/// 1,448 bytes, the usual MSS with timestamps. At most a page less the
/// headers, so that in copy mode a whole frame fits one page.
pub const PAYLOAD: Bound<u32> = Bound::new("payload", " bytes", 64, PAGE_BYTES - HEADER_BYTES);
pub const DEFAULT_PAYLOAD: u32 = 1_448;

/// Buffers of the bound area (zero-copy), in pages. Real areas hold
/// thousands; a handful shows each one. At least the NIC ring's slots.
pub const BUFFERS: Bound<u32> = Bound::new("bound area", " buffers", 4, 16);

/// How many packet times the application keeps each buffer before it
/// hands it back (0: at once, in the same read).
pub const HOLD: Bound<u32> = Bound::new("hold time", " packet times", 0, 20);

/// Descriptors on each receive queue's ring in the model. Real rings have
/// hundreds or thousands; four keep every one in sight.
pub const RING_SLOTS: usize = 4;

/// The NIC's receive queues, and the one the memory is bound to: the last,
/// as in devmem.rst's example (queue 15 of 16) and iou-zcrx.rst's (queue 1
/// of 2).
pub const QUEUES: u16 = 4;
pub const BOUND_QUEUE: u16 = QUEUES - 1;

/// Entries of the RSS indirection table (the I210 datasheet's 128, as
/// `host::toeplitz` uses).
pub const RSS_TABLE: usize = 128;

/// Packets that may wait unread in the socket before the sender stops: the
/// model's stand-in for TCP's receive window. Only the io_uring copy
/// fallback, when the area has no free buffer, ever leaves packets unread.
pub const WINDOW: usize = 4;

/// Packets "Send 10 packets" runs.
pub const BATCH: u64 = 10;

/// The flow: a client sending to port 5201 (ncdevmem's port in devmem.rst's
/// test) on documentation addresses (RFC 5737).
pub const FLOW_SRC: (Ipv4Addr, u16) = (Ipv4Addr::new(192, 0, 2, 1), 40_000);
pub const FLOW_DST: (Ipv4Addr, u16) = (Ipv4Addr::new(198, 51, 100, 7), 5_201);

/// How the host receives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mode {
    /// The NIC writes each whole frame into one kernel page; recv() copies
    /// the payload out.
    Copy,
    /// Header split: headers in a small kernel buffer, payload in its own
    /// kernel page; recv() still copies the payload.
    Split,
    /// Header split with the payload written straight into buffers bound
    /// to the queue; the application reads them where they landed.
    ZeroCopy,
}

/// Which memory the zero-copy queue is bound to, and the API that hands
/// its buffers to the application.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Provider {
    /// Device memory TCP: a dmabuf (say a GPU's memory) bound over netlink;
    /// recvmsg() reports fragments in cmsgs (devmem.rst).
    Devmem,
    /// io_uring zero-copy receive: an area of the application's own memory;
    /// completions report fragments, a refill ring takes them back
    /// (iou-zcrx.rst).
    Zcrx,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Copy => "copy",
            Mode::Split => "header split",
            Mode::ZeroCopy => "zero-copy",
        }
    }
}

impl Provider {
    pub fn name(self) -> &'static str {
        match self {
            Provider::Devmem => "devmem TCP",
            Provider::Zcrx => "io_uring zcrx",
        }
    }

    /// Where its buffers are.
    pub fn memory(self) -> &'static str {
        match self {
            Provider::Devmem => "device memory (dmabuf)",
            Provider::Zcrx => "user memory (io_uring area)",
        }
    }

    /// How the application gives a buffer back.
    pub fn give_back(self) -> &'static str {
        match self {
            Provider::Devmem => "SO_DEVMEM_DONTNEED with its token",
            Provider::Zcrx => "an entry on the refill ring",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZeroCopyConfig {
    pub mode: Mode,
    pub provider: Provider,
    pub buffers: u32,
    pub hold: u32,
    pub payload: u32,
    /// Whether the NIC can split headers from payload (and so turn on
    /// `tcp-data-split`).
    pub nic_split: bool,
    /// Whether an ntuple rule steers the flow to the bound queue.
    pub steering: bool,
}

impl Default for ZeroCopyConfig {
    /// Zero-copy into device memory, set up as devmem.rst says: header
    /// split on, the flow steered to the bound queue. Eight buffers, and an
    /// application that keeps each for two packet times.
    fn default() -> Self {
        ZeroCopyConfig {
            mode: Mode::ZeroCopy,
            provider: Provider::Devmem,
            buffers: 8,
            hold: 2,
            payload: DEFAULT_PAYLOAD,
            nic_split: true,
            steering: true,
        }
    }
}

impl ZeroCopyConfig {
    pub fn check(&self) -> Result<(), String> {
        BUFFERS.check(self.buffers)?;
        HOLD.check(self.hold)?;
        PAYLOAD.check(self.payload)?;
        Ok(())
    }
}

/// The queue RSS picks for the flow when no rule steers it: the Toeplitz
/// hash of its addresses and ports (Microsoft's standard key) through an
/// indirection table spread over every queue but the bound one, as
/// `ethtool -X eth0 equal 3` sets it. Linux draws its own key at random at
/// boot (`netdev_rss_key_fill`, `net_get_random_once`), so on a real host
/// the queue differs from machine to machine; it is never the bound one.
pub fn rss_queue() -> u16 {
    let input = toeplitz::tuple_input(
        IpAddr::V4(FLOW_SRC.0),
        IpAddr::V4(FLOW_DST.0),
        Some((FLOW_SRC.1, FLOW_DST.1)),
    )
    .unwrap_or_default();
    let hash = toeplitz::hash(&STANDARD_KEY, &input);
    let spread = NonZeroU16::new(BOUND_QUEUE).unwrap_or(NonZeroU16::MIN);
    toeplitz::queue(hash, &toeplitz::default_indirection(RSS_TABLE, spread)).unwrap_or(0)
}
