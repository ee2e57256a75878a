//! NAPI poll loop: one interrupt, then budgeted polling, then re-arm.
//!
//! Rules (Linux `Documentation/networking/napi.rst`, "Scheduling and IRQ
//! masking" and "Software IRQ coalescing"; `net/core/dev.c`
//! `napi_complete_done()`, `napi_watchdog()`, `net_rx_action()`):
//! - a packet that finds the device interrupt armed raises one hard IRQ; the
//!   handler masks the interrupt and schedules the poll (`napi_schedule()`);
//! - each poll processes at most `budget` packets (the instance's weight);
//! - a poll that processes fewer than `budget` calls `napi_complete_done()`,
//!   and the driver unmasks the interrupt only if that returns true; one that
//!   uses its whole budget stays scheduled, because more may be waiting;
//! - `napi_complete_done()` returns false while `napi_defer_hard_irqs`
//!   deferrals remain and `gro_flush_timeout` is non-zero: a poll that did
//!   work reloads the count, each completion spends one, and an hrtimer of
//!   `gro_flush_timeout` re-polls instead of an interrupt (it also returns
//!   false while busy polling owns the instance, which this model leaves to
//!   the busy-poll demo);
//! - while the interrupt is masked, arrivals raise nothing;
//! - a packet that finds no free descriptor is dropped and counted.
//!
//! Break it: a driver that never unmasks. napi.rst ("Scheduling and IRQ
//! masking") has the driver keep its interrupt masked from
//! `napi_schedule()` until `napi_complete_done()` returns true, and only
//! then unmask it (`mydrv_unmask_rxtx_irq()` in its example). A driver that
//! leaves that call out still releases the NAPI instance (the completion
//! clears `NAPI_STATE_SCHED`), but the line stays masked: no later packet
//! raises an interrupt, so nothing schedules the poll again. Packets pile up
//! in the ring and, once every descriptor is full, the NIC drops them.

use crate::bound::Bound;
use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::text::{decimal, plural};
use serde::{Deserialize, Serialize};

pub const RING: Bound<usize> = Bound::new("ring size", " descriptors", 4, 64);
pub const BUDGET: Bound<usize> = Bound::new("poll budget", " packets", 1, 64);
pub const BURST: Bound<usize> = Bound::new("burst size", " packets", 1, 64);
/// `napi_defer_hard_irqs` as offered here. Not a sysctl: a per-device sysfs
/// file, `/sys/class/net/<dev>/napi_defer_hard_irqs` (commit 6f8b12d661d0,
/// Linux 5.7, beside `gro_flush_timeout`), and since Linux 6.13 also per NAPI
/// instance through the netdev netlink family's `napi-set`; it takes up to
/// 2^31 - 1.
pub const DEFER: Bound<u32> = Bound::new("napi_defer_hard_irqs setting", " empty polls", 0, 10);
/// `gro_flush_timeout` as offered here, in microseconds.
pub const TIMEOUT_US: Bound<u32> = Bound::new("gro_flush_timeout setting", " µs", 0, 1_000);
/// Polls remembered for the history strip.
pub const HISTORY: usize = 12;
/// Why neither Step nor a poll can run once the broken driver has left the
/// line masked with nothing pending.
const STUCK: &str = "Nothing to step: the last poll completed, but this driver never unmasked the interrupt, so no packet can schedule a poll again. Send bursts to watch the ring fill and then drop.";
/// The softirq's own limits, across all NAPI instances of one CPU:
/// `net_rx_action()` stops after `netdev_budget` packets (300) or
/// `netdev_budget_usecs` (`2 * USEC_PER_SEC / HZ`, two jiffies) and leaves
/// the rest to ksoftirqd, so tasks get the CPU back. Defaults in
/// `net/core/hotdata.c` (`net/core/dev.c` in older kernels); the sysctls are
/// documented in `Documentation/admin-guide/sysctl/net.rst`.
pub const NETDEV_BUDGET: u32 = 300;
pub const NETDEV_BUDGET_JIFFIES: u32 = 2;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NapiConfig {
    pub ring_size: usize,
    pub budget: usize,
    /// `napi_defer_hard_irqs`: empty polls before the IRQ is unmasked again.
    pub defer_hard_irqs: u32,
    /// `gro_flush_timeout`, µs: the re-poll timer; 0 disables the deferral.
    pub gro_flush_timeout_us: u32,
    /// Break it: a driver bug. After `napi_complete_done()` returns true the
    /// driver never unmasks its interrupt (see the module notes).
    pub never_unmasks: bool,
}

