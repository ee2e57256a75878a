//! Cut-through (CTPIO): one frame crosses PCIe in 64-byte chunks into the
//! NIC; store-and-forward starts the wire after the last chunk, cut-through
//! as soon as `threshold` chunks are in. The CTPIO mode (`EF_CTPIO_MODE`,
//! see [`mode`]) decides which of the two the NIC sends; the other lane is
//! drawn beside it for comparison.
//!
//! The named hardware is an AMD Solarflare X2 adapter, whose fallback send is
//! an ordinary DMA descriptor. UG1586 supports `ct` at 10 Gb and not at 25 Gb,
//! so the default wire is 10 GbE; at the faster rates offered the cut-through
//! lane shows generic cut-through physics, not an Onload setting.
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

mod mode;
mod narrate;
mod plan;
#[cfg(test)]
mod tests;

pub use mode::{CtpioMode, CT_SUPPORTED_GBPS};
pub use plan::{min_safe_threshold, ChunkState, Plan, CHUNK_BYTES};

use crate::bound::Bound;
use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::rng::Rng;
use crate::text::{decimal, plural};
use serde::{Deserialize, Serialize};

/// Frame size, in 64-byte chunks.
pub const CHUNKS: Bound<usize> = Bound::new("frame size", " chunks", 1, 24);
/// The rate the CPU's writes reach the NIC.
pub const PCIE: Bound<u32> = Bound::new("PCIe rate", " Gb/s", 8, 128);
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
    pub mode: CtpioMode,
    pub seed: u64,
}

