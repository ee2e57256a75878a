//! The producer's and the consumer's steps, the store-buffer drains, and the
//! sentences that narrate them.
//!
//! Focus keys: `producer`, `consumer` (the two cores), `buffer-producer`,
//! `buffer-consumer` (their store buffers), `head`, `tail` (the index cells
//! in memory), `slot-N` (slot N), `lines` (the transfer counts), `ring`.

use super::{
    ConsumerStep, Damage, Fault, IndexAccess, ProducerStep, Spsc, CONSUMER, FIRST_SLOT, HEAD,
    HEAD_LOC, PRODUCER, RECEIVED_KEPT, TAIL, TAIL_LOC,
};
use crate::memory::store_buffer::{Drain, Entry};
use crate::model::{Event, Outcome, Refusal};
use crate::text::plural;

/// " (the head line moves to the producer's core: transfer 3)" or "".
fn moved_text(moved: bool, line: &str, to: &str, count: u32) -> String {
    if moved {
        format!(", and the {line} line moves to the {to}'s cache (move {count})")
    } else {
        String::new()
    }
}

impl Spsc {
    fn slot_loc(&self, item: u32) -> u8 {
        FIRST_SLOT + self.slot(item) as u8
    }

    /// Does the consumer's buffer still hold a head store?
    fn head_pending(&self) -> bool {
        !self.buffers[CONSUMER].is_empty()
    }

    /// Does the producer's buffer still hold a tail store?
    fn tail_pending(&self) -> bool {
        self.buffers[PRODUCER]
            .entries
            .iter()
            .any(|e| matches!(e, Entry::Store { loc: TAIL_LOC, .. }))
    }

    pub(super) fn producer_step(&mut self) -> Outcome {
        let cap = self.capacity as u32;
        match self.producer {
            ProducerStep::CheckSpace => {
                if self.cached && self.tail - self.cached_head < cap {
                    self.uncached_lines.touch(HEAD, PRODUCER);
                    self.producer = ProducerStep::WriteSlot;
                    return Ok(vec![Event::info(format!(
                        "The producer's copy of head ({}) still shows {} free slot{}: no need to read head.",
                        self.cached_head,
                        cap - (self.tail - self.cached_head),
                        plural((cap - (self.tail - self.cached_head)) as usize)
                    ))
                    .at("producer")]);
                }
                // Lamport's check: the ring is full when tail - head = capacity
                // (free-running indices, kfifo's `in - out`).
                let seen = self.memory[HEAD_LOC as usize];
                if self.tail - seen >= cap {
                    let hint = if self.head_pending() {
                        "the consumer's newer head is still in its store buffer: drain it"
                    } else {
                        "let the consumer take an item first"
                    };
                    return Err(Refusal::new(format!(
                        "The ring looks full to the producer (tail {} − head {} = {cap}): {hint}.",
                        self.tail, seen
                    )));
                }
                self.index_reads += 1;
                let moved = self.lines.touch(HEAD, PRODUCER);
                self.uncached_lines.touch(HEAD, PRODUCER);
                self.cached_head = seen;
                self.producer = ProducerStep::WriteSlot;
                let free = cap - (self.tail - seen);
                Ok(vec![Event::info(format!(
                    "The producer reads head = {seen} with an {} load: {free} free slot{}{}.",
                    self.order(IndexAccess::ProducerReadsHead),
                    plural(free as usize),
                    moved_text(moved, "head", "producer", self.lines.moves[HEAD])
                ))
                .at("producer")
                .at("head")])
            }
            ProducerStep::WriteSlot => {
                let slot = self.slot(self.tail);
                let value = self.tail + 1;
                self.buffers[PRODUCER].push(self.slot_loc(self.tail), value, false);
                self.producer = ProducerStep::PublishTail;
                Ok(vec![Event::info(format!(
                    "The producer stores item {} (value {value}) to slot {slot}; the store waits in its store buffer.",
                    self.tail
                ))
                .at(format!("slot-{slot}"))
                .at("buffer-producer")])
            }
            ProducerStep::PublishTail => {
                let release = self.fault != Fault::RelaxedTail;
                let tail = self.tail + 1;
                let slot = self.slot(self.tail);
                self.buffers[PRODUCER].push(TAIL_LOC, tail, release);
                self.tail = tail;
                self.producer = ProducerStep::CheckSpace;
                let event = if release {
                    Event::info(format!(
                        "The producer publishes tail = {tail} with a release store: it cannot reach memory before the slot {slot} store."
                    ))
                } else {
                    Event::warn(format!(
                        "The producer publishes tail = {tail} with a relaxed store: nothing keeps it behind the slot {slot} store."
                    ))
                };
                Ok(vec![event.at("buffer-producer").at("tail")])
            }
        }
    }

