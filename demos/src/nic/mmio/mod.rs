//! MMIO write vs read: N posted writes against N non-posted reads of a
//! device register, on one clock.
//!
//! Sources: PCIe Base Specification (Posted and Non-Posted Requests; §2.4.1
//! transaction ordering); Linux `Documentation/driver-api/device-io.rst`
//! (`readl()`/`writel()`: writes may be posted, reads wait for the device).
//! The datapath lesson: ring doorbells with posted writes, and learn about
//! completions from status the NIC DMAs into host memory, never by reading a
//! NIC register on the hot path.

mod hot_loop;
mod narrate;
mod schedule;
#[cfg(test)]
mod tests;

pub use hot_loop::MAX_DRAWN;
pub use schedule::{CoreState, Op, OpKind, Segment, SegmentKind};

use crate::bound::Bound;
use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::text::decimal;
use serde::{Deserialize, Serialize};

pub const ISSUE: Bound<u64> = Bound::new("issue cost", " ns", 10, 200);
pub const RTT: Bound<u64> = Bound::new("round-trip time", " ns", 100, 2_000);
pub const COUNT: Bound<usize> = Bound::new("number of operations", "", 1, 16);
pub const WORK: Bound<u64> = Bound::new("work per packet", " ns", 20, 2_000);

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MmioConfig {
    /// Core time to issue one MMIO access, ns.
    pub issue_ns: u64,
    /// PCIe round trip: request to the device and Completion back, ns.
    pub rtt_ns: u64,
    /// Operations of each kind.
    pub count: usize,
    /// Real work per packet in the hot loop, ns.
    pub work_ns: u64,
}

