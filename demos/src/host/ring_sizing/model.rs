//! The `/host/ring-sizing` demo: a receive ring at line rate whose core
//! stops for a while, and the same ring against the cache the NIC writes
//! into. Step moves the clock 10 µs; every setting starts the run again.

use super::ddio::{
    ddio_bytes, footprint, lines_per_frame, written_per_frame, DDIO_WAYS, DEFAULT_DDIO_WAYS,
    LLC_KIB, LLC_WAYS, SKYLAKE_SP_LLC_WAYS, XEON_GOLD_6140_LLC_KIB,
};
use super::ring::{self, holds, DESCRIPTOR_BYTES, ENTRIES, MULTIPLE};
use super::run::{Params, Run, StepReport, STALL_AT_US, STEP_TICKS};
use super::sizing::{self, absorbs_ps, both, queue_gap_ps, Largest, Smallest};
use super::wire::{frame_ps, wire_bytes, PAYLOAD, RATES};
use crate::bound::Bound;
use crate::memo::Memo;
use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::text::{fixed, grouped, plural, ratio};
use serde::{Deserialize, Serialize};

/// Receive queues, each with its own ring and core; RSS spreads the frames
/// evenly over them.
pub const QUEUES: Bound<u32> = Bound::new("number of queues", "", 1, 64);
/// The core's time per frame: what it spends taking a frame off the ring
/// and handling it.
pub const CORE_NS: Bound<u32> = Bound::new("core's time per frame", " ns", 5, 5_000);
/// How long the core stops reading (a preemption, a long interrupt, a
/// page fault, a garbage collection: the model does not say which).
pub const STALL_US: Bound<u32> = Bound::new("stall", " µs", 0, 2_000);

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RingSizingConfig {
    pub rate_gbps: u32,
    /// The packet each frame carries, bytes.
    pub payload: u32,
    pub queues: u32,
    pub entries: u32,
    pub core_ns: u32,
    pub stall_us: u32,
    pub llc_kib: u32,
    pub llc_ways: u32,
    pub ddio_ways: u32,
}

