//! The micro-steps of Vyukov's bounded MPMC queue (1024cores.net, "Bounded
//! MPMC queue"; the code's own names in brackets):
//!
//! enqueue: `pos = enqueue_pos` (relaxed); `seq = cell[pos & mask].sequence`
//! (acquire); `dif = seq - pos`: 0 → CAS `enqueue_pos` from pos to pos + 1;
//! on failure the CAS (compare_exchange_weak) leaves the current value in
//! `pos` and the loop reads that cell's sequence again; dif < 0 → full,
//! return false; dif > 0 → another producer got there first: reload `pos`.
//! Having won the CAS: write the data, then `sequence = pos + 1` (release).
//!
//! dequeue: the same with `dif = seq - (pos + 1)` (dif < 0 → empty); having
//! won the CAS: read the data, then `sequence = pos + mask + 1` (release),
//! which is the value the producer one lap later waits for.
//!
//! Without sequence numbers (break-it) the only guards are the indices: a
//! producer takes a slot if `pos - dequeue_pos < capacity` (signed, as
//! Vyukov's `dif`), a consumer if `pos < enqueue_pos`. A consumer can then
//! claim a slot a producer has reserved but not yet written.

use super::{agent_name, Mpmc, Phase, TornRead};
use crate::model::Event;

impl Mpmc {
    /// Agent `a` (busy or able to start) takes one micro-step.
    pub(super) fn micro_step(&mut self, a: usize) -> Vec<Event> {
        let who = agent_name(a);
        let producer = a < 2;
        let at = format!("agent-{a}");
        let mask = self.capacity() as u32 - 1;
        let mut ag = self.agents[a];
        let index = |p: u32| (p & mask) as usize;
        let (text, tone): (String, fn(String) -> Event) = match ag.phase {
            Phase::Idle | Phase::Done => {
                let shared = if producer {
                    self.enqueue_pos
                } else {
                    self.dequeue_pos
                };
                ag.pos = Some(shared);
                ag.seq = None;
                if producer {
                    ag.item = Some(self.next_item(a));
                }
                ag.phase = Phase::ReadSeq;
                (
                    format!(
                        "{who} starts {}: it loads {} = {shared}.",
                        if producer { "an enqueue" } else { "a dequeue" },
                        pos_name(producer)
                    ),
                    Event::info,
                )
            }
            Phase::ReadSeq => {
                let pos = ag.pos.unwrap_or(0);
                let cell = self.cells[index(pos)];
                if self.sequenced {
                    ag.seq = Some(cell.seq);
                    let want = if producer { pos } else { pos + 1 };
                    let dif = i64::from(cell.seq) - i64::from(want);
                    if dif == 0 {
                        ag.phase = Phase::Cas;
                        (
                            format!(
                                "{who} reads slot {}'s sequence {}: it equals {}, so the slot is {}.",
                                index(pos),
                                cell.seq,
                                if producer { "pos" } else { "pos + 1" },
                                if producer { "free for this lap" } else { "published" }
                            ),
                            Event::info,
                        )
                    } else if dif < 0 {
                        ag.phase = Phase::Idle;
                        ag.pos = None;
                        if producer {
                            self.full_returns += 1;
                        } else {
                            self.empty_returns += 1;
                        }
                        (
                            format!(
                                "{who} reads slot {}'s sequence {} < {want}: the queue is {}, so it returns false.",
                                index(pos),
                                cell.seq,
                                if producer { "full" } else { "empty there" }
                            ),
                            Event::warn,
                        )
                    } else {
                        let fresh = if producer {
                            self.enqueue_pos
                        } else {
                            self.dequeue_pos
                        };
                        ag.pos = Some(fresh);
                        (
                            format!(
                                "{who} reads slot {}'s sequence {} > {want}: someone took position {pos} already; it reloads {} = {fresh}.",
                                index(pos),
                                cell.seq,
                                pos_name(producer)
                            ),
                            Event::info,
                        )
                    }
                } else {
                    // Signed, as Vyukov's `dif` is (intptr_t): a producer's
                    // `pos` may be stale, behind a dequeue_pos that consumers
                    // have since moved on. The difference is then negative,
                    // the check passes and the CAS finds the position taken;
                    // an unsigned difference would wrap to a huge number and
                    // call an empty queue full.
                    let used = i64::from(pos) - i64::from(self.dequeue_pos);
                    let room = if producer {
                        used < self.capacity() as i64
                    } else {
                        pos < self.enqueue_pos
                    };
                    if room {
                        ag.phase = Phase::Cas;
                        (
                            format!(
                                "{who} checks only the indices: {}, so it goes for position {pos}.",
                                if producer {
                                    format!(
                                        "{} − dequeue_pos {} = {} < {}",
                                        pos,
                                        self.dequeue_pos,
                                        signed(used),
                                        self.capacity()
                                    )
                                } else {
                                    format!("{pos} < enqueue_pos {}", self.enqueue_pos)
                                }
                            ),
                            Event::warn,
                        )
                    } else {
                        ag.phase = Phase::Idle;
                        ag.pos = None;
                        if producer {
                            self.full_returns += 1;
                        } else {
                            self.empty_returns += 1;
                        }
                        (
                            format!(
                                "{who} finds the queue {} by the indices and returns false.",
                                if producer { "full" } else { "empty" }
                            ),
                            Event::warn,
                        )
                    }
                }
            }
            Phase::Cas => {
                let pos = ag.pos.unwrap_or(0);
                let shared = if producer {
                    &mut self.enqueue_pos
                } else {
                    &mut self.dequeue_pos
                };
                ag.cas_ops += 1;
                if *shared == pos {
                    *shared = pos + 1;
                    ag.phase = if producer { Phase::Write } else { Phase::Read };
                    (
                        format!(
                            "{who}'s CAS moves {} from {pos} to {}: slot {} is reserved for it.",
                            pos_name(producer),
                            pos + 1,
                            index(pos)
                        ),
                        Event::done,
                    )
                } else {
                    let seen = *shared;
                    ag.retries += 1;
                    ag.pos = Some(seen);
                    ag.phase = Phase::ReadSeq;
                    (
                        format!(
                            "{who}'s CAS fails: {} is {seen}, not {pos}; compare_exchange leaves {seen} in pos and {who} retries with slot {}.",
                            pos_name(producer),
                            index(seen)
                        ),
                        Event::warn,
                    )
                }
            }
            Phase::Write => {
                let pos = ag.pos.unwrap_or(0);
                let item = ag.item.unwrap_or(0);
                let cell = &mut self.cells[index(pos)];
                cell.data = Some(item);
                cell.written = Some(pos);
                if self.sequenced {
                    ag.phase = Phase::Publish;
                    (
                        format!(
                            "{who} writes {item} into slot {}; no consumer may read it yet.",
                            index(pos)
                        ),
                        Event::info,
                    )
                } else {
                    self.finish_enqueue(&mut ag, pos, item);
                    (
                        format!(
                            "{who} writes {item} into slot {}. Nothing marks it as ready.",
                            index(pos)
                        ),
                        Event::info,
                    )
                }
            }
            Phase::Publish => {
                let pos = ag.pos.unwrap_or(0);
                let item = ag.item.unwrap_or(0);
                self.cells[index(pos)].seq = pos + 1;
                self.finish_enqueue(&mut ag, pos, item);
                (
                    format!(
                        "{who} stores sequence {} (release): slot {} now holds a published {item}.",
                        pos + 1,
                        index(pos)
                    ),
                    Event::done,
                )
            }
            Phase::Read => {
                let pos = ag.pos.unwrap_or(0);
                let cell = self.cells[index(pos)];
                ag.item = cell.data;
                let got = cell.data.map_or("nothing".to_string(), |v| v.to_string());
                if cell.written != Some(pos) {
                    self.torn.push(TornRead {
                        consumer: a as u8,
                        pos,
                        got: cell.data,
                    });
                }
                if self.sequenced {
                    ag.phase = Phase::Release;
                    (
                        format!("{who} reads {got} from slot {}.", index(pos)),
                        Event::info,
                    )
                } else {
                    self.finish_dequeue(&mut ag, pos);
                    if cell.written != Some(pos) {
                        (
                            format!(
                                "{who} reads slot {} for position {pos} before any producer wrote it there: it gets {got}, not a queued value.",
                                index(pos)
                            ),
                            Event::fault,
                        )
                    } else {
                        (
                            format!("{who} reads {got} from slot {}.", index(pos)),
                            Event::done,
                        )
                    }
                }
            }
            Phase::Release => {
                let pos = ag.pos.unwrap_or(0);
                let next_lap = pos + mask + 1;
                self.cells[index(pos)].seq = next_lap;
                self.finish_dequeue(&mut ag, pos);
                (
                    format!(
                        "{who} stores sequence {next_lap} = pos + mask + 1 (release): slot {} is free for position {next_lap}.",
                        index(pos)
                    ),
                    Event::done,
                )
            }
        };
        self.agents[a] = ag;
        self.last = Some(a);
        vec![tone(text)
            .at(at)
            .at(format!("slot-{}", index(ag.pos.unwrap_or(0))))]
    }

    fn finish_enqueue(&mut self, ag: &mut super::Agent, pos: u32, item: u32) {
        self.enqueued.push((pos, item));
        ag.done += 1;
        ag.phase = if usize::from(ag.done) >= usize::from(self.items) {
            Phase::Done
        } else {
            Phase::Idle
        };
    }

    fn finish_dequeue(&mut self, ag: &mut super::Agent, pos: u32) {
        if let Some(v) = ag.item {
            self.dequeued.push((pos, v));
        }
        ag.done += 1;
        ag.phase = Phase::Idle;
    }
}

/// A difference as the narration prints it, with a true minus sign.
fn signed(v: i64) -> String {
    if v < 0 {
        format!("−{}", v.unsigned_abs())
    } else {
        v.to_string()
    }
}

fn pos_name(producer: bool) -> &'static str {
    if producer {
        "enqueue_pos"
    } else {
        "dequeue_pos"
    }
}
