//! Cut-through (CTPIO): one frame crosses PCIe in 64-byte chunks into the
//! NIC; store-and-forward starts the wire after the last chunk, cut-through
//! as soon as `threshold` chunks are in.
//!
//! Sources: AMD Onload User Guide UG1586 ("CTPIO Modes": ct, sf, sf-np;
//! `EF_CTPIO_CT_THRESH`; CTPIO statistics `ctpio_underflow_fail`); ef_vi
//! `src/include/etherfabric/vi.h` (`ef_vi_transmit_ctpio()` and its
//! `ct_threshold`; a CTPIO send can fail on "timeout due to the whole frame
//! not being written to the adapter sufficiently quickly";
//! `ef_vi_transmit_ctpio_fallback()`, called after every CTPIO send,
//! "provides a fallback frame which is sent in cases where the CTPIO send
//! fails": the NIC sends it by itself, the application does not resend);
//! IEEE 802.3 §3.2.9 (FCS).
//!
//! Two causes of an underrun: a wire faster than the rate the CPU's writes
//! reach the NIC, and, far more often in practice, jitter in how fast the
//! CPU writes: a stall mid-frame (the "CPU stall" switch, seeded).

mod narrate;
mod plan;
#[cfg(test)]
mod tests;

pub use plan::{min_safe_threshold, ChunkState, Plan, CHUNK_BYTES};

use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::rng::Rng;
use crate::text::{decimal, plural};
use serde::{Deserialize, Serialize};

pub const CHUNKS_MIN: usize = 1;
pub const CHUNKS_MAX: usize = 24;
pub const PCIE_MIN: u32 = 8;
pub const PCIE_MAX: u32 = 128;
/// Ethernet line rates offered, Gb/s (IEEE 802.3 10GBASE-R, 25GBASE-R,
/// 50GBASE-R, 100GBASE-R).
pub const WIRE_RATES: &[u32] = &[10, 25, 50, 100];
/// A CPU stall lasts 2 to 8 ticks (chunk times on PCIe): 32 to 128 ns at
/// 32 Gb/s, the order of a last-level-cache miss or a TLB walk; an
/// interrupt would stall far longer. Our assumption, seeded.
pub const STALL_TICKS: (u64, u64) = (2, 8);

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CutThroughConfig {
    pub chunks: usize,
    pub pcie_gbps: u32,
    pub wire_gbps: u32,
    pub threshold: usize,
    pub seed: u64,
}

