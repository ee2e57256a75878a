//! The `/host/streaming` demo's model: the run, its narration, its checks.

use super::cpu::STALL;
use super::enso::{padded, NOTIFICATION_BYTES, PIPE_BYTES};
use super::ethernet::FRAME;
use super::figures::Tally;
use super::layout::BUFFER_BYTES;
use super::state::{Streaming, StreamingAction, StreamingConfig, BATCH, RUN, WINDOW};
use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::text::{decimal, grouped, plural};

/// Millions, with one decimal: `148.8 M`.
fn millions(pps: f64) -> String {
    format!("{} M", decimal(pps / 1e6, 1))
}

impl Streaming {
    fn restart(&mut self, change: String) -> Outcome {
        self.delivered = 0;
        Ok(vec![Event::info(format!(
            "{change} The run starts again: {RUN} packets, Step delivers the next."
        ))
        .at("rates")])
    }

    /// Changes one setting, if the settings stay valid, and restarts.
    fn setting<T: PartialEq + Copy + std::fmt::Display>(
        &mut self,
        value: T,
        field: fn(&mut StreamingConfig) -> &mut T,
        what: &str,
        unit: &str,
    ) -> Outcome {
        if *field(&mut self.config) == value {
            return Err(Refusal::new(format!(
                "The {what} is already {value}{unit}."
            )));
        }
        let mut next = self.config.clone();
        *field(&mut next) = value;
        next.check().map_err(Refusal::new)?;
        self.config = next;
        self.restart(format!("The {what} is now {value}{unit}."))
    }

    fn switch(
        &mut self,
        on: bool,
        field: fn(&mut StreamingConfig) -> &mut bool,
        now: &str,
    ) -> Outcome {
        if *field(&mut self.config) == on {
            return Err(Refusal::new("That is already so."));
        }
        *field(&mut self.config) = on;
        self.restart(now.to_string())
    }

    fn finished(&self) -> Refusal {
        Refusal::new(format!(
            "All {RUN} packets have been delivered. Change a setting or press Reset to run again."
        ))
    }

    fn deliver(&mut self) -> Outcome {
        if self.delivered >= RUN {
            return Err(self.finished());
        }
        let k = self.delivered;
        self.delivered += 1;
        let slot = k % WINDOW;
        let classic = Tally::of(&self.link(), &self.classic_transactions());
        let enso_write = padded(self.dma());
        let mut events = vec![Event::info(format!(
            "Packet {} ({} bytes to the host). Classic: {} transactions around it, {} bytes up the link, into buffer {} of its own. Ensō: one write of {enso_write} bytes, right after the packet before.",
            k + 1,
            self.dma(),
            classic.transactions,
            grouped(classic.up as i64),
            k + 1,
        ))
        .at(format!("classic-pkt-{slot}"))
        .at(format!("enso-pkt-{slot}"))];
        if self.config.hold {
            events.push(self.hold_event(k));
        }
        if self.closes_batch(k) {
            let batch = self.batch_of(k);
            events.push(
                Event::info(format!(
                    "Ensō's batch of {batch} packet{} is complete: the NIC writes one {NOTIFICATION_BYTES}-byte notification, and the software writes back the notification head{}.",
                    plural(batch as usize),
                    if self.frees() { " and, once it frees the data, the pipe's head" } else { " (it cannot free the pipe: packet 1 is held)" }
                ))
                .at(format!("enso-note-{}", self.notification_slot(k))),
            );
        }
        if self.delivered == RUN {
            events.push(self.summary());
        }
        Ok(events)
    }

    fn hold_event(&self, k: u32) -> Event {
        if k == 0 {
            Event::warn(
                "The application keeps packet 1: a segment that came before the one it follows. The classic driver posts a fresh buffer in its place.",
            )
            .at("classic-pkt-0")
        } else {
            Event::warn(format!(
                "Ensō frees the pipe only in order, so packet {} stays too: {} bytes of the pipe are pinned behind packet 1, against one {}-byte buffer for the classic NIC.",
                k + 1,
                grouped(self.enso_pinned() as i64),
                grouped(BUFFER_BYTES as i64)
            ))
            .at(format!("enso-pkt-{}", k % WINDOW))
        }
    }

    fn deliver_batch(&mut self) -> Outcome {
        if self.delivered >= RUN {
            return Err(self.finished());
        }
        let mut events = Vec::new();
        loop {
            let k = self.delivered;
            events.extend(self.deliver()?);
            if self.closes_batch(k) {
                return Ok(events);
            }
        }
    }