impl Default for MmioConfig {
    fn default() -> Self {
        MmioConfig {
            issue_ns: 60,
            rtt_ns: 600,
            count: 5,
            work_ns: 200,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mmio {
    pub issue_ns: u64,
    pub rtt_ns: u64,
    pub count: usize,
    pub work_ns: u64,
    /// Break it: the per-packet loop reads a device register every packet.
    pub hot_read: bool,
    /// The model's clock, ns.
    pub now: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MmioAction {
    /// Move the clock to the next event.
    Advance,
    /// Move the clock to the end.
    RunToEnd,
    SetIssue(u64),
    SetRoundTrip(u64),
    SetCount(usize),
    SetWork(u64),
    SetHotRead(bool),
}

impl Mmio {
    fn restart(&mut self, change: String) -> Outcome {
        self.now = 0;
        Ok(vec![Event::info(format!(
            "{change} The clock restarts at 0 ns: posting {n} writes now takes {w} ns of core time, {n} reads {r} ns.",
            n = self.count,
            w = self.writes_core_free(),
            r = self.reads_core_free()
        ))
        .at("settings")])
    }

    fn set_issue(&mut self, ns: u64) -> Outcome {
        ISSUE.admit(ns)?;
        if ns == self.issue_ns {
            return Err(Refusal::new(format!("The issue cost is already {ns} ns.")));
        }
        self.issue_ns = ns;
        self.restart(format!("Issue cost set to {ns} ns."))
    }

    fn set_rtt(&mut self, ns: u64) -> Outcome {
        RTT.admit(ns)?;
        if ns == self.rtt_ns {
            return Err(Refusal::new(format!("The round trip is already {ns} ns.")));
        }
        self.rtt_ns = ns;
        self.restart(format!("PCIe round trip set to {ns} ns."))
    }

    fn set_count(&mut self, n: usize) -> Outcome {
        COUNT.admit(n)?;
        if n == self.count {
            return Err(Refusal::new(format!(
                "There are already {n} operations of each kind."
            )));
        }
        self.count = n;
        self.restart(format!("Now {n} writes against {n} reads."))
    }

    fn set_work(&mut self, ns: u64) -> Outcome {
        WORK.admit(ns)?;
        if ns == self.work_ns {
            return Err(Refusal::new(format!(
                "The work per packet is already {ns} ns."
            )));
        }
        self.work_ns = ns;
        Ok(vec![Event::info(format!(
            "Each packet now takes {ns} ns of real work: {} million packets per second without a register read, {} million with one.",
            decimal(Self::mpps(self.plain_packet_ns()), 2),
            decimal(Self::mpps(self.read_packet_ns()), 2)
        ))
        .at("hot-loop")])
    }

    fn set_hot_read(&mut self, on: bool) -> Outcome {
        if on == self.hot_read {
            return Err(Refusal::new(if on {
                "The loop already reads a register every packet."
            } else {
                "The loop already runs without a register read."
            }));
        }
        self.hot_read = on;
        let event = if on {
            Event::fault(format!(
                "Broken: the per-packet loop now reads a NIC register every packet. Each pass grows from {} ns to {} ns, so the loop runs {}× slower.",
                self.plain_packet_ns(),
                self.read_packet_ns(),
                decimal(self.slowdown(), 1)
            ))
        } else {
            Event::done(format!(
                "The register read is gone from the loop: back to {} ns a packet.",
                self.plain_packet_ns()
            ))
        };
        Ok(vec![event.at("hot-loop")])
    }

    fn advance(&mut self) -> Outcome {
        let Some(next) = self.next_event() else {
            return Err(self.finished());
        };
        let from = self.now;
        self.now = next;
        Ok(self.narrate(from, next))
    }

    fn run_to_end(&mut self) -> Outcome {
        if self.now >= self.horizon() {
            return Err(self.finished());
        }
        self.now = self.horizon();
        Ok(vec![Event::done(format!(
            "Ran to {} ns. The writes left the core free at {} ns and the last one landed at {} ns; the reads held it until {} ns.",
            self.now,
            self.writes_core_free(),
            self.last_write_lands(),
            self.reads_core_free()
        ))
        .at("writes-core")
        .at("reads-core")])
    }

    fn finished(&self) -> Refusal {
        Refusal::new(format!(
            "Both runs are over at {} ns. Change a setting or press Reset to run them again.",
            self.horizon()
        ))
    }
}

impl Model for Mmio {
    type Config = MmioConfig;
    type Action = MmioAction;

    fn validate(c: &MmioConfig) -> Result<(), String> {
        ISSUE.check(c.issue_ns)?;
        RTT.check(c.rtt_ns)?;
        COUNT.check(c.count)?;
        WORK.check(c.work_ns)?;
        Ok(())
    }

    fn new(c: &MmioConfig) -> Self {
        Mmio {
            issue_ns: c.issue_ns,
            rtt_ns: c.rtt_ns,
            count: c.count,
            work_ns: c.work_ns,
            hot_read: false,
            now: 0,
        }
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "t = 0 ns. One core will post {n} writes to a device register; another will read it {n} times. Step moves the clock to the next event.",
            n = self.count
        ))
    }

    fn apply(&mut self, action: &MmioAction) -> Outcome {
        match *action {
            MmioAction::Advance => self.advance(),
            MmioAction::RunToEnd => self.run_to_end(),
            MmioAction::SetIssue(ns) => self.set_issue(ns),
            MmioAction::SetRoundTrip(ns) => self.set_rtt(ns),
            MmioAction::SetCount(n) => self.set_count(n),
            MmioAction::SetWork(ns) => self.set_work(ns),
            MmioAction::SetHotRead(on) => self.set_hot_read(on),
        }
    }

    fn next_auto(&self) -> Result<MmioAction, Refusal> {
        match self.next_event() {
            Some(_) => Ok(MmioAction::Advance),
            None => Err(self.finished()),
        }
    }

    fn check(&self) -> Result<(), String> {
        Self::validate(&MmioConfig {
            issue_ns: self.issue_ns,
            rtt_ns: self.rtt_ns,
            count: self.count,
            work_ns: self.work_ns,
        })?;
        if self.now > self.horizon() {
            return Err("the clock ran past the end of both runs".into());
        }
        if self.now != 0 && !self.event_times().contains(&self.now) {
            return Err("the clock stopped between events".into());
        }
        let writes = self.writes();
        if writes.windows(2).any(|w| w[1].at_device < w[0].at_device) {
            return Err("a posted write passed an earlier one".into());
        }
        if writes.iter().any(|w| w.completed.is_some()) {
            return Err("a posted write waited for a completion".into());
        }
        let reads = self.reads();
        if reads
            .windows(2)
            .any(|r| Some(r[1].issue_start) < r[0].completed)
        {
            return Err("a read was issued before the previous one completed".into());
        }
        if reads
            .iter()
            .any(|r| r.completed != Some(r.issue_end + self.rtt_ns))
        {
            return Err("a read did not wait a full round trip".into());
        }
        if self.writes_core_free() >= self.reads_core_free() {
            return Err("the writes held the core as long as the reads".into());
        }
        if self.read_packet_ns() <= self.plain_packet_ns() {
            return Err("a register read cost the loop nothing".into());
        }
        Ok(())
    }

    fn status(&self) -> Vec<Figure> {
        let n = self.count;
        let mut out = vec![
            Figure::new("clock", "clock", format!("{} ns", self.now)),
            Figure::new(
                "writes-free",
                "writes: core free at",
                format!("{} ns", self.writes_core_free()),
            ),
            Figure::new(
                "writes-land",
                "last write lands",
                format!("{} ns", self.last_write_lands()),
            ),
            Figure::new(
                "reads-free",
                "reads: core free at",
                format!("{} ns", self.reads_core_free()),
            ),
            Figure::new(
                "speedup",
                "writes free the core",
                format!("{}× sooner", decimal(self.speedup(), 1)),
            ),
            Figure::new(
                "writes-landed",
                "writes landed",
                format!("{}/{n}", self.landed(OpKind::Write, self.now)),
            ),
            Figure::new(
                "reads-retired",
                "reads retired",
                format!("{}/{n}", self.retired_reads(self.now)),
            ),
        ];
        if self.hot_read {
            out.extend([
                Figure::new(
                    "pps-plain",
                    "loop without read",
                    format!("{} M pkt/s", decimal(Self::mpps(self.plain_packet_ns()), 2)),
                ),
                Figure::new(
                    "pps-read",
                    "loop with readl()",
                    format!("{} M pkt/s", decimal(Self::mpps(self.read_packet_ns()), 2)),
                ),
                Figure::new(
                    "slowdown",
                    "slowdown",
                    format!("{}×", decimal(self.slowdown(), 1)),
                ),
            ]);
        }
        out
    }

    fn why(&self) -> Vec<String> {
        let n = self.count;
        let mut out = vec![
            format!(
                "A posted write costs the core only its {} ns issue: after {n} writes it is free at {} ns. The writes drain on their own and the last reaches the device at {} ns; nothing comes back.",
                self.issue_ns,
                self.writes_core_free(),
                self.last_write_lands()
            ),
            format!(
                "A read is non-posted: the core waits {} ns for each Completion and cannot retire the next read before it, so {n} reads hold it until {} ns. Counting 'finished' as 'the core is free again', the writes finish {}× sooner.",
                self.rtt_ns,
                self.reads_core_free(),
                decimal(self.speedup(), 1)
            ),
        ];
        if self.hot_read {
            out.push(format!(
                "In a loop with {} ns of work per packet, one register read per packet adds {} ns: {} million packets per second become {} million, {}× slower. Drivers learn of completions from status the NIC DMAs into host memory instead.",
                self.work_ns,
                self.issue_ns + self.rtt_ns,
                decimal(Self::mpps(self.plain_packet_ns()), 2),
                decimal(Self::mpps(self.read_packet_ns()), 2),
                decimal(self.slowdown(), 1)
            ));
        } else {
            out.push(
                "Turn on the break-it switch to put a register read inside a per-packet loop and see what it costs."
                    .to_string(),
            );
        }
        out
    }

    fn leaves_out() -> &'static str {
        "Leaves out: write-combining and store-buffer limits on how many writes can be in flight, link bandwidth and flow-control credits, out-of-order execution around an uncached load, and that a read's Completion also pushes earlier posted writes ahead of it."
    }
}
