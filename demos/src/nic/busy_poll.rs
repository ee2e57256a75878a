//! Interrupt vs busy-poll on receive: the latency the interrupt path costs,
//! and the CPU that busy polling burns instead.
//!
//! Stage costs are the round, illustrative figures of the lab, not a
//! measurement of one machine.
//!
//! Rules and sources:
//! - Interrupt-driven receive: the NIC DMAs the frame into a posted RX buffer,
//!   then signals with an MSI-X message (PCIe Base Specification, section 6.1.4,
//!   MSI and MSI-X operation); the hard-IRQ handler schedules NAPI
//!   (`napi_schedule()`, `include/linux/netdevice.h`), whose softirq poll queues
//!   the data on the socket and wakes the sleeping reader
//!   (`sock_def_readable()`, `net/core/sock.c`).
//! - Busy polling: a thread that wants data spins in the driver's NAPI poll
//!   itself instead of sleeping (`napi_busy_loop()` in `net/core/dev.c`;
//!   `Documentation/networking/napi.rst`, section "Busy polling"; enabled per
//!   socket with `SO_BUSY_POLL`, socket(7), or system-wide with the
//!   `net.core.busy_poll` / `busy_read` sysctls). So no interrupt is raised, no
//!   NAPI schedule is needed and no wakeup: the reader is already running.
//! - The price: the polling core is 100 % busy whether packets arrive or not,
//!   so its CPU per packet is one core-second divided by the packet rate. In
//!   interrupt mode each packet costs the CPU work of its own stages.

use super::stages::{Pipeline, Spec, StageAction, StageDef, TechDef};
use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::text::{decimal, ns, share_tenths, tenths};
use serde::{Deserialize, Serialize};

pub const BUSY: usize = 0;
const BUSY_BIT: u8 = 1 << BUSY;

/// A core-second, in nanoseconds.
const CORE_NS: u64 = 1_000_000_000;

/// Packet rates the slider offers (packets per second), a 1-2-5 series.
pub const RATES: &[u32] = &[
    1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000, 2_000_000,
    5_000_000, 10_000_000,
];
pub const RATE_MIN: u32 = 1_000;
pub const RATE_MAX: u32 = 10_000_000;
const RATE_DEFAULT: u32 = 100_000;

pub static STAGES: &[StageDef] = &[
    StageDef::new("dma", "NIC DMAs the packet into host memory", 200, 0, false),
    StageDef::new("msix", "raise MSI-X interrupt", 140, BUSY_BIT, false),
    StageDef::new("irq", "IRQ entry + NAPI schedule", 170, BUSY_BIT, true),
    StageDef::new("wakeup", "scheduler wakes the app", 260, BUSY_BIT, true),
    StageDef::new("deliver", "deliver to the app (copy, return)", 90, 0, true),
    StageDef::new("read", "app reads the descriptor", 30, 0, true),
];

