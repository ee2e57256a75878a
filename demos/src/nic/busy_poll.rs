//! Interrupt vs busy-poll on receive: the latency the interrupt path costs,
//! and the CPU that polling burns instead.
//!
//! Rules and sources:
//! - Interrupt-driven receive: the NIC DMAs the frame into a posted RX buffer,
//!   then signals with an MSI-X message (PCIe Base Specification §6.1.4); the
//!   hard-IRQ handler schedules NAPI (`napi_schedule()`), whose softirq poll
//!   runs the driver's poll, GRO and the IP/UDP stack, queues the data on the
//!   socket and wakes the sleeping reader (`sock_def_readable()`,
//!   `net/core/sock.c`), which returns from `recvmsg()` with a copy.
//! - Kernel busy polling (`SO_BUSY_POLL`, socket(7); `napi_busy_loop()` in
//!   `net/core/dev.c`; `Documentation/networking/napi.rst`, "Busy polling"):
//!   the reader spins inside `recvmsg()` calling the driver's NAPI poll
//!   itself. The driver still reads the descriptors and the packet still
//!   climbs the protocol stack to `recvmsg()`; what goes is the wakeup, and
//!   the interrupt leaves the latency path. It does not stop interrupts: at
//!   the end of every busy-poll call `busy_poll_stop()` polls once more "to
//!   re-enable device interrupts", so the device IRQ stays armed and still
//!   fires, once per packet at these rates; its handler finds NAPI owned by
//!   the poller and only marks it missed.
//! - Suppressing the IRQs takes `SO_PREFER_BUSY_POLL` with
//!   `napi_defer_hard_irqs` and `gro_flush_timeout` (Linux 5.11):
//!   `busy_poll_stop()` then arms the timer instead of unmasking, and
//!   `napi_complete_done()` returns false (`Documentation/networking/napi.rst`,
//!   "IRQ mitigation"). `irq_suspend_timeout` (6.13) is for epoll-based busy
//!   polling only: it works with prefer-busy-poll set on an epoll context
//!   (`EPIOCSPARAMS`), not on a socket that spins in `recvmsg()` as here
//!   (napi.rst, "epoll-based busy polling", "IRQ suspension").
//! - Break it: `napi_defer_hard_irqs` set but `gro_flush_timeout` left at 0
//!   (its default). `busy_poll_stop()` arms the re-poll timer, instead of
//!   letting the driver's last poll unmask the IRQ, only when both are
//!   non-zero (`if (napi->defer_hard_irqs_count && timeout)`,
//!   `net/core/dev.c`), and `napi_complete_done()` returns false for a
//!   deferral only when the timeout is non-zero (`if (timeout) ret =
//!   false;`). napi.rst, "Software IRQ coalescing": `gro_flush_timeout` is
//!   the delay of the timer that replaces the IRQ. So with the timeout at 0
//!   prefer-busy-poll suppresses nothing: the IRQ is re-enabled at the end of
//!   every busy poll and fires as with plain `SO_BUSY_POLL`. Latency is the
//!   same either way (the interrupt is off the path); the cost is CPU.
//! - A user-space poll-mode driver (ef_vi, DPDK) is a different technique:
//!   the application polls the NIC's rings itself, with no system call, no
//!   kernel stack and no copy (ef_vi User Guide; DPDK Programmer's Guide,
//!   "Poll Mode Driver"). It and kernel busy polling exclude each other.
//! - The price of any polling: the polling core is 100 % busy whether
//!   packets arrive or not, so its CPU per packet is one core-second divided
//!   by the packet rate, plus any interrupt that still fires.
//!
//! - How an interrupt is counted, here and in the coalescing demo: one rule,
//!   [`Interrupt`] in `nic/interrupt.rs`.
//!
//! Default costs: the three stages busy polling takes off the path (MSI-X
//! delivery 500 ns, hard IRQ 1,000 ns, wakeup 4,000 ns) sum to 5.5 µs. That
//! is calibrated on Eliezer Tamir's busy-poll measurement (LKML, 2013-02-27,
//! "[RFC PATCH 0/5] net: low latency Ethernet device polling": ixgbe netperf
//! TCP_RR from 37k to 70k transactions/s, about 27 µs to 14 µs per round
//! trip, two receives each, so roughly 6 µs saved per receive). The split
//! between the three, and the other stages, are this model's assumptions.

