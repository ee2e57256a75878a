//! Lamport's single-producer single-consumer ring (L. Lamport, "Specifying
//! concurrent program modules", TOPLAS 5(2), 1983; the lock-free form used by
//! e.g. Linux `include/linux/kfifo.h`): `tail` is written only by the
//! producer, `head` only by the consumer, so no CAS is needed — only the
//! right memory order on the two indices.
//!
//! - Full/empty convention: free-running indices. `head` and `tail` count
//!   items forever; slot `i % capacity` holds item `i`; empty when
//!   `tail == head`, full when `tail - head == capacity`, so every slot is used
//!   (kfifo's `in`/`out`). Item `i` carries the value `i + 1`, so a wrong read
//!   is recognisable.
//! - Enqueue: check space (read `head` with an acquire load), write the
//!   slot, publish `tail` with a release store. Dequeue: read `tail`
//!   (acquire), read the slot, publish `head` (release). Each acquire pairs
//!   with the other side's release, as in folly's ProducerConsumerQueue
//!   (`folly/ProducerConsumerQueue.h`: `write` loads `readIndex_` with
//!   `memory_order_acquire`, `read` loads `writeIndex_` likewise); see
//!   [`Spsc::order`].
//! - Each core's stores go through a [`StoreBuffer`] with the weak drain
//!   policy (Arm-like): stores to different locations may reach memory out
//!   of order unless a release store keeps them behind.
//!
//! Breaks: [`Fault::RelaxedTail`] publishes `tail` with a relaxed store, which
//! may drain before the slot, so the consumer reads a stale slot;
//! [`Fault::EarlyHead`] publishes `head` before reading the slot, so the
//! producer may overwrite it first. Cached indices: the producer keeps a
//! copy of `head` and the consumer of `tail`, re-reading the other's index
//! only when the copy says full / empty.

mod lines;
mod steps;
#[cfg(test)]
mod tests;

pub use lines::{Lines, CONSUMER, HEAD, PRODUCER, TAIL};
pub use steps::damage_text;

use crate::bound::Bound;
use crate::memory::store_buffer::{Drain, StoreBuffer};
use crate::model::{Event, Figure, Model, Outcome, Refusal};
use serde::{Deserialize, Serialize};

/// Slots in the ring.
pub const CAPACITY: Bound<usize> = Bound::new("capacity", " slots", 2, 16);

/// Memory locations: the two indices, then the slots.
pub const HEAD_LOC: u8 = 0;
pub const TAIL_LOC: u8 = 1;
pub const FIRST_SLOT: u8 = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fault {
    /// The correct protocol.
    None,
    /// `tail` published with a relaxed store: it may become visible before the slot.
    RelaxedTail,
    /// `head` published before the slot is read: the slot may be reused too early.
    EarlyHead,
}

/// One side's access to an index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexAccess {
    /// The producer checks for space.
    ProducerReadsHead,
    /// The producer publishes an item.
    ProducerWritesTail,
    /// The consumer checks for an item.
    ConsumerReadsTail,
    /// The consumer hands a slot back.
    ConsumerWritesHead,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpscConfig {
    pub capacity: usize,
    pub fault: Fault,
    pub cached: bool,
}

impl Default for SpscConfig {
    fn default() -> Self {
        SpscConfig {
            capacity: 4,
            fault: Fault::None,
            cached: false,
        }
    }
}

/// Where the producer is in an enqueue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ProducerStep {
    /// Next: check for space.
    CheckSpace,
    /// Next: write the slot.
    WriteSlot,
    /// Next: publish `tail`.
    PublishTail,
}

/// Where the consumer is in a dequeue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConsumerStep {
    /// Next: read `tail` to see whether an item is there.
    ReadTail,
    /// Next: read the slot.
    ReadSlot,
    /// Next: publish `head`.
    PublishHead,
    /// [`Fault::EarlyHead`]: `head` is already published; next, read the slot.
    ReadSlotLate,
}

/// A wrong value read from a slot: the consumer wanted item `item` (value
/// `item + 1`) from `slot` and read `read`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Damage {
    pub item: u32,
    pub slot: u8,
    pub read: u32,
}

