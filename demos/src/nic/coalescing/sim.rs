//! The clock: arrivals, the NIC's coalescing decision, the CPU's poll.

use super::*;
use crate::text::{duration, plural};

/// One interrupt: when its wait began, when it fired, why, what its poll did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IrqRecord {
    pub number: u64,
    /// The first completion that started the wait.
    pub timer_start: u64,
    pub at: u64,
    /// True when rx-frames fired it, false for rx-usecs.
    pub by_frames: bool,
    /// Packets its poll processed so far.
    pub batch: u32,
    /// When the poll re-armed the interrupt, once it has.
    pub poll_end: Option<u64>,
}

/// What a whole run of one setting gives (for the comparison table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    pub usecs: u32,
    pub frames: u32,
    pub irqs_per_s: u64,
    pub avg_latency_ns: u64,
    pub cpu_tenths: i64,
}

impl Coalescing {
    /// Runs the clock to `now + span` (capped at the horizon), narrating
    /// the interrupts that fired on the way.
    pub(super) fn advance(&mut self, span: u64) -> Outcome {
        if self.now >= HORIZON_NS {
            return Err(self.next_auto().err().unwrap_or(Refusal::new("Over.")));
        }
        let target = (self.now + span).min(HORIZON_NS);
        let irqs_before = self.totals.irqs;
        let done_before = self.totals.done;
        self.run_until(target);
        let fired = self.totals.irqs - irqs_before;
        let done = self.totals.done - done_before;
        let mut text = format!(
            "t = {}: {} interrupt{} fired, {done} packet{} processed",
            duration(self.now),
            fired,
            plural(fired as usize),
            plural(done as usize)
        );
        if let Some(last) = self
            .recent_irqs
            .back()
            .filter(|r| r.at > target - span.min(target))
        {
            text.push_str(&format!(
                "; the last waited {} for {} ({})",
                duration(last.at - last.timer_start),
                if last.by_frames {
                    "rx-frames"
                } else {
                    "rx-usecs"
                },
                if last.by_frames {
                    format!("{} packets", self.frames_now())
                } else {
                    format!("{} µs", self.usecs_now())
                }
            ));
        }
        text.push('.');
        let mut events = vec![Event::info(text).at("timeline")];
        if let Some(&oldest) = self.pending.front() {
            if self.now - oldest >= STRANDED_NS {
                events.push(
                    Event::fault(format!(
                        "A packet has waited {} in the ring: with rx-usecs 0 only rx-frames can fire the interrupt, and at this rate the count comes too slowly.",
                        duration(self.now - oldest)
                    ))
                    .at("timeline"),
                );
            }
        }
        if self.now >= HORIZON_NS {
            events.push(Event::done(format!(
                "The 2 ms run is over: {} interrupts for {} packets.",
                self.totals.irqs, self.totals.done
            )));
        }
        Ok(events)
    }

    /// The event loop: poll completions first, then the coalescing timer,
    /// then arrivals, each in time order, up to `target`.
    pub(super) fn run_until(&mut self, target: u64) {
        loop {
            let t_done = self.poll_next_done.unwrap_or(u64::MAX);
            let usecs = u64::from(self.usecs_now()) * 1_000;
            let t_timer = if self.line == Line::Armed && self.coalesced > 0 && usecs > 0 {
                self.timer_start + usecs
            } else {
                u64::MAX
            };
            let t_arrival = self.next_arrival;
            let t = t_done.min(t_timer).min(t_arrival);
            if t > target {
                break;
            }
            self.now = t;
            if t == t_done {
                self.finish_packet(t);
            } else if t == t_timer {
                self.fire(t, false);
            } else {
                self.arrive(t);
            }
        }
        self.now = target;
        self.trim();
    }

    fn arrive(&mut self, t: u64) {
        self.pending.push_back(t);
        self.recent_arrivals.push_back(t);
        self.totals.arrived += 1;
        self.next_arrival = t + self.interval_ns();
        if self.line == Line::Armed {
            self.coalesced += 1;
            if self.coalesced == 1 {
                self.timer_start = t;
            }
            let frames = self.frames_now();
            if frames_fire(frames, self.coalesced) {
                self.fire(t, true);
            }
        }
    }