pub use super::interrupt::{Interrupt, NAPI_POLL_NS};
use super::stages::{Pipeline, Spec, StageAction, StageDef, TechDef};
use crate::bound::Bound;
use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::text::{decimal, ns, share_tenths, tenths};
use serde::{Deserialize, Serialize};

pub const BUSY: usize = 0;
pub const PREFER: usize = 1;
pub const PMD: usize = 2;
const BUSY_BIT: u8 = 1 << BUSY;
const PREFER_BIT: u8 = 1 << PREFER;
const PMD_BIT: u8 = 1 << PMD;
/// Stage indices the CPU accounting needs.
pub const MSIX: usize = 1;
pub const IRQ: usize = 2;
/// A core-second, in nanoseconds.
const CORE_NS: u64 = 1_000_000_000;

/// Packet rates the slider offers (packets per second), a 1-2-5 series.
pub const RATES: &[u32] = &[
    1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000, 2_000_000,
    5_000_000, 10_000_000,
];
/// The offered load, the slider's ends (`RATES`' first and last).
pub const RATE: Bound<u32> = Bound::new("packet rate", " pkt/s", 1_000, 10_000_000);
const RATE_DEFAULT: u32 = 100_000;

pub static STAGES: &[StageDef] = &[
    StageDef::new("dma", "NIC DMAs frame and descriptor", 200, 0, false),
    StageDef::new(
        "msix",
        "MSI-X message reaches the core",
        Interrupt::DEFAULT.delivery_ns,
        BUSY_BIT | PMD_BIT,
        Interrupt::DELIVERY_IS_CPU,
    ),
    StageDef::new(
        "irq",
        "hard IRQ, napi_schedule()",
        Interrupt::DEFAULT.handler_ns,
        BUSY_BIT | PMD_BIT,
        true,
    ),
    StageDef::new(
        "stack",
        "NAPI poll: driver, GRO, IP/UDP",
        NAPI_POLL_NS,
        PMD_BIT,
        true,
    ),
    StageDef::new(
        "wakeup",
        "wake the reader, switch to it",
        4_000,
        BUSY_BIT | PMD_BIT,
        true,
    ),
    StageDef::new("recvmsg", "recvmsg() copies, returns", 500, PMD_BIT, true),
    StageDef {
        key: "app-poll",
        name: "app polls its own RX ring",
        base_ns: 100,
        removed_by: 0,
        only_with: PMD_BIT,
        cpu: true,
    },
];

pub static TECHNIQUES: &[TechDef] = &[
    TechDef {
        key: "busy-poll",
        name: "kernel busy polling",
        requires: 0,
        requires_why: "",
        excludes: PMD_BIT,
        excludes_why: "spins inside the kernel's recvmsg()",
    },
    TechDef {
        key: "prefer",
        name: "prefer-busy-poll with IRQ deferral",
        requires: BUSY_BIT,
        requires_why: "keeps IRQs masked only for a socket that busy polls",
        excludes: 0,
        excludes_why: "",
    },
    TechDef {
        key: "pmd",
        name: "a poll-mode driver",
        requires: 0,
        requires_why: "",
        excludes: BUSY_BIT,
        excludes_why: "takes the queue away from the kernel",
    },
];

pub static SPEC: Spec = Spec {
    stages: STAGES,
    techniques: TECHNIQUES,
    start: "the frame arrives at the NIC",
    finish: "the app holds the packet",
};

/// Rates as text: `1_818_181` → `"1.82 M pkt/s"`.
pub fn rate_text(pps: u64) -> String {
    let (value, unit) = if pps >= 1_000_000 {
        (pps as f64 / 1e6, "M pkt/s")
    } else if pps >= 1_000 {
        (pps as f64 / 1e3, "k pkt/s")
    } else {
        return format!("{pps} pkt/s");
    };
    let decimals = if value >= 100.0 {
        0
    } else if value >= 10.0 {
        1
    } else {
        2
    };
    let text = decimal(value, decimals);
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    };
    format!("{text} {unit}")
}

