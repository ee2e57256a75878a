//! MPMC ring: Vyukov's bounded multi-producer multi-consumer queue. Two
//! producers and two consumers share a ring of `capacity` slots, each with a
//! sequence number; the learner schedules their micro-steps (`queue.rs`).
//!
//! "P2 steals the head": P2 runs until it has reserved the position P1 has
//! just read, so P1's CAS must fail and retry. Break it: drop the sequence
//! numbers and a consumer can claim a slot that is reserved but not written.
//! Against SPSC: with one producer nothing else moves the enqueue index, so a
//! plain store reserves a slot; here every reservation is a CAS, and the
//! losers retry.

mod queue;
#[cfg(test)]
mod tests;

use crate::bound::Bound;
use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::text::plural;
use serde::{Deserialize, Serialize};

/// Powers of two only: Vyukov's queue finds a slot with `pos & mask`.
pub const CAPACITIES: [usize; 4] = [2, 4, 8, 16];
/// Items each producer enqueues.
pub const ITEMS: Bound<u8> = Bound::new("number of items per producer", "", 1, 8);
/// P1, P2, C1, C2.
pub const AGENTS: usize = 4;

/// "P1", "P2", "C1", "C2" for agents 0–3.
pub fn agent_name(a: usize) -> &'static str {
    ["P1", "P2", "C1", "C2"][a % AGENTS]
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MpmcConfig {
    pub capacity: usize,
    /// Items each producer enqueues.
    pub items: u8,
    /// False: break it, no per-slot sequence numbers.
    pub sequenced: bool,
}