impl Default for NapiConfig {
    fn default() -> Self {
        NapiConfig {
            ring_size: 16,
            budget: 4,
            defer_hard_irqs: 0,
            gro_flush_timeout_us: 0,
            never_unmasks: false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Line {
    Armed,
    Masked,
}

impl Line {
    pub fn label(self) -> &'static str {
        match self {
            Line::Armed => "ARMED",
            Line::Masked => "MASKED",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PollRecord {
    pub number: u32,
    pub drained: usize,
    pub budget: usize,
    /// True when this poll called `napi_complete_done()`.
    pub completed: bool,
    /// True when that call returned true: the driver may unmask the line.
    pub released: bool,
    /// True when the driver then did re-arm the line.
    pub rearmed: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Napi {
    pub ring_size: usize,
    pub budget: usize,
    /// Packets in the RX ring awaiting the poll.
    pub occupancy: usize,
    pub line: Line,
    pub poll_scheduled: bool,
    pub defer_hard_irqs: u32,
    pub gro_flush_timeout_us: u32,
    /// The driver bug of Break it: no unmask after `napi_complete_done()`.
    pub never_unmasks: bool,
    /// Deferrals left (`n->defer_hard_irqs_count`).
    pub defer_count: u32,
    /// The `gro_flush_timeout` hrtimer is running: it will re-poll.
    pub timer_armed: bool,
    pub timer_polls: u32,
    /// Packets processed by the most recent poll.
    pub drained_last: usize,
    pub polls: u32,
    pub hard_irqs: u32,
    pub bursts: u32,
    pub bursts_found_armed: u32,
    pub arrived: u64,
    pub accepted: u64,
    pub processed: u64,
    pub dropped: u64,
    /// Bursts that found the line masked with no poll or timer pending:
    /// with the broken driver, nothing will ever process them.
    pub unseen_bursts: u32,
    pub history: Vec<PollRecord>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NapiAction {
    /// The wire delivers this many back-to-back packets.
    Burst(usize),
    /// The softirq runs the scheduled poll once.
    Poll,
    /// The `gro_flush_timeout` hrtimer fires and schedules the poll.
    TimerFires,
    /// Change the per-poll budget.
    SetBudget(usize),
}

impl Napi {
    pub fn free(&self) -> usize {
        self.ring_size - self.occupancy
    }

    /// The broken driver's dead end: the line is masked, yet no poll and no
    /// timer is pending, so no packet will ever be processed again.
    pub fn stuck(&self) -> bool {
        self.line == Line::Masked && !self.poll_scheduled && !self.timer_armed
    }

    fn burst(&mut self, n: usize) -> Outcome {
        BURST.admit(n)?;
        let accepted = n.min(self.free());
        let dropped = n - accepted;
        self.bursts += 1;
        self.arrived += n as u64;
        self.accepted += accepted as u64;
        self.dropped += dropped as u64;
        self.occupancy += accepted;
        let mut events = vec![Event::info(format!(
            "A burst of {n} packet{} reached the NIC: {accepted} DMA'd into the ring (now {}/{}).",
            plural(n),
            self.occupancy,
            self.ring_size
        ))
        .at("ring")];
        if dropped > 0 {
            events.push(
                Event::fault(format!(
                    "{dropped} packet{} dropped: the ring had only {accepted} free descriptor{}.",
                    plural(dropped),
                    plural(accepted)
                ))
                .at("drops"),
            );
        }
        if accepted > 0 {
            match self.line {
                Line::Armed => {
                    self.hard_irqs += 1;
                    self.bursts_found_armed += 1;
                    self.line = Line::Masked;
                    self.poll_scheduled = true;
                    events.push(
                        Event::warn(
                            "The first packet found the line ARMED: one hard IRQ. The handler masks the interrupt and schedules a poll; the rest of the burst raises nothing.",
                        )
                        .at("irq-line"),
                    );
                }
                Line::Masked if self.stuck() => {
                    self.unseen_bursts += 1;
                    events.push(
                        Event::fault(format!(
                            "The line is still MASKED because the driver never unmasked it, and no poll is pending: nothing will ever process these packets. {} of {} descriptors are now full.",
                            self.occupancy, self.ring_size
                        ))
                        .at("irq-line")
                        .at("ring"),
                    );
                }
                Line::Masked => events.push(
                    Event::info(if self.timer_armed {
                        "The line is MASKED, so these packets raise no interrupt: the re-poll timer will find them."
                    } else {
                        "The line is MASKED, so these packets raise no interrupt: the poll already scheduled will find them."
                    })
                    .at("irq-line"),
                ),
            }
        }
        Ok(events)
    }

    fn poll(&mut self) -> Outcome {
        if self.stuck() {
            return Err(Refusal::new(STUCK));
        }
        if !self.poll_scheduled {
            return Err(Refusal::new(if self.timer_armed {
                "No poll is scheduled yet: the gro_flush_timeout timer will schedule one when it fires (Step)."
            } else {
                "No poll is scheduled: the line is ARMED and NAPI waits for the next interrupt. Send a burst."
            }));
        }
        let drained = self.budget.min(self.occupancy);
        self.occupancy -= drained;
        self.processed += drained as u64;
        self.polls += 1;
        self.drained_last = drained;
        let completed = drained < self.budget;
        let released = completed && self.complete_done(drained);
        let rearmed = released && !self.never_unmasks;
        if rearmed {
            self.line = Line::Armed;
        }
        self.history.push(PollRecord {
            number: self.polls,
            drained,
            budget: self.budget,
            completed,
            released,
            rearmed,
        });
        if self.history.len() > HISTORY {
            self.history.remove(0);
        }
        let head = format!(
            "Poll {} processed {drained} of a budget of {}.",
            self.polls, self.budget
        );
        let event = if !completed {
            Event::info(format!(
                "{head} It used it all ({} left in the ring), so it does not complete: the poll stays scheduled and the line MASKED.",
                self.occupancy
            ))
        } else if rearmed {
            Event::done(format!(
                "{head} Fewer than the budget: napi_complete_done() returned true, so the driver unmasks the interrupt."
            ))
            .at("irq-line")
        } else if released {
            Event::fault(format!(
                "{head} napi_complete_done() returned true and released the poll, but this driver never unmasks the interrupt: the line stays MASKED with no poll pending, so from now on no packet raises an interrupt.",
            ))
            .at("irq-line")
        } else {
            Event::warn(format!(
                "{head} napi_complete_done() returned false ({} deferral{} left): the IRQ stays MASKED and a {} µs gro_flush_timeout timer will poll again.",
                self.defer_count,
                plural(self.defer_count as usize),
                self.gro_flush_timeout_us
            ))
            .at("irq-line")
            .at("timer")
        };
        Ok(vec![event.at("ring").at("poll")])
    }

    /// `napi_complete_done()`: true when the driver may unmask the IRQ
    /// (the driver, not this call, unmasks it: see `poll`).
    fn complete_done(&mut self, work_done: usize) -> bool {
        self.poll_scheduled = false;
        if work_done > 0 {
            self.defer_count = self.defer_hard_irqs;
        }
        let mut release = true;
        if self.defer_count > 0 {
            self.defer_count -= 1;
            release = self.gro_flush_timeout_us == 0;
        }
        if !release {
            self.timer_armed = true;
        }
        release
    }

    fn timer_fires(&mut self) -> Outcome {
        if !self.timer_armed {
            return Err(Refusal::new(
                "No gro_flush_timeout timer is running: it is started only when napi_complete_done() defers the IRQ.",
            ));
        }
        self.timer_armed = false;
        self.poll_scheduled = true;
        self.timer_polls += 1;
        Ok(vec![Event::info(format!(
            "{} µs later the gro_flush_timeout timer fires and schedules the poll: no interrupt was needed ({} packet{} waiting).",
            self.gro_flush_timeout_us,
            self.occupancy,
            plural(self.occupancy)
        ))
        .at("timer")
        .at("poll")])
    }

    fn set_budget(&mut self, budget: usize) -> Outcome {
        BUDGET.admit(budget)?;
        if budget == self.budget {
            return Err(Refusal::new(format!("The budget is already {budget}.")));
        }
        self.budget = budget;
        Ok(vec![Event::info(format!(
            "Budget set to {budget} packet{} per poll.",
            plural(budget)
        ))
        .at("budget")])
    }
}

impl Model for Napi {
    type Config = NapiConfig;
    type Action = NapiAction;

    fn validate(config: &NapiConfig) -> Result<(), String> {
        RING.check(config.ring_size)?;
        BUDGET.check(config.budget)?;
        DEFER.check(config.defer_hard_irqs)?;
        TIMEOUT_US.check(config.gro_flush_timeout_us)?;
        Ok(())
    }

    fn new(config: &NapiConfig) -> Self {
        Napi {
            ring_size: config.ring_size,
            budget: config.budget,
            occupancy: 0,
            line: Line::Armed,
            poll_scheduled: false,
            defer_hard_irqs: config.defer_hard_irqs,
            gro_flush_timeout_us: config.gro_flush_timeout_us,
            never_unmasks: config.never_unmasks,
            defer_count: 0,
            timer_armed: false,
            timer_polls: 0,
            drained_last: 0,
            polls: 0,
            hard_irqs: 0,
            bursts: 0,
            bursts_found_armed: 0,
            arrived: 0,
            accepted: 0,
            processed: 0,
            dropped: 0,
            unseen_bursts: 0,
            history: Vec::new(),
        }
    }

    fn intro(&self) -> Event {
        if self.never_unmasks {
            return Event::warn(format!(
                "A broken driver: it never unmasks the interrupt after napi_complete_done(). An empty {}-descriptor RX ring, the line ARMED for now. Send a burst: Step polls until a poll completes, and after that has nothing left to run.",
                self.ring_size
            ));
        }
        Event::info(format!(
            "An empty {}-descriptor RX ring, the interrupt line ARMED, no poll pending. Send a burst.",
            self.ring_size
        ))
    }

    fn apply(&mut self, action: &NapiAction) -> Outcome {
        match *action {
            NapiAction::Burst(n) => self.burst(n),
            NapiAction::Poll => self.poll(),
            NapiAction::TimerFires => self.timer_fires(),
            NapiAction::SetBudget(b) => self.set_budget(b),
        }
    }

    fn next_auto(&self) -> Result<NapiAction, Refusal> {
        if self.stuck() {
            Err(Refusal::new(STUCK))
        } else if self.poll_scheduled {
            Ok(NapiAction::Poll)
        } else if self.timer_armed {
            Ok(NapiAction::TimerFires)
        } else {
            Err(Refusal::new(
                "Nothing to step: the ring is empty and the line ARMED. Send a burst of packets.",
            ))
        }
    }

    fn check(&self) -> Result<(), String> {
        if u64::from(self.hard_irqs) > u64::from(self.bursts_found_armed) {
            return Err("more hard IRQs than bursts that found the line armed".into());
        }
        if self.arrived != self.processed + self.dropped + self.occupancy as u64 {
            return Err("a packet was neither processed, dropped nor left in the ring".into());
        }
        if let Some(poll) = self.history.iter().find(|p| p.drained > p.budget) {
            return Err(format!("poll {} drained more than its budget", poll.number));
        }
        if self.line == Line::Armed && (self.poll_scheduled || self.timer_armed) {
            return Err("the line is armed while a poll or its timer is pending".into());
        }
        if self.stuck() && !self.never_unmasks {
            return Err("the line is masked with no poll or timer to unmask it".into());
        }
        if self.never_unmasks && self.hard_irqs > 1 {
            return Err("a driver that never unmasks took a second hard IRQ".into());
        }
        if self.unseen_bursts > 0 && !self.stuck() {
            return Err("a burst went unseen, yet a poll or timer is pending".into());
        }
        if let Some(p) = self.history.iter().find(|p| {
            p.rearmed != (p.released && !self.never_unmasks) || (p.released && !p.completed)
        }) {
            return Err(format!("poll {} re-armed against its completion", p.number));
        }
        if self.poll_scheduled && self.timer_armed {
            return Err("a poll is scheduled while its re-poll timer still runs".into());
        }
        if self.defer_count > self.defer_hard_irqs {
            return Err("more deferrals left than napi_defer_hard_irqs allows".into());
        }
        if self.timer_armed && self.gro_flush_timeout_us == 0 {
            return Err("a re-poll timer runs with gro_flush_timeout 0".into());
        }
        if self.line == Line::Armed && self.occupancy > 0 {
            return Err("the line was re-armed with packets still in the ring".into());
        }
        if self.occupancy > self.ring_size {
            return Err("the ring holds more packets than descriptors".into());
        }
        Ok(())
    }

    fn status(&self) -> Vec<Figure> {
        vec![
            Figure::new(
                "occupancy",
                "ring",
                format!("{}/{}", self.occupancy, self.ring_size),
            ),
            Figure::new("line", "IRQ line", self.line.label()),
            Figure::new(
                "pending",
                "poll pending",
                if self.poll_scheduled { "yes" } else { "no" },
            ),
            Figure::new("budget", "budget", self.budget),
            Figure::new("timer-polls", "timer polls", self.timer_polls),
            Figure::new("drained", "drained this poll", self.drained_last),
            Figure::new("polls", "polls", self.polls),
            Figure::new("irqs", "hard IRQs (NAPI)", self.hard_irqs),
            Figure::new("irqs-per-packet", "IRQs if 1 per packet", self.accepted),
            Figure::new("drops", "drops", self.dropped),
            Figure::new(
                "stranded",
                "packets no poll will reach",
                if self.stuck() { self.occupancy } else { 0 },
            ),
        ]
    }

    fn why(&self) -> Vec<String> {
        let mut out = vec![format!(
            "NAPI took {} hard IRQ{} for {} packet{}; one interrupt per packet would have taken {}.",
            self.hard_irqs,
            plural(self.hard_irqs as usize),
            self.accepted,
            plural(self.accepted as usize),
            self.accepted
        )];
        if self.accepted > 0 {
            out.push(format!(
                "That is {} packets per interrupt: under load the per-packet cost of entering and leaving the kernel shrinks, instead of an interrupt storm.",
                decimal(self.accepted as f64 / f64::from(self.hard_irqs.max(1)), 1)
            ));
        }
        out.push(format!(
            "The budget ({} here, the weight of this NAPI instance, 64 by default) bounds one instance's turn, so the other instances on this CPU get theirs in the same net_rx_action() round. Tasks get the CPU back when net_rx_action() stops at netdev_budget ({NETDEV_BUDGET} packets) or netdev_budget_usecs ({NETDEV_BUDGET_JIFFIES} jiffies, {} ms at HZ=1000), leaving the rest to ksoftirqd.",
            self.budget,
            NETDEV_BUDGET_JIFFIES
        ));
        if self.timer_polls > 0 {
            out.push(format!(
                "{} poll{} came from the gro_flush_timeout timer instead of an interrupt: with napi_defer_hard_irqs = {} the IRQ stays masked through that many empty polls.",
                self.timer_polls,
                plural(self.timer_polls as usize),
                self.defer_hard_irqs
            ));
        }
        if self.never_unmasks {
            out.push(match self.history.iter().rev().find(|p| p.released) {
                Some(p) if self.stuck() => format!(
                    "This driver leaves out the unmask after napi_complete_done(). The line has stayed MASKED since poll {} released the instance: {} burst{} since then reached the ring without an interrupt, {} packet{} sit there where no poll will reach them, and {} were dropped in all. Only a run's first burst is ever announced.",
                    p.number,
                    self.unseen_bursts,
                    plural(self.unseen_bursts as usize),
                    self.occupancy,
                    plural(self.occupancy),
                    self.dropped
                ),
                _ => "This driver leaves out the unmask after napi_complete_done(): the first poll that completes releases the instance with the line still MASKED, and from then on no packet raises an interrupt to schedule another.".to_string(),
            });
        }
        if self.dropped > 0 {
            out.push(format!(
                "{} packet{} were dropped because a burst outran the {} free descriptors. A larger ring absorbs larger bursts, at the cost of memory and queueing delay.",
                self.dropped,
                plural(self.dropped as usize),
                self.ring_size
            ));
        }
        out
    }

    fn leaves_out() -> &'static str {
        "Leaves out: time, other NAPI instances sharing net_rx_action()'s netdev_budget, GRO and its flush timer when no deferral is set, busy polling (see the busy-poll demo), and the re-arm race that NAPIF_STATE_MISSED closes. For the broken driver it leaves out anything that might revive the stuck queue: a reader's busy polling, a driver's own watchdog, or taking the interface down and up."
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn napi() -> Napi {
        Napi::new(&NapiConfig::default())
    }

    #[test]
    fn the_budget_bounds_one_instances_turn_and_the_softirq_hands_the_rest_to_ksoftirqd() {
        let why = napi().why().join(" ");
        // The per-instance weight is not what gives tasks the CPU: the
        // softirq's own limits are (net_rx_action(), netdev_budget = 300).
        assert!(why.contains("bounds one instance's turn"), "{why}");
        assert!(
            why.contains("netdev_budget (300 packets)") && why.contains("ksoftirqd"),
            "{why}"
        );
        assert!(!why.contains("yields to tasks"), "{why}");
    }

    #[test]
    fn burst_of_six_budget_four_takes_one_irq_and_two_polls() {
        let mut m = napi();
        m.apply(&NapiAction::Burst(6)).unwrap();
        assert_eq!(
            (m.hard_irqs, m.line, m.poll_scheduled),
            (1, Line::Masked, true)
        );
        m.apply(&NapiAction::Poll).unwrap();
        assert_eq!((m.drained_last, m.line), (4, Line::Masked));
        m.apply(&NapiAction::Poll).unwrap();
        assert_eq!((m.drained_last, m.line, m.polls), (2, Line::Armed, 2));
        assert!(m.next_auto().is_err());
    }

    #[test]
    fn poll_that_uses_exact_budget_stays_scheduled_then_an_empty_poll_completes() {
        let mut m = napi();
        m.apply(&NapiAction::Burst(4)).unwrap();
        m.apply(&NapiAction::Poll).unwrap();
        assert!(m.poll_scheduled, "4 of 4 used: must poll again");
        m.apply(&NapiAction::Poll).unwrap();
        assert_eq!((m.drained_last, m.line), (0, Line::Armed));
    }

    #[test]
    fn packets_arriving_while_masked_raise_no_irq() {
        let mut m = napi();
        m.apply(&NapiAction::Burst(2)).unwrap();
        m.apply(&NapiAction::Burst(3)).unwrap();
        assert_eq!(m.hard_irqs, 1);
        assert_eq!(m.accepted, 5);
    }

    #[test]
    fn overflowing_burst_is_dropped_in_part() {
        let mut m = napi();
        m.apply(&NapiAction::Burst(20)).unwrap();
        assert_eq!((m.occupancy, m.dropped), (16, 4));
    }

    #[test]
    fn out_of_range_inputs_are_refused() {
        let mut m = napi();
        assert!(m.apply(&NapiAction::Burst(0)).is_err());
        assert!(m.apply(&NapiAction::Burst(65)).is_err());
        assert!(m.apply(&NapiAction::SetBudget(0)).is_err());
        assert!(m.apply(&NapiAction::Poll).is_err());
        assert_eq!(m, napi());
    }

    #[test]
    fn invalid_config_is_rejected() {
        let base = NapiConfig::default();
        for bad in [
            NapiConfig {
                ring_size: 3,
                ..base.clone()
            },
            NapiConfig {
                budget: 65,
                ..base.clone()
            },
            NapiConfig {
                defer_hard_irqs: DEFER.max + 1,
                ..base.clone()
            },
        ] {
            assert!(Napi::validate(&bad).is_err());
        }
    }

    #[test]
    fn each_bound_is_one_sentence_for_validation_and_refusal() {
        let bad = NapiConfig {
            gro_flush_timeout_us: 1_001,
            ..NapiConfig::default()
        };
        assert_eq!(
            Napi::validate(&bad),
            Err("The gro_flush_timeout setting is 0 to 1000 µs; 1001 µs is out of range.".into())
        );
        let mut m = Napi::new(&NapiConfig::default());
        let why = m.apply(&NapiAction::SetBudget(65)).unwrap_err().reason;
        assert_eq!(why, BUDGET.out_of_range(65));
        let why = m.apply(&NapiAction::Burst(0)).unwrap_err().reason;
        assert_eq!(
            why,
            "The burst size is 1 to 64 packets; 0 packets is out of range."
        );
    }

    fn deferring(defer_hard_irqs: u32, gro_flush_timeout_us: u32) -> Napi {
        Napi::new(&NapiConfig {
            defer_hard_irqs,
            gro_flush_timeout_us,
            ..NapiConfig::default()
        })
    }

    #[test]
    fn napi_complete_done_returns_false_while_deferrals_remain() {
        // dev.c: work done reloads the count (2); each completion spends one
        // and returns false while gro_flush_timeout is set; the second empty
        // poll finds the count at 0 and lets the driver unmask.
        let mut m = deferring(2, 200);
        m.apply(&NapiAction::Burst(2)).unwrap();
        m.apply(&NapiAction::Poll).unwrap();
        assert_eq!(
            (m.line, m.timer_armed, m.defer_count),
            (Line::Masked, true, 1)
        );
        let mut steps = vec![];
        while let Ok(a) = m.next_auto() {
            m.apply(&a).unwrap();
            m.check().unwrap();
            steps.push(a);
        }
        use NapiAction::*;
        assert_eq!(steps, vec![TimerFires, Poll, TimerFires, Poll]);
        assert_eq!((m.line, m.hard_irqs, m.timer_polls), (Line::Armed, 1, 2));
        assert_eq!(
            m.history.iter().map(|p| p.rearmed).collect::<Vec<_>>(),
            vec![false, false, true]
        );
    }

    #[test]
    fn without_gro_flush_timeout_the_deferral_does_nothing() {
        let mut m = deferring(2, 0);
        m.apply(&NapiAction::Burst(2)).unwrap();
        m.apply(&NapiAction::Poll).unwrap();
        assert_eq!((m.line, m.timer_armed), (Line::Armed, false));
    }

    fn broken(ring_size: usize) -> Napi {
        Napi::new(&NapiConfig {
            ring_size,
            never_unmasks: true,
            ..NapiConfig::default()
        })
    }

    #[test]
    fn a_driver_that_never_unmasks_strands_the_ring_then_drops() {
        // napi.rst: unmask only after napi_complete_done() returns true. A
        // driver that skips it leaves the line masked with no poll pending.
        let mut m = broken(16);
        m.apply(&NapiAction::Burst(6)).unwrap();
        let mut steps = 0;
        while let Ok(a) = m.next_auto() {
            m.apply(&a).unwrap();
            m.check().unwrap();
            steps += 1;
        }
        assert_eq!(steps, 2, "4 then 2: the second poll completes");
        let last = *m.history.last().unwrap();
        assert!(last.completed && last.released && !last.rearmed);
        assert_eq!((m.line, m.processed), (Line::Masked, 6));
        assert!(m.stuck());
        assert!(m.next_auto().unwrap_err().reason.contains("never unmasked"));
        // Later bursts raise nothing and are never polled: 10 + 10 into 16.
        let events = m.apply(&NapiAction::Burst(10)).unwrap();
        assert_eq!(events[1].tone, crate::model::Tone::Fault);
        m.apply(&NapiAction::Burst(10)).unwrap();
        m.check().unwrap();
        assert_eq!((m.hard_irqs, m.occupancy, m.dropped), (1, 16, 4));
        assert_eq!(m.unseen_bursts, 2);
        assert!(m.apply(&NapiAction::Poll).is_err());
        let stranded = m
            .status()
            .into_iter()
            .find(|f| f.key == "stranded")
            .unwrap();
        assert_eq!(stranded.value, "16");
        let why = m.why().join(" ");
        assert!(why.contains("since poll 2 released the instance"), "{why}");
        assert!(
            why.contains("2 bursts since then reached the ring"),
            "{why}"
        );
        assert!(why.contains("16 packets sit there"), "{why}");
        // The same bursts and Steps with the fixed driver: one interrupt per
        // burst, each drained by its polls, no drops.
        let mut fixed = napi();
        for n in [6, 10, 10] {
            fixed.apply(&NapiAction::Burst(n)).unwrap();
            while let Ok(a) = fixed.next_auto() {
                fixed.apply(&a).unwrap();
            }
        }
        assert_eq!(
            (fixed.hard_irqs, fixed.processed, fixed.dropped),
            (3, 26, 0)
        );
    }

    #[test]
    fn the_broken_driver_still_defers_through_the_timer_then_sticks() {
        let mut m = Napi::new(&NapiConfig {
            defer_hard_irqs: 1,
            gro_flush_timeout_us: 200,
            never_unmasks: true,
            ..NapiConfig::default()
        });
        m.apply(&NapiAction::Burst(2)).unwrap();
        m.apply(&NapiAction::Poll).unwrap();
        assert!(m.timer_armed && !m.stuck(), "a deferral is not the bug");
        m.apply(&NapiAction::TimerFires).unwrap();
        m.apply(&NapiAction::Poll).unwrap();
        assert!(m.stuck());
        assert_eq!(
            m.history.iter().map(|p| p.released).collect::<Vec<_>>(),
            vec![false, true]
        );
        m.check().unwrap();
    }

    #[test]
    fn the_fixed_driver_is_never_stuck_and_the_check_says_so() {
        let mut m = napi();
        m.apply(&NapiAction::Burst(2)).unwrap();
        m.line = Line::Masked;
        m.poll_scheduled = false;
        assert!(m.check().is_err());
        let mut m = broken(16);
        assert!(!m.stuck());
        assert!(m.intro().text.contains("never unmasks"));
        m.apply(&NapiAction::Burst(1)).unwrap();
        assert!(!m.stuck());
    }

    #[test]
    fn packets_during_the_deferral_raise_no_irq_and_reload_the_count() {
        let mut m = deferring(2, 200);
        m.apply(&NapiAction::Burst(2)).unwrap();
        m.apply(&NapiAction::Poll).unwrap();
        m.apply(&NapiAction::Burst(3)).unwrap();
        assert_eq!(m.hard_irqs, 1);
        m.apply(&NapiAction::TimerFires).unwrap();
        m.apply(&NapiAction::Poll).unwrap();
        assert_eq!((m.drained_last, m.defer_count), (3, 1));
        assert!(m.apply(&NapiAction::Poll).is_err(), "waits for the timer");
    }
}
