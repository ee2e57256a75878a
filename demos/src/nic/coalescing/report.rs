//! What the learner reads: figures, "why it matters", the invariants.

use super::*;
use crate::text::{duration, fixed, grouped, ratio, share_tenths, tenths};

impl Coalescing {
    /// Interrupts per second so far.
    pub fn irq_rate(&self) -> u64 {
        if self.now == 0 {
            return 0;
        }
        self.totals.irqs * 1_000_000_000 / self.now
    }

    pub fn avg_latency_ns(&self) -> u64 {
        self.totals.latency_sum_ns / self.totals.done.max(1)
    }

    /// CPU time spent on this queue so far, in tenths of a percent of a core.
    pub fn cpu_tenths(&self) -> i64 {
        share_tenths(
            self.totals.busy_ns.min(self.now) as i64,
            self.now.max(1) as i64,
        )
    }

    /// "rx-usecs 30 · rx-frames 32", or ixgbe's dynamic class.
    pub fn setting_label(&self) -> String {
        if self.adaptive {
            let (name, usecs, _) = CLASSES[self.class];
            format!("ixgbe dynamic: {name} ({usecs} µs)")
        } else {
            format!("rx-usecs {} · rx-frames {}", self.rx_usecs, self.rx_frames)
        }
    }

    pub(super) fn figures(&self) -> Vec<Figure> {
        let t = &self.totals;
        vec![
            Figure::new("clock", "clock", duration(self.now)),
            Figure::new(
                "rate",
                "packet rate",
                format!("{} k pkt/s", self.rate_pps / 1_000),
            ),
            Figure::new("setting", "moderation", self.setting_label()),
            Figure::new("irqs", "interrupts", t.irqs),
            Figure::new("irq-rate", "interrupts/s", grouped(self.irq_rate() as i64)),
            Figure::new(
                "per-irq",
                "packets per interrupt",
                fixed(ratio(t.done, t.irqs.max(1), 1), 1),
            ),
            Figure::new("latency", "average wait", duration(self.avg_latency_ns())),
            Figure::new("latency-max", "longest wait", duration(t.latency_max_ns)),
            Figure::new("cpu", "CPU on this queue", tenths(self.cpu_tenths())),
            Figure::new("waiting", "packets in the ring", self.pending.len()),
        ]
    }

    pub(super) fn sentences(&self) -> Vec<String> {
        let t = &self.totals;
        let mut out = Vec::new();
        if t.irqs > 0 {
            out.push(format!(
                "{} interrupts carried {} packets, {} each: every interrupt costs {} of CPU (the handler; MSI-X delivery only delays), so fewer interrupts leave more CPU for packets ({} of a core used).",
                t.irqs,
                t.done,
                fixed(ratio(t.done, t.irqs, 1), 1),
                duration(IRQ.cpu_ns()),
                tenths(self.cpu_tenths())
            ));
            out.push(format!(
                "The price is waiting: a packet waits {} on average, {} at worst, from its arrival until the poll has processed it. Holding the interrupt back trades latency for throughput.",
                duration(self.avg_latency_ns()),
                duration(t.latency_max_ns)
            ));
        } else {
            out.push("No interrupt yet: the NIC is holding the first packets back.".into());
        }
        if self.adaptive {
            let (name, usecs, per_s) = CLASSES[self.class];
            out.push(format!(
                "ixgbe's dynamic mode is in its {name} class: {usecs} µs, up to {} interrupts a second. It climbs when a lot of bytes arrive per microsecond and falls back when traffic thins, without anyone re-running ethtool.",
                grouped(i64::from(per_s))
            ));
        }
        if let Some(&oldest) = self.pending.front() {
            if self.now - oldest >= STRANDED_NS {
                out.push(format!(
                    "With rx-usecs 0, only the rx-frames count can fire the interrupt: at {} k pkt/s the {}th packet is {} away, and the first waits all that time.",
                    self.rate_pps / 1_000,
                    self.frames_now(),
                    duration(self.interval_ns() * u64::from(self.frames_now().saturating_sub(1)))
                ));
            }
        }
        out
    }

    pub(super) fn check_invariants(&self) -> Result<(), String> {
        let t = &self.totals;
        if t.done + self.pending.len() as u64 != t.arrived {
            return Err("a packet was neither processed nor waiting".into());
        }
        if (self.line == Line::Masked) != self.poll_next_done.is_some() {
            return Err("the interrupt must be masked exactly while a poll runs".into());
        }
        if self.line == Line::Armed && self.coalesced as usize != self.pending.len() {
            return Err("an armed line counts every waiting packet".into());
        }
        let frames = self.frames_now();
        if self.line == Line::Armed && frames_fire(frames, self.coalesced) {
            return Err("rx-frames were reached but no interrupt fired".into());
        }
        let usecs = u64::from(self.usecs_now()) * 1_000;
        if self.line == Line::Armed
            && self.coalesced > 0
            && usecs > 0
            && self.now > self.timer_start + usecs
        {
            return Err("rx-usecs passed but no interrupt fired".into());
        }
        if t.irqs != t.by_frames + t.by_timer {
            return Err("an interrupt fired for no reason".into());
        }
        if t.busy_ns > self.now + IRQ.cpu_ns() + PACKET_NS {
            return Err("the CPU worked longer than the clock ran".into());
        }
        if self.class >= CLASSES.len() {
            return Err("no such adaptive class".into());
        }
        if t.done > 0 && t.latency_max_ns < self.avg_latency_ns() {
            return Err("the longest wait is shorter than the average".into());
        }
        if self.now > HORIZON_NS {
            return Err("the clock ran past the horizon".into());
        }
        Ok(())
    }
}
