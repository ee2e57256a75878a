//! False sharing: core A writes `a`, core B writes `b`. Laid out side by side
//! the two variables share one 64-byte cache line, and every write that
//! follows the other core's write must take the whole line away from it: the
//! line ping-pongs though no data is shared. Padded (`alignas(64)`) each
//! variable has a line of its own, and after the first touch every write hits.
//!
//! Both layouts run side by side on the shared coherence engine
//! ([`crate::coherence`]), fed the same writes. A write is a store needing
//! ownership (x86 issues a read-for-ownership, BusRdX, for a store miss).
//! Line size: 64 bytes on current x86 (Intel SDM vol. 3A, "Memory Cache
//! Control", section "Internal Caches, TLBs, and Buffers"); C++17 names the
//! padding distance `std::hardware_destructive_interference_size`.

use crate::bound::Bound;
use crate::coherence::{core_name, Access, BusOp, Op, Protocol, Supplier, System};
use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::text::plural;
use serde::{Deserialize, Serialize};

/// Writes a core makes in a row before the other core's turn.
pub const RUN: Bound<u8> = Bound::new("number of writes in a row", "", 1, 4);
/// Writes in the whole run.
pub const WRITES: Bound<u32> = Bound::new("number of writes", "", 2, 400);

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FalseSharingConfig {
    pub protocol: Protocol,
    /// Writes A makes in a row, then B makes `b_run` in a row.
    pub a_run: u8,
    pub b_run: u8,
    /// Length of the run.
    pub writes: u32,
}

impl Default for FalseSharingConfig {
    fn default() -> Self {
        FalseSharingConfig {
            protocol: Protocol::Mesi,
            a_run: 1,
            b_run: 1,
            writes: 48,
        }
    }
}