impl Default for MpmcConfig {
    fn default() -> Self {
        MpmcConfig {
            capacity: 4,
            items: 3,
            sequenced: true,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    /// The slot's sequence number (unused without sequence numbers).
    pub seq: u32,
    pub data: Option<u32>,
    /// The position whose data the slot holds.
    pub written: Option<u32>,
}

/// An agent's next micro-step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Not in an operation: the next step loads the shared position.
    #[default]
    Idle,
    /// Read the slot's sequence (without sequence numbers: check the indices).
    ReadSeq,
    /// CAS the shared position from `pos` to `pos + 1`.
    Cas,
    /// Producer: write the data.
    Write,
    /// Producer: store `sequence = pos + 1`.
    Publish,
    /// Consumer: read the data.
    Read,
    /// Consumer: store `sequence = pos + mask + 1`.
    Release,
    /// Producer with nothing left to enqueue.
    Done,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Agent {
    pub phase: Phase,
    pub pos: Option<u32>,
    /// The last sequence number read.
    pub seq: Option<u32>,
    /// Producer: the value being enqueued. Consumer: the value read.
    pub item: Option<u32>,
    /// Operations completed.
    pub done: u8,
    pub cas_ops: u32,
    pub retries: u32,
}

/// A consumer read a slot for a position no producer had written there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TornRead {
    pub consumer: u8,
    pub pos: u32,
    pub got: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MpmcAction {
    /// Agent 0–3 (P1, P2, C1, C2) takes its next micro-step.
    Step(usize),
    /// P2 runs until it has reserved the position P1 holds.
    Steal,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mpmc {
    pub sequenced: bool,
    pub items: u8,
    pub cells: Vec<Cell>,
    pub enqueue_pos: u32,
    pub dequeue_pos: u32,
    /// P1, P2, C1, C2.
    pub agents: Vec<Agent>,
    /// (position, value) of each completed enqueue, in completion order.
    pub enqueued: Vec<(u32, u32)>,
    /// (position, value) of each completed dequeue, in completion order.
    pub dequeued: Vec<(u32, u32)>,
    pub torn: Vec<TornRead>,
    pub full_returns: u32,
    pub empty_returns: u32,
    pub last: Option<usize>,
}

impl Mpmc {
    pub fn capacity(&self) -> usize {
        self.cells.len()
    }

    /// Producer `p`'s next value: P1 sends 11, 12, …; P2 sends 21, 22, ….
    fn next_item(&self, p: usize) -> u32 {
        (p as u32 + 1) * 10 + u32::from(self.agents[p].done) + 1
    }

    pub fn cas_ops(&self) -> u32 {
        self.agents.iter().map(|a| a.cas_ops).sum()
    }

    pub fn retries(&self) -> u32 {
        self.agents.iter().map(|a| a.retries).sum()
    }

    /// Whether stepping agent `a` can do anything.
    fn useful(&self, a: usize) -> bool {
        match self.agents[a].phase {
            Phase::Done => false,
            Phase::Idle if a >= 2 => self.enqueue_pos > self.dequeue_pos,
            _ => true,
        }
    }

    fn step(&mut self, a: usize) -> Outcome {
        let Some(agent) = self.agents.get(a) else {
            return Err(Refusal::new("The agents are P1, P2, C1 and C2."));
        };
        if agent.phase == Phase::Done {
            return Err(Refusal::new(format!(
                "{} has enqueued all {} of its items.",
                agent_name(a),
                self.items
            )));
        }
        Ok(self.micro_step(a))
    }

    fn steal(&mut self) -> Outcome {
        let Some(target) = self.agents[0]
            .pos
            .filter(|_| matches!(self.agents[0].phase, Phase::ReadSeq | Phase::Cas))
        else {
            return Err(Refusal::new(
                "P1 holds no position to steal: step P1 until it has loaded enqueue_pos.",
            ));
        };
        if !matches!(
            self.agents[1].phase,
            Phase::Idle | Phase::ReadSeq | Phase::Cas
        ) {
            return Err(Refusal::new(
                "P2 has already reserved a slot, or has nothing left to send.",
            ));
        }
        if self.enqueue_pos != target {
            return Err(Refusal::new(format!(
                "Position {target} is already taken: P1's CAS will fail without help."
            )));
        }
        let mut events = Vec::new();
        for _ in 0..8 {
            events.extend(self.micro_step(1));
            match self.agents[1].phase {
                Phase::Write => break,
                Phase::Idle => {
                    // P2 found the queue full: nothing was stolen.
                    events.push(Event::info(
                        "P2 could not reserve a slot: the queue is full.",
                    ));
                    return Ok(events);
                }
                _ => {}
            }
        }
        let p2 = self.agents[1];
        events.push(if p2.phase == Phase::Write && p2.pos == Some(target) {
            Event::warn(format!(
                "P2 took position {target}, the one P1 read: P1's next CAS must fail."
            ))
            .at("agent-0")
        } else {
            Event::info("P2 did not get to reserve P1's position.")
        });
        Ok(events)
    }
}

impl Model for Mpmc {
    type Config = MpmcConfig;
    type Action = MpmcAction;

    fn validate(config: &MpmcConfig) -> Result<(), String> {
        if !CAPACITIES.contains(&config.capacity) {
            let sizes: Vec<String> = CAPACITIES.iter().map(|c| c.to_string()).collect();
            return Err(format!(
                "The capacity is a power of two, one of {} slots; {} slots is not.",
                sizes.join(", "),
                config.capacity
            ));
        }
        ITEMS.check(config.items).map(|_| ())
    }

    fn new(config: &MpmcConfig) -> Self {
        Mpmc {
            sequenced: config.sequenced,
            items: config.items,
            // Vyukov's constructor: cell i starts with sequence i.
            cells: (0..config.capacity as u32)
                .map(|i| Cell {
                    seq: i,
                    ..Cell::default()
                })
                .collect(),
            enqueue_pos: 0,
            dequeue_pos: 0,
            agents: vec![Agent::default(); AGENTS],
            enqueued: Vec::new(),
            dequeued: Vec::new(),
            torn: Vec::new(),
            full_returns: 0,
            empty_returns: 0,
            last: None,
        }
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "An empty ring of {} slots{}. P1 and P2 will each enqueue {} item{}; C1 and C2 dequeue. Step any of them, or let Step take turns.",
            self.capacity(),
            if self.sequenced {
                ", slot i holding sequence number i"
            } else {
                " with no sequence numbers"
            },
            self.items,
            plural(self.items.into())
        ))
    }

    fn apply(&mut self, action: &MpmcAction) -> Outcome {
        match *action {
            MpmcAction::Step(a) => self.step(a),
            MpmcAction::Steal => self.steal(),
        }
    }

    fn next_auto(&self) -> Result<MpmcAction, Refusal> {
        let start = self.last.map_or(0, |a| a + 1);
        (0..AGENTS)
            .map(|i| (start + i) % AGENTS)
            .find(|&a| self.useful(a))
            .map(MpmcAction::Step)
            .ok_or_else(|| {
                Refusal::new("Every item has been enqueued and dequeued: nothing is left to step.")
            })
    }

    fn check(&self) -> Result<(), String> {
        if self.dequeue_pos > self.enqueue_pos {
            return Err("dequeue_pos passed enqueue_pos".into());
        }
        if !self.sequenced {
            return Ok(());
        }
        if self.enqueue_pos - self.dequeue_pos > self.capacity() as u32 {
            return Err("more positions reserved than slots".into());
        }
        if !self.torn.is_empty() {
            return Err("a consumer read an unwritten slot despite sequence numbers".into());
        }
        for &(pos, v) in &self.dequeued {
            if !self.enqueued.contains(&(pos, v)) {
                return Err(format!(
                    "position {pos} yielded {v}, which was never enqueued there"
                ));
            }
        }
        let mut values: Vec<u32> = self.dequeued.iter().map(|d| d.1).collect();
        values.sort_unstable();
        if values.windows(2).any(|w| w[0] == w[1]) {
            return Err("a value was dequeued twice".into());
        }
        Ok(())
    }

    fn status(&self) -> Vec<Figure> {
        const KEYS: [&str; AGENTS] = ["p1", "p2", "c1", "c2"];
        let slots: Vec<String> = self
            .cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let data = c.data.map_or("·".to_string(), |v| v.to_string());
                if self.sequenced {
                    format!("[{i}] {data} seq {}", c.seq)
                } else {
                    format!("[{i}] {data}")
                }
            })
            .collect();
        let mut figures = vec![
            Figure::new(
                "mode",
                "mode",
                if self.sequenced {
                    "sequence numbers"
                } else {
                    "no sequence numbers"
                },
            ),
            Figure::new("enqueue-pos", "enqueue_pos", self.enqueue_pos),
            Figure::new("dequeue-pos", "dequeue_pos", self.dequeue_pos),
            Figure::new("slots", "slots", slots.join(" · ")),
        ];
        for (a, agent) in self.agents.iter().enumerate() {
            let pos = agent.pos.map_or("—".to_string(), |p| p.to_string());
            let phase = match agent.phase {
                Phase::Idle => "idle",
                Phase::ReadSeq => {
                    if self.sequenced {
                        "next: read seq"
                    } else {
                        "next: check indices"
                    }
                }
                Phase::Cas => "next: CAS",
                Phase::Write => "next: write",
                Phase::Publish => "next: publish",
                Phase::Read => "next: read",
                Phase::Release => "next: release",
                Phase::Done => "done",
            };
            figures.push(Figure::new(
                KEYS[a],
                agent_name(a),
                format!("{phase} · pos {pos} · {} done", agent.done),
            ));
        }
        let received: Vec<String> = self.dequeued.iter().map(|d| d.1.to_string()).collect();
        figures.extend([
            Figure::new(
                "received",
                "dequeued",
                if received.is_empty() {
                    "none".into()
                } else {
                    received.join(", ")
                },
            ),
            Figure::new("cas", "CAS operations", self.cas_ops()),
            Figure::new("retries", "failed CAS", self.retries()),
            Figure::new("spsc-cas", "CAS with one producer", 0),
            Figure::new("torn", "unwritten slots read", self.torn.len()),
        ]);
        figures
    }

    fn why(&self) -> Vec<String> {
        let (ops, done) = (self.cas_ops(), self.enqueued.len() + self.dequeued.len());
        let mut out = vec![format!(
            "{done} completed operation{} took {ops} CAS{}, {} of which failed and retried. With a single producer and a single consumer (SPSC) each index has one writer, so a plain store reserves a slot: zero CAS.",
            plural(done),
            if ops == 1 { "" } else { "es" },
            self.retries()
        )];
        if self.sequenced {
            out.push("A slot's sequence number says whose turn it is: pos for the producer of this lap, pos + 1 once the data is published, pos + capacity when the consumer hands it to the next lap.".into());
        } else if let Some(t) = self.torn.first() {
            out.push(format!(
                "Without sequence numbers {} took position {} as soon as the producer's CAS moved enqueue_pos, before the data was written: reserving a slot is not filling it.",
                agent_name(usize::from(t.consumer)),
                t.pos
            ));
        } else {
            out.push("Without sequence numbers the indices say a slot is reserved, not that it is written: let a consumer in between a producer's CAS and its write.".into());
        }
        out
    }

    fn leaves_out() -> &'static str {
        "Leaves out: memory ordering (steps are sequentially consistent, so the acquire/release pairs are not exercised), spurious CAS failures, index wrap-around, the padding between the indices, and blocking when full or empty."
    }
}