    fn summary(&self) -> Event {
        let (classic, enso) = (self.classic_so_far(), self.enso_so_far());
        Event::done(format!(
            "All {RUN} packets delivered. Classic: {} transactions, {} bytes up the link. Ensō: {} transactions, {} bytes up.",
            grouped(classic.transactions as i64),
            grouped(classic.up as i64),
            grouped(enso.transactions as i64),
            grouped(enso.up as i64)
        ))
        .at("so-far")
    }
}

impl Model for Streaming {
    type Config = StreamingConfig;
    type Action = StreamingAction;

    fn validate(config: &StreamingConfig) -> Result<(), String> {
        config.check()
    }

    fn new(config: &StreamingConfig) -> Self {
        Streaming {
            config: config.clone(),
            delivered: 0,
        }
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "A 100 Gb/s port and a Gen{} ×{} link. Step delivers the next {}-byte frame to both interfaces: the classic one, a descriptor and a buffer per packet, and Ensō's, packets back to back with a notification per batch of {}.",
            self.config.generation, self.config.lanes, self.config.frame, self.config.batch
        ))
    }

    fn apply(&mut self, action: &StreamingAction) -> Outcome {
        match *action {
            StreamingAction::Deliver => self.deliver(),
            StreamingAction::DeliverBatch => self.deliver_batch(),
            StreamingAction::SetFrame(n) => self.setting(n, |c| &mut c.frame, FRAME.what, FRAME.unit),
            StreamingAction::SetBatch(n) => self.setting(n, |c| &mut c.batch, BATCH.what, BATCH.unit),
            StreamingAction::SetGeneration(g) => {
                self.setting(g, |c| &mut c.generation, "generation", "")
            }
            StreamingAction::SetLanes(n) => self.setting(n, |c| &mut c.lanes, "link width", " lanes"),
            StreamingAction::SetStall(n) => self.setting(n, |c| &mut c.stall, STALL.what, STALL.unit),
            StreamingAction::SetInterrupts(on) => self.switch(
                on,
                |c| &mut c.interrupts,
                if on {
                    "The classic driver now takes an interrupt and reads the head pointer for every packet, as the open model's simple NIC does."
                } else {
                    "The classic driver now polls its descriptors: no interrupt, no head-pointer read."
                },
            ),
            StreamingAction::SetHold(on) => self.switch(
                on,
                |c| &mut c.hold,
                if on {
                    "The application will keep packet 1, as a receiver keeps a segment that came out of order."
                } else {
                    "The application frees every packet once it has read it."
                },
            ),
        }
    }

    fn next_auto(&self) -> Result<StreamingAction, Refusal> {
        if self.delivered < RUN {
            Ok(StreamingAction::Deliver)
        } else {
            Err(self.finished())
        }
    }

    fn check(&self) -> Result<(), String> {
        self.config.check()?;
        if self.delivered > RUN {
            return Err("more packets delivered than the run has".into());
        }
        let (classic, enso) = (self.classic_so_far(), self.enso_so_far());
        let data = u64::from(self.delivered) * self.dma();
        if classic.up < data || enso.up < data {
            return Err("an interface put less on the link than the packets it carried".into());
        }
        if self.batches() > self.delivered {
            return Err("more notifications than packets".into());
        }
        let line = self.line_rate();
        if !(self.classic_rate() > 0.0 && self.enso_rate() > 0.0 && line > 0.0) {
            return Err("a rate is not positive".into());
        }
        if self.enso_pinned() > PIPE_BYTES {
            return Err("more pinned than the pipe holds".into());
        }
        Ok(())
    }

    fn status(&self) -> Vec<Figure> {
        vec![
            Figure::new(
                "line",
                "100 GbE line rate",
                format!("{}pkt/s", millions(self.line_rate())),
            ),
            Figure::new(
                "classic-rate",
                "classic over PCIe",
                format!("{}pkt/s", millions(self.classic_rate())),
            ),
            Figure::new(
                "enso-rate",
                "Ensō over PCIe",
                format!("{}pkt/s", millions(self.enso_rate())),
            ),
            Figure::new(
                "budget",
                "one core, cycles a packet",
                decimal(self.budget(), 1),
            ),
            Figure::new(
                "delivered",
                "packets delivered",
                format!("{}/{RUN}", self.delivered),
            ),
        ]
    }

    fn why(&self) -> Vec<String> {
        super::why::why(self)
    }

    fn leaves_out() -> &'static str {
        "Leaves out: the transmit path (the headline forwards, so every packet is also sent back); Ensō's real batch, which is however many packets arrive while software works; more than one pipe or flow; real NICs' batched descriptor fetches and compressed completions; a driver's per-packet buffer metadata (DPDK's rte_mbuf); prefetchers that follow a steady stride; the CPU cost of register writes and interrupts; what the NIC does when the pipe is full; and time: it counts bytes and cache lines, not latency."
    }
}