impl Default for CutThroughConfig {
    fn default() -> Self {
        CutThroughConfig {
            chunks: 12,
            pcie_gbps: 32,
            wire_gbps: CT_SUPPORTED_GBPS,
            threshold: 1,
            mode: CtpioMode::Ct,
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
    /// `EF_CTPIO_MODE`: which of the two lanes is the frame the NIC sends.
    pub mode: CtpioMode,
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
    /// Break it in one move, on hardware that supports it: `ct` mode on a
    /// 10 GbE wire, threshold 1, PCIe at no more than 32 Gb/s, and the CPU
    /// stalls for the longest stall before chunk 1.
    BreakIt,
    /// Choose `EF_CTPIO_MODE`.
    SetMode(CtpioMode),
    /// Break it the usual way: the CPU stalls mid-frame (seeded), or not.
    SetJitter(bool),
}

impl CutThrough {
    fn validate_settings(c: &CutThroughConfig) -> Result<(), String> {
        CHUNKS.check(c.chunks)?;
        PCIE.check(c.pcie_gbps)?;
        if !WIRE_RATES.contains(&c.wire_gbps) {
            return Err(wire_rates_text(c.wire_gbps));
        }
        threshold_bound(c.chunks).check(c.threshold)?;
        Ok(())
    }

    /// The frame the NIC sends in this mode: the cut-through plan in `ct`,
    /// the store-and-forward plan in `sf` and `sf-np`.
    pub fn sent(&self) -> Plan {
        if self.mode.cuts_through() {
            self.cut_through()
        } else {
            self.store_and_forward()
        }
    }

    /// Whether this frame goes out poisoned, and the NIC sends the fallback.
    pub fn poisoned(&self) -> bool {
        self.sent().underrun.is_some()
    }

    /// Whether the cut-through lane runs at a rate UG1586 supports `ct` at.
    pub fn ct_supported(&self) -> bool {
        self.wire_gbps <= CT_SUPPORTED_GBPS
    }

    /// The warning for `ct` on a wire faster than UG1586 supports it at.
    fn generic_physics(&self) -> Option<Event> {
        (self.mode.cuts_through() && !self.ct_supported()).then(|| {
            Event::warn(format!(
                "UG1586 supports ct at {CT_SUPPORTED_GBPS} Gb and not at 25 Gb: at {} Gb/s this cut-through lane is generic cut-through physics, not an Onload setting.",
                self.wire_gbps
            ))
            .at("ct")
        })
    }

    fn restart(&mut self, change: String) -> Outcome {
        self.tick = 0;
        let mut events = vec![Event::info(format!("{change} The clock restarts.")).at("settings")];
        events.extend(self.generic_physics());
        let safe = self.safe_threshold();
        let rate_bound = min_safe_threshold(self.chunks, self.pcie_gbps, self.wire_gbps);
        if !self.mode.cuts_through() {
            // The threshold shapes only the comparison lane: nothing to warn of.
        } else if self.threshold < safe && self.threshold >= rate_bound {
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
        CHUNKS.admit(n)?;
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
        PCIE.admit(gbps)?;
        if gbps == self.pcie_gbps {
            return Err(Refusal::new(format!("PCIe already delivers {gbps} Gb/s.")));
        }
        self.pcie_gbps = gbps;
        self.restart(format!("PCIe now delivers {gbps} Gb/s."))
    }

    fn set_wire(&mut self, gbps: u32) -> Outcome {
        if !WIRE_RATES.contains(&gbps) {
            return Err(Refusal::new(wire_rates_text(gbps)));
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
        threshold_bound(self.chunks).admit(t)?;
        if t == self.threshold {
            return Err(Refusal::new(format!("The threshold is already {t}.")));
        }
        self.threshold = t;
        let mut change = format!(
            "Cut-through now waits for {t} chunk{} ({} bytes) before it starts the wire.",
            plural(t),
            t as u64 * CHUNK_BYTES
        );
        if !self.mode.cuts_through() {
            change.push_str(&format!(
                " In {} mode the NIC does not use it: only the cut-through lane changes.",
                self.mode.env()
            ));
        }
        self.restart(change)
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

    /// The longest CPU stall, before chunk 1: at 10 GbE with PCIe at 32 Gb/s
    /// or less, chunk 1 arrives at least 9 chunk times of PCIe after the
    /// wire started, later than the 51.2 ns the wire takes to send chunk 0.
    const BREAK_STALL: (usize, u64) = (1, STALL_TICKS.1);

    fn break_it(&mut self) -> Outcome {
        let pcie = self.pcie_gbps.min(32);
        let chunks = self.chunks.max(2);
        let broken = (
            CtpioMode::Ct,
            CT_SUPPORTED_GBPS,
            pcie,
            chunks,
            1,
            Some(Self::BREAK_STALL),
        );
        let now = (
            self.mode,
            self.wire_gbps,
            self.pcie_gbps,
            self.chunks,
            self.threshold,
            self.stall,
        );
        if now == broken {
            return Err(Refusal::new(
                "It is already broken: ct mode at 10 GbE, threshold 1, and the CPU stalls before chunk 1. Step to watch the underrun.",
            ));
        }
        (
            self.mode,
            self.wire_gbps,
            self.pcie_gbps,
            self.chunks,
            self.threshold,
            self.stall,
        ) = broken;
        let (at, ticks) = Self::BREAK_STALL;
        self.restart(format!(
            "Break it: ct mode on a 10 GbE wire, PCIe at {pcie} Gb/s, cut-through after one chunk, and the CPU stalls for {} before it writes chunk {at}.",
            self.fmt_ns(ticks * self.tick_units())
        ))
    }

    fn set_mode(&mut self, mode: CtpioMode) -> Outcome {
        if mode == self.mode {
            return Err(Refusal::new(format!(
                "EF_CTPIO_MODE is already {}.",
                mode.env()
            )));
        }
        self.mode = mode;
        self.restart(format!(
            "EF_CTPIO_MODE={} ({}): {}.",
            mode.env(),
            mode.name(),
            mode.promise()
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
            mode: c.mode,
            tick: 0,
            stall: None,
            rng: Rng::new(c.seed),
        }
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "A {}-byte frame waits to cross PCIe in {} chunks of {CHUNK_BYTES} bytes, sent with EF_CTPIO_MODE={} (Onload's default is sf-np). Each Step is one tick: one more chunk delivered.",
            self.chunks as u64 * CHUNK_BYTES,
            self.chunks,
            self.mode.env()
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
            CtAction::SetMode(mode) => self.set_mode(mode),
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
            mode: self.mode,
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
        if self.poisoned() && !self.mode.cuts_through() {
            return Err("a store-and-forward mode sent a poisoned frame".into());
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
            Figure::new("mode", "EF_CTPIO_MODE", self.mode.env()),
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
                "cut-through lane",
                if ct.underrun.is_some() {
                    "UNDERRUN"
                } else {
                    "OK"
                },
            ),
            Figure::new(
                "sent",
                "frame the NIC sends",
                match (self.mode.cuts_through(), self.poisoned()) {
                    (true, true) => "cut-through, poisoned",
                    (true, false) => "cut-through",
                    (false, _) => "store-and-forward",
                },
            ),
            Figure::new(
                "fallback",
                "fallback copy",
                if self.poisoned() {
                    "sent by the NIC"
                } else {
                    "not needed"
                },
            ),
            Figure::new(
                "ct-lane",
                "ct on this wire",
                if self.ct_supported() {
                    "ct at 10 GbE, as UG1586 supports"
                } else {
                    "generic physics, not Onload ct"
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
            "EF_CTPIO_MODE={}: {}.",
            self.mode.env(),
            self.mode.promise()
        )];
        out.push(format!(
            "Store-and-forward waits for all {} chunks: its first bit leaves at {} and its last at {}.",
            self.chunks,
            self.fmt_ns(sf.start),
            self.fmt_ns(sf.end)
        ));
        match ct.underrun {
            None => out.push(format!(
                "{} after {} chunk{}, at {}: the first bit leaves {} ns sooner and the last at {}.",
                if self.mode.cuts_through() {
                    "Cut-through starts"
                } else {
                    "In ct mode cut-through would start"
                },
                self.threshold,
                plural(self.threshold),
                self.fmt_ns(ct.start),
                decimal(self.ns(sf.start - ct.start), 1),
                self.fmt_ns(ct.end)
            )),
            Some(k) if self.mode.cuts_through() => out.push(format!(
                "Cut-through ran dry at {}: the wire wanted chunk {k} before it had arrived. A NIC cannot pause a frame, so it ends it with a deliberately bad FCS and the receiver drops it. The NIC then sends the fallback copy that ef_vi posted right after the CTPIO write, by DMA: the application does nothing.",
                self.fmt_ns(ct.end)
            )),
            Some(k) => out.push(format!(
                "In ct mode this frame would run dry at {}, chunk {k} arriving after the wire wanted it, and go out poisoned. In {} mode the NIC waits for the whole frame, so nothing is poisoned and no fallback is needed.",
                self.fmt_ns(ct.end),
                self.mode.env()
            )),
        }
        if !self.ct_supported() {
            out.push(format!(
                "UG1586 supports ct at {CT_SUPPORTED_GBPS} Gb and not at 25 Gb. At {} Gb/s the cut-through lane is the physics of any cut-through NIC, not an Onload setting.",
                self.wire_gbps
            ));
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
        "Leaves out: preamble, FCS and inter-frame gap on the wire, PCIe packet headers, all but one CPU stall per frame, contention for the adapter's CTPIO resources, the timing of the fallback DMA send, the CTPIO timeout for a frame written too slowly, what the adapter does with an invalid frame (sf-np promises never to send one poisoned), and other VIs on the port (sf-np on any of them holds all to store-and-forward)."
    }
}

/// The threshold runs from one chunk to the whole frame.
pub fn threshold_bound(chunks: usize) -> Bound<usize> {
    Bound::new("threshold", " chunks", 1, chunks)
}

/// The refusal for a wire rate not offered, from [`WIRE_RATES`].
fn wire_rates_text(gbps: u32) -> String {
    let rates: Vec<String> = WIRE_RATES.iter().map(u32::to_string).collect();
    let (last, rest) = rates.split_last().expect("wire rates are offered");
    format!(
        "The wire runs at {} or {last} Gb/s, not {gbps}.",
        rest.join(", ")
    )
}