/// Which layout the picture puts in front (both always run).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Layout {
    /// `struct { long a; long b; }`: one line holds both.
    #[default]
    Shared,
    /// `struct { alignas(64) long a; alignas(64) long b; }`: a line each.
    Padded,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FsAction {
    /// The next write of the interleaving.
    Next,
    /// Core 0 writes `a`, core 1 writes `b`, out of turn.
    Write(usize),
    SetRuns {
        a: u8,
        b: u8,
    },
    SetLayout(Layout),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FalseSharing {
    pub a_run: u8,
    pub b_run: u8,
    pub limit: u32,
    /// One line (line 0) holding `a` and `b`.
    pub shared: System,
    /// `a` in line 0, `b` in line 1.
    pub padded: System,
    pub layout: Layout,
    /// Writes by core A (to `a`) and core B (to `b`): also the variables' values.
    pub writes: [u32; 2],
    /// Position in the current A-run-then-B-run cycle.
    pub turn: u8,
    /// The latest write in each layout: (shared, padded).
    pub last: Option<(Access, Access)>,
}

impl FalseSharing {
    pub fn total_writes(&self) -> u32 {
        self.writes[0] + self.writes[1]
    }

    /// The core whose write is next in the interleaving.
    pub fn next_core(&self) -> usize {
        usize::from(self.turn >= self.a_run)
    }

    /// Shared cycles per padded cycle, in tenths (`34` = 3.4×); 0 before any write.
    pub fn slowdown_tenths(&self) -> u64 {
        let padded = self.padded.counts.cycles;
        (self.shared.counts.cycles * 10 + padded / 2)
            .checked_div(padded)
            .unwrap_or(0)
    }

    fn write(&mut self, core: usize) -> Outcome {
        if core > 1 {
            return Err(Refusal::new(
                "Only core A (writing a) and core B (writing b) take part.",
            ));
        }
        if self.total_writes() >= self.limit {
            return Err(Refusal::new(format!(
                "All {} writes are done: Reset to run again.",
                self.limit
            )));
        }
        // Cores and lines are in range, and writes are never refused.
        let shared = self
            .shared
            .access(Op::Write, core, 0)
            .map_err(Refusal::new)?;
        let padded = self
            .padded
            .access(Op::Write, core, core)
            .map_err(Refusal::new)?;
        self.writes[core] += 1;
        let var = if core == 0 { "a" } else { "b" };
        let head = Event::info(format!(
            "Core {} writes {var} = {}.",
            core_name(core),
            self.writes[core]
        ))
        .at(format!("core-{core}"))
        .at(format!("var-{var}"));
        let events = vec![
            head,
            told("One line", &shared).at("layout-shared"),
            told("Padded", &padded).at("layout-padded"),
        ];
        self.last = Some((shared, padded));
        Ok(events)
    }

    fn set_runs(&mut self, a: u8, b: u8) -> Outcome {
        RUN.admit(a)?;
        RUN.admit(b)?;
        if (a, b) == (self.a_run, self.b_run) {
            return Err(Refusal::new(format!("The pattern is already {a}:{b}.")));
        }
        self.a_run = a;
        self.b_run = b;
        self.turn = 0;
        Ok(vec![Event::info(format!(
            "Pattern {a}:{b}: A writes a {a} time{} in a row, then B writes b {b} time{}.",
            plural(a.into()),
            plural(b.into())
        ))
        .at("pattern")])
    }
}

/// One layout's side of a write, in one sentence.
fn told(layout: &str, a: &Access) -> Event {
    match (a.request, a.supplier) {
        (None, _) => Event::done(format!(
            "{layout}: a hit in M, no bus traffic, {} cycles.",
            a.cycles
        )),
        (Some(BusOp::BusRdX), Some(Supplier::Cache(c))) => Event::warn(format!(
            "{layout}: BusRdX takes the line from core {}'s cache and invalidates its copy, {} cycles.",
            core_name(c),
            a.cycles
        ))
        .at("bus"),
        (Some(req), _) => Event::info(format!(
            "{layout}: {} brings the line from memory, {} cycles.",
            req.label(),
            a.cycles
        ))
        .at("bus"),
    }
}

impl Model for FalseSharing {
    type Config = FalseSharingConfig;
    type Action = FsAction;

    fn validate(config: &FalseSharingConfig) -> Result<(), String> {
        RUN.check(config.a_run)?;
        RUN.check(config.b_run)?;
        WRITES.check(config.writes).map(|_| ())
    }

    fn new(config: &FalseSharingConfig) -> Self {
        FalseSharing {
            a_run: config.a_run,
            b_run: config.b_run,
            limit: config.writes,
            shared: System::new(config.protocol, 2, 1),
            padded: System::new(config.protocol, 2, 2),
            layout: Layout::Shared,
            writes: [0, 0],
            turn: 0,
            last: None,
        }
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "Core A will write a and core B will write b, {} writes in all, under {}. On the left they share one 64-byte line; on the right each has its own.",
            self.limit,
            self.shared.protocol.label()
        ))
    }

    fn apply(&mut self, action: &FsAction) -> Outcome {
        match *action {
            FsAction::Next => {
                let events = self.write(self.next_core())?;
                self.turn = (self.turn + 1) % (self.a_run + self.b_run);
                Ok(events)
            }
            FsAction::Write(core) => self.write(core),
            FsAction::SetRuns { a, b } => self.set_runs(a, b),
            FsAction::SetLayout(layout) => {
                if layout == self.layout {
                    return Err(Refusal::new("That layout is already in front."));
                }
                self.layout = layout;
                Ok(vec![Event::info(match layout {
                    Layout::Shared => "One line in front: struct { long a; long b; }.",
                    Layout::Padded => {
                        "Padded in front: struct { alignas(64) long a; alignas(64) long b; }."
                    }
                })
                .at(match layout {
                    Layout::Shared => "layout-shared",
                    Layout::Padded => "layout-padded",
                })])
            }
        }
    }

    fn next_auto(&self) -> Result<FsAction, Refusal> {
        if self.total_writes() < self.limit {
            Ok(FsAction::Next)
        } else {
            Err(Refusal::new(format!(
                "All {} writes are done: compare the two layouts, or Reset.",
                self.limit
            )))
        }
    }

    fn check(&self) -> Result<(), String> {
        for s in [&self.shared, &self.padded] {
            s.swmr()?;
            s.data_value()?;
        }
        let n = self.total_writes();
        if self.shared.counts.accesses != n || self.padded.counts.accesses != n {
            return Err("a layout missed a write".into());
        }
        // Padded, each line only ever has one user: after its first miss, hits.
        let first_touches = self.writes.iter().filter(|&&w| w > 0).count() as u32;
        if self.padded.counts.flushes != 0 || self.padded.counts.bus_rdx != first_touches {
            return Err("a padded line moved between cores".into());
        }
        if n > self.limit || self.turn >= self.a_run + self.b_run {
            return Err("the run overshot its pattern or its length".into());
        }
        Ok(())
    }

    fn status(&self) -> Vec<Figure> {
        let states = |s: &System| {
            let lines: Vec<String> = s
                .lines
                .iter()
                .map(|l| format!("A: {} · B: {}", l.states[0].letter(), l.states[1].letter()))
                .collect();
            lines.join(" | ")
        };
        let x = self.slowdown_tenths();
        vec![
            Figure::new(
                "progress",
                "writes",
                format!("{}/{}", self.total_writes(), self.limit),
            ),
            Figure::new("writes-a", "core A writes", self.writes[0]),
            Figure::new("writes-b", "core B writes", self.writes[1]),
            Figure::new("states-shared", "one line", states(&self.shared)),
            Figure::new("states-padded", "padded", states(&self.padded)),
            Figure::new(
                "transfers-shared",
                "transfers, one line",
                self.shared.counts.flushes,
            ),
            Figure::new(
                "transfers-padded",
                "transfers, padded",
                self.padded.counts.flushes,
            ),
            Figure::new(
                "invalidations-shared",
                "invalidations, one line",
                self.shared.counts.invalidations,
            ),
            Figure::new(
                "invalidations-padded",
                "invalidations, padded",
                self.padded.counts.invalidations,
            ),
            Figure::new(
                "cycles-shared",
                "cycles, one line",
                self.shared.counts.cycles,
            ),
            Figure::new("cycles-padded", "cycles, padded", self.padded.counts.cycles),
            Figure::new(
                "slowdown",
                "one line vs padded",
                format!("{}.{}×", x / 10, x % 10),
            ),
        ]
    }

    fn why(&self) -> Vec<String> {
        let n = self.total_writes();
        if n == 0 {
            return vec!["a and b are different variables, but coherence works on whole lines: if they share one, each core's write takes the line from the other.".into()];
        }
        let (s, p) = (self.shared.counts, self.padded.counts);
        let x = self.slowdown_tenths();
        let mut out = vec![
            format!(
                "On one line, {n} write{} moved the line between caches {} time{} and invalidated a copy {} time{}: {} cycles.",
                plural(n as usize),
                s.flushes,
                plural(s.flushes as usize),
                s.invalidations,
                plural(s.invalidations as usize),
                s.cycles
            ),
            format!(
                "Padded, each core keeps its own line in M: no transfers, {} cycles{}.",
                p.cycles,
                if x >= 10 {
                    format!(", so one line is {}.{}× slower", x / 10, x % 10)
                } else {
                    ". One line is still cheaper: padding paid a second cold miss, which the ping-pong soon outweighs".to_string()
                }
            ),
        ];
        if self.a_run + self.b_run > 2 {
            out.push(format!(
                "With runs of {}:{} the line moves only when the writer changes: longer runs, fewer transfers.",
                self.a_run, self.b_run
            ));
        }
        out.push("Nothing is shared but the line: alignas(64) on each variable, or padding between them, ends the ping-pong.".into());
        out
    }

    fn leaves_out() -> &'static str {
        "Leaves out: the store buffer that batches a core's writes, prefetchers that also pull the neighbouring line (why some code pads to 128 bytes), L2 and L3, and the two cores truly running at once."
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coherence::State;

    fn run(config: FalseSharingConfig) -> FalseSharing {
        let mut m = FalseSharing::new(&config);
        while let Ok(action) = m.next_auto() {
            m.apply(&action).unwrap();
            m.check().unwrap();
        }
        m
    }

    #[test]
    fn alternating_writes_ping_pong_one_line_and_not_padded_ones() {
        let m = run(FalseSharingConfig::default());
        assert_eq!(m.writes, [24, 24]);
        // Every write but the very first finds the line in the other cache.
        assert_eq!(m.shared.counts.flushes, 47);
        assert_eq!(m.shared.counts.invalidations, 47);
        assert_eq!(m.padded.counts.flushes, 0);
        assert_eq!(m.padded.counts.invalidations, 0);
        // One line: 1 memory fetch (350) + 47 transfers (175); padded: 2
        // fetches + 46 hits (5). Costs from the CPU latency table.
        assert_eq!(m.shared.counts.cycles, 350 + 47 * 175);
        assert_eq!(m.padded.counts.cycles, 2 * 350 + 46 * 5);
        assert_eq!(m.slowdown_tenths(), 92);
        let states = &m.padded.lines;
        assert_eq!(
            (states[0].states[0], states[1].states[1]),
            (State::M, State::M)
        );
    }

    #[test]
    fn longer_runs_move_the_line_only_when_the_writer_changes() {
        let m = run(FalseSharingConfig {
            a_run: 3,
            b_run: 1,
            writes: 48,
            ..FalseSharingConfig::default()
        });
        assert_eq!(m.writes, [36, 12]);
        // 12 A-runs and 12 B-runs: 24 switches, less the first write.
        assert_eq!(m.shared.counts.flushes, 23);
    }

    #[test]
    fn a_write_narrates_both_layouts() {
        let mut m = FalseSharing::new(&FalseSharingConfig::default());
        m.apply(&FsAction::Next).unwrap();
        let events = m.apply(&FsAction::Next).unwrap();
        assert_eq!(events[0].text, "Core B writes b = 1.");
        assert!(events[1]
            .text
            .contains("takes the line from core A's cache"));
        assert!(events[2]
            .text
            .starts_with("Padded: BusRdX brings the line from memory"));
        let events = m.apply(&FsAction::Write(1)).unwrap();
        assert!(events[1].text.contains("a hit in M") && events[2].text.contains("a hit in M"));
    }

    #[test]
    fn out_of_range_and_finished_runs_are_refused() {
        let mut m = FalseSharing::new(&FalseSharingConfig {
            writes: 2,
            ..FalseSharingConfig::default()
        });
        let fresh = m.clone();
        assert!(m.apply(&FsAction::Write(2)).is_err());
        assert_eq!(
            m.apply(&FsAction::SetRuns { a: 1, b: 5 })
                .unwrap_err()
                .reason,
            "The number of writes in a row is 1 to 4; 5 is out of range."
        );
        assert!(m.apply(&FsAction::SetRuns { a: 0, b: 1 }).is_err());
        assert!(m.apply(&FsAction::SetRuns { a: 1, b: 1 }).is_err());
        assert!(m.apply(&FsAction::SetLayout(Layout::Shared)).is_err());
        assert_eq!(m, fresh);
        m.apply(&FsAction::Next).unwrap();
        m.apply(&FsAction::Next).unwrap();
        assert!(m.next_auto().is_err() && m.apply(&FsAction::Write(0)).is_err());
        assert!(FalseSharing::validate(&FalseSharingConfig {
            writes: 401,
            ..FalseSharingConfig::default()
        })
        .is_err());
    }
}