impl Default for CutThroughConfig {
    fn default() -> Self {
        CutThroughConfig {
            chunks: 12,
            pcie_gbps: 32,
            wire_gbps: 25,
            threshold: 1,
            seed: 0x5EED_00C7,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CutThrough {
    /// Frame size in 64-byte chunks.
    pub chunks: usize,
    /// PCIe delivery rate, Gb/s.
    pub pcie_gbps: u32,
    /// Wire rate, Gb/s.
    pub wire_gbps: u32,
    /// Cut-through starts once this many chunks are in the NIC.
    pub threshold: usize,
    /// Ticks elapsed; one tick is one chunk's time on PCIe.
    pub tick: u64,
    /// Break it: the CPU stalls before chunk `.0` for `.1` ticks.
    pub stall: Option<(usize, u64)>,
    pub rng: Rng,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CtAction {
    /// One more chunk's worth of PCIe time.
    Tick,
    /// Run until both frames are done.
    RunToEnd,
    SetChunks(usize),
    SetPcie(u32),
    SetWire(u32),
    SetThreshold(usize),
    /// Set the threshold to the smallest that cannot run dry.
    UseSafeThreshold,
    /// Break it in one move: a 100 GbE wire fed by PCIe at no more than
    /// 32 Gb/s, starting after a single chunk, so the wire outruns the bus.
    BreakIt,
    /// Break it the usual way: the CPU stalls mid-frame (seeded), or not.
    SetJitter(bool),
}

impl CutThrough {
    fn validate_settings(c: &CutThroughConfig) -> Result<(), String> {
        if !(CHUNKS_MIN..=CHUNKS_MAX).contains(&c.chunks) {
            return Err(format!(
                "frame size must be {CHUNKS_MIN} to {CHUNKS_MAX} chunks"
            ));
        }
        if !(PCIE_MIN..=PCIE_MAX).contains(&c.pcie_gbps) {
            return Err(format!("PCIe rate must be {PCIE_MIN} to {PCIE_MAX} Gb/s"));
        }
        if !WIRE_RATES.contains(&c.wire_gbps) {
            return Err("wire rate must be 10, 25, 50 or 100 Gb/s".into());
        }
        if c.threshold < 1 || c.threshold > c.chunks {
            return Err("threshold must be 1 to the frame size".into());
        }
        Ok(())
    }

    fn restart(&mut self, change: String) -> Outcome {
        self.tick = 0;
        let mut events = vec![Event::info(format!("{change} The clock restarts.")).at("settings")];
        let safe = self.safe_threshold();
        let rate_bound = min_safe_threshold(self.chunks, self.pcie_gbps, self.wire_gbps);
        if self.threshold < safe && self.threshold >= rate_bound {
            events.push(
                Event::warn(format!(
                    "The CPU stall will run a threshold of {} dry: {safe} chunk{} would ride it out.",
                    self.threshold,
                    plural(safe)
                ))
                .at("threshold"),
            );
        } else if self.threshold < safe {
            events.push(
                Event::warn(format!(
                    "The wire sends a chunk in {} ns but PCIe needs {} ns to deliver one: a threshold of {} will run dry. {} chunk{} would be safe.",
                    decimal(self.chunk_ns().0, 1),
                    decimal(self.chunk_ns().1, 1),
                    self.threshold,
                    safe,
                    plural(safe)
                ))
                .at("threshold"),
            );
        }
        Ok(events)
    }

    fn set_chunks(&mut self, n: usize) -> Outcome {
        if !(CHUNKS_MIN..=CHUNKS_MAX).contains(&n) {
            return Err(Refusal::new(format!(
                "A frame is {CHUNKS_MIN} to {CHUNKS_MAX} chunks; {n} is out of range."
            )));
        }
        if n == self.chunks {
            return Err(Refusal::new(format!("The frame is already {n} chunks.")));
        }
        self.chunks = n;
        let mut change = format!(
            "The frame is now {n} chunk{} ({} bytes).",
            plural(n),
            n as u64 * CHUNK_BYTES
        );
        if self.threshold > n {
            self.threshold = n;
            change.push_str(&format!(" The threshold shrinks with it to {n}."));
        }
        if let Some((at, ticks)) = self.stall.filter(|&(at, _)| at >= n) {
            self.stall = (n >= 2).then_some((n - 1, ticks));
            if self.stall.is_none() {
                change.push_str(" A one-chunk frame has no middle, so the CPU stall goes.");
            } else if at != n - 1 {
                change.push_str(&format!(" The CPU stall moves to chunk {}.", n - 1));
            }
        }
        self.restart(change)
    }

    fn set_pcie(&mut self, gbps: u32) -> Outcome {
        if !(PCIE_MIN..=PCIE_MAX).contains(&gbps) {
            return Err(Refusal::new(format!(
                "The PCIe rate is {PCIE_MIN} to {PCIE_MAX} Gb/s; {gbps} is out of range."
            )));
        }
        if gbps == self.pcie_gbps {
            return Err(Refusal::new(format!("PCIe already delivers {gbps} Gb/s.")));
        }
        self.pcie_gbps = gbps;
        self.restart(format!("PCIe now delivers {gbps} Gb/s."))
    }

    fn set_wire(&mut self, gbps: u32) -> Outcome {
        if !WIRE_RATES.contains(&gbps) {
            return Err(Refusal::new(format!(
                "The wire runs at 10, 25, 50 or 100 Gb/s, not {gbps}."
            )));
        }
        if gbps == self.wire_gbps {
            return Err(Refusal::new(format!(
                "The wire already runs at {gbps} Gb/s."
            )));
        }
        self.wire_gbps = gbps;
        self.restart(format!("The wire now runs at {gbps} Gb/s."))
    }

    fn set_threshold(&mut self, t: usize) -> Outcome {
        if t < 1 || t > self.chunks {
            return Err(Refusal::new(format!(
                "The threshold is 1 to {} chunks (the whole frame); {t} is out of range.",
                self.chunks
            )));
        }
        if t == self.threshold {
            return Err(Refusal::new(format!("The threshold is already {t}.")));
        }
        self.threshold = t;
        self.restart(format!(
            "Cut-through now waits for {t} chunk{} ({} bytes) before it starts the wire.",
            plural(t),
            t as u64 * CHUNK_BYTES
        ))
    }

    fn use_safe(&mut self) -> Outcome {
        let safe = self.safe_threshold();
        if self.threshold == safe {
            return Err(Refusal::new(format!(
                "The threshold is already the safe minimum, {safe}."
            )));
        }
        self.threshold = safe;
        self.restart(format!(
            "Threshold set to {safe} chunk{}, the smallest that cannot run dry at these rates.",
            plural(safe)
        ))
    }

    fn break_it(&mut self) -> Outcome {
        let pcie = self.pcie_gbps.min(32);
        if (self.wire_gbps, self.pcie_gbps, self.threshold) == (100, pcie, 1) {
            return Err(Refusal::new(
                "It is already broken: a 100 GbE wire, PCIe at 32 Gb/s or less, threshold 1. Step to watch the underrun.",
            ));
        }
        self.wire_gbps = 100;
        self.pcie_gbps = pcie;
        self.threshold = 1;
        self.restart(format!(
            "Break it: the wire now runs at 100 Gb/s, PCIe delivers {pcie} Gb/s, and cut-through starts after one chunk."
        ))
    }

    fn set_jitter(&mut self, on: bool) -> Outcome {
        if self.stall.is_some() == on {
            return Err(Refusal::new(if on {
                "The CPU already stalls mid-frame."
            } else {
                "The CPU already writes without a stall."
            }));
        }
        if !on {
            self.stall = None;
            return self.restart("The CPU now writes the frame without a pause.".into());
        }
        if self.chunks < 2 {
            return Err(Refusal::new(
                "A one-chunk frame has no middle to stall in: make the frame longer.",
            ));
        }
        let at = self.rng.range(1, self.chunks as u64 - 1) as usize;
        let ticks = self.rng.range(STALL_TICKS.0, STALL_TICKS.1);
        self.stall = Some((at, ticks));
        self.restart(format!(
            "Break it: the CPU stalls for {} before it writes chunk {at}, a cache miss or a TLB walk away.",
            self.fmt_ns(ticks * self.tick_units())
        ))
    }

    fn tick_once(&mut self) -> Outcome {
        if self.tick >= self.last_tick() {
            return Err(self.finished());
        }
        let from = self.now_units();
        self.tick += 1;
        Ok(self.narrate(from, self.now_units()))
    }

    fn run_to_end(&mut self) -> Outcome {
        if self.tick >= self.last_tick() {
            return Err(self.finished());
        }
        let from = self.now_units();
        self.tick = self.last_tick();
        let mut events = self.narrate(from, self.now_units());
        events.retain(|e| e.tone != crate::model::Tone::Info);
        events.insert(
            0,
            Event::info(format!("Ran to tick {}.", self.tick)).at("settings"),
        );
        Ok(events)
    }

    fn finished(&self) -> Refusal {
        Refusal::new("Both frames are done. Change a setting or press Reset to send again.")
    }

    fn fmt_ns(&self, units: u64) -> String {
        format!("{} ns", decimal(self.ns(units), 1))
    }
}

impl Model for CutThrough {
    type Config = CutThroughConfig;
    type Action = CtAction;

    fn validate(c: &CutThroughConfig) -> Result<(), String> {
        Self::validate_settings(c)
    }

    fn new(c: &CutThroughConfig) -> Self {
        CutThrough {
            chunks: c.chunks,
            pcie_gbps: c.pcie_gbps,
            wire_gbps: c.wire_gbps,
            threshold: c.threshold,
            tick: 0,
            stall: None,
            rng: Rng::new(c.seed),
        }
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "A {}-byte frame waits to cross PCIe in {} chunks of {CHUNK_BYTES} bytes. Each Step is one tick: one more chunk delivered.",
            self.chunks as u64 * CHUNK_BYTES,
            self.chunks
        ))
    }

    fn apply(&mut self, action: &CtAction) -> Outcome {
        match *action {
            CtAction::Tick => self.tick_once(),
            CtAction::RunToEnd => self.run_to_end(),
            CtAction::SetChunks(n) => self.set_chunks(n),
            CtAction::SetPcie(g) => self.set_pcie(g),
            CtAction::SetWire(g) => self.set_wire(g),
            CtAction::SetThreshold(t) => self.set_threshold(t),
            CtAction::UseSafeThreshold => self.use_safe(),
            CtAction::BreakIt => self.break_it(),
            CtAction::SetJitter(on) => self.set_jitter(on),
        }
    }

    fn next_auto(&self) -> Result<CtAction, Refusal> {
        if self.tick < self.last_tick() {
            Ok(CtAction::Tick)
        } else {
            Err(self.finished())
        }
    }

    fn check(&self) -> Result<(), String> {
        Self::validate(&CutThroughConfig {
            chunks: self.chunks,
            pcie_gbps: self.pcie_gbps,
            wire_gbps: self.wire_gbps,
            threshold: self.threshold,
            seed: 0,
        })?;
        if let Some((at, ticks)) = self.stall {
            if at == 0 || at >= self.chunks || !(STALL_TICKS.0..=STALL_TICKS.1).contains(&ticks) {
                return Err("the CPU stall is outside the frame or out of range".into());
            }
        }
        if self.tick > self.last_tick() {
            return Err("the clock ran past the end".into());
        }
        let (sf, ct) = (self.store_and_forward(), self.cut_through());
        if sf.underrun.is_some() {
            return Err("a store-and-forward frame ran dry".into());
        }
        if ct.start > sf.start {
            return Err("cut-through started later than store-and-forward".into());
        }
        if (ct.underrun.is_none()) != (self.threshold >= self.safe_threshold()) {
            return Err("the safe threshold disagrees with the run".into());
        }
        let now = self.now_units();
        for plan in [sf, ct] {
            let counted: usize = ChunkState::ALL.iter().map(|&s| plan.count(s, now)).sum();
            if counted != self.chunks {
                return Err("a chunk is in no state or two".into());
            }
            let on_wire = plan.count(ChunkState::OnWire, now);
            if on_wire > 1 {
                return Err("two chunks on the wire at once".into());
            }
            for k in 0..plan.sent_whole() {
                if plan.arrival(k) > plan.wire_start(k) {
                    return Err(format!("chunk {k} went on the wire before it arrived"));
                }
            }
        }
        Ok(())
    }

    fn status(&self) -> Vec<Figure> {
        let (sf, ct) = (self.store_and_forward(), self.cut_through());
        let ct_last = match ct.underrun {
            Some(_) => format!("{} (poisoned)", self.fmt_ns(ct.end)),
            None => self.fmt_ns(ct.end),
        };
        vec![
            Figure::new(
                "clock",
                "clock",
                format!("tick {} · {}", self.tick, self.fmt_ns(self.now_units())),
            ),
            Figure::new("sf-first", "S&F first bit", self.fmt_ns(sf.start)),
            Figure::new("sf-last", "S&F last bit", self.fmt_ns(sf.end)),
            Figure::new("ct-first", "cut-through first bit", self.fmt_ns(ct.start)),
            Figure::new("ct-last", "cut-through last bit", ct_last),
            Figure::new(
                "threshold",
                "threshold",
                format!("{} chunk{}", self.threshold, plural(self.threshold)),
            ),
            Figure::new(
                "safe-threshold",
                "min safe threshold",
                format!(
                    "{} chunk{}",
                    self.safe_threshold(),
                    plural(self.safe_threshold())
                ),
            ),
            Figure::new(
                "ct-outcome",
                "cut-through frame",
                if ct.underrun.is_some() {
                    "UNDERRUN"
                } else {
                    "OK"
                },
            ),
            Figure::new(
                "fallback",
                "fallback copy",
                if ct.underrun.is_some() {
                    "sent by the NIC"
                } else {
                    "not needed"
                },
            ),
            Figure::new(
                "stall",
                "CPU stall",
                match self.stall {
                    Some((at, ticks)) => format!(
                        "{} before chunk {at}",
                        self.fmt_ns(ticks * self.tick_units())
                    ),
                    None => "none".into(),
                },
            ),
        ]
    }

    fn why(&self) -> Vec<String> {
        let (sf, ct) = (self.store_and_forward(), self.cut_through());
        let (wire_ns, pcie_ns) = self.chunk_ns();
        let mut out = vec![format!(
            "Store-and-forward waits for all {} chunks: its first bit leaves at {} and its last at {}.",
            self.chunks,
            self.fmt_ns(sf.start),
            self.fmt_ns(sf.end)
        )];
        match ct.underrun {
            None => out.push(format!(
                "Cut-through starts after {} chunk{}, at {}: the first bit leaves {} ns sooner and the last at {}.",
                self.threshold,
                plural(self.threshold),
                self.fmt_ns(ct.start),
                decimal(self.ns(sf.start - ct.start), 1),
                self.fmt_ns(ct.end)
            )),
            Some(k) => out.push(format!(
                "Cut-through ran dry at {}: the wire wanted chunk {k} before it had arrived. A NIC cannot pause a frame, so it ends it with a deliberately bad FCS and the receiver drops it. The NIC then sends the fallback copy that ef_vi posted right after the CTPIO write, by DMA: the application does nothing.",
                self.fmt_ns(ct.end)
            )),
        }
        if let Some((at, ticks)) = self.stall {
            out.push(format!(
                "The CPU paused for {} before chunk {at}. Such jitter in how fast the CPU writes, not a bus slower than the wire, is what usually runs a real CTPIO send dry; a larger threshold buys slack against it.",
                self.fmt_ns(ticks * self.tick_units())
            ));
        }
        if wire_ns < pcie_ns {
            out.push(format!(
                "Here the wire sends a chunk in {} ns but PCIe needs {} ns per chunk, so the buffer drains as the frame goes out. Waiting for at least {} chunk{} before starting keeps it from running dry.",
                decimal(wire_ns, 1),
                decimal(pcie_ns, 1),
                self.safe_threshold(),
                plural(self.safe_threshold())
            ));
        } else {
            out.push(format!(
                "Here PCIe delivers a chunk in {} ns and the wire needs {} ns to send it, so the buffer only fills: {}",
                decimal(pcie_ns, 1),
                decimal(wire_ns, 1),
                if self.stall.is_some() {
                    "only the stall can run it dry."
                } else {
                    "any threshold is safe. Stall the CPU, or make the wire faster than PCIe, to see an underrun."
                }
            ));
        }
        out
    }

    fn leaves_out() -> &'static str {
        "Leaves out: preamble, FCS and inter-frame gap on the wire, PCIe packet headers, all but one CPU stall per frame, contention for the adapter's CTPIO resources, and the timing of the fallback DMA send."
    }
}