/// The slider position showing `rate`: the first offered rate at or above it.
pub fn rate_index(rate: u32) -> usize {
    RATES
        .iter()
        .position(|&r| r >= rate)
        .unwrap_or(RATES.len() - 1)
}

/// The rate as the refusal and the control say it.
fn rate_range_text(rate: u32) -> String {
    format!(
        "The packet rate is {} to {}; {} is out of range.",
        rate_text(RATE.min.into()),
        rate_text(RATE.max.into()),
        rate_text(rate.into())
    )
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BusyPollConfig {}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BusyPollAction {
    Stage(StageAction),
    /// Offered load, in packets per second.
    SetRate(u32),
    /// Break it: `gro_flush_timeout` left at 0 (true) or set (false), with
    /// `napi_defer_hard_irqs` set. Turning it on turns prefer-busy-poll on.
    SetZeroFlushTimeout(bool),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BusyPoll {
    pub pipe: Pipeline,
    pub rate_pps: u32,
    /// Break it: the deferral's `gro_flush_timeout` is 0, so prefer-busy-poll
    /// keeps no IRQ masked (see the module notes).
    pub zero_flush_timeout: bool,
}

/// CPU cost of receiving at the current rate: interrupts, and the polling
/// mode now chosen (plain kernel busy polling if none is on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuCost {
    /// Interrupt mode: the CPU work of one packet's stages.
    pub irq_ns: u64,
    /// Polling: a whole core divided by the packet rate, plus any device
    /// interrupt that still fires per packet.
    pub busy_ns: u64,
    /// Polling: the interrupt that still fires per packet (plain busy polling).
    pub leftover_irq_ns: u64,
    /// Polling: CPU work per packet that is real work, not spinning.
    pub busy_work_ns: u64,
    /// Core utilisation, tenths of a percent (may exceed 1000: more than a core).
    pub irq_util: u64,
    pub busy_util: u64,
    /// Share of the polling core spent on packets, not spinning.
    pub busy_work_util: u64,
    /// Rate above which busy polling costs less CPU per packet; None if never.
    pub crossover_pps: Option<u64>,
}

impl CpuCost {
    pub fn busy_cheaper(&self) -> bool {
        self.busy_ns < self.irq_ns
    }
}

impl BusyPoll {
    /// What interrupts that still fire cost, in words: per packet, and as a
    /// share of a core at the offered rate.
    fn leftover_irq_cost(&self, c: &CpuCost) -> String {
        let per_second = u64::from(self.rate_pps) * c.leftover_irq_ns;
        format!(
            "{} of CPU per packet, {} of a core at {}",
            ns(c.leftover_irq_ns as i64),
            tenths(share_tenths(per_second as i64, CORE_NS as i64)),
            rate_text(self.rate_pps.into())
        )
    }

    pub fn cpu(&self) -> CpuCost {
        self.cpu_at(self.rate_pps)
    }

    /// The polling technique the CPU figures describe: the one on, or plain
    /// kernel busy polling when none is.
    pub fn polling_mode(&self) -> u8 {
        match self.pipe.on {
            0 => BUSY_BIT,
            on => on,
        }
    }

    /// Whether the device IRQ still fires in the polling mode the CPU figures
    /// describe: it does with plain busy polling, and with prefer-busy-poll
    /// whose `gro_flush_timeout` is 0; a poll-mode driver takes no IRQ.
    pub fn irqs_fire(&self) -> bool {
        let mode = self.polling_mode();
        mode & PMD_BIT == 0 && (mode & PREFER_BIT == 0 || self.zero_flush_timeout)
    }

    /// The device interrupt at the stage costs now set.
    pub fn interrupt(&self) -> Interrupt {
        Interrupt {
            delivery_ns: self.pipe.costs[MSIX],
            handler_ns: self.pipe.costs[IRQ],
        }
    }

    /// The CPU picture at any rate (at least 1 packet per second).
    pub fn cpu_at(&self, rate: u32) -> CpuCost {
        let rate = u64::from(rate.max(1));
        let mode = self.polling_mode();
        let irq_ns = u64::from(self.pipe.cpu_ns_with(&SPEC, 0));
        // Plain SO_BUSY_POLL leaves the device IRQ armed, and so does a
        // deferral without gro_flush_timeout: its handler still runs.
        let leftover_irq_ns = if self.irqs_fire() {
            self.interrupt().cpu_ns()
        } else {
            0
        };
        let busy_work_ns = u64::from(self.pipe.cpu_ns_with(&SPEC, mode)) + leftover_irq_ns;
        let util = |work: u64| share_tenths((rate * work) as i64, CORE_NS as i64) as u64;
        CpuCost {
            irq_ns,
            busy_ns: CORE_NS / rate + leftover_irq_ns,
            leftover_irq_ns,
            busy_work_ns,
            irq_util: util(irq_ns),
            busy_util: 1000,
            busy_work_util: util(busy_work_ns),
            crossover_pps: (irq_ns > leftover_irq_ns).then(|| CORE_NS / (irq_ns - leftover_irq_ns)),
        }
    }

    pub fn saving(&self) -> i64 {
        self.pipe.saving(&SPEC)
    }

    /// What the device interrupts do in the mode now on.
    pub fn irq_word(&self) -> &'static str {
        match self.pipe.on {
            0 => "wake the reader",
            on if on & PMD_BIT != 0 => "not used",
            _ if self.irqs_fire() => "still fire",
            _ => "masked",
        }
    }

    /// Narration of the CPU picture at the current rate.
    fn cpu_event(&self) -> Event {
        let c = self.cpu();
        let rate = rate_text(self.rate_pps.into());
        let cross = match c.crossover_pps {
            Some(x) => format!("the crossover is {}", rate_text(x)),
            None => "interrupt mode costs no CPU at these stage costs, so busy polling never pays"
                .into(),
        };
        let text = format!(
            "At {rate}: interrupts cost {} of CPU per packet ({} of a core); polling spends {} per packet, the whole core{}. {}, and {cross}.",
            ns(c.irq_ns as i64),
            tenths(c.irq_util as i64),
            ns(c.busy_ns as i64),
            if c.leftover_irq_ns > 0 {
                " plus the interrupt that still fires"
            } else {
                ""
            },
            if c.busy_cheaper() {
                "Polling is the cheaper of the two here"
            } else {
                "Interrupts are the cheaper of the two here"
            }
        );
        let event = if self.pipe.on != 0 && !c.busy_cheaper() {
            Event::warn(text)
        } else {
            Event::info(text)
        };
        event.at("cpu")
    }

    fn set_zero_flush_timeout(&mut self, zero: bool) -> Outcome {
        if zero == self.zero_flush_timeout {
            return Err(Refusal::new(if zero {
                "gro_flush_timeout is already 0."
            } else {
                "gro_flush_timeout is already set."
            }));
        }
        let mut events = Vec::new();
        if zero && !self.pipe.uses(PREFER) {
            events.extend(self.pipe.apply(
                &SPEC,
                &StageAction::Use {
                    technique: PREFER,
                    on: true,
                },
            )?);
        }
        self.zero_flush_timeout = zero;
        let c = self.cpu();
        let text = if !zero {
            format!(
                "gro_flush_timeout set again: with napi_defer_hard_irqs it arms the re-poll timer, so {}.",
                if self.pipe.uses(PREFER) {
                    "prefer-busy-poll keeps the IRQ masked"
                } else {
                    "prefer-busy-poll, once on, will keep the IRQ masked"
                }
            )
        } else if self.pipe.uses(PREFER) {
            format!(
                "gro_flush_timeout is 0, so napi_defer_hard_irqs defers nothing: busy_poll_stop() arms its re-poll timer only when both are set. The driver's last poll re-enables the IRQ, and it fires again: {}. The path Step walks is unchanged.",
                self.leftover_irq_cost(&c)
            )
        } else {
            "gro_flush_timeout is 0: prefer-busy-poll, once on, will defer nothing.".to_string()
        };
        events.push(
            if zero {
                Event::fault(text)
            } else {
                Event::done(text)
            }
            .at("cpu"),
        );
        events.push(self.cpu_event());
        Ok(events)
    }

    fn set_rate(&mut self, rate: u32) -> Outcome {
        if !RATE.contains(rate) {
            return Err(Refusal::new(rate_range_text(rate)));
        }
        if rate == self.rate_pps {
            return Err(Refusal::new(format!(
                "The rate is already {}.",
                rate_text(rate.into())
            )));
        }
        self.rate_pps = rate;
        Ok(vec![self.cpu_event()])
    }
}

