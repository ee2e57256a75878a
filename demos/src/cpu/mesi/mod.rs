//! MESI coherence: 2–4 cores read, write and evict one or two lines; each
//! cache's state, the bus transaction, who supplied the data and whether
//! memory is fresh, under MSI, MESI or MOESI.
//!
//! The same accesses run on three systems in lockstep, one per protocol, so
//! switching protocol shows the identical sequence under another protocol and
//! the bus traffic of all three can be compared. The rules are the shared
//! engine's ([`crate::coherence`]: Culler & Singh §5.3, Sorin, Hill & Wood ch. 7).
//!
//! Break it: switch invalidation off and snoops of BusRdX/BusUpgr are ignored;
//! two caches end up in M and a read returns a stale value.

mod report;
#[cfg(test)]
mod tests;

use crate::bound::Bound;
use crate::coherence::{narrate, Access, Op, Protocol, State, System, CORES};
use crate::model::{Event, Figure, Model, Outcome, Refusal};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Lines the demo shows (the engine can track more; two fit the picture).
pub const LINES: Bound<usize> = Bound::new("number of lines", "", 1, 2);
pub const MAX_LINES: usize = LINES.max;
/// Accesses kept for the sequence table (the textbook's "processor action,
/// states, bus action, data from" table).
pub const LOG_LEN: usize = 10;

/// One access under one protocol, as a row of the sequence table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Logged {
    /// 1 for the first access since the start.
    pub number: u32,
    pub access: Access,
    /// Every core's state of the accessed line after the access.
    pub states: Vec<State>,
    /// Memory held the latest value of the line after the access.
    pub memory_fresh: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MesiConfig {
    pub cores: usize,
    pub lines: usize,
    pub protocol: Protocol,
}