impl Damage {
    /// True when the slot held an older value (the item's store was not yet
    /// visible); false when it already held a newer item (reused too early).
    pub fn stale(&self) -> bool {
        self.read <= self.item
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spsc {
    pub capacity: usize,
    pub fault: Fault,
    pub cached: bool,
    /// Shared memory: `head`, `tail`, then the slots.
    pub memory: Vec<u32>,
    /// Store buffers of the producer's and the consumer's core.
    pub buffers: [StoreBuffer; 2],
    pub producer: ProducerStep,
    /// The producer's own `tail`: items it has published (tail stores executed).
    pub tail: u32,
    /// The producer's copy of `head` (cached mode).
    pub cached_head: u32,
    pub consumer: ConsumerStep,
    /// The consumer's own `head`: head stores executed.
    pub head: u32,
    /// The consumer's copy of `tail` (cached mode).
    pub cached_tail: u32,
    /// Reads of the other side's index (the producer reading `head`, the
    /// consumer `tail`); cached copies save most of them.
    pub index_reads: u32,
    /// Who holds the two index lines, and how often each moved.
    pub lines: Lines,
    /// The same schedule without cached indices: every check reads the
    /// other side's index. (A cached copy never lets a step through that an
    /// uncached read would refuse, so the two runs take the same steps.)
    pub uncached_lines: Lines,
    /// Items whose slot the consumer has read.
    pub dequeued: u32,
    /// Values the consumer read, in order (the last 32).
    pub received: Vec<u32>,
    /// Wrong reads, the most recent last.
    pub damage: Vec<Damage>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SpscAction {
    /// The producer's next step.
    Producer,
    /// The consumer's next step.
    Consumer,
    /// Drain entry `i` of the producer's store buffer, if the weak policy lets it go.
    DrainProducer(u8),
    /// Drain the consumer's oldest buffered store.
    DrainConsumer,
    /// Start again with this protocol.
    SetFault(Fault),
    /// Start again with or without cached indices.
    SetCached(bool),
}

/// Values the consumer's history keeps.
const RECEIVED_KEPT: usize = 32;

impl Spsc {
    fn fresh(capacity: usize, fault: Fault, cached: bool) -> Spsc {
        Spsc {
            capacity,
            fault,
            cached,
            memory: vec![0; capacity + FIRST_SLOT as usize],
            buffers: Default::default(),
            producer: ProducerStep::CheckSpace,
            tail: 0,
            cached_head: 0,
            consumer: ConsumerStep::ReadTail,
            head: 0,
            cached_tail: 0,
            index_reads: 0,
            lines: Lines::default(),
            uncached_lines: Lines::default(),
            dequeued: 0,
            received: Vec::new(),
            damage: Vec::new(),
        }
    }

    /// Items in the ring as the two sides' own counters see it.
    pub fn occupancy(&self) -> u32 {
        self.tail - self.head
    }

    /// The slot item `i` uses.
    pub fn slot(&self, i: u32) -> usize {
        i as usize % self.capacity
    }

    /// The memory order of an index access under the protocol in use (the
    /// one home of these words: narration and picture read them). The
    /// producer's acquire load of `head` pairs with the consumer's release
    /// store of it: the consumer's read of a slot happens before the
    /// producer's store that refills it (folly `ProducerConsumerQueue::write`).
    pub fn order(&self, access: IndexAccess) -> &'static str {
        match access {
            IndexAccess::ProducerWritesTail if self.fault == Fault::RelaxedTail => "relaxed",
            IndexAccess::ProducerWritesTail | IndexAccess::ConsumerWritesHead => "release",
            IndexAccess::ProducerReadsHead | IndexAccess::ConsumerReadsTail => "acquire",
        }
    }

    /// The youngest entry of the producer's buffer allowed to drain now.
    pub fn youngest_drainable(&self) -> Option<u8> {
        self.buffers[PRODUCER]
            .drainable(Drain::Weak)
            .last()
            .map(|&i| i as u8)
    }

    fn restart(&mut self, fault: Fault, cached: bool, what: String) -> Outcome {
        *self = Spsc::fresh(self.capacity, fault, cached);
        Ok(vec![Event::info(what).at("ring")])
    }
}

impl Model for Spsc {
    type Config = SpscConfig;
    type Action = SpscAction;

    fn validate(config: &SpscConfig) -> Result<(), String> {
        CAPACITY.check(config.capacity).map(|_| ())
    }

    fn new(config: &SpscConfig) -> Self {
        Spsc::fresh(
            config.capacity.clamp(CAPACITY.min, CAPACITY.max),
            config.fault,
            config.cached,
        )
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "An empty ring of {} slots, head = tail = 0. The producer writes a slot, then publishes tail; the consumer reads tail, the slot, then publishes head.",
            self.capacity
        ))
        .at("ring")
    }

    fn apply(&mut self, action: &SpscAction) -> Outcome {
        match action {
            SpscAction::Producer => self.producer_step(),
            SpscAction::Consumer => self.consumer_step(),
            SpscAction::DrainProducer(i) => self.drain_producer(*i as usize),
            SpscAction::DrainConsumer => self.drain_consumer(),
            SpscAction::SetFault(f) => {
                if *f == self.fault {
                    return Err(Refusal::new("That protocol is already in use."));
                }
                let what = match f {
                    Fault::None => "Correct protocol: tail is published with a release store, head only after the slot is read. The ring starts again, empty.",
                    Fault::RelaxedTail => "Break: tail is published with a relaxed store, so it may reach memory before the slot does. The ring starts again, empty.",
                    Fault::EarlyHead => "Break: the consumer publishes head before reading the slot, handing the slot back too early. The ring starts again, empty.",
                };
                self.restart(*f, self.cached, what.into())
            }
            SpscAction::SetCached(c) => {
                if *c == self.cached {
                    return Err(Refusal::new(if *c {
                        "Cached indices are already on."
                    } else {
                        "Cached indices are already off."
                    }));
                }
                let what = if *c {
                    "Cached indices on: each side re-reads the other's index only when its copy says full or empty. The ring starts again, empty."
                } else {
                    "Cached indices off: every enqueue reads head and every dequeue reads tail. The ring starts again, empty."
                };
                self.restart(self.fault, *c, what.into())
            }
        }
    }

