//! "Why it matters": sentences computed from the run, and the one rule of
//! how long the application may keep its buffers.

use super::buffers::Owner;
use super::config::{Provider, BOUND_QUEUE, RING_SLOTS};
use super::model::ZeroCopy;
use crate::text::grouped;

impl ZeroCopy {
    /// The longest the application may keep each bound buffer without a
    /// drop: the ring needs `RING_SLOTS` posted buffers after each refill,
    /// and the application holds one buffer per packet time it keeps them,
    /// so `hold` may reach the area's size less the ring's. (The unit tests
    /// run the model at this hold and one more.) `None` when nothing is
    /// bound.
    pub fn safe_hold(&self) -> Option<u32> {
        self.bound()
            .then(|| self.buffers.saturating_sub(RING_SLOTS as u32))
    }
}

fn big(n: u64) -> String {
    grouped(n.min(i64::MAX as u64) as i64)
}

pub fn why(m: &ZeroCopy) -> Vec<String> {
    let c = &m.counts;
    let payload = grouped(i64::from(m.payload));
    let mut out = Vec::new();
    if m.flow_bound() {
        out.push(format!(
            "Payloads land where the application reads them: {payload} bytes a packet go into {}, and none is copied. Only the headers, {} bytes so far, went to kernel memory.",
            m.provider.memory(),
            big(c.kernel_bytes)
        ));
        out.push(format!(
            "Zero-copy pays per buffer instead of per byte: each fragment is handed over and must come back ({}), {} given back so far. The {} buffers were DMA-mapped once, when bound.",
            m.provider.give_back(),
            big(c.returned),
            m.buffers
        ));
    } else {
        out.push(format!(
            "Every payload lands in a kernel page and is then copied: {payload} bytes a packet, {} bytes so far. That cost grows with every byte received.",
            big(c.bytes_copied)
        ));
        out.push(format!(
            "The page pool keeps its pages DMA-mapped and recycles each one once recv() frees the skb: {} pages mapped, {} recycles, no new mapping per packet while pages come back in time.",
            big(c.pages_mapped),
            big(c.recycled)
        ));
    }
    if let Some(safe) = m.safe_hold() {
        let held = m.area_count(Owner::App);
        let verdict = if m.hold > safe {
            format!(
                " It keeps them {}: the pool runs dry and the NIC drops packets ({} so far).",
                m.hold,
                big(c.dropped)
            )
        } else {
            format!(" It keeps them {}, so no packet is dropped.", m.hold)
        };
        out.push(format!(
            "The ring needs {RING_SLOTS} posted buffers and the application holds {held} now: with {} bound buffers it may keep each for up to {safe} packet times.{verdict}",
            m.buffers
        ));
    }
    if m.bound() && !m.steering {
        out.push(match m.provider {
            Provider::Zcrx => format!(
                "Without the rule the flow lands on queue {}, which has ordinary kernel pages. io_uring still delivers into its area, but by copying: {} bytes so far.",
                m.flow_queue(),
                big(c.bytes_copied)
            ),
            Provider::Devmem => format!(
                "Without the rule the flow lands on queue {}: its data arrives as ordinary TCP data, copied by recvmsg(), while the buffers bound to queue {BOUND_QUEUE} sit unused.",
                m.flow_queue()
            ),
        });
    }
    if m.bind_refused() {
        out.push(
            "Binding memory to a queue needs header split: this NIC cannot split, so the kernel refuses the bind and every payload is copied.".to_string(),
        );
    }
    out.push(
        "Zero-copy needs the NIC to split headers from payloads, a steering rule for the flow, RSS keeping other flows off the bound queue, and a driver that can restart one queue with memory from a provider. Each is hardware or driver work; a NIC without any one of them cannot bind memory to a queue.".to_string(),
    );
    out
}