    /// The NIC raises the interrupt; the handler masks it and the poll starts.
    fn fire(&mut self, t: u64, by_frames: bool) {
        self.line = Line::Masked;
        self.totals.irqs += 1;
        if by_frames {
            self.totals.by_frames += 1;
        } else {
            self.totals.by_timer += 1;
        }
        self.totals.busy_ns += IRQ.cpu_ns();
        self.batch = 0;
        self.poll_next_done = Some(t + IRQ.delay_ns() + PACKET_NS);
        self.totals.busy_ns += PACKET_NS;
        self.recent_irqs.push_back(IrqRecord {
            number: self.totals.irqs,
            timer_start: self.timer_start,
            at: t,
            by_frames,
            batch: 0,
            poll_end: None,
        });
    }

    /// The poll finishes one packet; it takes the next, or re-arms.
    fn finish_packet(&mut self, t: u64) {
        if let Some(arrived) = self.pending.pop_front() {
            let latency = t - arrived;
            self.totals.done += 1;
            self.totals.latency_sum_ns += latency;
            self.totals.latency_max_ns = self.totals.latency_max_ns.max(latency);
            self.batch += 1;
        }
        if self.pending.is_empty() {
            self.poll_next_done = None;
            self.line = Line::Armed;
            self.coalesced = 0;
            let batch = self.batch;
            if let Some(r) = self.recent_irqs.back_mut() {
                r.batch = batch;
                r.poll_end = Some(t);
            }
            if self.adaptive {
                self.update_class(batch);
            }
        } else {
            self.poll_next_done = Some(t + PACKET_NS);
            self.totals.busy_ns += PACKET_NS;
            if let Some(r) = self.recent_irqs.back_mut() {
                r.batch = self.batch;
            }
        }
    }

    /// ixgbe_update_itr() (Linux 3.x): bytes per µs of the interval just
    /// used pick the next class, one step at a time.
    fn update_class(&mut self, batch: u32) {
        let bytes = u64::from(batch) * u64::from(self.frame_bytes);
        let per_us = bytes / u64::from(CLASSES[self.class].1);
        self.class = match self.class {
            0 if per_us > 10 => 1,
            1 if per_us > 20 => 2,
            1 if per_us <= 10 => 0,
            2 if per_us <= 20 => 1,
            c => c,
        };
    }

    /// Keeps only what the picture's window shows.
    fn trim(&mut self) {
        let from = self.now.saturating_sub(WINDOW_NS);
        while self.recent_arrivals.front().is_some_and(|&t| t < from) {
            self.recent_arrivals.pop_front();
        }
        while self
            .recent_irqs
            .front()
            .is_some_and(|r| r.poll_end.is_some_and(|e| e < from))
        {
            self.recent_irqs.pop_front();
        }
    }

    /// A fresh run of one fixed setting over 1 ms at this rate.
    pub fn summary(&self, usecs: u32, frames: u32) -> Summary {
        let mut m = Coalescing::new(&CoalescingConfig {
            rx_usecs: usecs,
            rx_frames: frames,
            adaptive: false,
            ..self.config_of()
        });
        let span = 1_000_000;
        // The arrivals of [0, 1 ms): a packet landing exactly at 1 ms is the next run's.
        m.run_until(span - 1);
        Summary {
            usecs,
            frames,
            irqs_per_s: m.totals.irqs * 1_000_000_000 / span,
            avg_latency_ns: m.totals.latency_sum_ns / m.totals.done.max(1),
            cpu_tenths: crate::text::share_tenths(m.totals.busy_ns.min(span) as i64, span as i64),
        }
    }

    fn changed(&mut self, what: String) -> Outcome {
        let mut events = vec![Event::info(format!(
            "{what} From t = {} on, the NIC uses it.",
            duration(self.now)
        ))
        .at("settings")];
        // A new setting may already be met by the packets waiting now.
        if self.line == Line::Armed && self.coalesced > 0 {
            let usecs = u64::from(self.usecs_now()) * 1_000;
            let frames = self.frames_now();
            let by_frames = frames_fire(frames, self.coalesced);
            if by_frames || (usecs > 0 && self.timer_start + usecs <= self.now) {
                self.fire(self.now, by_frames);
                events.push(
                    Event::info(
                        "The waiting packets already meet the new setting: the interrupt fires at once.",
                    )
                    .at("timeline"),
                );
            }
        }
        Ok(events)
    }