    pub(super) fn consumer_step(&mut self) -> Outcome {
        match self.consumer {
            ConsumerStep::ReadTail => self.read_tail(),
            ConsumerStep::ReadSlot => Ok(vec![self.read_slot(self.head)]),
            ConsumerStep::ReadSlotLate => Ok(vec![self.read_slot(self.head - 1)]),
            ConsumerStep::PublishHead => {
                let head = self.head + 1;
                let slot = self.slot(self.head);
                self.buffers[CONSUMER].push(HEAD_LOC, head, true);
                self.head = head;
                let event = if self.fault == Fault::EarlyHead {
                    self.consumer = ConsumerStep::ReadSlotLate;
                    Event::warn(format!(
                        "The consumer publishes head = {head} before reading slot {slot}: once that store is visible, the producer may refill the slot."
                    ))
                } else {
                    self.consumer = ConsumerStep::ReadTail;
                    Event::info(format!(
                        "The consumer publishes head = {head} with a release store: slot {slot} is free once the store reaches memory."
                    ))
                };
                Ok(vec![event.at("buffer-consumer").at("head")])
            }
        }
    }

    fn read_tail(&mut self) -> Outcome {
        let next = if self.fault == Fault::EarlyHead {
            ConsumerStep::PublishHead
        } else {
            ConsumerStep::ReadSlot
        };
        if self.cached && self.cached_tail > self.head {
            self.uncached_lines.touch(TAIL, CONSUMER);
            self.consumer = next;
            let waiting = self.cached_tail - self.head;
            return Ok(vec![Event::info(format!(
                "The consumer's copy of tail ({}) still shows {waiting} item{} waiting: no need to read tail.",
                self.cached_tail,
                plural(waiting as usize)
            ))
            .at("consumer")]);
        }
        let seen = self.memory[TAIL_LOC as usize];
        if seen == self.head {
            let hint = if self.tail_pending() {
                "the producer's tail store is still in its store buffer: drain it"
            } else {
                "let the producer enqueue an item first"
            };
            return Err(Refusal::new(format!(
                "The ring looks empty to the consumer (tail {seen} = head {}): {hint}.",
                self.head
            )));
        }
        self.index_reads += 1;
        let moved = self.lines.touch(TAIL, CONSUMER);
        self.uncached_lines.touch(TAIL, CONSUMER);
        self.cached_tail = seen;
        self.consumer = next;
        let waiting = seen - self.head;
        Ok(vec![Event::info(format!(
            "The consumer reads tail = {seen} with an {} load: {waiting} item{} waiting{}.",
            self.order(IndexAccess::ConsumerReadsTail),
            plural(waiting as usize),
            moved_text(moved, "tail", "consumer", self.lines.moves[TAIL])
        ))
        .at("consumer")
        .at("tail")])
    }

    /// The consumer reads item `item`'s slot from memory and checks it.
    fn read_slot(&mut self, item: u32) -> Event {
        let slot = self.slot(item);
        let read = self.memory[self.slot_loc(item) as usize];
        self.dequeued += 1;
        self.received.push(read);
        if self.received.len() > RECEIVED_KEPT {
            self.received.remove(0);
        }
        self.consumer = if self.consumer == ConsumerStep::ReadSlotLate {
            ConsumerStep::ReadTail
        } else {
            ConsumerStep::PublishHead
        };
        let at = format!("slot-{slot}");
        if read == item + 1 {
            return Event::done(format!(
                "The consumer reads slot {slot}: value {read}, item {item} as the producer sent it."
            ))
            .at(at)
            .at("consumer");
        }
        let damage = Damage {
            item,
            slot: slot as u8,
            read,
        };
        self.damage.push(damage);
        Event::fault(format!("Wrong value: {}", damage_text(&damage)))
            .at(at)
            .at("consumer")
    }