impl Default for MesiConfig {
    fn default() -> Self {
        MesiConfig {
            cores: 2,
            lines: 1,
            protocol: Protocol::Mesi,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MesiAction {
    Read {
        core: usize,
        line: usize,
    },
    Write {
        core: usize,
        line: usize,
    },
    Evict {
        core: usize,
        line: usize,
    },
    /// Show the same sequence under another protocol.
    SetProtocol(Protocol),
    /// False: break it, snoops of BusRdX/BusUpgr are ignored.
    SetInvalidation(bool),
}

/// The guided tour Step follows: A reads and writes alone (E saves the
/// upgrade), B reads A's dirty line (O saves the write-back), B writes, A
/// reads it back, then both evict.
pub const TOUR: [MesiAction; 7] = [
    MesiAction::Read { core: 0, line: 0 },
    MesiAction::Write { core: 0, line: 0 },
    MesiAction::Read { core: 1, line: 0 },
    MesiAction::Write { core: 1, line: 0 },
    MesiAction::Read { core: 0, line: 0 },
    MesiAction::Evict { core: 0, line: 0 },
    MesiAction::Evict { core: 1, line: 0 },
];

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mesi {
    /// The protocol shown.
    pub protocol: Protocol,
    /// One system per protocol, in [`Protocol::ALL`] order, fed the same accesses.
    pub systems: Vec<System>,
    /// The latest access in each system (same order): what the picture highlights.
    pub last: Vec<Option<Access>>,
    pub invalidation: bool,
    /// Some access ran with invalidation off: the invariants no longer hold.
    pub tainted: bool,
    /// Position in [`TOUR`] while the learner's actions follow it; `None` once they leave it.
    pub tour: Option<usize>,
    /// The last [`LOG_LEN`] accesses, oldest first; each entry holds one
    /// [`Logged`] per protocol, in [`Protocol::ALL`] order.
    pub log: VecDeque<Vec<Logged>>,
}

impl Mesi {
    /// The system of the protocol shown: states, values, memory, counts.
    pub fn system(&self) -> &System {
        &self.systems[self.protocol.index()]
    }

    /// The latest access under the protocol shown.
    pub fn last_access(&self) -> Option<&Access> {
        self.last[self.protocol.index()].as_ref()
    }

    fn access(&mut self, op: Op, core: usize, line: usize) -> Outcome {
        let shown = self.protocol.index();
        // Validate on the shown system first: a refusal must change nothing.
        let mut probe = self.systems[shown].clone();
        probe.access(op, core, line).map_err(Refusal::new)?;
        let mut events = Vec::new();
        let mut entry = Vec::new();
        for (i, system) in self.systems.iter_mut().enumerate() {
            // Validity (I or not) is the same in all three, so none refuses.
            let access = system.access(op, core, line).map_err(Refusal::new)?;
            if i == shown {
                events = narrate(&access, &format!("line {line}"));
            }
            let l = &system.lines[line];
            entry.push(Logged {
                number: system.counts.accesses,
                access: access.clone(),
                states: l.states.clone(),
                memory_fresh: l.memory_fresh(),
            });
            self.last[i] = Some(access);
        }
        if self.log.len() == LOG_LEN {
            self.log.pop_front();
        }
        self.log.push_back(entry);
        if !self.invalidation {
            self.tainted = true;
        }
        Ok(events)
    }

    fn set_protocol(&mut self, protocol: Protocol) -> Outcome {
        if protocol == self.protocol {
            return Err(Refusal::new(format!(
                "{} is already shown.",
                protocol.label()
            )));
        }
        self.protocol = protocol;
        let s = self.system();
        Ok(vec![Event::info(format!(
            "Showing {}: the same {} access{} give {} bus transaction{} and {} memory write{}.",
            protocol.label(),
            s.counts.accesses,
            if s.counts.accesses == 1 { "" } else { "es" },
            s.counts.bus_transactions(),
            crate::text::plural(s.counts.bus_transactions() as usize),
            s.counts.write_backs,
            crate::text::plural(s.counts.write_backs as usize),
        ))
        .at("protocol")])
    }

    fn set_invalidation(&mut self, on: bool) -> Outcome {
        if on == self.invalidation {
            return Err(Refusal::new(if on {
                "Invalidation is already on."
            } else {
                "Invalidation is already off."
            }));
        }
        self.invalidation = on;
        for s in &mut self.systems {
            s.invalidation = on;
        }
        Ok(vec![if on {
            Event::done("Invalidation back on: writes invalidate other copies again. Copies already stale stay stale until they are written or evicted.")
        } else {
            Event::warn("Break it: caches now ignore BusRdX and BusUpgr, so a write leaves the other copies in place.")
        }
        .at("bus")])
    }
}

impl Model for Mesi {
    type Config = MesiConfig;
    type Action = MesiAction;

    fn validate(config: &MesiConfig) -> Result<(), String> {
        CORES.check(config.cores)?;
        LINES.check(config.lines)?;
        Ok(())
    }

    fn new(config: &MesiConfig) -> Self {
        Mesi {
            protocol: config.protocol,
            systems: Protocol::ALL
                .iter()
                .map(|&p| System::new(p, config.cores, config.lines))
                .collect(),
            last: vec![None; 3],
            invalidation: true,
            tainted: false,
            tour: Some(0),
            log: VecDeque::new(),
        }
    }

    fn intro(&self) -> Event {
        let s = self.system();
        Event::info(format!(
            "{} cores under {}, every cache Invalid: the only copy of the line is in memory. Read or write on any core, or Step through the tour.",
            s.cores(),
            self.protocol.label()
        ))
    }

    fn apply(&mut self, action: &MesiAction) -> Outcome {
        let outcome = match *action {
            MesiAction::Read { core, line } => self.access(Op::Read, core, line),
            MesiAction::Write { core, line } => self.access(Op::Write, core, line),
            MesiAction::Evict { core, line } => self.access(Op::Evict, core, line),
            MesiAction::SetProtocol(p) => self.set_protocol(p),
            MesiAction::SetInvalidation(on) => self.set_invalidation(on),
        }?;
        self.tour = match self.tour {
            Some(i) if TOUR.get(i) == Some(action) => Some(i + 1),
            _ => None,
        };
        Ok(outcome)
    }

    fn next_auto(&self) -> Result<MesiAction, Refusal> {
        match self.tour.and_then(|i| TOUR.get(i)) {
            Some(&action) => Ok(action),
            None => Err(Refusal::new(
                "Step only plays the guided tour, and it is over or you left it: read, write or evict on a core, or Reset.",
            )),
        }
    }

    fn check(&self) -> Result<(), String> {
        let n = self.systems[0].counts.accesses;
        for s in &self.systems {
            if s.counts.accesses != n {
                return Err("the three protocols saw different numbers of accesses".into());
            }
            let c = s.counts;
            if c.flushes + c.memory_reads != c.bus_rd + c.bus_rdx {
                return Err(format!(
                    "{}: a miss without exactly one supplier",
                    s.protocol.label()
                ));
            }
            if !self.tainted {
                s.swmr()?;
                s.data_value()?;
            }
        }
        if self.log.len() > LOG_LEN || self.log.iter().any(|e| e.len() != self.systems.len()) {
            return Err("the sequence table lost a protocol or grew too long".into());
        }
        if let Some(last) = self.log.back() {
            if last.iter().any(|r| r.number != n) {
                return Err("the sequence table's last row is not the latest access".into());
            }
        }
        Ok(())
    }

    fn status(&self) -> Vec<Figure> {
        report::status(self)
    }

    fn why(&self) -> Vec<String> {
        report::why(self)
    }

    fn leaves_out() -> &'static str {
        "Leaves out: transient states and races (each bus transaction completes atomically), write-back buffers, multi-level and inclusive caches, directories, Intel's MESIF Forward state, cache-to-cache supply of clean lines, and a shared L3: a clean miss is charged a DRAM access, where a real part would often find the line in its L3, for less than a line from another core's cache costs."
    }
}
