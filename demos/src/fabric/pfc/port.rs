//! One direction of a cable with the buffers at its two ends: the sending
//! switch's egress queue (or the sending host), the bytes on the wire, the
//! pause state the sender obeys, and the receiving switch's ingress
//! counter with its XOFF/XON state.

use super::config::TICK_BYTES;
use super::topology::Link;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// A run of bytes of one flow that travel together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chunk {
    pub flow: u8,
    pub bytes: u64,
    /// Switches the bytes may still visit.
    pub ttl: u8,
    /// The link the bytes came in on, whose ingress counter holds them.
    pub ingress: u8,
    /// Carries an ECN mark (congestion experienced).
    pub marked: bool,
}

/// What a PFC frame asks for the lossless priority: stop, or go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PauseFrame {
    /// The largest pause time, 0xFFFF quanta.
    Xoff,
    /// Pause time 0.
    Xon,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Port {
    pub link: Link,
    /// The sender's egress queue (empty for a host: it makes its bytes).
    pub queue: VecDeque<Chunk>,
    /// Bytes on the wire, one slot a tick; the front arrives next.
    pub wire: VecDeque<Vec<Chunk>>,
    /// PFC frames on their way to the sender, with the tick each bites.
    pub frames: VecDeque<(u32, PauseFrame)>,
    /// The sender obeys a pause until this tick (exclusive).
    pub paused_until: u32,
    /// The receiver's ingress counter: bytes in its buffer that came in
    /// on this link.
    pub ingress: u64,
    /// The receiver has sent XOFF and not XON since.
    pub xoff: bool,
    pub last_frame_sent: u32,
    pub frames_sent: u32,
    /// Ticks the sender has been paused in a row with bytes waiting.
    pub stuck: u32,
    pub paused_ticks: u64,
    /// The watchdog drops this queue's bytes until this tick (exclusive).
    pub flushing_until: u32,
    pub sent: u64,
    /// Bytes sent in the current and the last throughput window.
    pub window: u64,
    pub last_window: u64,
    /// ECN marks owed, in millionths of a packet.
    pub mark_credit: u64,
    pub peak_ingress: u64,
}

impl Port {
    pub fn new(link: Link, wire_ticks: u32) -> Self {
        Port {
            link,
            queue: VecDeque::new(),
            wire: (0..wire_ticks).map(|_| Vec::new()).collect(),
            frames: VecDeque::new(),
            paused_until: 0,
            ingress: 0,
            xoff: false,
            last_frame_sent: 0,
            frames_sent: 0,
            stuck: 0,
            paused_ticks: 0,
            flushing_until: 0,
            sent: 0,
            window: 0,
            last_window: 0,
            mark_credit: 0,
            peak_ingress: 0,
        }
    }

    pub fn paused(&self, tick: u32) -> bool {
        tick < self.paused_until
    }

    pub fn queued(&self) -> u64 {
        self.queue.iter().map(|c| c.bytes).sum()
    }

    pub fn on_wire(&self) -> u64 {
        self.wire.iter().flatten().map(|c| c.bytes).sum()
    }

    /// Adds bytes to the egress queue, merged with the last run if alike.
    pub fn enqueue(&mut self, chunk: Chunk) {
        if let Some(last) = self.queue.back_mut() {
            if (last.flow, last.ttl, last.ingress, last.marked)
                == (chunk.flow, chunk.ttl, chunk.ingress, chunk.marked)
            {
                last.bytes += chunk.bytes;
                return;
            }
        }
        self.queue.push_back(chunk);
    }

    /// Takes up to a tick's bytes from the front of the queue.
    pub fn serve(&mut self) -> Vec<Chunk> {
        let mut left = TICK_BYTES;
        let mut out = Vec::new();
        while left > 0 {
            let Some(front) = self.queue.front_mut() else {
                break;
            };
            let take = front.bytes.min(left);
            let mut piece = *front;
            piece.bytes = take;
            front.bytes -= take;
            if front.bytes == 0 {
                self.queue.pop_front();
            }
            left -= take;
            out.push(piece);
        }
        out
    }
}