impl Model for BusyPoll {
    type Config = BusyPollConfig;
    type Action = BusyPollAction;

    fn validate(_config: &BusyPollConfig) -> Result<(), String> {
        Ok(())
    }

    fn new(_config: &BusyPollConfig) -> Self {
        BusyPoll {
            pipe: Pipeline::new(&SPEC),
            rate_pps: RATE_DEFAULT,
            zero_flush_timeout: false,
        }
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "Interrupt-driven receive: {} stages, {} from the NIC to the app. Step walks one packet through; the polling switches take stages away, at a price in CPU.",
            self.pipe.active(&SPEC).len(),
            ns(self.pipe.total(&SPEC))
        ))
    }

    fn apply(&mut self, action: &BusyPollAction) -> Outcome {
        match action {
            BusyPollAction::Stage(stage) => {
                let before = self.pipe.on;
                let mut events = self.pipe.apply(&SPEC, stage)?;
                if self.pipe.on != before {
                    events.push(self.cpu_event());
                }
                Ok(events)
            }
            BusyPollAction::SetRate(rate) => self.set_rate(*rate),
            BusyPollAction::SetZeroFlushTimeout(zero) => self.set_zero_flush_timeout(*zero),
        }
    }

    fn next_auto(&self) -> Result<BusyPollAction, Refusal> {
        self.pipe.next_auto(&SPEC).map(BusyPollAction::Stage)
    }

    fn check(&self) -> Result<(), String> {
        self.pipe.check(&SPEC)?;
        if !RATE.contains(self.rate_pps) {
            return Err(rate_range_text(self.rate_pps));
        }
        let c = self.cpu();
        if let Some(x) = c.crossover_pps {
            let saved = c.irq_ns - c.leftover_irq_ns;
            if saved * x > CORE_NS || saved * (x + 1) <= CORE_NS {
                return Err(
                    "the crossover is not where the polling core's cost meets the interrupts'"
                        .into(),
                );
            }
        }
        let expected = if self.irqs_fire() {
            self.interrupt().cpu_ns()
        } else {
            0
        };
        if c.leftover_irq_ns != expected {
            return Err("the IRQ left to a polling core is not the one that still fires".into());
        }
        if self.pipe.uses(PREFER) && !self.zero_flush_timeout && self.irqs_fire() {
            return Err("prefer-busy-poll with a timeout set still lets the IRQ fire".into());
        }
        if c.busy_util != 1000 {
            return Err("a polling core must be fully busy".into());
        }
        if self.pipe.on != 0 && [1, IRQ, 4].iter().any(|&i| self.pipe.is_active(&SPEC, i)) {
            return Err(
                "a polling mode is on but the interrupt or the wakeup is on the path".into(),
            );
        }
        if self.pipe.uses(BUSY) && !self.pipe.is_active(&SPEC, 3) {
            return Err("kernel busy polling skipped the driver's poll and the stack".into());
        }
        Ok(())
    }

    fn status(&self) -> Vec<Figure> {
        let c = self.cpu();
        let baseline = self.pipe.baseline(&SPEC);
        vec![
            Figure::new("total", "receive latency now", ns(self.pipe.total(&SPEC))),
            Figure::new("baseline", "with interrupts", ns(baseline)),
            Figure::new(
                "saving",
                "saved",
                format!(
                    "{} ({})",
                    ns(self.saving()),
                    tenths(share_tenths(self.saving(), baseline.into()))
                ),
            ),
            Figure::new("rate", "packet rate", rate_text(self.rate_pps.into())),
            Figure::new("irq-cpu", "CPU/packet, interrupts", ns(c.irq_ns as i64)),
            Figure::new("busy-cpu", "CPU/packet, polling", ns(c.busy_ns as i64)),
            Figure::new("irqs", "device IRQs", self.irq_word()),
            Figure::new(
                "crossover",
                "crossover",
                c.crossover_pps.map_or("never".into(), rate_text),
            ),
            Figure::new("clock", "packet clock", ns(self.pipe.clock(&SPEC))),
        ]
    }

    fn why(&self) -> Vec<String> {
        let c = self.cpu();
        let baseline = self.pipe.baseline(&SPEC);
        let removed = self.pipe.removable_ns(&SPEC, BUSY_BIT);
        let mut out = vec![format!(
            "The interrupt and the wakeup cost {} of the {} receive path ({}): kernel busy polling takes them off the path because the reader is already running, but its thread still runs the driver's poll and the stack, and recvmsg() still copies.",
            ns(removed),
            ns(baseline),
            tenths(share_tenths(removed.into(), baseline.into()))
        )];
        if self.pipe.uses(PREFER) && self.zero_flush_timeout {
            out.push(format!(
                "Prefer-busy-poll is on and napi_defer_hard_irqs is set, but gro_flush_timeout is 0: busy_poll_stop() arms the re-poll timer only when both are non-zero, so the IRQ is re-enabled after every busy poll and still fires, {}. The latency is what it was; only the CPU is lost.",
                self.leftover_irq_cost(&c)
            ));
        } else if self.polling_mode() == BUSY_BIT {
            out.push(format!(
                "Plain SO_BUSY_POLL leaves the device IRQ armed: it still fires, {} of CPU per packet that latency no longer waits for. SO_PREFER_BUSY_POLL with napi_defer_hard_irqs and gro_flush_timeout keeps it masked.",
                ns(c.leftover_irq_ns as i64)
            ));
        }
        out.push(format!(
            "A polling core is never idle: at {} it spends {} of its time on packets and the rest spinning, {} of CPU per packet.",
            rate_text(self.rate_pps.into()),
            tenths(c.busy_work_util.min(1000) as i64),
            ns(c.busy_ns as i64)
        ));
        if c.busy_work_util > 1000 {
            out.push(format!(
                "At this rate the packets alone need {} of the polling core: one core cannot keep up.",
                tenths(c.busy_work_util as i64)
            ));
        }
        match c.crossover_pps {
            Some(x) => out.push(format!(
                "Interrupts cost {} of CPU per packet, so polling is the cheaper above {} and the dearer below. It buys latency either way.",
                ns(c.irq_ns as i64),
                rate_text(x)
            )),
            None => out.push("At these stage costs interrupts cost no more CPU than the polling core's leftovers, so polling never pays in CPU.".into()),
        }
        if c.irq_util > 1000 {
            out.push(format!(
                "At this rate interrupt work alone would need {} of a core: one core cannot keep up without batching.",
                tenths(c.irq_util as i64)
            ));
        }
        out
    }

    fn leaves_out() -> &'static str {
        "Leaves out: NAPI batching and interrupt coalescing (see the coalescing demo), busy-poll timeouts and the sleep after them, the gro_flush_timeout re-poll timer's own cost when it is set and how long IRQs stay deferred after the app stops polling, idle states, power and SMT effects of a spinning core, and overlap between stages. Only the sum of the three stages polling removes is calibrated on a measurement."
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> BusyPoll {
        BusyPoll::new(&BusyPollConfig::default())
    }

    fn set(m: &mut BusyPoll, technique: usize, on: bool) -> Outcome {
        m.apply(&BusyPollAction::Stage(StageAction::Use { technique, on }))
    }

    #[test]
    fn the_interrupt_path_takes_microseconds() {
        let m = model();
        assert_eq!(m.pipe.total(&SPEC), 200 + 500 + 1_000 + 1_500 + 4_000 + 500);
        // Tamir 2013: about 6 µs per receive saved by busy polling.
        assert_eq!(m.pipe.removable_ns(&SPEC, BUSY_BIT), 5_500);
        m.check().unwrap();
    }

    #[test]
    fn kernel_busy_polling_keeps_the_driver_poll_the_stack_and_recvmsg() {
        let mut m = model();
        set(&mut m, BUSY, true).unwrap();
        assert_eq!(m.pipe.total(&SPEC), 200 + 1_500 + 500);
        assert!(m.pipe.is_active(&SPEC, 3) && m.pipe.is_active(&SPEC, 5));
        assert_eq!(m.irq_word(), "still fire");
    }

    #[test]
    fn plain_busy_polling_still_pays_the_device_irq() {
        let mut m = model();
        set(&mut m, BUSY, true).unwrap();
        m.apply(&BusyPollAction::SetRate(1_000_000)).unwrap();
        let c = m.cpu();
        assert_eq!(c.leftover_irq_ns, 1_000);
        assert_eq!(c.busy_ns, 1_000 + 1_000);
        set(&mut m, PREFER, true).unwrap();
        let c = m.cpu();
        assert_eq!((c.leftover_irq_ns, c.busy_ns), (0, 1_000));
        assert_eq!(m.irq_word(), "masked");
        assert_eq!(
            m.pipe.total(&SPEC),
            2_200,
            "deferral changes CPU, not latency"
        );
    }

    #[test]
    fn prefer_busy_poll_needs_busy_polling() {
        let mut m = model();
        let events = set(&mut m, PREFER, true).unwrap();
        assert!(m.pipe.uses(BUSY));
        assert!(events[0].text.contains("turns on too"));
        set(&mut m, BUSY, false).unwrap();
        assert!(!m.pipe.uses(PREFER));
    }

    #[test]
    fn a_poll_mode_driver_is_a_different_technique_that_skips_the_kernel() {
        let mut m = model();
        set(&mut m, PREFER, true).unwrap();
        let events = set(&mut m, PMD, true).unwrap();
        assert!(!m.pipe.uses(BUSY) && !m.pipe.uses(PREFER));
        assert!(events.iter().any(|e| e.text.contains("turns off")));
        assert_eq!(m.pipe.total(&SPEC), 200 + 100);
        assert_eq!(m.irq_word(), "not used");
        set(&mut m, BUSY, true).unwrap();
        assert!(!m.pipe.uses(PMD), "they exclude each other both ways");
        m.check().unwrap();
    }

    #[test]
    fn cpu_per_packet_in_each_mode() {
        let mut m = model();
        m.apply(&BusyPollAction::SetRate(1_000)).unwrap();
        let c = m.cpu();
        assert_eq!(c.irq_ns, 1_000 + 1_500 + 4_000 + 500);
        assert_eq!(c.busy_ns, 1_000_000 + 1_000);
        assert_eq!(c.irq_util, 7);
        assert!(!c.busy_cheaper());
        m.apply(&BusyPollAction::SetRate(1_000_000)).unwrap();
        assert!(m.cpu().busy_cheaper());
    }

    #[test]
    fn crossover_is_where_the_polling_core_costs_what_interrupts_save() {
        let m = model();
        let c = m.cpu();
        assert_eq!(c.crossover_pps, Some(1_000_000_000 / 6_000));
        assert_eq!(rate_text(c.crossover_pps.unwrap()), "167 k pkt/s");
        // At the crossover polling still costs at least as much; one packet
        // per second more and it is cheaper.
        let x = c.crossover_pps.unwrap() as u32;
        assert!(!m.cpu_at(x).busy_cheaper());
        assert!(m.cpu_at(x + 1).busy_cheaper());
    }

    #[test]
    fn zero_cpu_stages_mean_no_crossover() {
        let mut m = model();
        for stage in [3, 4, 5] {
            m.apply(&BusyPollAction::Stage(StageAction::SetCost {
                stage,
                ns: 0,
            }))
            .unwrap();
        }
        assert_eq!(m.cpu().crossover_pps, None);
        m.check().unwrap();
    }

    #[test]
    fn polling_at_a_low_rate_is_flagged() {
        let mut m = model();
        m.apply(&BusyPollAction::SetRate(1_000)).unwrap();
        let events = set(&mut m, BUSY, true).unwrap();
        assert_eq!(events.last().unwrap().tone, crate::model::Tone::Warn);
    }

    #[test]
    fn a_deferral_without_gro_flush_timeout_masks_nothing() {
        // dev.c busy_poll_stop(): the timer replaces the IRQ only when
        // napi_defer_hard_irqs and gro_flush_timeout are both non-zero.
        let mut m = model();
        m.apply(&BusyPollAction::SetRate(1_000_000)).unwrap();
        set(&mut m, PREFER, true).unwrap();
        let masked = m.cpu();
        let latency = m.pipe.total(&SPEC);
        assert_eq!((masked.leftover_irq_ns, masked.busy_ns), (0, 1_000));
        let events = m.apply(&BusyPollAction::SetZeroFlushTimeout(true)).unwrap();
        let broken = m.cpu();
        assert_eq!((broken.leftover_irq_ns, broken.busy_ns), (1_000, 2_000));
        assert_eq!(m.irq_word(), "still fire");
        assert_eq!(m.pipe.total(&SPEC), latency, "a CPU cost, not latency");
        // The crossover moves back to plain busy polling's: 1 s / (7 µs - 1 µs).
        assert_eq!(broken.crossover_pps, Some(1_000_000_000 / 6_000));
        assert_eq!(masked.crossover_pps, Some(1_000_000_000 / 7_000));
        let text = &events[0].text;
        assert_eq!(events[0].tone, crate::model::Tone::Fault);
        assert!(
            text.contains("1,000 ns of CPU per packet, 100.0 % of a core at 1 M pkt/s"),
            "{text}"
        );
        assert!(text.contains("The path Step walks is unchanged"), "{text}");
        assert!(m.why().iter().any(|w| w.contains("gro_flush_timeout is 0")));
        m.check().unwrap();
        m.apply(&BusyPollAction::SetZeroFlushTimeout(false))
            .unwrap();
        assert_eq!(m.cpu(), masked);
        assert_eq!(m.irq_word(), "masked");
    }

    #[test]
    fn breaking_the_deferral_turns_prefer_busy_poll_on_and_is_refused_twice() {
        let mut m = model();
        let events = m.apply(&BusyPollAction::SetZeroFlushTimeout(true)).unwrap();
        assert!(m.pipe.uses(PREFER) && m.pipe.uses(BUSY));
        assert!(events.iter().any(|e| e.text.contains("turns on too")));
        assert_eq!(m.irq_word(), "still fire");
        assert!(m.apply(&BusyPollAction::SetZeroFlushTimeout(true)).is_err());
        // With a poll-mode driver no device IRQ is used, timeout or not.
        set(&mut m, PMD, true).unwrap();
        assert_eq!((m.irq_word(), m.cpu().leftover_irq_ns), ("not used", 0));
        m.check().unwrap();
    }

    #[test]
    fn rates_out_of_range_are_refused() {
        let mut m = model();
        assert!(m.apply(&BusyPollAction::SetRate(999)).is_err());
        assert!(m.apply(&BusyPollAction::SetRate(10_000_001)).is_err());
        assert!(m.apply(&BusyPollAction::SetRate(RATE_DEFAULT)).is_err());
        assert_eq!(m, model());
    }

    #[test]
    fn rate_helpers() {
        assert_eq!(rate_text(1_000), "1 k pkt/s");
        assert_eq!(rate_text(10_000_000), "10 M pkt/s");
        assert_eq!(rate_text(2_500), "2.5 k pkt/s");
        assert_eq!(rate_index(1_000), 0);
        assert_eq!(rate_index(150_000), 7);
        assert_eq!(rate_index(RATE.max), RATES.len() - 1);
        assert_eq!((RATES[0], RATES[RATES.len() - 1]), (RATE.min, RATE.max));
    }
}