pub static TECHNIQUES: &[TechDef] = &[TechDef {
    key: "busy-poll",
    name: "busy polling",
    requires: 0,
    requires_why: "",
}];

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

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BusyPollConfig {}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BusyPollAction {
    Stage(StageAction),
    /// Offered load, in packets per second.
    SetRate(u32),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BusyPoll {
    pub pipe: Pipeline,
    pub rate_pps: u32,
}

/// CPU cost of receiving at the current rate, under both modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuCost {
    /// Interrupt mode: the CPU work of one packet's stages.
    pub irq_ns: u64,
    /// Busy polling: a whole core divided by the packet rate.
    pub busy_ns: u64,
    /// Busy polling: CPU work per packet that is real work, not spinning.
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
    pub fn cpu(&self) -> CpuCost {
        self.cpu_at(self.rate_pps)
    }

    /// The CPU picture at any rate (at least 1 packet per second).
    pub fn cpu_at(&self, rate: u32) -> CpuCost {
        let rate = u64::from(rate.max(1));
        let irq_ns = u64::from(self.pipe.cpu_ns_with(&SPEC, 0));
        let busy_work_ns = u64::from(self.pipe.cpu_ns_with(&SPEC, BUSY_BIT));
        let util = |work: u64| share_tenths((rate * work) as i64, CORE_NS as i64) as u64;
        CpuCost {
            irq_ns,
            busy_ns: CORE_NS / rate,
            busy_work_ns,
            irq_util: util(irq_ns),
            busy_util: 1000,
            busy_work_util: util(busy_work_ns).min(1000),
            crossover_pps: (irq_ns > 0).then(|| CORE_NS / irq_ns),
        }
    }

    pub fn saving(&self) -> i64 {
        self.pipe.saving(&SPEC)
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
            "At {rate}: interrupts cost {} of CPU per packet ({} of a core); busy polling spends {} per packet, the whole core. {}, and {cross}.",
            ns(c.irq_ns as i64),
            tenths(c.irq_util as i64),
            ns(c.busy_ns as i64),
            if c.busy_cheaper() {
                "Busy polling is the cheaper of the two here"
            } else {
                "Interrupts are the cheaper of the two here"
            }
        );
        let event = if self.pipe.uses(BUSY) && !c.busy_cheaper() {
            Event::warn(text)
        } else {
            Event::info(text)
        };
        event.at("cpu")
    }

    fn set_rate(&mut self, rate: u32) -> Outcome {
        if !(RATE_MIN..=RATE_MAX).contains(&rate) {
            return Err(Refusal::new(format!(
                "The packet rate is {} to {}; {} is out of range.",
                rate_text(RATE_MIN.into()),
                rate_text(RATE_MAX.into()),
                rate_text(rate.into())
            )));
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
        }
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "Interrupt-driven receive: {} stages, {} from the NIC to the app. Step walks one packet through; busy polling takes the interrupt stages away, at a price in CPU.",
            self.pipe.active(&SPEC).len(),
            ns(self.pipe.total(&SPEC))
        ))
    }

    fn apply(&mut self, action: &BusyPollAction) -> Outcome {
        match action {
            BusyPollAction::Stage(stage) => {
                let busy_before = self.pipe.uses(BUSY);
                let mut events = self.pipe.apply(&SPEC, stage)?;
                if self.pipe.uses(BUSY) != busy_before {
                    events.push(self.cpu_event());
                }
                Ok(events)
            }
            BusyPollAction::SetRate(rate) => self.set_rate(*rate),
        }
    }

    fn next_auto(&self) -> Result<BusyPollAction, Refusal> {
        self.pipe.next_auto(&SPEC).map(BusyPollAction::Stage)
    }

    fn check(&self) -> Result<(), String> {
        self.pipe.check(&SPEC)?;
        if !(RATE_MIN..=RATE_MAX).contains(&self.rate_pps) {
            return Err("the packet rate is out of range".into());
        }
        let c = self.cpu();
        if let Some(x) = c.crossover_pps {
            if c.irq_ns * x > CORE_NS || c.irq_ns * (x + 1) <= CORE_NS {
                return Err(
                    "the crossover is not where a core's worth of interrupt work is reached".into(),
                );
            }
        }
        if c.busy_util != 1000 {
            return Err("a polling core must be fully busy".into());
        }
        if self.pipe.uses(BUSY)
            && self
                .pipe
                .active(&SPEC)
                .iter()
                .any(|&i| STAGES[i].removed_by != 0)
        {
            return Err("busy polling is on but an interrupt stage is still on the path".into());
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
            Figure::new("busy-cpu", "CPU/packet, busy polling", ns(c.busy_ns as i64)),
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
            "The interrupt, the NAPI schedule and the wakeup cost {} of the {} receive path ({}): busy polling skips all three because the reader is already running.",
            ns(removed),
            ns(baseline),
            tenths(share_tenths(removed.into(), baseline.into()))
        )];
        out.push(format!(
            "A polling core is never idle: at {} it spends {} of its time on packets and the rest spinning, {} of CPU per packet.",
            rate_text(self.rate_pps.into()),
            tenths(c.busy_work_util as i64),
            ns(c.busy_ns as i64)
        ));
        match c.crossover_pps {
            Some(x) => out.push(format!(
                "Interrupts cost {} of CPU per packet, so they would fill a whole core at {}: below that rate busy polling costs more CPU, above it less. It buys latency either way.",
                ns(c.irq_ns as i64),
                rate_text(x)
            )),
            None => out.push("With every CPU stage set to 0 ns, interrupts cost nothing and busy polling can never be the cheaper.".into()),
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
        "Leaves out: NAPI batching and interrupt coalescing (here every packet pays the full interrupt path), busy-poll timeouts and the sleep after them, power and SMT effects of a spinning core, and overlap between stages. Stage costs are round teaching figures, not measurements."
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> BusyPoll {
        BusyPoll::new(&BusyPollConfig::default())
    }

    fn busy(m: &mut BusyPoll, on: bool) -> Outcome {
        m.apply(&BusyPollAction::Stage(StageAction::Use {
            technique: BUSY,
            on,
        }))
    }

    #[test]
    fn the_interrupt_path_sums_six_stages() {
        let m = model();
        assert_eq!(m.pipe.total(&SPEC), 200 + 140 + 170 + 260 + 90 + 30);
        m.check().unwrap();
    }

    #[test]
    fn busy_polling_removes_interrupt_napi_and_wakeup() {
        let mut m = model();
        busy(&mut m, true).unwrap();
        assert_eq!(m.saving(), 140 + 170 + 260);
        assert_eq!(m.pipe.total(&SPEC), 200 + 90 + 30);
    }

    #[test]
    fn cpu_per_packet_in_each_mode() {
        let mut m = model();
        m.apply(&BusyPollAction::SetRate(1_000)).unwrap();
        let c = m.cpu();
        assert_eq!(c.irq_ns, 170 + 260 + 90 + 30);
        assert_eq!(c.busy_ns, 1_000_000);
        assert_eq!(c.irq_util, 1);
        assert!(!c.busy_cheaper());
        m.apply(&BusyPollAction::SetRate(5_000_000)).unwrap();
        assert!(m.cpu().busy_cheaper());
        assert_eq!(m.cpu().busy_ns, 200);
    }

    #[test]
    fn crossover_is_where_interrupt_work_fills_a_core() {
        let m = model();
        let c = m.cpu();
        assert_eq!(c.crossover_pps, Some(1_000_000_000 / 550));
        assert_eq!(rate_text(c.crossover_pps.unwrap()), "1.82 M pkt/s");
    }

    #[test]
    fn zero_cpu_stages_mean_no_crossover() {
        let mut m = model();
        for stage in [2, 3, 4, 5] {
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
    fn busy_polling_at_a_low_rate_is_flagged() {
        let mut m = model();
        m.apply(&BusyPollAction::SetRate(1_000)).unwrap();
        let events = busy(&mut m, true).unwrap();
        assert_eq!(events.last().unwrap().tone, crate::model::Tone::Warn);
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
        assert_eq!(rate_index(RATE_MAX), RATES.len() - 1);
    }
}