    pub(super) fn set_rate(&mut self, rate: u32) -> Outcome {
        if !RATES.contains(&rate) {
            return Err(Refusal::new(format!(
                "The rate is one of 10, 20, 50, 100, 200 or 500 thousand packets per second, not {rate}."
            )));
        }
        if rate == self.rate_pps {
            return Err(Refusal::new("That is the rate already."));
        }
        self.rate_pps = rate;
        self.next_arrival = self.next_arrival.min(self.now + self.interval_ns());
        self.changed(format!(
            "Packets now arrive every {} ns.",
            crate::text::grouped(self.interval_ns() as i64)
        ))
    }

    pub(super) fn set_usecs(&mut self, usecs: u32) -> Outcome {
        USECS.admit(usecs)?;
        if usecs == 0 && self.rx_frames == 0 {
            return Err(Refusal::new(format!("{BOTH_ZERO} Set rx-frames first.")));
        }
        if usecs == self.rx_usecs {
            return Err(Refusal::new(format!("rx-usecs is {usecs} already.")));
        }
        self.rx_usecs = usecs;
        let mut what = format!("ethtool -C rx-usecs {usecs}.");
        if self.adaptive {
            what.push_str(" ixgbe's dynamic mode is on, so the driver chooses the wait itself.");
        }
        self.changed(what)
    }

    pub(super) fn set_frames(&mut self, frames: u32) -> Outcome {
        FRAMES.admit(frames)?;
        if frames == 0 && self.rx_usecs == 0 {
            return Err(Refusal::new(format!("{BOTH_ZERO} Set rx-usecs first.")));
        }
        if frames == self.rx_frames {
            return Err(Refusal::new(format!("rx-frames is {frames} already.")));
        }
        self.rx_frames = frames;
        self.changed(format!("ethtool -C rx-frames {frames}."))
    }

    pub(super) fn set_adaptive(&mut self, on: bool) -> Outcome {
        if on == self.adaptive {
            return Err(Refusal::new(if on {
                "ixgbe's dynamic mode is on already."
            } else {
                "ixgbe's dynamic mode is off already."
            }));
        }
        self.adaptive = on;
        self.class = 1;
        self.changed(if on {
            "ethtool -C rx-usecs 1 on ixgbe: dynamic mode. After every interrupt the driver picks the next wait from the bytes per microsecond it just saw, starting in the low-latency class (50 µs). It counts no frames. ixgbe has no adaptive-rx; ice, i40e and mlx5 have it, each with a scheme of its own.".into()
        } else {
            format!(
                "Dynamic mode off: a fixed wait again, rx-usecs {} and rx-frames {}.",
                self.rx_usecs, self.rx_frames
            )
        })
    }

    pub(super) fn set_frame_bytes(&mut self, bytes: u32) -> Outcome {
        if !FRAME_SIZES.contains(&bytes) {
            return Err(Refusal::new("Frames are 64 or 1514 bytes here."));
        }
        if bytes == self.frame_bytes {
            return Err(Refusal::new(format!("Frames are {bytes} bytes already.")));
        }
        self.frame_bytes = bytes;
        self.changed(format!(
            "Frames are now {bytes} bytes: the same packet rate carries {} the bytes, and bytes per microsecond are what ixgbe's dynamic mode measures.",
            if bytes == 64 { "about a 24th of" } else { "about 24 times" }
        ))
    }

    pub(super) fn frames_only(&mut self) -> Outcome {
        if (self.rx_usecs, self.rx_frames, self.rate_pps, self.adaptive) == (0, 32, 10_000, false) {
            return Err(Refusal::new(
                "It is broken already: rx-usecs 0, rx-frames 32, at 10 k pkt/s. Step and watch the ring.",
            ));
        }
        self.rx_frames = 32;
        self.rx_usecs = 0;
        self.adaptive = false;
        self.rate_pps = 10_000;
        self.next_arrival = self.next_arrival.min(self.now + self.interval_ns());
        self.changed(
            "Break it: rx-usecs 0, rx-frames 32, and traffic slows to 10 k pkt/s. Only the 32nd packet can fire the interrupt now.".into(),
        )
    }
}