impl Default for RingSizingConfig {
    /// The case: 1,024 entries of full-size frames at 100 Gb/s into
    /// one queue, whose core reads a frame in 100 ns and stops for 100 µs;
    /// the Xeon Gold 6140's LLC with DDIO's two default ways.
    fn default() -> Self {
        RingSizingConfig {
            rate_gbps: 100,
            payload: PAYLOAD.max,
            queues: 1,
            entries: 1_024,
            core_ns: 100,
            stall_us: 100,
            llc_kib: XEON_GOLD_6140_LLC_KIB,
            llc_ways: SKYLAKE_SP_LLC_WAYS,
            ddio_ways: DEFAULT_DDIO_WAYS,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RingSizing {
    pub config: RingSizingConfig,
    pub run: Run,
    /// The smallest ring for this configuration (a whole run of its own).
    #[serde(skip)]
    smallest_memo: Memo<RingSizingConfig, Smallest>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RingSizingAction {
    /// Ten microseconds.
    Step,
    /// The rest of the run.
    Finish,
    SetRate(u32),
    SetPayload(u32),
    SetQueues(u32),
    SetEntries(u32),
    SetCoreNs(u32),
    SetStall(u32),
    SetLlcKib(u32),
    SetLlcWays(u32),
    SetDdioWays(u32),
}

/// Bytes as MiB with two decimals.
pub fn mib(bytes: u64) -> String {
    format!("{} MiB", fixed(ratio(bytes, 1 << 20, 2), 2))
}

/// Picoseconds as µs with one decimal.
pub fn micros(ps: u64) -> String {
    format!("{} µs", fixed(ratio(ps, 1_000_000, 1), 1))
}

/// Picoseconds as ns with two decimals.
pub fn nanos(ps: u64) -> String {
    format!("{} ns", fixed(ratio(ps, 1_000, 2), 2))
}

impl RingSizing {
    /// What the run reads.
    pub fn params(&self) -> Params {
        let c = &self.config;
        let ddio = self.ddio_bytes();
        Params {
            payload: c.payload,
            rate_gbps: c.rate_gbps,
            queues: u64::from(c.queues),
            holds: holds(c.entries),
            core_ns: u64::from(c.core_ns),
            stall_us: u64::from(c.stall_us),
            written: written_per_frame(c.payload),
            ddio_bytes: ddio,
            leaky: self.footprint() > ddio,
        }
    }

    pub fn ddio_bytes(&self) -> u64 {
        let c = &self.config;
        ddio_bytes(c.llc_kib, c.llc_ways, c.ddio_ways)
    }

    pub fn footprint(&self) -> u64 {
        let c = &self.config;
        footprint(c.queues, c.entries, c.payload)
    }

    /// Footprint beyond the DDIO ways, in tenths of a percent of it.
    pub fn overflow_tenths(&self) -> i64 {
        let (f, d) = (self.footprint(), self.ddio_bytes());
        ratio(f.saturating_sub(d), f, 3)
    }

    pub fn smallest(&self) -> Smallest {
        self.smallest_memo
            .get(&self.config, || sizing::smallest(&self.params()))
    }

    pub fn largest(&self) -> Largest {
        sizing::largest(self.config.queues, self.config.payload, self.ddio_bytes())
    }

    /// Both ends of the sizes that drop nothing and fit, if any.
    pub fn both(&self) -> Option<(u32, u32)> {
        both(self.smallest(), self.largest())
    }

    /// How long a stall this ring absorbs, ps.
    pub fn absorbs_ps(&self) -> u64 {
        absorbs_ps(&self.params(), self.config.entries)
    }

    pub fn finished(&self) -> bool {
        self.run.finished(&self.params())
    }

    /// Whether the core is stalled at the current time.
    pub fn stalled_now(&self) -> bool {
        self.params().stalled(self.run.now_us)
    }

    fn over(&self) -> Refusal {
        Refusal::new("The run is over. Change a setting, or press Reset to run it again.")
    }

    fn step(&mut self) -> Outcome {
        if self.finished() {
            return Err(self.over());
        }
        let p = self.params();
        let before = self.run.now_us;
        let report = self.run.step(&p);
        let mut events = vec![self.step_line(before, &report)];
        let stall = STALL_AT_US..p.stall_ends_us();
        if p.stall_us > 0 && (before..self.run.now_us).contains(&stall.start) {
            events.push(
                Event::warn(format!(
                    "At {} µs the core stops reading for {} µs.",
                    stall.start, p.stall_us
                ))
                .at("core"),
            );
        }
        if p.stall_us > 0 && (before + 1..=self.run.now_us).contains(&stall.end) {
            events.push(
                Event::info(format!(
                    "At {} µs the core is back and works through the backlog.",
                    stall.end
                ))
                .at("core"),
            );
        }
        if report.dropped > 0 {
            events.push(
                Event::fault(format!(
                    "The ring was full: {} frame{} dropped ({} in all).",
                    grouped(report.dropped as i64),
                    plural(report.dropped as usize),
                    grouped(self.run.dropped as i64)
                ))
                .at("ring"),
            );
        }
        if report.from_dram > 0 {
            events.push(
                Event::warn(format!(
                    "{} frame{} came from DRAM: DDIO had evicted them before the core read them.",
                    grouped(report.from_dram as i64),
                    plural(report.from_dram as usize)
                ))
                .at("cache"),
            );
        }
        if self.finished() {
            events.push(self.summary());
        }
        Ok(events)
    }

    fn step_line(&self, before: u64, r: &StepReport) -> Event {
        let what = if r.stalled_ticks == STEP_TICKS {
            "the core read nothing".to_string()
        } else {
            format!("the core read {}", grouped(r.read as i64))
        };
        Event::info(format!(
            "{} to {} µs: {} frames arrived, {what}; the ring holds {} of {}.",
            before,
            self.run.now_us,
            grouped(r.arrived as i64),
            grouped(self.run.held as i64),
            grouped(self.params().holds as i64)
        ))
        .at("timeline")
    }

    fn finish(&mut self) -> Outcome {
        if self.finished() {
            return Err(self.over());
        }
        let p = self.params();
        while !self.run.finished(&p) {
            self.run.step(&p);
        }
        Ok(vec![self.summary()])
    }

    fn summary(&self) -> Event {
        let r = &self.run;
        let text = format!(
            "The run is over at {} µs: {} frames arrived, {} dropped, {} read from DRAM. At most the ring held {} of {}.",
            r.now_us,
            grouped(r.arrived as i64),
            grouped(r.dropped as i64),
            grouped(r.from_dram as i64),
            grouped(r.peak as i64),
            grouped(self.params().holds as i64)
        );
        let event = if r.dropped > 0 {
            Event::fault(text)
        } else if r.from_dram > 0 {
            Event::warn(text)
        } else {
            Event::done(text)
        };
        event.at("answers")
    }

    /// Changes one setting if the configuration stays valid, and starts
    /// the run again.
    fn setting(
        &mut self,
        value: u32,
        field: fn(&mut RingSizingConfig) -> &mut u32,
        what: &str,
        unit: &str,
        note: String,
    ) -> Outcome {
        let mut next = self.config.clone();
        if *field(&mut next) == value {
            return Err(Refusal::new(format!(
                "The {what} is already {}{unit}.",
                grouped(i64::from(value))
            )));
        }
        *field(&mut next) = value;
        RingSizing::validate(&next).map_err(Refusal::new)?;
        *self = RingSizing::new(&next);
        Ok(vec![Event::info(format!(
            "{note}The {what} is now {}{unit}. The run starts again.",
            grouped(i64::from(value))
        ))
        .at("ring")])
    }

    fn set_entries(&mut self, n: u32) -> Outcome {
        let rounded = ring::rounded_up(n).ok_or_else(|| Refusal::new(ENTRIES.out_of_range(n)))?;
        let note = if rounded == n {
            String::new()
        } else {
            format!(
                "The driver rounds {} up to a multiple of {MULTIPLE}. ",
                grouped(i64::from(n))
            )
        };
        self.setting(rounded, |c| &mut c.entries, "ring size", " entries", note)
    }
}

impl Model for RingSizing {
    type Config = RingSizingConfig;
    type Action = RingSizingAction;

    fn validate(c: &RingSizingConfig) -> Result<(), String> {
        if !RATES.contains(&c.rate_gbps) {
            return Err(format!(
                "The line rate is 10, 25, 50 or 100 Gb/s; {} Gb/s is not one of them.",
                c.rate_gbps
            ));
        }
        PAYLOAD.check(c.payload)?;
        QUEUES.check(c.queues)?;
        ENTRIES.check(c.entries)?;
        if !ring::is_valid(c.entries) {
            return Err(format!(
                "The driver keeps ring sizes that are multiples of {MULTIPLE}; {} is not.",
                grouped(i64::from(c.entries))
            ));
        }
        CORE_NS.check(c.core_ns)?;
        STALL_US.check(c.stall_us)?;
        LLC_KIB.check(c.llc_kib)?;
        LLC_WAYS.check(c.llc_ways)?;
        DDIO_WAYS.check(c.ddio_ways)?;
        if c.ddio_ways > c.llc_ways {
            return Err(format!(
                "DDIO's ways are some of the LLC's: {} of {} is too many.",
                c.ddio_ways, c.llc_ways
            ));
        }
        Ok(())
    }

    fn new(c: &RingSizingConfig) -> Self {
        RingSizing {
            config: c.clone(),
            run: Run::default(),
            smallest_memo: Memo::default(),
        }
    }

    fn intro(&self) -> Event {
        let c = &self.config;
        Event::info(format!(
            "A {} Gb/s line brings {}-byte packets to {} queue{}: this ring gets a frame every {}. It has {} entries. At {} µs its core stops for {} µs. Step moves the clock 10 µs.",
            c.rate_gbps,
            grouped(i64::from(c.payload)),
            c.queues,
            plural(c.queues as usize),
            nanos(queue_gap_ps(&self.params())),
            grouped(i64::from(c.entries)),
            STALL_AT_US,
            c.stall_us
        ))
    }

    fn apply(&mut self, action: &RingSizingAction) -> Outcome {
        use RingSizingAction as A;
        let none = String::new;
        match *action {
            A::Step => self.step(),
            A::Finish => self.finish(),
            A::SetRate(r) => self.setting(r, |c| &mut c.rate_gbps, "line rate", " Gb/s", none()),
            A::SetPayload(n) => {
                self.setting(n, |c| &mut c.payload, "packet size", " bytes", none())
            }
            A::SetQueues(n) => self.setting(n, |c| &mut c.queues, "number of queues", "", none()),
            A::SetEntries(n) => self.set_entries(n),
            A::SetCoreNs(n) => self.setting(
                n,
                |c| &mut c.core_ns,
                "core's time per frame",
                " ns",
                none(),
            ),
            A::SetStall(n) => self.setting(n, |c| &mut c.stall_us, "stall", " µs", none()),
            A::SetLlcKib(n) => self.setting(n, |c| &mut c.llc_kib, "LLC size", " KiB", none()),
            A::SetLlcWays(n) => {
                self.setting(n, |c| &mut c.llc_ways, "number of LLC ways", "", none())
            }
            A::SetDdioWays(n) => {
                self.setting(n, |c| &mut c.ddio_ways, "number of DDIO ways", "", none())
            }
        }
    }

    fn next_auto(&self) -> Result<RingSizingAction, Refusal> {
        if self.finished() {
            Err(self.over())
        } else {
            Ok(RingSizingAction::Step)
        }
    }

    fn check(&self) -> Result<(), String> {
        Self::validate(&self.config)?;
        let p = self.params();
        let r = &self.run;
        if r.held > p.holds {
            return Err("the ring holds more than it can".into());
        }
        if r.batches.iter().map(|b| b.frames).sum::<u64>() != r.held {
            return Err("the waiting frames and the ring's count disagree".into());
        }
        if r.arrived != r.read + r.dropped + r.held {
            return Err("a frame was lost or made: arrived ≠ read + dropped + held".into());
        }
        if r.arrived != p.arrivals_by(r.now_us).1 {
            return Err("the arrivals are not the line's".into());
        }
        if r.from_dram > r.read {
            return Err("more frames came from DRAM than the core read".into());
        }
        if !p.leaky && r.from_dram > 0 {
            return Err("a frame left a cache it fits in".into());
        }
        if r.history.len() as u64 * STEP_TICKS != r.now_us {
            return Err("a Step is missing from the history".into());
        }
        if r.peak < r.held {
            return Err("the peak is below the ring's count".into());
        }
        if let Smallest::Ring(n) = self.smallest() {
            if !ring::is_valid(n) {
                return Err("the smallest ring is not one the driver keeps".into());
            }
        }
        if let Largest::Ring(n) = self.largest() {
            if footprint(self.config.queues, n, self.config.payload) > self.ddio_bytes() {
                return Err("the largest ring does not fit".into());
            }
        }
        Ok(())
    }

    fn status(&self) -> Vec<Figure> {
        let r = &self.run;
        let smallest = match self.smallest() {
            Smallest::Ring(n) => grouped(i64::from(n)),
            _ => "none".into(),
        };
        let largest = match self.largest() {
            Largest::Ring(n) => grouped(i64::from(n)),
            Largest::NoneFits => "none".into(),
        };
        vec![
            Figure::new("time", "time", format!("{} µs", r.now_us)),
            Figure::new(
                "held",
                "in the ring",
                format!(
                    "{} of {}",
                    grouped(r.held as i64),
                    grouped(self.params().holds as i64)
                ),
            ),
            Figure::new("dropped", "dropped", grouped(r.dropped as i64)),
            Figure::new("from-dram", "read from DRAM", grouped(r.from_dram as i64)),
            Figure::new("absorbs", "ring absorbs", micros(self.absorbs_ps())),
            Figure::new(
                "footprint",
                "footprint / DDIO",
                format!("{} / {}", mib(self.footprint()), mib(self.ddio_bytes())),
            ),
            Figure::new("smallest", "smallest, no drops", smallest),
            Figure::new("largest", "largest in DDIO", largest),
        ]
    }

    fn why(&self) -> Vec<String> {
        vec![
            self.why_wire(),
            self.why_absorbs(),
            self.why_stall(),
            self.why_cache(),
            self.why_answer(),
        ]
    }

    fn leaves_out() -> &'static str {
        "Leaves out: the NIC's own packet buffer, which absorbs a little before the ring; PAUSE frames; the order of arrivals and reads inside each microsecond; stalls of the other queues' cores (they keep up); where in a cache line a frame starts (here, at its start); jumbo frames and frames over several buffers; the extra time a core spends on a frame it reads from DRAM; the lines cores write, other devices and cores that share the DDIO ways, and the LLC's real replacement policy and slice hashing (the DDIO ways are one least-recently-used pool here)."
    }
}

/// The "why" sentences, one concept each; the lesson quotes them by place.
impl RingSizing {
    pub fn why_wire(&self) -> String {
        let c = &self.config;
        format!(
            "A {}-byte packet takes {} bytes of line time: 8 of preamble and start delimiter, 14 of Ethernet header, the packet, 4 of FCS and a 12-byte gap. At {} Gb/s a frame takes {}.",
            grouped(i64::from(c.payload)),
            grouped(wire_bytes(c.payload) as i64),
            c.rate_gbps,
            nanos(frame_ps(c.payload, c.rate_gbps))
        )
    }

    pub fn why_absorbs(&self) -> String {
        let c = &self.config;
        let spread = if c.queues == 1 {
            "This ring gets every frame".to_string()
        } else {
            format!("RSS gives this ring one frame in {}", c.queues)
        };
        format!(
            "{spread}: one every {}. Its {} entries hold {} frames (the driver keeps one entry empty), so it absorbs a stall of {}.",
            nanos(queue_gap_ps(&self.params())),
            grouped(i64::from(c.entries)),
            grouped(holds(c.entries) as i64),
            micros(self.absorbs_ps())
        )
    }

    pub fn why_stall(&self) -> String {
        let p = self.params();
        let frames = p.stall_arrivals();
        let fits = if frames <= p.holds {
            "The ring holds them all"
        } else {
            "More than the ring holds: the rest are dropped"
        };
        let smallest = match self.smallest() {
            Smallest::Ring(n) => format!(
                "The smallest ring that drops nothing in this run has {} entries.",
                grouped(i64::from(n))
            ),
            Smallest::CoreTooSlow => "But the core takes longer per frame than its frames are apart: its backlog never drains, and no ring is big enough.".into(),
            Smallest::BeyondDriver { frames } => format!(
                "No ring is big enough: this run needs room for {} frames, and the driver's largest ring holds {}.",
                grouped(frames as i64),
                grouped(holds(ENTRIES.max) as i64)
            ),
        };
        format!(
            "A {} µs stall brings {} frames to this ring. {fits}. {smallest}",
            p.stall_us,
            grouped(frames as i64)
        )
    }

    pub fn why_cache(&self) -> String {
        let c = &self.config;
        let (f, d) = (self.footprint(), self.ddio_bytes());
        let verdict = if f <= d {
            "It fits: every buffer the NIC comes back to is still in cache.".to_string()
        } else {
            format!(
                "{} % of it cannot stay: the NIC comes back to those buffers after they went to DRAM, and a frame that waits while DDIO's worth of bytes is written after it is evicted before the core reads it.",
                fixed(self.overflow_tenths(), 1)
            )
        };
        format!(
            "The NIC writes {} cache lines of each frame and a {DESCRIPTOR_BYTES}-byte descriptor: {} bytes an entry. {} of {} entries {} {}; DDIO may fill {} of the LLC's {} ways, {}. {verdict}",
            lines_per_frame(c.payload),
            grouped(written_per_frame(c.payload) as i64),
            if c.queues == 1 {
                "One ring".to_string()
            } else {
                format!("{} rings", c.queues)
            },
            grouped(i64::from(c.entries)),
            if c.queues == 1 { "is" } else { "make" },
            mib(f),
            c.ddio_ways,
            c.llc_ways,
            mib(d)
        )
    }

    pub fn why_answer(&self) -> String {
        let largest = match self.largest() {
            Largest::Ring(n) => format!(
                "The largest ring whose footprint fits has {} entries.",
                grouped(i64::from(n))
            ),
            Largest::NoneFits => format!(
                "Even {}-entry rings overflow the DDIO ways with {} queues.",
                ENTRIES.min, self.config.queues
            ),
        };
        let verdict = match self.both() {
            Some((lo, hi)) if lo == hi => format!(
                "Only {} entries drop nothing and stay in cache.",
                grouped(i64::from(lo))
            ),
            Some((lo, hi)) => format!(
                "Any size from {} to {} entries drops nothing and stays in cache.",
                grouped(i64::from(lo)),
                grouped(i64::from(hi))
            ),
            None => "No ring both drops nothing and stays in cache.".into(),
        };
        format!("{largest} {verdict}")
    }
}