    pub(super) fn drain_producer(&mut self, i: usize) -> Outcome {
        let buffer = &self.buffers[PRODUCER];
        let pending = buffer.entries.len();
        let Some(&Entry::Store { release, .. }) = buffer.entries.get(i) else {
            return Err(Refusal::new(if pending == 0 {
                "The producer's store buffer is empty.".to_string()
            } else {
                format!(
                    "The producer's store buffer holds {pending} store{}: pick one of them.",
                    plural(pending)
                )
            }));
        };
        if !buffer.can_drain(i, Drain::Weak) {
            // Why the weak drain policy holds it back (see store_buffer.rs).
            return Err(Refusal::new(if release {
                format!(
                    "That tail store is a release: it leaves only after the {i} older store{} ahead of it.",
                    plural(i)
                )
            } else {
                "An older store to the same location is still waiting: stores to one location reach memory in order.".to_string()
            }));
        }
        let Some((loc, value)) = self.buffers[PRODUCER].drain(i, Drain::Weak) else {
            return Err(Refusal::new("That store cannot leave yet."));
        };
        self.memory[loc as usize] = value;
        if loc != TAIL_LOC {
            let slot = loc - FIRST_SLOT;
            return Ok(vec![Event::info(format!(
                "Slot {slot} = {value} reaches memory: the consumer can read it now."
            ))
            .at(format!("slot-{slot}"))
            .at("buffer-producer")]);
        }
        self.lines.write(TAIL, PRODUCER);
        self.uncached_lines.write(TAIL, PRODUCER);
        // Item value - 1 is the newest one this tail announces.
        let item = value - 1;
        let slot = self.slot(item);
        let holds = self.memory[self.slot_loc(item) as usize];
        let event = if holds == value {
            Event::info(format!(
                "tail = {value} reaches memory: the consumer can see item {item}, and slot {slot} already holds it."
            ))
        } else {
            Event::warn(format!(
                "tail = {value} reaches memory while slot {slot} still holds {holds}: a consumer reading now gets a stale value."
            ))
        };
        Ok(vec![event.at("tail").at("buffer-producer")])
    }

    pub(super) fn drain_consumer(&mut self) -> Outcome {
        let Some((_, value)) = self.buffers[CONSUMER].drain(0, Drain::Fifo) else {
            return Err(Refusal::new("The consumer's store buffer is empty."));
        };
        self.memory[HEAD_LOC as usize] = value;
        self.lines.write(HEAD, CONSUMER);
        self.uncached_lines.write(HEAD, CONSUMER);
        Ok(vec![Event::info(format!(
            "head = {value} reaches memory: the producer may now reuse slot {}.",
            self.slot(value - 1)
        ))
        .at("head")
        .at("buffer-consumer")])
    }
}

/// What went wrong in one read, in a sentence.
pub fn damage_text(d: &Damage) -> String {
    if d.stale() {
        format!(
            "item {} should be {} but slot {} still held {}: tail became visible before the slot store.",
            d.item,
            d.item + 1,
            d.slot,
            d.read
        )
    } else {
        format!(
            "item {} should be {} but slot {} already held item {}: the producer reused the slot before it was read.",
            d.item,
            d.item + 1,
            d.slot,
            d.read - 1
        )
    }
}

/// "Why it matters", from the live numbers.
pub fn why(s: &Spsc) -> Vec<String> {
    let cap = s.capacity;
    let mut out = vec![format!(
        "Free-running indices: head = {} and tail = {} count items forever and item i lives in slot i mod {cap}, so the ring is empty when they are equal and full when they differ by {cap}; every slot is usable.",
        s.head, s.tail
    )];
    out.push(match s.fault {
        Fault::None => format!(
            "The release store of tail cannot overtake the slot store, and the consumer's acquire load of tail orders its slot read after it: {} item{} received, all in order. The same pair runs back: the producer's acquire load of head meets the consumer's release of it, so a slot is refilled only after it was read.",
            s.dequeued,
            plural(s.dequeued as usize)
        ),
        Fault::RelaxedTail => format!(
            "A relaxed tail store may leave the store buffer before the slot store, as Arm lets stores to different locations drain out of order: {} wrong read{} so far.",
            s.damage.len(),
            plural(s.damage.len())
        ),
        Fault::EarlyHead => format!(
            "Publishing head before reading the slot hands the slot back while it is still in use: {} wrong read{} so far.",
            s.damage.len(),
            plural(s.damage.len())
        ),
    });
    let per_item = if s.dequeued == 0 {
        String::new()
    } else {
        format!(
            ", {} per item received",
            crate::text::fixed(
                crate::text::ratio(u64::from(s.lines.total()), u64::from(s.dequeued), 2),
                2
            )
        )
    };
    out.push(format!(
        "{} read{} of the other side's index moved an index line {} time{}{per_item}. {}",
        s.index_reads,
        plural(s.index_reads as usize),
        s.lines.total(),
        plural(s.lines.total() as usize),
        if s.cached {
            format!(
                "Without cached copies the same schedule would have moved them {} times.",
                s.uncached_lines.total()
            )
        } else {
            "Cached indices would skip the read whenever the side's old copy already shows room or an item.".to_string()
        }
    ));
    out
}