    fn next_auto(&self) -> Result<SpscAction, Refusal> {
        if let Some(d) = self.damage.last() {
            return Err(Refusal::new(format!(
                "Play stops at the damage: {} Step by hand, or switch the protocol back.",
                steps::damage_text(d)
            )));
        }
        let drain = self.youngest_drainable().map(SpscAction::DrainProducer);
        let mut order: Vec<Option<SpscAction>> = Vec::new();
        if self.fault == Fault::EarlyHead && self.consumer == ConsumerStep::ReadSlotLate {
            // The break's story: head is back, so the producer refills the
            // slot before the consumer gets to read it.
            order.extend([
                Some(SpscAction::DrainConsumer),
                Some(SpscAction::Producer),
                drain,
                Some(SpscAction::Consumer),
            ]);
        } else {
            let producer_busy = self.producer != ProducerStep::CheckSpace;
            let consumer_busy = self.consumer != ConsumerStep::ReadTail;
            order.extend([
                producer_busy.then_some(SpscAction::Producer),
                consumer_busy.then_some(SpscAction::Consumer),
                Some(SpscAction::Consumer),
                drain,
                Some(SpscAction::DrainConsumer),
                Some(SpscAction::Producer),
            ]);
        }
        order
            .into_iter()
            .flatten()
            .find(|a| self.clone().apply(a).is_ok())
            .ok_or_else(|| Refusal::new("Nothing can move."))
    }

    fn check(&self) -> Result<(), String> {
        if self.occupancy() as usize > self.capacity {
            return Err("more items in flight than slots".into());
        }
        if self.head > self.tail {
            return Err("the consumer is ahead of the producer".into());
        }
        // Caching only skips reads, so it can only save transfers.
        let (with, without) = (self.lines.total(), self.uncached_lines.total());
        if (self.cached && with > without) || (!self.cached && self.lines != self.uncached_lines) {
            return Err("cached indices moved the index lines more than plain reads".into());
        }
        // Slots read = head stores executed, give or take the one item
        // between reading its slot and publishing head (either order).
        let in_hand = match self.consumer {
            ConsumerStep::PublishHead if self.fault != Fault::EarlyHead => self.head + 1,
            ConsumerStep::ReadSlotLate => self.head - 1,
            _ => self.head,
        };
        if self.dequeued != in_hand {
            return Err("the slots read and the head published disagree".into());
        }
        if self.fault == Fault::None && !self.damage.is_empty() {
            return Err("the correct protocol read a wrong value".into());
        }
        if self.fault == Fault::None {
            let first = self.dequeued - self.received.len() as u32 + 1;
            if self
                .received
                .iter()
                .zip(first..)
                .any(|(v, want)| *v != want)
            {
                return Err("an item was lost, duplicated or reordered".into());
            }
        }
        if self.memory[TAIL_LOC as usize] > self.tail || self.memory[HEAD_LOC as usize] > self.head
        {
            return Err("memory holds an index its owner never wrote".into());
        }
        Ok(())
    }

    fn status(&self) -> Vec<Figure> {
        vec![
            Figure::new(
                "occupancy",
                "in the ring",
                format!("{}/{}", self.occupancy(), self.capacity),
            ),
            Figure::new("head", "head", self.memory[HEAD_LOC as usize]),
            Figure::new("tail", "tail", self.memory[TAIL_LOC as usize]),
            Figure::new("enqueued", "enqueued", self.tail),
            Figure::new("dequeued", "dequeued", self.dequeued),
            Figure::new("index-reads", "index reads", self.index_reads),
            Figure::new("transfers", "line transfers", self.lines.total()),
            Figure::new(
                "uncached-transfers",
                "without caching",
                self.uncached_lines.total(),
            ),
            Figure::new("damage", "wrong reads", self.damage.len()),
        ]
    }

    fn why(&self) -> Vec<String> {
        steps::why(self)
    }

    fn leaves_out() -> &'static str {
        "Leaves out: real cache coherence (a line simply moves when a core touches an index the other core wrote since; slot lines are not counted), load reordering (only stores wait in buffers, so the acquire loads of head and tail never have a reordering to stop here), spinning on a full or empty ring, and index wrap-around."
    }
}
