//! Break it: a per-packet loop that reads a device register every packet.
//!
//! Each read is non-posted, so it stalls the loop for the issue cost plus a
//! full round trip (see `schedule.rs`). Drivers avoid this: they learn about
//! completions from status the NIC DMAs into host memory (descriptor DD bits,
//! event queues), which the CPU reads from its own cache hierarchy.
//! Linux `Documentation/driver-api/device-io.rst` (reads are synchronous;
//! writes may be posted).

use super::schedule::{Segment, SegmentKind};
use super::Mmio;

/// Most packets drawn one by one; a longer run is drawn as one bar. With a
/// read every pass takes at least `ISSUE.min + RTT.min` ns, so that loop
/// always stays under this.
pub const MAX_DRAWN: usize = 300;

impl Mmio {
    /// One pass of the loop without a register read: the real work only.
    pub fn plain_packet_ns(&self) -> u64 {
        self.work_ns
    }

    /// One pass with a register read: the work plus a stalled read.
    pub fn read_packet_ns(&self) -> u64 {
        self.work_ns + self.issue_ns + self.rtt_ns
    }

    /// Packets per second, in millions, for a pass of `per_packet_ns`.
    pub fn mpps(per_packet_ns: u64) -> f64 {
        1_000.0 / per_packet_ns as f64
    }

    /// How many times slower the loop runs with the read.
    pub fn slowdown(&self) -> f64 {
        self.read_packet_ns() as f64 / self.plain_packet_ns() as f64
    }

    /// Packets each loop has finished by `t`: (without read, with read).
    pub fn loop_packets(&self, t: u64) -> (u64, u64) {
        (t / self.plain_packet_ns(), t / self.read_packet_ns())
    }

    /// The loop's passes up to the horizon, one bar each (or one bar for all
    /// of them beyond [`MAX_DRAWN`]).
    pub fn loop_segments(&self, with_read: bool) -> Vec<Segment> {
        let per = if with_read {
            self.read_packet_ns()
        } else {
            self.plain_packet_ns()
        };
        let passes = self.horizon() / per;
        if passes > MAX_DRAWN as u64 {
            return vec![Segment {
                start: 0,
                end: passes * per,
                kind: SegmentKind::Work,
                label: format!("{passes} packets back to back"),
            }];
        }
        let mut out = Vec::new();
        for k in 0..passes {
            let start = k * per;
            let work_end = start + self.work_ns;
            out.push(Segment {
                start,
                end: work_end,
                kind: SegmentKind::Work,
                label: format!("packet {k}"),
            });
            if with_read {
                out.push(Segment {
                    start: work_end,
                    end: start + per,
                    kind: SegmentKind::Stall,
                    label: format!("readl() for packet {k}"),
                });
            }
        }
        out
    }
}
